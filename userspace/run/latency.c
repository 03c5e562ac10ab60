// SPDX-License-Identifier: GPL-2.0
/*
 * latency.c - "memdiagctl run latency": the pointer chase, ns and TSC
 * cycles per load for each working-set size, and the page size the
 * kernel really backed the working set with (a hugepage request is a
 * hint: over 4K pages the chase also times page walks).
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

struct latency_args {
	bool matrix;	/* --matrix: CPU node x memory node */
};

static const struct run_param latency_params[] = {
	{ .opt = "matrix", .parse = run_param_flag,
	  .offset = offsetof(struct latency_args, matrix) },
	{ NULL }
};

static const struct latency_args latency_default;

/* one size in each of L1, L2, L3 and DRAM of a typical server */
static const uint64_t default_sizes[] = {
	16ull << 10, 256ull << 10, 8ull << 20, 256ull << 20, 0
};

void run_latency_values(struct printer *p, const struct run_args *a,
			const struct latency_result *r, double ghz,
			const char *row)
{
	/* a chase moves one line per load, but that is no bandwidth */
	print_string(p, PRINT_JSON, "gbps", "%s", NULL);
	print_string(p, PRINT_JSON, "traffic_gbps", "%s", NULL);
	print_double(p, PRINT_ANY, "ns_per_load", " %10.2f", r->ns.median);
	run_stats_json(p, "ns_per_load", &r->ns);
	print_double(p, PRINT_TEXT, NULL, " %10.2f", r->ns.min);
	print_double(p, PRINT_TEXT, NULL, " %10.2f", r->ns.max);
	run_print_cov(p, " %8.4f", r->ns.cov, row);
	print_double(p, PRINT_ANY, "cycles_per_load", " %12.1f",
		     ghz > 0 ? r->ns.median * ghz : NAN);
	run_print_pages(p, &r->pages);
	print_uint(p, PRINT_TEXT, NULL, " %6u\n", r->timed.reps);
	print_string(p, PRINT_JSON, "verified", "%s", NULL);
	print_u64(p, PRINT_JSON, "loads", "%" PRIu64, r->loads);
	run_check_hugepages(a, &r->pages, row);
}

static int latency_main(const char *cmd, struct printer *p,
			const struct run_args *a, const struct kern_cfg *cfg,
			bool *printed)
{
	struct latency_result r[RUN_MAX_SIZES];
	char err[200], sz[32], row[64];
	const char *label[] = { sz };
	double ghz = kern_tsc_ghz();
	size_t slot[RUN_MAX_SIZES];
	double work[RUN_MAX_SIZES];
	uint64_t big;
	size_t i, n;

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
		slot[i] = run_counters_next(a->counters, 1, label);
		run_progress_what(cfg, sz);
		if (latency_run(cfg, a->size[i], &r[i], err, sizeof(err))) {
			if (run_interrupted)
				break;	/* the sizes done are printed */
			cli_err(cmd, "latency failed", "%s", err);
			return MDC_EXIT_LOCAL;
		}
	}
	n = i;
	run_print_head(p, a);
	*printed = true;
	print_textf(p, "%-8s %10s %10s %10s %8s %12s %8s %6s\n", "size",
		    "ns/load", "min", "max", "cov", "cycles/load", "pages",
		    "reps");
	print_open_array(p, "results");
	for (i = 0; i < n; i++) {
		run_fmt_size(sz, sizeof(sz), a->size[i]);
		run_result_open(p, a, a->size[i], &r[i].timed);
		print_string(p, PRINT_TEXT, NULL, "%-8s", sz);
		snprintf(row, sizeof(row), "latency %s", sz);
		run_latency_values(p, a, &r[i], ghz, row);
		run_result_close(p, a, slot[i]);
	}
	print_close_array(p);
	print_double(p, PRINT_ANY, "tsc_ghz", "cycles: TSC cycles at %.3f GHz\n",
		     ghz > 0 ? ghz : NAN);
	run_counters_text(p, a->counters, "size");
	return MDC_EXIT_OK;
}

const struct run_kernel run_latency = {
	.name = "latency", .default_sizes = default_sizes, .size_list = true,
	.params = latency_params,
	.opts_size = sizeof(struct latency_args),
	.opts_default = &latency_default,
	.run = latency_main,
};
