// SPDX-License-Identifier: GPL-2.0
/*
 * warn.c - the warnings of "memdiagctl run" that qualify its results
 * rather than fail them: noisy rows and "DRAM" sizes that fit in cache.
 * They are printed after the results, so that they are the last thing a
 * terminal shows and never split a table row.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/cache.h"
#include "cli.h"
#include "run/run.h"
#include "run/warn.h"

#define RUN_MAX_WARN 64
#define RUN_WARN_LEN 256

static char warnings[RUN_MAX_WARN][RUN_WARN_LEN];
static unsigned int nr_warnings, dropped;

void run_warn(const char *fmt, ...)
{
	va_list ap;

	if (nr_warnings == RUN_MAX_WARN) {
		dropped++;	/* said once, at the end */
		return;
	}
	va_start(ap, fmt);
	vsnprintf(warnings[nr_warnings++], RUN_WARN_LEN, fmt, ap);
	va_end(ap);
}

unsigned int run_warn_count(void)
{
	return nr_warnings;
}

void run_warn_json(struct printer *p)
{
	unsigned int i;

	print_open_array(p, "warnings");
	for (i = 0; i < nr_warnings; i++)
		print_string(p, PRINT_JSON, NULL, "%s", warnings[i]);
	print_close_array(p);
}

void run_warn_flush(const char *cmd)
{
	unsigned int i;

	for (i = 0; i < nr_warnings; i++)
		cli_err(cmd, "warning", "%s", warnings[i]);
	if (dropped)
		cli_err(cmd, "warning", "%u more warnings not shown", dropped);
	nr_warnings = 0;
	dropped = 0;
}

bool run_cov_noisy(double cov)
{
	return !isnan(cov) && cov > RUN_NOISY_COV;
}

/*
 * A noisy @cov with as many decimals as it takes to read above the bound:
 * 0.1004 at two would print "CoV 0.10 above 0.10".
 */
static void cov_above_bound(char *buf, size_t size, double cov)
{
	int digits;

	for (digits = 2; digits < 8; digits++) {
		snprintf(buf, size, "%.*f", digits, cov);
		if (strtod(buf, NULL) > RUN_NOISY_COV)
			return;
	}
}

void run_print_cov(struct printer *p, const char *fmt, double cov,
		   const char *row)
{
	bool noisy = run_cov_noisy(cov);
	char text[32];

	print_double(p, PRINT_ANY, "cov", fmt, cov);
	print_bool(p, PRINT_JSON, "noisy", "%s", noisy);
	if (!noisy)
		return;
	cov_above_bound(text, sizeof(text), cov);
	run_warn("noisy: %s: CoV %s above %.2f - rerun on a quiet machine or raise --min-time",
		 row, text, RUN_NOISY_COV);
}

void run_check_llc(uint64_t bytes, const char *what)
{
	uint64_t llc = kern_llc_bytes_cpu0();
	char a[32], b[32];

	if (!llc || bytes > llc)
		return;
	run_fmt_size(a, sizeof(a), bytes);
	run_fmt_size(b, sizeof(b), llc);
	run_warn("in cache: %s, %s in all, within this machine's %s last-level cache, so this is no DRAM number - use a size well above it",
		 what, a, b);
}
