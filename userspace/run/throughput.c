// SPDX-License-Identifier: GPL-2.0
/*
 * throughput.c - "memdiagctl run throughput": load throughput at one
 * SIMD width for each working-set size and instruction mix, in GB/s and
 * bytes per TSC cycle.
 */

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../kernels/simd.h"
#include "run/pages.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

/* The widths this CPU can run (as a mask), honouring the test hook. */
static unsigned int usable_widths(void)
{
	unsigned int w, mask = 0;

	for (w = 0; w < TP_NR_WIDTHS; w++)
		if (run_cpu_has(tp_width_feature[w]))
			mask |= 1u << w;
	return mask;
}

struct throughput_args {
	const char *width;	/* --width, checked by pick_width() */
	const char *mix;	/* --mix, a comma list */
};

static const struct run_param throughput_params[] = {
	{ .opt = "width", .parse = run_param_string,
	  .offset = offsetof(struct throughput_args, width) },
	{ .opt = "mix", .parse = run_param_string,
	  .offset = offsetof(struct throughput_args, mix) },
	{ NULL }
};

static const struct throughput_args throughput_default;

/* L1, L2, L3 and, beyond even large L3s, DRAM */
static const uint64_t default_sizes[] = {
	16ull << 10, 256ull << 10, 8ull << 20, 1ull << 30, 0
};

/* One throughput run: the width, the mixes, per size the results. */
struct tp_run {
	enum tp_width w;
	unsigned int mixes;
	double ghz;
	struct throughput_result r[RUN_MAX_SIZES];
	size_t slot[RUN_MAX_SIZES];
	size_t n;		/* sizes measured: fewer after Ctrl-C */
};

/* --width, or the widest this CPU runs; an exit code. */
static int pick_width(const char *cmd, const char *width, enum tp_width *w)
{
	unsigned int usable = usable_widths(), wmask;
	char names[128];
	int rc;

	if (!width) {
		if (!usable) {
			cli_err(cmd, "throughput cannot run",
				"this CPU has none of the SIMD widths (sse, avx, avx512): throughput needs x86-64");
			return MDC_EXIT_LOCAL;
		}
		for (*w = TP_NR_WIDTHS - 1; !(usable & (1u << *w)); (*w)--)
			;	/* the widest */
		return MDC_EXIT_OK;
	}
	/*
	 * avx2 is what the seeds call the 256-bit width; its loads and FP
	 * adds need only AVX, which is what is checked
	 */
	rc = run_parse_names(cmd, "--width", "width",
			     strcmp(width, "avx2") ? width : "avx",
			     tp_width_name, TP_NR_WIDTHS, false, &wmask);
	if (rc != MDC_EXIT_OK)
		return rc;
	for (*w = 0; !(wmask & (1u << *w)); (*w)++)
		;
	if (usable & wmask)
		return MDC_EXIT_OK;
	if (!usable)
		return cli_usage(cmd, "option '--width': %s needs %s, which this CPU lacks, as it lacks every width: throughput needs x86-64",
				 tp_width_name[*w],
				 kern_cpu_feature_name[tp_width_feature[*w]]);
	run_name_list(names, sizeof(names), tp_width_name, TP_NR_WIDTHS,
		      usable);
	return cli_usage(cmd, "option '--width': %s needs %s, which this CPU lacks: use %s",
			 tp_width_name[*w],
			 kern_cpu_feature_name[tp_width_feature[*w]], names);
}

/* Whole 1K blocks, and buffers that fit; an exit code. */
static int check_sizes(const char *cmd, const struct run_args *a)
{
	char sz[32];
	size_t i;

	for (i = 0; i < a->nr_size; i++) {
		run_fmt_size(sz, sizeof(sz), a->size[i]);
		if (a->size[i] % TP_SIZE_ALIGN)
			return cli_usage(cmd, "option '--size': '%s' is not a multiple of 1K (throughput loads whole 1K blocks)",
					 sz);
		/* each thread has a buffer of its own */
		if (!run_fits_memory(a->size[i] * a->threads))
			return cli_usage(cmd, "option '--size': %s x %" PRIu64 " thread%s needs more than 3/4 of this machine's memory: give smaller sizes",
					 sz, a->threads,
					 a->threads == 1 ? "" : "s");
	}
	return MDC_EXIT_OK;
}

/* Each size, its mixes the run's phases in enum order (a slot each). */
static int tp_measure(const char *cmd, const struct run_args *a,
		      const struct kern_cfg *cfg, struct tp_run *t)
{
	char label[TP_NR_MIXES][48];	/* "16K/load-fadd" */
	double work[RUN_MAX_SIZES];
	const char *labels[TP_NR_MIXES];
	char err[200], sz[32];
	unsigned int nm;
	size_t i;
	int m;

	/* bytes loaded per repetition: 512M at least, whatever the size */
	for (i = 0; i < a->nr_size; i++)
		work[i] = (double)throughput_passes(a->size[i]) *
			  (double)a->size[i];
	run_progress_plan(cfg, (unsigned int)a->nr_size, work);
	for (i = 0; i < a->nr_size; i++) {
		run_fmt_size(sz, sizeof(sz), a->size[i]);
		run_progress_what(cfg, sz);
		for (m = 0, nm = 0; m < TP_NR_MIXES; m++) {
			if (!(t->mixes & (1u << m)))
				continue;
			snprintf(label[nm], sizeof(label[nm]), "%s/%s", sz,
				 tp_mix_name[m]);
			labels[nm] = label[nm];
			nm++;
		}
		t->slot[i] = counters_next(a->counters, nm, labels);
		if (throughput_run(cfg, a->size[i], t->w, t->mixes, t->ghz,
				   &t->r[i], err, sizeof(err))) {
			if (run_interrupted)
				break;	/* the sizes done are printed */
			cli_err(cmd, "throughput failed", "%s", err);
			return MDC_EXIT_LOCAL;
		}
	}
	t->n = i;
	return MDC_EXIT_OK;
}

static void tp_row(struct printer *p, const struct run_args *a,
		   const struct tp_run *t, size_t i, int m, size_t slot)
{
	const struct kern_stats *s = &t->r[i].gbps[m];
	char sz[32], row[80];

	run_fmt_size(sz, sizeof(sz), a->size[i]);
	run_result_open(p, a, a->size[i], &t->r[i].timed[m]);
	print_string(p, PRINT_TEXT, NULL, "%-8s", sz);
	print_string(p, PRINT_JSON, "width", "%s", tp_width_name[t->w]);
	print_string(p, PRINT_ANY, "mix", " %-10s", tp_mix_name[m]);
	run_print_gbps(p, s);
	/* loads only: what is named is all that moves */
	print_double(p, PRINT_JSON, "traffic_gbps", "%f", s->median);
	snprintf(row, sizeof(row), "throughput %s %s", sz, tp_mix_name[m]);
	run_print_cov(p, " %8.4f", s->cov, row);
	print_double(p, PRINT_ANY, "bytes_per_cycle", " %8.2f",
		     t->r[i].bytes_per_cycle[m]);
	print_u64(p, PRINT_ANY, "passes", " %7" PRIu64, t->r[i].passes);
	/* the mixes run over the same buffers: the same pages each row */
	run_print_pages(p, &t->r[i].pages);
	print_uint(p, PRINT_TEXT, NULL, " %6u\n", t->r[i].timed[m].reps);
	print_string(p, PRINT_JSON, "verified", "%s", NULL);
	run_result_close(p, a, slot);
}

static int throughput_main(const char *cmd, struct printer *p,
			   const struct run_args *a,
			   const struct kern_cfg *cfg, bool *printed)
{
	const struct throughput_args *o = a->opts;
	struct tp_run t = { .mixes = (1u << TP_NR_MIXES) - 1 };
	char sz[32], row[64];
	unsigned int nm;
	size_t i;
	int m, rc;

	rc = pick_width(cmd, o->width, &t.w);
	if (rc == MDC_EXIT_OK && o->mix)
		rc = run_parse_names(cmd, "--mix", "mix", o->mix, tp_mix_name,
				     TP_NR_MIXES, true, &t.mixes);
	if (rc == MDC_EXIT_OK)
		rc = check_sizes(cmd, a);
	if (rc != MDC_EXIT_OK)
		return rc;
	t.ghz = kern_tsc_ghz();
	if (!(t.ghz > 0)) {
		cli_err(cmd, "throughput cannot run",
			"no time stamp counter to time it with");
		return MDC_EXIT_LOCAL;
	}
	rc = tp_measure(cmd, a, cfg, &t);
	if (rc != MDC_EXIT_OK)
		return rc;
	run_print_head(p, a);
	*printed = true;
	print_string(p, PRINT_ANY, "width", "%s", tp_width_name[t.w]);
	print_uint(p, PRINT_ANY, "width_bits", " loads (%u-bit), each thread on its own buffer of each size;",
		   tp_width_bits[t.w]);
	print_double(p, PRINT_ANY, "tsc_ghz", " TSC %.3f GHz\n", t.ghz);
	print_textf(p, "GB/s: bytes loaded (nothing is written: traffic = GB/s); B/cycle: per thread per TSC cycle\n");
	print_textf(p, "%-8s %-10s %10s %10s %10s %8s %8s %7s %8s %6s\n",
		    "size", "mix", "GB/s", "min", "max", "cov", "B/cycle",
		    "passes", "pages", "reps");
	print_open_array(p, "results");
	for (i = 0; i < t.n; i++)
		for (m = 0, nm = 0; m < TP_NR_MIXES; m++)
			if (t.mixes & (1u << m))
				tp_row(p, a, &t, i, m, t.slot[i] + nm++);
	print_close_array(p);
	/* once per size, as latency: each size's buffers are new ones */
	for (i = 0; i < t.n; i++) {
		run_fmt_size(sz, sizeof(sz), a->size[i]);
		snprintf(row, sizeof(row), "throughput %s", sz);
		run_check_hugepages(a, &t.r[i].pages, row);
	}
	counters_text(p, a->counters, "size/mix");
	return MDC_EXIT_OK;
}

const struct run_kernel run_throughput = {
	/* its paragraph of run --help, lines of at most 59 columns */
	.help =
		"x86-membench-style load loops in assembly at one SIMD\n"
		"width, loads only or mixed with FP adds or NOPs, each\n"
		"thread on its own buffer, timed with the TSC: GB/s of\n"
		"bytes loaded (= traffic: nothing is written) and bytes\n"
		"per TSC cycle per thread (--size: a comma list of\n"
		"multiples of 1K, per thread; default 16K,256K,8M,1G)",
	.name = "throughput", .default_sizes = default_sizes,
	.size_list = true, .params = throughput_params,
	.opts_size = sizeof(struct throughput_args),
	.opts_default = &throughput_default, .run = throughput_main,
};
