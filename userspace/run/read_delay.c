// SPDX-License-Identifier: GPL-2.0
/*
 * read_delay.c - "memdiagctl run read-delay": the memory read benchmark
 * with NOP delays, one array size, GB/s per repetition.
 */

#include <inttypes.h>
#include <math.h>
#include <stddef.h>

#include "run/pages.h"
#include "run/place.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

struct read_delay_args {
	struct run_list delay;	/* one value: --delay N */
};

static const struct run_param read_delay_params[] = {
	RUN_PARAM_DELAY(struct read_delay_args, delay),
	{ NULL }
};

static const struct read_delay_args read_delay_default;

static uint64_t delay_of(const struct run_args *a)
{
	const struct read_delay_args *o = a->opts;

	return run_list_first(&o->delay);
}

static void read_delay_head(struct printer *p, const struct run_args *a)
{
	print_u64(p, PRINT_ANY, "delay", ", delay %" PRIu64 " NOPs",
		  delay_of(a));
}

static int read_delay_main(const char *cmd, struct printer *p,
			   const struct run_args *a, const struct kern_cfg *cfg,
			   bool *printed)
{
	struct read_delay_result r;
	char err[200], sz[32], row[64];
	const char *label[] = { sz };
	size_t slot;

	run_fmt_size(sz, sizeof(sz), a->size[0]);
	slot = counters_next(a->counters, 1, label);
	run_check_llc(a->size[0], "the read-delay array");
	/* one run: its time left is the whole run's */
	run_progress_plan(cfg, 1, NULL);
	if (read_delay_run(cfg, a->size[0], delay_of(a), &r, err, sizeof(err))) {
		cli_err(cmd, "read-delay failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	snprintf(row, sizeof(row), "read-delay %s", sz);
	run_print_head(p, a);
	*printed = true;
	print_textf(p, "%-8s %10s %10s %10s %8s %8s %6s\n", "size", "GB/s",
		    "min", "max", "cov", "pages", "reps");
	print_open_array(p, "results");
	run_result_open(p, a, a->size[0], &r.timed);
	print_string(p, PRINT_TEXT, NULL, "%-8s", sz);
	print_u64(p, PRINT_JSON, "delay", "%" PRIu64, delay_of(a));
	run_print_gbps(p, &r.gbps);
	/* reads only: what is named is what moves */
	print_double(p, PRINT_JSON, "traffic_gbps", "%f", r.gbps.median);
	run_print_cov(p, " %8.4f", r.gbps.cov, row);
	run_print_pages(p, &r.pages);
	print_uint(p, PRINT_TEXT, NULL, " %6u\n", r.timed.reps);
	run_check_hugepages(a, &r.pages, row);
	print_string(p, PRINT_JSON, "verified", "%s", NULL);
	print_u64(p, PRINT_JSON, "records", "%" PRIu64, r.records);
	run_result_close(p, a, slot);
	print_close_array(p);
	counters_text(p, a->counters, "size");
	return MDC_EXIT_OK;
}


/* read-delay: far larger than any LLC here */
const struct run_kernel run_read_delay = {
	/* its paragraph of run --help, lines of at most 59 columns */
	.help =
		"the memory read benchmark of Helm & Taura: reads the\n"
		"first 8 bytes of each 64-byte record, --delay NOPs\n"
		"after every four; GB/s counts 64 bytes per record\n"
		"(--size: the whole array, split among the threads;\n"
		"default 1G)",
	.name = "read-delay", .default_size = 1ull << 30,
	.params = read_delay_params,
	.opts_size = sizeof(struct read_delay_args),
	.opts_default = &read_delay_default,
	.head = read_delay_head, .run = read_delay_main,
};
