// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - "memdiagctl run stream": copy, scale, add, triad, verified;
 * GB/s as STREAM counts them and with the write-allocate.
 */

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "run/pages.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

struct stream_args {
	bool nt;		/* --nt: non-temporal stores */
};

static const struct run_param stream_params[] = {
	{ .opt = "nt", .parse = run_param_flag,
	  .offset = offsetof(struct stream_args, nt) },
	{ NULL }
};

static const struct stream_args stream_default;

/* The CPU feature each instance of the loops needs; -1: none. */
static const int isa_feature[STREAM_NR_ISAS] = {
	[STREAM_ISA_C] = -1,
	[STREAM_ISA_SSE2] = KERN_CPU_SSE2,
	[STREAM_ISA_AVX] = KERN_CPU_AVX,
	[STREAM_ISA_AVX512] = KERN_CPU_AVX512F,
};

/* Through run_cpu_has(), so MEMDIAG_TEST_HIDE_CPU can take a feature away. */
static bool isa_runs(int isa)
{
	return isa_feature[isa] < 0 ||
	       run_cpu_has((enum kern_cpu_feature)isa_feature[isa]);
}

/*
 * The widest loops this CPU runs, or with MEMDIAG_STREAM_ISA=c|sse2|avx|
 * avx512 the ones named: a test hook, so that every instance is checked
 * on a machine that would only ever run one. An instance the CPU cannot
 * run is refused here, naming what is missing, instead of faulting.
 */
static int stream_isa(const char *cmd, enum stream_isa *isa)
{
	const char *env = getenv("MEMDIAG_STREAM_ISA");
	char runs[64];
	size_t len = 0;
	int i;

	for (i = STREAM_NR_ISAS - 1; i > STREAM_ISA_C && !isa_runs(i); i--)
		;
	*isa = (enum stream_isa)i;
	if (!env || !*env)
		return 0;
	for (i = 0; i < STREAM_NR_ISAS; i++)
		if (!strcmp(env, stream_isa_name[i]))
			break;
	if (i == STREAM_NR_ISAS) {
		cli_err(cmd, "bad MEMDIAG_STREAM_ISA",
			"'%s' is not c, sse2, avx or avx512", env);
		return -1;
	}
	if (!isa_runs(i)) {
		for (int k = 0; k < STREAM_NR_ISAS; k++)
			if (isa_runs(k))
				len += (size_t)snprintf(runs + len, sizeof(runs) - len,
							"%s%s", len ? ", " : "",
							stream_isa_name[k]);
		cli_err(cmd, "bad MEMDIAG_STREAM_ISA",
			"this CPU lacks %s, which the %s code needs: it runs %s",
			kern_cpu_feature_name[isa_feature[i]], env, runs);
		return -1;
	}
	*isa = (enum stream_isa)i;
	return 0;
}

/* The head and one row per op measured (all, or those before Ctrl-C). */
static void stream_print(struct printer *p, const struct run_args *a,
			 const struct stream_opts *o,
			 const struct stream_result *r, size_t slot)
{
	char sz[32], row[64];
	unsigned int op;

	run_fmt_size(sz, sizeof(sz), a->size[0]);
	run_print_head(p, a);
	print_string(p, PRINT_TEXT, NULL, "%s per array", sz);
	print_string(p, PRINT_ANY, "isa", ", %s code", stream_isa_name[o->isa]);
	print_bool(p, PRINT_JSON, "nt", "%s", o->nt);
	print_textf(p, ", %s stores", o->nt ? "non-temporal" : "normal");
	print_u64(p, PRINT_ANY, "sweeps", ", %" PRIu64, r->sweeps);
	print_textf(p, " sweep%s per op\n", r->sweeps == 1 ? "" : "s");
	print_textf(p, "%-6s %10s %10s %10s %13s %8s %8s %6s\n", "op", "GB/s",
		    "min", "max", "traffic_GB/s", "cov", "pages", "reps");
	print_open_array(p, "results");
	for (op = 0; op < r->done; op++) {
		run_result_open(p, a, a->size[0], &r->timed[op]);
		print_string(p, PRINT_ANY, "op", "%-6s", stream_op_name[op]);
		run_print_gbps(p, &r->gbps[op]);
		print_double(p, PRINT_ANY, "traffic_gbps", " %13.2f",
			     r->traffic_gbps[op].median);
		snprintf(row, sizeof(row), "stream %s %s", sz, stream_op_name[op]);
		run_print_cov(p, " %8.4f", r->gbps[op].cov, row);
		/* one set of arrays for every op: the same pages each row */
		run_print_pages(p, &r->pages);
		print_uint(p, PRINT_TEXT, NULL, " %6u\n", r->timed[op].reps);
		print_bool(p, PRINT_JSON, "verified", "%s", r->verified);
		print_bool(p, PRINT_JSON, "nt", "%s", o->nt);
		run_result_close(p, a, slot + op);
	}
	print_close_array(p);
	snprintf(row, sizeof(row), "stream %s", sz);
	run_check_hugepages(a, &r->pages, row);
	print_bool(p, PRINT_TEXT, NULL, "verified: %s", r->verified);
	print_textf(p, " (average relative error a %.3g, b %.3g, c %.3g; limit 1e-13)\n",
		    r->avg_rel_err[0], r->avg_rel_err[1], r->avg_rel_err[2]);
	counters_text(p, a->counters, "op");
}

static int stream_main(const char *cmd, struct printer *p,
		       const struct run_args *a, const struct kern_cfg *cfg,
		       bool *printed)
{
	const struct stream_args *args = a->opts;
	struct stream_opts o = { .nt = args->nt };
	struct stream_result r;
	char err[200];
	size_t slot;
	unsigned int op;

	if (stream_isa(cmd, &o.isa))
		return MDC_EXIT_USAGE;
	/* phase op of the harness is op: its counters are slot + op */
	slot = counters_next(a->counters, STREAM_NR_OPS, stream_op_name);
	run_check_llc(3 * a->size[0], "stream's three arrays");
	/* one run: its time left is the whole run's */
	run_progress_plan(cfg, 1, NULL);
	if (stream_run(cfg, a->size[0], &o, &r, err, sizeof(err)) &&
	    !run_interrupted) {
		cli_err(cmd, "stream failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	if (!r.done)	/* Ctrl-C before the first op was measured */
		return MDC_EXIT_OK;
	for (op = 0; op < r.done; op++)
		counters_traffic(a->counters, slot + op,
				 r.traffic_bytes[op] * r.timed[op].reps *
				 r.timed[op].parts,
				 r.traffic_read_bytes[op] * r.timed[op].reps *
				 r.timed[op].parts);
	stream_print(p, a, &o, &r, slot);
	*printed = true;
	if (r.verified)
		return MDC_EXIT_OK;
	cli_err(cmd, "stream results failed validation",
		"average relative error above 1e-13: see the output");
	return MDC_EXIT_LOCAL;
}

/* per array */
const struct run_kernel run_stream = {
	/* its paragraph of run --help, lines of at most 59 columns */
	.help =
		"STREAM copy, scale, add, triad, verified; gbps counts\n"
		"the bytes the kernel names (16 or 24 per element),\n"
		"traffic_gbps adds the write-allocate (24 or 32)\n"
		"unless --nt; with counters, each op's volume_ratio\n"
		"is the DRAM bytes the memory controllers counted\n"
		"over the bytes the op moves (traffic_gbps's bytes;\n"
		"Helm & Taura, Fig. 6) (--size: each of the three\n"
		"arrays, split among the threads; default 256M)",
	.name = "stream", .default_size = 256ull << 20,
	.params = stream_params, .opts_size = sizeof(struct stream_args),
	.opts_default = &stream_default, .run = stream_main,
};
