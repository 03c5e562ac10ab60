// SPDX-License-Identifier: GPL-2.0
/*
 * loaded_latency.c - "memdiagctl run loaded-latency": the pointer chase
 * on the first CPU while the others run read-delay, one row per delay:
 * the bandwidth the others draw and the latency the chase sees.
 */

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "run/pages.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

struct loaded_latency_args {
	struct run_list delay;	/* --delay, a comma list */
};

static const struct run_param loaded_latency_params[] = {
	{ .opt = "delay", .parse = run_param_list,
	  .offset = offsetof(struct loaded_latency_args, delay),
	  .min = 0, .max = RUN_MAX_DELAY, .max_items = RUN_MAX_LIST },
	{ NULL }
};

/* from flat out to nearly idle, as MLC's table goes */
static const struct loaded_latency_args loaded_latency_default = {
	.delay = { .v = { 0, 20, 50, 100, 200, 500, 1000, 2000, 5000, 20000 },
		   .n = 10 },
};

/* The head and one row per point measured (all, or those before Ctrl-C). */
static void ll_print(struct printer *p, const struct run_args *a,
		     const struct kern_cfg *cfg,
		     const struct loaded_latency_point *r, unsigned int n,
		     uint64_t loads, size_t slot)
{
	double ghz = kern_tsc_ghz(), cyc;
	char sz[32], row[64];
	unsigned int i;

	run_fmt_size(sz, sizeof(sz), a->size[0]);
	run_print_head(p, a);
	print_textf(p, "pointer chase on CPU %d over %s; %u load generator%s (read-delay) over %s each\n",
		    cfg->cpu[0], sz, cfg->nthreads - 1,
		    cfg->nthreads == 2 ? "" : "s", sz);
	print_textf(p, "%8s %10s %10s %10s %8s %8s %10s %8s %8s %6s\n",
		    "delay", "ns/load", "min", "max", "cov", "cycles", "GB/s",
		    "GB/s_cov", "pages", "reps");
	print_open_array(p, "results");
	for (i = 0; i < n; i++) {
		cyc = ghz > 0 ? r[i].ns.median * ghz : NAN;
		run_result_open(p, a, a->size[0], &r[i].timed);
		print_u64(p, PRINT_ANY, "delay", "%8" PRIu64,
			  (uint64_t)r[i].delay);
		print_double(p, PRINT_ANY, "ns_per_load", " %10.2f",
			     r[i].ns.median);
		run_stats_json(p, "ns_per_load", &r[i].ns);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r[i].ns.min);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r[i].ns.max);
		snprintf(row, sizeof(row), "loaded-latency delay %lu",
			 (unsigned long)r[i].delay);
		run_print_cov(p, " %8.4f", r[i].ns.cov, row);
		print_double(p, PRINT_ANY, "cycles_per_load", " %8.1f", cyc);
		print_double(p, PRINT_ANY, "gbps", " %10.2f", r[i].gbps.median);
		run_stats_json(p, "gbps", &r[i].gbps);
		print_double(p, PRINT_ANY, "gbps_cov", " %8.4f",
			     r[i].gbps.cov);
		/* the same buffers for every delay: the same pages */
		run_print_pages(p, &r[i].pages);
		print_uint(p, PRINT_TEXT, NULL, " %6u\n", r[i].timed.reps);
		print_double(p, PRINT_JSON, "traffic_gbps", "%f",
			     r[i].traffic_gbps.median);
		print_string(p, PRINT_JSON, "verified", "%s", NULL);
		print_u64(p, PRINT_JSON, "loads", "%" PRIu64, loads);
		run_result_close(p, a, slot + i);
	}
	print_close_array(p);
	snprintf(row, sizeof(row), "loaded-latency %s", sz);
	if (n)
		run_check_hugepages(a, &r[0].pages, row);
	run_counters_text(p, a->counters, "delay");
	print_double(p, PRINT_ANY, "tsc_ghz",
		     "GB/s: the load generators' reads; cycles: TSC cycles at %.3f GHz\n",
		     ghz > 0 ? ghz : NAN);
}

static int loaded_latency_main(const char *cmd, struct printer *p,
			       const struct run_args *a,
			       const struct kern_cfg *cfg, bool *printed)
{
	const struct loaded_latency_args *o = a->opts;
	struct loaded_latency_point r[RUN_MAX_LIST];
	unsigned long delay[RUN_MAX_LIST];
	char label[RUN_MAX_LIST][24], err[200];
	const char *lp[RUN_MAX_LIST];
	unsigned int i, n, done;
	uint64_t loads = 0;
	size_t slot;

	n = (unsigned int)o->delay.n;
	for (i = 0; i < n; i++)
		delay[i] = (unsigned long)o->delay.v[i];
	if (cfg->nthreads < 2)
		return cli_usage(cmd, "option '--threads': kernel 'loaded-latency' needs at least 2 threads (one chases pointers, the others load the memory), e.g. --threads 2");
	for (i = 0; i < n; i++) {
		snprintf(label[i], sizeof(label[i]), "%lu", delay[i]);
		lp[i] = label[i];
	}
	/* each delay is a phase of the run: a slot each */
	slot = run_counters_next(a->counters, n, lp);
	run_check_llc(a->size[0] * a->threads, "the loaded-latency buffers");
	/* one run: its time left is the whole run's */
	run_progress_plan(cfg, 1, NULL);
	if (loaded_latency_run(cfg, a->size[0], delay, n, r, &loads, &done,
			       err, sizeof(err)) && !run_interrupted) {
		cli_err(cmd, "loaded-latency failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	if (!done)	/* Ctrl-C before the first point was measured */
		return MDC_EXIT_OK;
	ll_print(p, a, cfg, r, done, loads, slot);
	*printed = true;
	return MDC_EXIT_OK;
}

/* per thread, far larger than any LLC here */
const struct run_kernel run_loaded_latency = {
	.name = "loaded-latency", .default_size = 256ull << 20,
	.all_cpus = true, .params = loaded_latency_params,
	.opts_size = sizeof(struct loaded_latency_args),
	.opts_default = &loaded_latency_default, .run = loaded_latency_main,
};
