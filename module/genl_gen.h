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

extern const struct nla_policy memdiag_snapshot_nl_policy[MEMDIAG_A_SNAPSHOT_CHANNELS + 1];

extern const struct nla_policy memdiag_session_start_nl_policy[MEMDIAG_A_SESSION_GROUPS + 1];

extern const struct nla_policy memdiag_session_stop_nl_policy[MEMDIAG_A_SESSION_ID + 1];

extern const struct nla_policy memdiag_prefetch_get_nl_policy[MEMDIAG_A_PREFETCH_CPU + 1];

extern const struct nla_policy memdiag_prefetch_set_nl_policy[MEMDIAG_A_PREFETCH_DISABLE + 1];

extern const struct nla_policy memdiag_prefetch_restore_nl_policy[MEMDIAG_A_PREFETCH_CPU + 1];

extern const struct nla_policy memdiag_group_get_nl_policy[MEMDIAG_A_GROUP_CGROUP_ID + 1];

/* Ops table for memdiag */
extern const struct genl_ops memdiag_nl_ops[8];

int memdiag_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info);
int memdiag_nl_snapshot_doit(struct sk_buff *skb, struct genl_info *info);
int memdiag_nl_snapshot_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int memdiag_nl_session_start_doit(struct sk_buff *skb, struct genl_info *info);
int memdiag_nl_session_stop_doit(struct sk_buff *skb, struct genl_info *info);
int memdiag_nl_prefetch_get_doit(struct sk_buff *skb, struct genl_info *info);
int memdiag_nl_prefetch_set_doit(struct sk_buff *skb, struct genl_info *info);
int memdiag_nl_prefetch_restore_doit(struct sk_buff *skb,
				     struct genl_info *info);
int memdiag_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info);
int memdiag_nl_group_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb);

enum {
	MEMDIAG_NLGRP_MONITOR,
};

#endif /* _LINUX_MEMDIAG_GEN_H */
