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

/* MEMDIAG_CMD_SNAPSHOT - do */
const struct nla_policy memdiag_snapshot_nl_policy[MEMDIAG_A_SNAPSHOT_CHANNELS + 1] = {
	[MEMDIAG_A_SNAPSHOT_SOCKET] = { .type = NLA_U32, },
	[MEMDIAG_A_SNAPSHOT_CHANNELS] = { .type = NLA_FLAG, },
};

/* MEMDIAG_CMD_SESSION_START - do */
const struct nla_policy memdiag_session_start_nl_policy[MEMDIAG_A_SESSION_GROUPS + 1] = {
	[MEMDIAG_A_SESSION_INTERVAL_MS] = { .type = NLA_U32, },
	[MEMDIAG_A_SESSION_DF_CHANNELS] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
	[MEMDIAG_A_SESSION_GROUPS] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* MEMDIAG_CMD_SESSION_STOP - do */
const struct nla_policy memdiag_session_stop_nl_policy[MEMDIAG_A_SESSION_ID + 1] = {
	[MEMDIAG_A_SESSION_ID] = { .type = NLA_U32, },
};

/* MEMDIAG_CMD_PREFETCH_GET - do */
const struct nla_policy memdiag_prefetch_get_nl_policy[MEMDIAG_A_PREFETCH_CPU + 1] = {
	[MEMDIAG_A_PREFETCH_SOCKET] = { .type = NLA_U32, },
	[MEMDIAG_A_PREFETCH_CPU] = { .type = NLA_U32, },
};

/* MEMDIAG_CMD_PREFETCH_SET - do */
const struct nla_policy memdiag_prefetch_set_nl_policy[MEMDIAG_A_PREFETCH_DISABLE + 1] = {
	[MEMDIAG_A_PREFETCH_SOCKET] = { .type = NLA_U32, },
	[MEMDIAG_A_PREFETCH_CPU] = { .type = NLA_U32, },
	[MEMDIAG_A_PREFETCH_PREFETCHERS] = { .type = NLA_U32, },
	[MEMDIAG_A_PREFETCH_DISABLE] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* MEMDIAG_CMD_PREFETCH_RESTORE - do */
const struct nla_policy memdiag_prefetch_restore_nl_policy[MEMDIAG_A_PREFETCH_CPU + 1] = {
	[MEMDIAG_A_PREFETCH_SOCKET] = { .type = NLA_U32, },
	[MEMDIAG_A_PREFETCH_CPU] = { .type = NLA_U32, },
};

/* MEMDIAG_CMD_GROUP_GET - do */
const struct nla_policy memdiag_group_get_nl_policy[MEMDIAG_A_GROUP_CGROUP_ID + 1] = {
	[MEMDIAG_A_GROUP_SOCKET] = { .type = NLA_U32, },
	[MEMDIAG_A_GROUP_CGROUP_ID] = { .type = NLA_U64, },
};

/* Ops table for memdiag */
const struct genl_ops memdiag_nl_ops[8] = {
	{
		.cmd		= MEMDIAG_CMD_GET_INFO,
		.doit		= memdiag_nl_get_info_doit,
		.policy		= memdiag_get_info_nl_policy,
		.maxattr	= MEMDIAG_A_INFO_PROTO_VERSION,
	},
	{
		.cmd		= MEMDIAG_CMD_SNAPSHOT,
		.doit		= memdiag_nl_snapshot_doit,
		.dumpit		= memdiag_nl_snapshot_dumpit,
		.policy		= memdiag_snapshot_nl_policy,
		.maxattr	= MEMDIAG_A_SNAPSHOT_CHANNELS,
	},
	{
		.cmd		= MEMDIAG_CMD_SESSION_START,
		.doit		= memdiag_nl_session_start_doit,
		.policy		= memdiag_session_start_nl_policy,
		.maxattr	= MEMDIAG_A_SESSION_GROUPS,
	},
	{
		.cmd		= MEMDIAG_CMD_SESSION_STOP,
		.doit		= memdiag_nl_session_stop_doit,
		.policy		= memdiag_session_stop_nl_policy,
		.maxattr	= MEMDIAG_A_SESSION_ID,
	},
	{
		.cmd		= MEMDIAG_CMD_PREFETCH_GET,
		.doit		= memdiag_nl_prefetch_get_doit,
		.policy		= memdiag_prefetch_get_nl_policy,
		.maxattr	= MEMDIAG_A_PREFETCH_CPU,
	},
	{
		.cmd		= MEMDIAG_CMD_PREFETCH_SET,
		.doit		= memdiag_nl_prefetch_set_doit,
		.policy		= memdiag_prefetch_set_nl_policy,
		.maxattr	= MEMDIAG_A_PREFETCH_DISABLE,
	},
	{
		.cmd		= MEMDIAG_CMD_PREFETCH_RESTORE,
		.doit		= memdiag_nl_prefetch_restore_doit,
		.policy		= memdiag_prefetch_restore_nl_policy,
		.maxattr	= MEMDIAG_A_PREFETCH_CPU,
	},
	{
		.cmd		= MEMDIAG_CMD_GROUP_GET,
		.doit		= memdiag_nl_group_get_doit,
		.dumpit		= memdiag_nl_group_get_dumpit,
		.policy		= memdiag_group_get_nl_policy,
		.maxattr	= MEMDIAG_A_GROUP_CGROUP_ID,
	},
};

static const struct genl_multicast_group memdiag_nl_mcgrps[] = {
	[MEMDIAG_NLGRP_MONITOR] = { "monitor", },
};
