// SPDX-License-Identifier: GPL-2.0
/* names.c - map memdiag's enum values and attribute types to spec names. */

#include <stddef.h>

#include <linux/memdiag.h>

#include "names.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The asserts make a regenerated header with more entries than these tables
 * fail the build instead of printing numbers.
 */
static const char *const platform_names[] = {
	[MEMDIAG_PLATFORM_HW] = "hw",
	[MEMDIAG_PLATFORM_SIM] = "sim",
};
_Static_assert(ARRAY_SIZE(platform_names) == MEMDIAG_PLATFORM_MAX + 1,
	       "platform_names does not match enum memdiag_platform");

static const char *const capability_names[] = {
	[MEMDIAG_CAPABILITY_IMC_BANDWIDTH] = "imc-bandwidth",
	[MEMDIAG_CAPABILITY_CORE_LATENCY] = "core-latency",
	[MEMDIAG_CAPABILITY_OFFCORE] = "offcore",
	[MEMDIAG_CAPABILITY_PREFETCH_CONTROL] = "prefetch-control",
	[MEMDIAG_CAPABILITY_L3_DRAM_LATENCY] = "l3-dram-latency",
};
_Static_assert(ARRAY_SIZE(capability_names) == MEMDIAG_CAPABILITY_MAX + 1,
	       "capability_names does not cover MEMDIAG_CAPABILITY_MAX");

static const char *const core_mode_names[] = {
	[MEMDIAG_CORE_MODE_NONE] = "none",
	[MEMDIAG_CORE_MODE_MSR] = "msr",
	[MEMDIAG_CORE_MODE_PERF] = "perf",
};
_Static_assert(ARRAY_SIZE(core_mode_names) == MEMDIAG_CORE_MODE_MAX + 1,
	       "core_mode_names does not match enum memdiag_core_mode");

static const char *const info_attr_names[] = {
	[MEMDIAG_A_INFO_PROTO_VERSION] = "proto-version",
	[MEMDIAG_A_INFO_VENDOR] = "vendor",
	[MEMDIAG_A_INFO_FAMILY] = "family",
	[MEMDIAG_A_INFO_MODEL] = "model",
	[MEMDIAG_A_INFO_STEPPING] = "stepping",
	[MEMDIAG_A_INFO_MODEL_NAME] = "model-name",
	[MEMDIAG_A_INFO_UARCH] = "uarch",
	[MEMDIAG_A_INFO_UARCH_REASON] = "uarch-reason",
	[MEMDIAG_A_INFO_PLATFORM] = "platform",
	[MEMDIAG_A_INFO_NR_SOCKETS] = "nr-sockets",
	[MEMDIAG_A_INFO_SOCKET] = "socket",
	[MEMDIAG_A_INFO_CAPABILITY] = "capability",
	[MEMDIAG_A_INFO_TSC_KHZ] = "tsc-khz",
	[MEMDIAG_A_INFO_CORE_MODE] = "core-mode",
	[MEMDIAG_A_INFO_CORE_MODE_REASON] = "core-mode-reason",
	[MEMDIAG_A_INFO_CORE_RESTORE_FAILED_CPUS] = "core-restore-failed-cpus",
};
_Static_assert(ARRAY_SIZE(info_attr_names) == MEMDIAG_A_INFO_MAX + 1,
	       "info_attr_names does not cover MEMDIAG_A_INFO_MAX");

static const char *const socket_attr_names[] = {
	[MEMDIAG_A_SOCKET_ID] = "id",
	[MEMDIAG_A_SOCKET_PACKAGE_ID] = "package-id",
	[MEMDIAG_A_SOCKET_CPU] = "cpu",
	[MEMDIAG_A_SOCKET_NUMA_NODES] = "numa-nodes",
	[MEMDIAG_A_SOCKET_DF_NODE] = "df-node",
	[MEMDIAG_A_SOCKET_DF_NODES_REASON] = "df-nodes-reason",
};
_Static_assert(ARRAY_SIZE(socket_attr_names) == MEMDIAG_A_SOCKET_MAX + 1,
	       "socket_attr_names does not cover MEMDIAG_A_SOCKET_MAX");

static const char *const capability_attr_names[] = {
	[MEMDIAG_A_CAPABILITY_ID] = "id",
	[MEMDIAG_A_CAPABILITY_AVAILABLE] = "available",
	[MEMDIAG_A_CAPABILITY_REASON] = "reason",
	[MEMDIAG_A_CAPABILITY_VERIFIED] = "verified",
};
_Static_assert(ARRAY_SIZE(capability_attr_names) ==
	       MEMDIAG_A_CAPABILITY_MAX + 1,
	       "capability_attr_names does not cover MEMDIAG_A_CAPABILITY_MAX");

static const char *const snapshot_attr_names[] = {
	[MEMDIAG_A_SNAPSHOT_SOCKET] = "socket",
	[MEMDIAG_A_SNAPSHOT_PAD] = "pad",
	[MEMDIAG_A_SNAPSHOT_TIME_NS] = "time-ns",
	[MEMDIAG_A_SNAPSHOT_IMC_EPOCH] = "imc-epoch",
	[MEMDIAG_A_SNAPSHOT_DRAM_READ_BYTES] = "dram-read-bytes",
	[MEMDIAG_A_SNAPSHOT_DRAM_WRITE_BYTES] = "dram-write-bytes",
	[MEMDIAG_A_SNAPSHOT_CHANNEL] = "channel",
	[MEMDIAG_A_SNAPSHOT_CORE_EPOCH] = "core-epoch",
	[MEMDIAG_A_SNAPSHOT_NR_CPUS] = "nr-cpus",
	[MEMDIAG_A_SNAPSHOT_INSTRUCTIONS] = "instructions",
	[MEMDIAG_A_SNAPSHOT_CYCLES] = "cycles",
	[MEMDIAG_A_SNAPSHOT_REF_CYCLES] = "ref-cycles",
	[MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS] = "l1d-pend-miss",
	[MEMDIAG_A_SNAPSHOT_L1_MISS] = "l1-miss",
	[MEMDIAG_A_SNAPSHOT_LFB_HIT] = "lfb-hit",
	[MEMDIAG_A_SNAPSHOT_L1_MISS_ANY] = "l1-miss-any",
	[MEMDIAG_A_SNAPSHOT_OFFCORE_DRAM_READS] = "offcore-dram-reads",
	[MEMDIAG_A_SNAPSHOT_CHANNELS] = "channels",
	[MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED] = "prefetch-disabled",
	[MEMDIAG_A_SNAPSHOT_PREFETCH_MIXED] = "prefetch-mixed",
	[MEMDIAG_A_SNAPSHOT_PREFETCH_CHANGED] = "prefetch-changed",
	[MEMDIAG_A_SNAPSHOT_MAB_OCCUPANCY] = "mab-occupancy",
	[MEMDIAG_A_SNAPSHOT_MAB_ALLOCATIONS] = "mab-allocations",
	[MEMDIAG_A_SNAPSHOT_L3_EPOCH] = "l3-epoch",
	[MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_LATENCY_CYCLES] =
		"l3-sampled-dram-latency-cycles",
	[MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_REQUESTS] = "l3-sampled-dram-requests",
	[MEMDIAG_A_SNAPSHOT_DRAM_RDWR_BYTES] = "dram-rdwr-bytes",
	[MEMDIAG_A_SNAPSHOT_DF_NODE] = "df-node",
	[MEMDIAG_A_SNAPSHOT_DF_NODES_REASON] = "df-nodes-reason",
};
_Static_assert(ARRAY_SIZE(snapshot_attr_names) == MEMDIAG_A_SNAPSHOT_MAX + 1,
	       "snapshot_attr_names does not cover MEMDIAG_A_SNAPSHOT_MAX");

static const char *const channel_attr_names[] = {
	[MEMDIAG_A_CHANNEL_ID] = "id",
	[MEMDIAG_A_CHANNEL_PAD] = "pad",
	[MEMDIAG_A_CHANNEL_READ_BYTES] = "read-bytes",
	[MEMDIAG_A_CHANNEL_WRITE_BYTES] = "write-bytes",
	[MEMDIAG_A_CHANNEL_RDWR_BYTES] = "rdwr-bytes",
	[MEMDIAG_A_CHANNEL_COUNTED_NS] = "counted-ns",
};
_Static_assert(ARRAY_SIZE(channel_attr_names) == MEMDIAG_A_CHANNEL_MAX + 1,
	       "channel_attr_names does not cover MEMDIAG_A_CHANNEL_MAX");

static const char *const prefetch_attr_names[] = {
	[MEMDIAG_A_PREFETCH_SOCKET] = "socket",
	[MEMDIAG_A_PREFETCH_CPU] = "cpu",
	[MEMDIAG_A_PREFETCH_PREFETCHERS] = "prefetchers",
	[MEMDIAG_A_PREFETCH_DISABLE] = "disable",
	[MEMDIAG_A_PREFETCH_CONTROL] = "control",
	[MEMDIAG_A_PREFETCH_MSR] = "msr",
	[MEMDIAG_A_PREFETCH_PREFETCHER] = "prefetcher",
	[MEMDIAG_A_PREFETCH_CPU_STATE] = "cpu-state",
};
_Static_assert(ARRAY_SIZE(prefetch_attr_names) == MEMDIAG_A_PREFETCH_MAX + 1,
	       "prefetch_attr_names does not cover MEMDIAG_A_PREFETCH_MAX");

static const char *const session_attr_names[] = {
	[MEMDIAG_A_SESSION_ID] = "id",
	[MEMDIAG_A_SESSION_INTERVAL_MS] = "interval-ms",
	[MEMDIAG_A_SESSION_DF_CHANNELS] = "df-channels",
	[MEMDIAG_A_SESSION_CORE_MODE] = "core-mode",
	[MEMDIAG_A_SESSION_GROUPS] = "groups",
};
_Static_assert(ARRAY_SIZE(session_attr_names) == MEMDIAG_A_SESSION_MAX + 1,
	       "session_attr_names does not cover MEMDIAG_A_SESSION_MAX");

static const char *const group_attr_names[] = {
	[MEMDIAG_A_GROUP_PAD] = "pad",
	[MEMDIAG_A_GROUP_SOCKET] = "socket",
	[MEMDIAG_A_GROUP_CGROUP_ID] = "cgroup-id",
	[MEMDIAG_A_GROUP_DRAM_BYTES] = "dram-bytes",
};
_Static_assert(ARRAY_SIZE(group_attr_names) == MEMDIAG_A_GROUP_MAX + 1,
	       "group_attr_names does not cover MEMDIAG_A_GROUP_MAX");

/* A hole (NULL) in a table reads as unknown too. */
#define LOOKUP(table, v) ((v) < ARRAY_SIZE(table) ? (table)[v] : NULL)

const char *name_platform(uint32_t platform)
{
	return LOOKUP(platform_names, platform);
}

const char *name_capability(uint32_t capability)
{
	return LOOKUP(capability_names, capability);
}

const char *name_core_mode(uint32_t mode)
{
	return LOOKUP(core_mode_names, mode);
}

const char *name_info_attr(unsigned int type)
{
	return LOOKUP(info_attr_names, type);
}

const char *name_socket_attr(unsigned int type)
{
	return LOOKUP(socket_attr_names, type);
}

const char *name_capability_attr(unsigned int type)
{
	return LOOKUP(capability_attr_names, type);
}

const char *name_snapshot_attr(unsigned int type)
{
	return LOOKUP(snapshot_attr_names, type);
}

const char *name_channel_attr(unsigned int type)
{
	return LOOKUP(channel_attr_names, type);
}

const char *name_prefetch_attr(unsigned int type)
{
	return LOOKUP(prefetch_attr_names, type);
}

const char *name_session_attr(unsigned int type)
{
	return LOOKUP(session_attr_names, type);
}

const char *name_group_attr(unsigned int type)
{
	return LOOKUP(group_attr_names, type);
}
