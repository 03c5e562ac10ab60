// SPDX-License-Identifier: GPL-2.0
/*
 * latency.c - "memdiagctl run latency": the pointer chase, ns and TSC
 * cycles per load for each working-set size, the page size each size
 * asked for (--pages) and the one the kernel really backed it with (a
 * hugepage request is a hint), and whether page walks are in its time.
 */

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "run/latency.h"
#include "run/pages.h"
#include "run/place.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

static const struct run_param latency_params[] = {
	{ .opt = "matrix", .parse = run_param_flag,
	  .offset = offsetof(struct latency_args, matrix) },
	{ .opt = "pages", .parse = run_param_enum,
	  .offset = offsetof(struct latency_args, pages),
	  .what = "page choice", .names = run_latency_pages_names,
	  .nr_names = 3 },
	{ NULL }
};

static const struct latency_args latency_default = {
	.pages = LATENCY_PAGES_UNSET,
};

/* The head's "pages": the --pages in force. */
static void latency_head(struct printer *p, const struct run_args *a)
{
	print_string(p, PRINT_ANY, "pages", ", pages: %s",
		     run_latency_pages_names[run_latency_pages(a)]);
}

/* one size in each of L1, L2, L3 and DRAM of a typical server */
static const uint64_t default_sizes[] = {
	16ull << 10, 256ull << 10, 8ull << 20, 256ull << 20, 0
};

static int latency_main(const char *cmd, struct printer *p,
			const struct run_args *args, const struct kern_cfg *cfg,
			bool *printed)
{
	struct latency_result r[RUN_MAX_SIZES];
	struct run_args la, *a = &la;
	struct kern_cfg c = *cfg;
	char err[200], sz[32], row[64];
	const char *label[] = { sz };
	double ghz = kern_tsc_ghz();
	size_t slot[RUN_MAX_SIZES];
	double work[RUN_MAX_SIZES];
	uint64_t big;
	size_t i, n;
	int rc;

	rc = run_latency_args(cmd, args, &la);
	if (rc != MDC_EXIT_OK)
		return rc;
	if (((const struct latency_args *)a->opts)->matrix)
		return run_latency_matrix(cmd, p, a, cfg, printed);
	/* smaller sizes are meant for the caches: only the largest is DRAM's */
	for (i = 0, big = 0; i < a->nr_size; i++)
		big = a->size[i] > big ? a->size[i] : big;
	run_check_llc(big * a->threads, "the largest latency size");
	/* the loads per repetition: a DRAM size takes longer per load still */
	for (i = 0; i < a->nr_size; i++)
		work[i] = (double)latency_loads(a->size[i]);
	run_progress_plan(cfg, (unsigned int)a->nr_size, work);
	for (i = 0; i < a->nr_size; i++) {
		run_fmt_size(sz, sizeof(sz), a->size[i]);
		slot[i] = counters_next(a->counters, 1, label);
		run_progress_what(cfg, sz);
		c.hugepages = run_latency_huge(a, a->size[i]);
		if (latency_run(&c, a->size[i], &r[i], err, sizeof(err))) {
			if (run_interrupted)
				break;	/* the sizes done are printed */
			cli_err(cmd, "latency failed", "%s", err);
			return MDC_EXIT_LOCAL;
		}
	}
	n = i;
	run_print_head(p, a);
	*printed = true;
	print_textf(p, "%-8s %10s %10s %10s %8s %12s %8s %6s %6s %6s\n",
		    "size", "ns/load", "min", "max", "cov", "cycles/load",
		    "pages", "asked", "walks", "reps");
	print_open_array(p, "results");
	for (i = 0; i < n; i++) {
		run_fmt_size(sz, sizeof(sz), a->size[i]);
		run_result_open(p, a, a->size[i], &r[i].timed);
		print_string(p, PRINT_TEXT, NULL, "%-8s", sz);
		snprintf(row, sizeof(row), "latency %s", sz);
		run_latency_values(p, &r[i], run_latency_huge(a, a->size[i]),
				   ghz, row);
		run_result_close(p, a, slot[i]);
	}
	print_close_array(p);
	print_double(p, PRINT_ANY, "tsc_ghz", "cycles: TSC cycles at %.3f GHz\n",
		     ghz > 0 ? ghz : NAN);
	counters_text(p, a->counters, "size");
	return MDC_EXIT_OK;
}

const struct run_kernel run_latency = {
	/* its paragraph of run --help, lines of at most 59 columns */
	.help =
		"pointer chase over a random cycle of 64-byte lines:\n"
		"ns and TSC cycles per load, per working-set size,\n"
		"the page size it asked for (--pages) and the one\n"
		"the kernel really gave it, and whether page walks\n"
		"are in its time (--size: a comma list, per thread;\n"
		"default 16K,256K,8M,256M); --matrix: MLC's latency\n"
		"matrix, one thread on each NUMA node's first CPU\n"
		"chasing memory bound to each node in turn (--size:\n"
		"one, default 4 x the last-level cache)",
	.name = "latency", .default_sizes = default_sizes, .size_list = true,
	.no_whole = "its value is one dependent chase's ns per load, which no barrier between threads holds up",
	.params = latency_params,
	.opts_size = sizeof(struct latency_args),
	.opts_default = &latency_default,
	.head = latency_head,
	.run = latency_main,
};
