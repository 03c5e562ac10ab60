// SPDX-License-Identifier: GPL-2.0
/*
 * unit.c - runs memdiagctl's unit tests (tests/unit_*.c), all of them or
 * the units named on the command line ("unit.bin watch metrics"), as
 * "ok - name" lines for run.sh to number.
 */

#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "units.h"

static const struct {
	const char *name;
	void (*run)(void);
} units[] = {
	{ "print", unit_print },
	{ "cpulist", unit_cpulist },
	{ "names", unit_names },
	{ "info", unit_info },
	{ "cli", unit_cli },
	{ "opts", unit_opts },
	{ "parse", unit_parse },
	{ "metrics", unit_metrics },
	{ "snapshot", unit_snapshot },
	{ "prefetch", unit_prefetch },
	{ "watch", unit_watch },
	{ "watch-chan", unit_watch_chan },
	{ "run-counters", unit_run_counters },
	{ "run-warn", unit_run_warn },
	{ "run-progress", unit_run_progress },
	{ "barrier", unit_barrier },
	{ "nl", unit_nl },
};

#define NR_UNITS (sizeof(units) / sizeof(units[0]))

int main(int argc, char **argv)
{
	size_t i;
	int a;

	for (a = 1; a < argc; a++) {
		for (i = 0; i < NR_UNITS && strcmp(argv[a], units[i].name); i++)
			;
		if (i == NR_UNITS) {
			fprintf(stderr, "unit.bin: no unit '%s'; the units:", argv[a]);
			for (i = 0; i < NR_UNITS; i++)
				fprintf(stderr, " %s", units[i].name);
			fputc('\n', stderr);
			return 2;
		}
	}
	for (i = 0; i < NR_UNITS; i++) {
		for (a = 1; a < argc && strcmp(argv[a], units[i].name); a++)
			;
		if (argc == 1 || a < argc)
			units[i].run();
	}
	printf("# done, %d failed\n", failures);
	return failures ? 1 : 0;
}
