// SPDX-License-Identifier: GPL-2.0
/* unit_names.c - unit tests: the spec names (names.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f names" runs its tests alone */
FIXTURE(names) {};
FIXTURE_SETUP(names) {}
FIXTURE_TEARDOWN(names) {}

TEST_F(names, names)
{
	unsigned int i;
	bool all = true;

	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++)
		all = all && name_capability(i);
	for (i = MEMDIAG_PLATFORM_HW; i <= MEMDIAG_PLATFORM_SIM; i++)
		all = all && name_platform(i);
	for (i = 1; i <= MEMDIAG_A_INFO_MAX; i++)
		all = all && name_info_attr(i);
	for (i = 1; i <= MEMDIAG_A_SOCKET_MAX; i++)
		all = all && name_socket_attr(i);
	for (i = 1; i <= MEMDIAG_A_CAPABILITY_MAX; i++)
		all = all && name_capability_attr(i);
	for (i = 0; i <= MEMDIAG_CORE_MODE_MAX; i++)
		all = all && name_core_mode(i);
	for (i = 1; i <= MEMDIAG_A_SNAPSHOT_MAX; i++)
		all = all && name_snapshot_attr(i);
	for (i = 1; i <= MEMDIAG_A_CHANNEL_MAX; i++)
		all = all && name_channel_attr(i);
	for (i = 1; i <= MEMDIAG_A_SESSION_MAX; i++)
		all = all && name_session_attr(i);
	ok(all, "names: every enum value and attribute has a name");
	ok(!strcmp(name_core_mode(MEMDIAG_CORE_MODE_NONE), "none") &&
	   !strcmp(name_core_mode(MEMDIAG_CORE_MODE_MSR), "msr") &&
	   !strcmp(name_core_mode(MEMDIAG_CORE_MODE_PERF), "perf") &&
	   !strcmp(name_snapshot_attr(MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS), "l1d-pend-miss") &&
	   !strcmp(name_snapshot_attr(MEMDIAG_A_SNAPSHOT_OFFCORE_DRAM_READS), "offcore-dram-reads") &&
	   !strcmp(name_channel_attr(MEMDIAG_A_CHANNEL_WRITE_BYTES), "write-bytes") &&
	   !strcmp(name_session_attr(MEMDIAG_A_SESSION_INTERVAL_MS), "interval-ms"),
	   "names: core modes and snapshot, channel, session attributes");
	ok(!strcmp(name_capability(MEMDIAG_CAPABILITY_IMC_BANDWIDTH), "imc-bandwidth") &&
	   !strcmp(name_capability(MEMDIAG_CAPABILITY_CORE_LATENCY), "core-latency") &&
	   !strcmp(name_capability(MEMDIAG_CAPABILITY_OFFCORE), "offcore") &&
	   !strcmp(name_capability(MEMDIAG_CAPABILITY_PREFETCH_CONTROL), "prefetch-control") &&
	   !strcmp(name_platform(MEMDIAG_PLATFORM_HW), "hw") &&
	   !strcmp(name_platform(MEMDIAG_PLATFORM_SIM), "sim"),
	   "names: the spec's enum names");
	ok(!name_capability(MEMDIAG_CAPABILITY_MAX + 1) &&
	   !name_platform(MEMDIAG_PLATFORM_SIM + 1) &&
	   !name_info_attr(MEMDIAG_A_INFO_MAX + 1) && !name_info_attr(0),
	   "names: unknown values have no name");
}
