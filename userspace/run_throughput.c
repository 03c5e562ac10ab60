// SPDX-License-Identifier: GPL-2.0
/*
 * run_throughput.c - "memdiagctl run throughput": load throughput at one
 * SIMD width for each working-set size and instruction mix, in GB/s and
 * bytes per TSC cycle.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <string.h>

#include "run.h"

/* The widths this CPU can run (as a mask), honouring the test hook. */
static unsigned int usable_widths(void)
{
	unsigned int w, mask = 0;

	for (w = 0; w < TP_NR_WIDTHS; w++)
		if (run_cpu_has(tp_width_feature[w]))
			mask |= 1u << w;
	return mask;
}

int run_throughput(const char *cmd, struct printer *p,
		   const struct run_args *a, const struct kern_cfg *cfg,
		   bool *printed)
{
	struct throughput_result r[RUN_MAX_SIZES];
	char label[TP_NR_MIXES][48];	/* "16K/load-fadd" */
	const char *labels[TP_NR_MIXES];
	size_t slot[RUN_MAX_SIZES];
	unsigned int nm;
	unsigned int usable = usable_widths(), mixes, wmask;
	char err[200], sz[32], names[128];
	enum tp_width w;
	double ghz;
	size_t i;
	int m, rc;

	if (a->width) {
		/*
		 * avx2 is what the seeds call the 256-bit width; its loads
		 * and FP adds need only AVX, which is what is checked
		 */
		rc = run_parse_names(cmd, "--width", "width",
				     strcmp(a->width, "avx2") ? a->width : "avx",
				     tp_width_name, TP_NR_WIDTHS, false, &wmask);
		if (rc != MDC_EXIT_OK)
			return rc;
		for (w = 0; !(wmask & (1u << w)); w++)
			;
		if (!(usable & wmask)) {
			if (!usable)
				return cli_usage(cmd, "option '--width': %s needs %s, which this CPU lacks, as it lacks every width: throughput needs x86-64",
						 tp_width_name[w],
						 kern_cpu_feature_name[tp_width_feature[w]]);
			run_name_list(names, sizeof(names), tp_width_name,
				      TP_NR_WIDTHS, usable);
			return cli_usage(cmd, "option '--width': %s needs %s, which this CPU lacks: use %s",
					 tp_width_name[w],
					 kern_cpu_feature_name[tp_width_feature[w]],
					 names);
		}
	} else if (usable) {
		for (w = TP_NR_WIDTHS - 1; !(usable & (1u << w)); w--)
			;	/* the widest */
	} else {
		cli_err(cmd, "throughput cannot run",
			"this CPU has none of the SIMD widths (sse, avx, avx512): throughput needs x86-64");
		return MDC_EXIT_LOCAL;
	}
	mixes = (1u << TP_NR_MIXES) - 1;
	if (a->mix) {
		rc = run_parse_names(cmd, "--mix", "mix", a->mix, tp_mix_name,
				     TP_NR_MIXES, true, &mixes);
		if (rc != MDC_EXIT_OK)
			return rc;
	}
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
	ghz = kern_tsc_ghz();
	if (!(ghz > 0)) {
		cli_err(cmd, "throughput cannot run",
			"no time stamp counter to time it with");
		return MDC_EXIT_LOCAL;
	}
	for (i = 0; i < a->nr_size; i++) {
		/* the mixes are the run's phases, in enum order: a slot each */
		run_fmt_size(sz, sizeof(sz), a->size[i]);
		for (m = 0, nm = 0; m < TP_NR_MIXES; m++) {
			if (!(mixes & (1u << m)))
				continue;
			snprintf(label[nm], sizeof(label[nm]), "%s/%s", sz,
				 tp_mix_name[m]);
			labels[nm] = label[nm];
			nm++;
		}
		slot[i] = run_counters_next(a->counters, nm, labels);
		if (throughput_run(cfg, a->size[i], w, mixes, ghz, &r[i], err,
				   sizeof(err))) {
			cli_err(cmd, "throughput failed", "%s", err);
			return MDC_EXIT_LOCAL;
		}
	}
	run_print_head(p, a);
	*printed = true;
	print_string(p, PRINT_ANY, "width", "%s", tp_width_name[w]);
	print_uint(p, PRINT_ANY, "width_bits", " loads (%u-bit), each thread on its own buffer of each size;",
		   tp_width_bits[w]);
	print_double(p, PRINT_ANY, "tsc_ghz", " TSC %.3f GHz\n", ghz);
	print_textf(p, "GB/s: bytes loaded (nothing is written: traffic = GB/s); B/cycle: per thread per TSC cycle\n");
	print_textf(p, "%-8s %-10s %10s %10s %10s %8s %8s %7s\n", "size", "mix",
		    "GB/s", "min", "max", "cov", "B/cycle", "passes");
	print_open_array(p, "results");
	for (i = 0; i < a->nr_size; i++) {
		run_fmt_size(sz, sizeof(sz), a->size[i]);
		for (m = 0, nm = 0; m < TP_NR_MIXES; m++) {
			const struct kern_stats *s = &r[i].gbps[m];

			if (!(mixes & (1u << m)))
				continue;
			print_open_object(p, NULL);
			run_result_common(p, a, a->size[i]);
			print_string(p, PRINT_TEXT, NULL, "%-8s", sz);
			print_string(p, PRINT_JSON, "width", "%s",
				     tp_width_name[w]);
			print_string(p, PRINT_ANY, "mix", " %-10s",
				     tp_mix_name[m]);
			print_double(p, PRINT_ANY, "gbps", " %10.2f", s->median);
			run_stats_json(p, "gbps", s);
			print_double(p, PRINT_TEXT, NULL, " %10.2f", s->min);
			print_double(p, PRINT_TEXT, NULL, " %10.2f", s->max);
			/* loads only: what is named is all that moves */
			print_double(p, PRINT_JSON, "traffic_gbps", "%f",
				     s->median);
			print_double(p, PRINT_ANY, "cov", " %8.4f", s->cov);
			print_double(p, PRINT_ANY, "bytes_per_cycle", " %8.2f",
				     r[i].bytes_per_cycle[m]);
			print_u64(p, PRINT_ANY, "passes", " %7" PRIu64 "\n",
				  r[i].passes);
			print_string(p, PRINT_JSON, "verified", "%s", NULL);
			run_counters_json(p, a->counters, slot[i] + nm++);
			print_close_object(p);
		}
	}
	print_close_array(p);
	run_counters_text(p, a->counters, "size/mix");
	return MDC_EXIT_OK;
}
