// SPDX-License-Identifier: GPL-2.0
/*
 * run_transpose.c - "memdiagctl run transpose": the transpose variants of
 * the software-prefetching seed on one matrix, each verified against the
 * naive one.
 */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

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

int run_transpose(const char *cmd, struct printer *p,
		  const struct run_args *a, const struct kern_cfg *cfg,
		  bool *printed)
{
	struct transpose_result r;
	unsigned int variants = (1u << TR_NR_VARIANTS) - 1, usable = 0;
	unsigned int distance = RUN_TR_DEFAULT_DISTANCE;
	char err[200], sz[40], names[128], failed[128] = "";
	const char *labels[TR_NR_VARIANTS];
	size_t slot[TR_NR_VARIANTS] = { 0 };
	unsigned int nv = 0;
	bool verified = true;
	size_t n, first;
	int v, rc;

	for (v = 0; v < TR_NR_VARIANTS; v++)
		if (tr_variant_feature[v] == KERN_CPU_NR_FEATURES ||
		    run_cpu_has(tr_variant_feature[v]))
			usable |= 1u << v;
	if (a->variant) {
		rc = run_parse_names(cmd, "--variant", "transpose variant",
				     a->variant,
				     tr_variant_name, TR_NR_VARIANTS, true,
				     &variants);
		if (rc != MDC_EXIT_OK)
			return rc;
		for (v = 0; v < TR_NR_VARIANTS; v++) {
			if (!(variants & ~usable & (1u << v)))
				continue;
			run_name_list(names, sizeof(names), tr_variant_name,
				      TR_NR_VARIANTS, usable);
			return cli_usage(cmd, "option '--variant': %s needs %s, which this CPU lacks: use %s",
					 tr_variant_name[v],
					 kern_cpu_feature_name[tr_variant_feature[v]],
					 names);
		}
	} else {
		variants &= usable;	/* all this CPU can run */
	}
	if (a->have_distance)
		distance = (unsigned int)a->distance;
	n = transpose_dim(a->size[0]);
	if (n / TR_ALIGN < a->threads) {
		run_fmt_size(sz, sizeof(sz), a->size[0]);
		return cli_usage(cmd, "option '--size': a %s matrix (N = %zu) is too small for %" PRIu64 " threads: each needs %d rows",
				 sz, n, a->threads, TR_ALIGN);
	}
	if (!run_fits_memory(3 * n * n * sizeof(double))) {
		run_fmt_size(sz, sizeof(sz), a->size[0]);
		return cli_usage(cmd, "option '--size': three %s matrices need more than 3/4 of this machine's memory: give a smaller size",
				 sz);
	}
	/* the variants asked for are the run's phases, in enum order */
	for (v = 0; v < TR_NR_VARIANTS; v++)
		if (variants & (1u << v))
			labels[nv++] = tr_variant_name[v];
	first = run_counters_next(a->counters, nv, labels);
	for (v = 0, nv = 0; v < TR_NR_VARIANTS; v++)
		if (variants & (1u << v))
			slot[v] = first + nv++;
	if (transpose_run(cfg, n, variants, distance, corrupt_variant(), &r,
			  err, sizeof(err))) {
		cli_err(cmd, "transpose failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	run_fmt_size(sz, sizeof(sz), n * n * sizeof(double));
	if (!strpbrk(sz, "KMG"))
		strcat(sz, " bytes");
	run_print_head(p, a);
	*printed = true;
	print_u64(p, PRINT_ANY, "n", "N = %" PRIu64, n);
	print_string(p, PRINT_TEXT, NULL, " (%s per matrix of doubles),", sz);
	print_uint(p, PRINT_ANY, "distance", " prefetch distance %u rows\n",
		   distance);
	print_textf(p, "GB/s: read + write, 2*N*N*8 bytes; traffic adds the write-allocate (3*N*N*8)\n");
	print_textf(p, "%-13s %10s %10s %10s %13s %8s %9s\n", "variant", "GB/s",
		    "min", "max", "traffic_GB/s", "cov", "verified");
	print_open_array(p, "results");
	for (v = 0; v < TR_NR_VARIANTS; v++) {
		if (!(variants & (1u << v)))
			continue;
		if (!r.verified[v])
			snprintf(failed + strlen(failed),
				 sizeof(failed) - strlen(failed), "%s%s",
				 verified ? "" : ", ", tr_variant_name[v]);
		verified = verified && r.verified[v];
		print_open_object(p, NULL);
		run_result_common(p, a, n * n * sizeof(double));
		print_string(p, PRINT_ANY, "variant", "%-13s",
			     tr_variant_name[v]);
		print_u64(p, PRINT_JSON, "n", "%" PRIu64, n);
		if (v == TR_SSE_PREFETCH || v == TR_AVX_PREFETCH)
			print_uint(p, PRINT_JSON, "distance", "%u", distance);
		else
			print_string(p, PRINT_JSON, "distance", "%s", NULL);
		print_double(p, PRINT_ANY, "gbps", " %10.2f", r.gbps[v].median);
		run_stats_json(p, "gbps", &r.gbps[v]);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps[v].min);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps[v].max);
		print_double(p, PRINT_ANY, "traffic_gbps", " %13.2f",
			     r.traffic_gbps[v].median);
		print_double(p, PRINT_ANY, "cov", " %8.4f", r.gbps[v].cov);
		print_bool(p, PRINT_ANY, "verified", " %9s\n", r.verified[v]);
		print_u64(p, PRINT_JSON, "mismatches", "%" PRIu64,
			  r.mismatches[v]);
		run_counters_json(p, a->counters, slot[v]);
		print_close_object(p);
	}
	print_close_array(p);
	print_bool(p, PRINT_TEXT, NULL, "verified: %s", verified);
	print_textf(p, " (naive against the definition, every other variant element for element against naive)\n");
	run_counters_text(p, a->counters, "variant");
	if (verified)
		return MDC_EXIT_OK;
	cli_err(cmd, "transpose results failed validation", "%s: see the output",
		failed);
	return MDC_EXIT_LOCAL;
}
