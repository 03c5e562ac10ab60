// SPDX-License-Identifier: GPL-2.0
/* unit_cpulist.c - unit tests: CPU lists (cpulist.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f cpulist" runs its tests alone */
FIXTURE(cpulist) {};
FIXTURE_SETUP(cpulist) {}
FIXTURE_TEARDOWN(cpulist) {}

static void cpulist_case(struct __test_metadata *_metadata,
			 const uint32_t *cpu, size_t n, const char *want)
{
	char buf[128];
	size_t len = cpulist_format(buf, sizeof(buf), cpu, n);

	if (!ok(!strcmp(buf, want) && len == strlen(want),
		"cpulist: %zu CPUs -> \"%s\"", n, want)) {
		diag("got ", buf);
	}
}

TEST_F(cpulist, cpulist)
{
	static const uint32_t one[] = { 5 };
	static const uint32_t pair[] = { 0, 1 };
	static const uint32_t two_runs[] = { 0, 1, 2, 3, 8, 9, 10, 11 };
	static const uint32_t singles[] = { 1, 3, 5 };
	static const uint32_t mixed[] = { 0, 2, 3, 4, 7 };
	static const uint32_t top[] = { 4294967294u, 4294967295u, 0 };
	char small[6];
	size_t len;

	cpulist_case(_metadata, NULL, 0, "");
	cpulist_case(_metadata, one, 1, "5");
	cpulist_case(_metadata, pair, 2, "0-1");
	cpulist_case(_metadata, two_runs, 8, "0-3,8-11");
	cpulist_case(_metadata, singles, 3, "1,3,5");
	cpulist_case(_metadata, mixed, 5, "0,2-4,7");
	cpulist_case(_metadata, top, 3, "4294967294-4294967295,0");

	len = cpulist_format(NULL, 0, two_runs, 8);
	ok(len == 8, "cpulist: NULL buffer returns the needed length (%zu)",
	   len);
	memset(small, 'x', sizeof(small));
	len = cpulist_format(small, sizeof(small), two_runs, 8);
	ok(len == 8 && !strcmp(small, "0-3,8"),
	   "cpulist: truncates like snprintf and stays terminated");
}
