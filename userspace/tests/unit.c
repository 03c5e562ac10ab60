// SPDX-License-Identifier: GPL-2.0
/*
 * unit.c - memdiagctl's unit tests (tests/unit_*.c) in one kselftest
 * harness binary. Each file is a FIXTURE named after its unit:
 * "unit.bin -f watch -f metrics" runs those units, "unit.bin -l" lists
 * every test.
 */

#include <stdio.h>

#include "helpers.h"
#include "units.h"

#include "unit_print.c"
#include "unit_cpulist.c"
#include "unit_names.c"
#include "unit_info.c"
#include "unit_cli.c"
#include "unit_opts.c"
#include "unit_parse.c"
#include "unit_metrics.c"
#include "unit_snapshot.c"
#include "unit_prefetch.c"
#include "unit_watch.c"
#include "unit_watch_chan.c"
#include "unit_counters.c"
#include "unit_run_warn.c"
#include "unit_run_progress.c"
#include "unit_barrier.c"
#include "unit_wait.c"
#include "unit_lengthen.c"
#include "unit_warm.c"
#include "unit_whole.c"
#include "unit_stream_layout.c"
#include "unit_nl.c"
#include "unit_cgpath.c"
#include "unit_cgscan.c"
#include "unit_resctrl.c"
#include "unit_export_groups.c"
#include "unit_watch_group.c"

/* TH_LOG writes to stdout: a line at a time, so none is lost at _exit() */
static void __attribute__((constructor)) line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

TEST_HARNESS_MAIN
