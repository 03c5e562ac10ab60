// SPDX-License-Identifier: GPL-2.0
/*
 * transpose.c - "memdiagctl run transpose": the transpose variants of
 * the software-prefetching seed on one matrix, each verified against the
 * naive one.
 */

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/simd.h"
#include "run/pages.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

/* rows ahead, as the seed prefetches (PFDIST 8) */
#define RUN_TR_DEFAULT_DISTANCE 8

/* The variant MEMDIAG_TEST_CORRUPT names (a test hook), or -1. */
static int corrupt_variant(void)
{
	const char *s = getenv("MEMDIAG_TEST_CORRUPT");
	int v;

	for (v = 0; s && v < TR_NR_VARIANTS; v++)
		if (!strcmp(s, tr_variant_name[v]))
			return v;
	return -1;
}

struct transpose_args {
	const char *variant;	/* --variant, a comma list */
	uint64_t distance;	/* --distance, rows */
};

static const struct run_param transpose_params[] = {
	{ .opt = "variant", .parse = run_param_string,
	  .offset = offsetof(struct transpose_args, variant) },
	{ .opt = "distance", .parse = run_param_uint,
	  .offset = offsetof(struct transpose_args, distance),
	  .min = 0, .max = TR_MAX_DISTANCE },
	{ NULL }
};

static const struct transpose_args transpose_default = {
	.distance = RUN_TR_DEFAULT_DISTANCE,
};

/* --variant (all this CPU runs by default) into @variants: an exit code. */
static int pick_variants(const char *cmd, const char *variant,
			 unsigned int *variants)
{
	unsigned int usable = 0;
	char names[128];
	int v, rc;

	for (v = 0; v < TR_NR_VARIANTS; v++)
		if (tr_variant_feature[v] == KERN_CPU_NR_FEATURES ||
		    run_cpu_has(tr_variant_feature[v]))
			usable |= 1u << v;
	if (!variant) {
		*variants = usable;
		return MDC_EXIT_OK;
	}
	rc = run_parse_names(cmd, "--variant", "transpose variant", variant,
			     tr_variant_name, TR_NR_VARIANTS, true, variants);
	if (rc != MDC_EXIT_OK)
		return rc;
	for (v = 0; v < TR_NR_VARIANTS; v++) {
		if (!(*variants & ~usable & (1u << v)))
			continue;
		run_name_list(names, sizeof(names), tr_variant_name,
			      TR_NR_VARIANTS, usable);
		return cli_usage(cmd, "option '--variant': %s needs %s, which this CPU lacks: use %s",
				 tr_variant_name[v],
				 kern_cpu_feature_name[tr_variant_feature[v]],
				 names);
	}
	return MDC_EXIT_OK;
}

/* N from --size, checked against the threads and the memory. */
static int pick_n(const char *cmd, const struct run_args *a, size_t *n)
{
	char sz[40];

	*n = transpose_dim(a->size[0]);
	run_fmt_size(sz, sizeof(sz), a->size[0]);
	if (*n / TR_ALIGN < a->threads)
		return cli_usage(cmd, "option '--size': a %s matrix (N = %zu) is too small for %" PRIu64 " threads: each needs %d rows",
				 sz, *n, a->threads, TR_ALIGN);
	if (!run_fits_memory(3 * *n * *n * sizeof(double)))
		return cli_usage(cmd, "option '--size': three %s matrices need more than 3/4 of this machine's memory: give a smaller size",
				 sz);
	return MDC_EXIT_OK;
}

static void transpose_head(struct printer *p, const struct run_args *a,
			   size_t n, unsigned int distance)
{
	char sz[40];

	run_fmt_size(sz, sizeof(sz), n * n * sizeof(double));
	if (!strpbrk(sz, "KMG"))
		strcat(sz, " bytes");
	run_print_head(p, a);
	print_u64(p, PRINT_ANY, "n", "N = %" PRIu64, n);
	print_string(p, PRINT_TEXT, NULL, " (%s per matrix of doubles),", sz);
	print_uint(p, PRINT_ANY, "distance", " prefetch distance %u rows\n",
		   distance);
	print_textf(p, "GB/s: read + write, 2*N*N*8 bytes; traffic adds the write-allocate (3*N*N*8)\n");
	print_textf(p, "%-13s %10s %10s %10s %13s %8s %9s %8s %6s\n",
		    "variant", "GB/s", "min", "max", "traffic_GB/s", "cov",
		    "verified", "pages", "reps");
}

static void transpose_row(struct printer *p, const struct run_args *a,
			  const struct transpose_result *r, int v, size_t n,
			  unsigned int distance, size_t slot)
{
	run_result_open(p, a, n * n * sizeof(double), &r->timed[v]);
	print_string(p, PRINT_ANY, "variant", "%-13s", tr_variant_name[v]);
	print_u64(p, PRINT_JSON, "n", "%" PRIu64, n);
	if (v == TR_SSE_PREFETCH || v == TR_AVX_PREFETCH)
		print_uint(p, PRINT_JSON, "distance", "%u", distance);
	else
		print_string(p, PRINT_JSON, "distance", "%s", NULL);
	run_print_gbps(p, &r->gbps[v]);
	print_double(p, PRINT_ANY, "traffic_gbps", " %13.2f",
		     r->traffic_gbps[v].median);
	run_print_cov(p, " %8.4f", r->gbps[v].cov, tr_variant_name[v]);
	print_bool(p, PRINT_ANY, "verified", " %9s", r->verified[v]);
	run_print_pages(p, &r->pages[v]);
	print_uint(p, PRINT_TEXT, NULL, " %6u\n", r->timed[v].reps);
	print_u64(p, PRINT_JSON, "mismatches", "%" PRIu64, r->mismatches[v]);
	run_result_close(p, a, slot);
}

static int transpose_main(const char *cmd, struct printer *p,
			  const struct run_args *a,
			  const struct kern_cfg *cfg, bool *printed)
{
	const struct transpose_args *o = a->opts;
	unsigned int distance = (unsigned int)o->distance, variants, nv = 0;
	const char *labels[TR_NR_VARIANTS];
	size_t slot[TR_NR_VARIANTS] = { 0 };
	char err[200], failed[128] = "", sz[32], what[48];
	struct run_pages_miss miss = { 0 };
	struct transpose_result r;
	size_t n, first;
	int v, rc;

	rc = pick_variants(cmd, o->variant, &variants);
	if (rc == MDC_EXIT_OK)
		rc = pick_n(cmd, a, &n);
	if (rc != MDC_EXIT_OK)
		return rc;
	/* the variants asked for are the run's phases, in enum order */
	for (v = 0; v < TR_NR_VARIANTS; v++)
		if (variants & (1u << v))
			labels[nv++] = tr_variant_name[v];
	first = counters_next(a->counters, nv, labels);
	/* a run each, the same bytes moved (naive's untimed one shows none) */
	run_progress_plan(cfg, nv, NULL);
	for (v = 0, nv = 0; v < TR_NR_VARIANTS; v++)
		if (variants & (1u << v))
			slot[v] = first + nv++;
	if (transpose_run(cfg, n, variants, distance, corrupt_variant(), &r,
			  err, sizeof(err)) && !run_interrupted) {
		cli_err(cmd, "transpose failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	if (!r.done)	/* Ctrl-C before the first variant was measured */
		return MDC_EXIT_OK;
	transpose_head(p, a, n, distance);
	*printed = true;
	print_open_array(p, "results");
	/* all asked for, or those finished before Ctrl-C */
	for (v = 0; v < TR_NR_VARIANTS; v++) {
		if (!(r.done & (1u << v)))
			continue;
		if (!r.verified[v])
			snprintf(failed + strlen(failed),
				 sizeof(failed) - strlen(failed), "%s%s",
				 *failed ? ", " : "", tr_variant_name[v]);
		transpose_row(p, a, &r, v, n, distance, slot[v]);
		run_pages_miss_add(&miss, &r.pages[v], tr_variant_name[v]);
	}
	print_close_array(p);
	/* the source and one destination each: one warning names those short */
	run_fmt_size(sz, sizeof(sz), a->size[0]);
	snprintf(what, sizeof(what), "transpose %s", sz);
	run_pages_miss_check(a, &miss, what);
	print_bool(p, PRINT_TEXT, NULL, "verified: %s", !*failed);
	print_textf(p, " (naive against the definition, every other variant element for element against naive)\n");
	counters_text(p, a->counters, "variant");
	if (!*failed)
		return MDC_EXIT_OK;
	cli_err(cmd, "transpose results failed validation", "%s: see the output",
		failed);
	return MDC_EXIT_LOCAL;
}

/* 128M: N = 4096, as in the seed */
const struct run_kernel run_transpose = {
	/* its paragraph of run --help, lines of at most 59 columns */
	.help =
		"N x N double matrix transpose: naive, sse,\n"
		"sse-prefetch, avx, avx-prefetch, each verified against\n"
		"naive; GB/s counts 2*N*N*8 bytes, traffic_gbps adds the\n"
		"write-allocate (--size: bytes of one matrix, N the\n"
		"largest multiple of 8 that fits; default 128M, N = 4096;\n"
		"threads split the destination's rows)",
	.name = "transpose", .default_size = 128ull << 20,
	.no_whole = "its threads share the matrices",
	.params = transpose_params, .opts_size = sizeof(struct transpose_args),
	.opts_default = &transpose_default, .run = transpose_main,
	/* kern_place() binds in the threads; these come before them */
	.no_membind = "its matrices are allocated before its threads start",
};
