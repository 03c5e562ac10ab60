/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/memdiag.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_MEMDIAG_GEN_H
#define _LINUX_MEMDIAG_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/memdiag.h>

extern const struct nla_policy memdiag_get_info_nl_policy[MEMDIAG_A_INFO_PROTO_VERSION + 1];

/* Ops table for memdiag */
extern const struct genl_ops memdiag_nl_ops[1];

int memdiag_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	MEMDIAG_NLGRP_MONITOR,
};

#endif /* _LINUX_MEMDIAG_GEN_H */
