// SPDX-License-Identifier: GPL-2.0
/*
 * latency.c - "memdiagctl run latency": the pointer chase, ns and TSC
 * cycles per load for each working-set size, and the page size the
 * kernel really backed the working set with (a hugepage request is a
 * hint: over 4K pages the chase also times page walks).
 */

#include <inttypes.h>
#include <math.h>

#include "run/run.h"
#include "run/warn.h"

/* one size in each of L1, L2, L3 and DRAM of a typical server */
static const uint64_t default_sizes[] = {
	16ull << 10, 256ull << 10, 8ull << 20, 256ull << 20, 0
};

/*
 * The pages column: "2M" or "4K" when one size maps all that is
 * resident, else the larger with its share ("2M 63%"), "?" when the
 * kernel did not say. JSON: page_size_bytes (the size mapping the most)
 * and hugepage_bytes, null when unknown.
 */
static void print_pages(struct printer *p, const struct kern_pages *pg)
{
	char buf[32], sz[16];
	uint64_t res = pg->resident_bytes;

	if (!res) {
		print_string(p, PRINT_TEXT, NULL, " %8s", "?");
		print_string(p, PRINT_JSON, "page_size_bytes", "%s", NULL);
		print_string(p, PRINT_JSON, "hugepage_bytes", "%s", NULL);
		print_string(p, PRINT_JSON, "pages_from", "%s", NULL);
		return;
	}
	if (!pg->huge_bytes || pg->huge_bytes >= res) {
		run_fmt_size(buf, sizeof(buf), pg->huge_bytes ?
			     pg->huge_page_bytes : pg->base_page_bytes);
	} else {
		run_fmt_size(sz, sizeof(sz), pg->huge_page_bytes);
		snprintf(buf, sizeof(buf), "%s %.0f%%", sz,
			 100.0 * (double)pg->huge_bytes / (double)res);
	}
	print_string(p, PRINT_TEXT, NULL, " %8s", buf);
	print_u64(p, PRINT_JSON, "page_size_bytes", "%" PRIu64,
		  kern_pages_size(pg));
	print_u64(p, PRINT_JSON, "hugepage_bytes", "%" PRIu64, pg->huge_bytes);
	/* pagemap: this range exactly; smaps: per mapping (before 6.7) */
	print_string(p, PRINT_JSON, "pages_from", "%s",
		     pg->exact ? "pagemap" : "smaps");
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
	uint64_t big;
	size_t i, n;

	/* smaller sizes are meant for the caches: only the largest is DRAM's */
	for (i = 0, big = 0; i < a->nr_size; i++)
		big = a->size[i] > big ? a->size[i] : big;
	run_check_llc(big * a->threads, "the largest latency size");
	for (i = 0; i < a->nr_size; i++) {
		run_fmt_size(sz, sizeof(sz), a->size[i]);
		slot[i] = run_counters_next(a->counters, 1, label);
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
		/* a chase moves one line per load, but that is no bandwidth */
		print_string(p, PRINT_JSON, "gbps", "%s", NULL);
		print_string(p, PRINT_JSON, "traffic_gbps", "%s", NULL);
		print_double(p, PRINT_ANY, "ns_per_load", " %10.2f", r[i].ns.median);
		run_stats_json(p, "ns_per_load", &r[i].ns);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r[i].ns.min);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r[i].ns.max);
		snprintf(row, sizeof(row), "latency %s", sz);
		run_print_cov(p, " %8.4f", r[i].ns.cov, row);
		print_double(p, PRINT_ANY, "cycles_per_load", " %12.1f",
			     ghz > 0 ? r[i].ns.median * ghz : NAN);
		print_pages(p, &r[i].pages);
		print_uint(p, PRINT_TEXT, NULL, " %6u\n", r[i].timed.reps);
		print_string(p, PRINT_JSON, "verified", "%s", NULL);
		print_u64(p, PRINT_JSON, "loads", "%" PRIu64, r[i].loads);
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
	.run = latency_main,
};
