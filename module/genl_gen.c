// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/memdiag.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "genl_gen.h"

#include <uapi/linux/memdiag.h>

/* MEMDIAG_CMD_GET_INFO - do */
const struct nla_policy memdiag_get_info_nl_policy[MEMDIAG_A_INFO_PROTO_VERSION + 1] = {
	[MEMDIAG_A_INFO_PROTO_VERSION] = { .type = NLA_U32, },
};

/* Ops table for memdiag */
const struct genl_ops memdiag_nl_ops[1] = {
	{
		.cmd		= MEMDIAG_CMD_GET_INFO,
		.doit		= memdiag_nl_get_info_doit,
		.policy		= memdiag_get_info_nl_policy,
		.maxattr	= MEMDIAG_A_INFO_PROTO_VERSION,
	},
};

static const struct genl_multicast_group memdiag_nl_mcgrps[] = {
	[MEMDIAG_NLGRP_MONITOR] = { "monitor", },
};
