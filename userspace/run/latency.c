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

/* --pages: the names' order is the values' */
enum latency_pages {
	LATENCY_PAGES_AUTO, LATENCY_PAGES_4K, LATENCY_PAGES_HUGE,
	LATENCY_PAGES_UNSET,	/* not given: --hugepages, else auto */
};

static const char *const latency_pages_names[] = { "auto", "4k", "huge" };

struct latency_args {
	bool matrix;	/* --matrix: CPU node x memory node */
	unsigned int pages;	/* enum latency_pages */
};

static const struct run_param latency_params[] = {
	{ .opt = "matrix", .parse = run_param_flag,
	  .offset = offsetof(struct latency_args, matrix) },
	{ .opt = "pages", .parse = run_param_enum,
	  .offset = offsetof(struct latency_args, pages),
	  .what = "page choice", .names = latency_pages_names,
	  .nr_names = 3 },
	{ NULL }
};

static const struct latency_args latency_default = {
	.pages = LATENCY_PAGES_UNSET,
};

/* The --pages in force: --hugepages is --pages huge; neither is auto. */
static enum latency_pages latency_pages(const struct run_args *a)
{
	const struct latency_args *o = a->opts;

	if (o->pages != LATENCY_PAGES_UNSET)
		return (enum latency_pages)o->pages;
	return a->hugepages ? LATENCY_PAGES_HUGE : LATENCY_PAGES_AUTO;
}

/*
 * --pages auto asks for huge pages for every working set that holds one
 * (the PMD size sysfs gives, 2M on x86), base pages below: at DRAM sizes
 * a chase over 4K pages walks the page tables on nearly every load and
 * the walks' own loads miss the caches too, so the result would be a
 * page-walk latency; MLC chases huge pages. Inside the caches huge pages
 * are the truer latency as well: a last-level-cache-sized set over 4K
 * pages outgrows the second-level TLB (6-12M of 4K pages on current
 * x86 server cores), and a huge page's frames are one whole block, the
 * layout kern_alloc() gives base pages there anyway. Below one huge
 * page nothing else can be had, and such a set needs few TLB entries.
 */
bool run_latency_huge(const struct run_args *a, uint64_t size)
{
	uint64_t huge;

	switch (latency_pages(a)) {
	case LATENCY_PAGES_4K:
		return false;
	case LATENCY_PAGES_HUGE:
		return true;
	default:
		huge = kern_thp_bytes();
		return huge && size >= huge;
	}
}

int run_latency_args(const char *cmd, const struct run_args *a,
		     struct run_args *la)
{
	enum latency_pages pg = latency_pages(a);

	if (a->hugepages && pg != LATENCY_PAGES_HUGE)
		return cli_usage(cmd, "options '--hugepages' and '--pages %s' exclude each other: --hugepages is --pages huge",
				 latency_pages_names[pg]);
	*la = *a;
	/* the head's hugepages_requested: every buffer asked for them */
	la->hugepages = pg == LATENCY_PAGES_HUGE;
	return MDC_EXIT_OK;
}

/* The head's "pages": the --pages in force. */
static void latency_head(struct printer *p, const struct run_args *a)
{
	print_string(p, PRINT_ANY, "pages", ", pages: %s",
		     latency_pages_names[latency_pages(a)]);
}

/* one size in each of L1, L2, L3 and DRAM of a typical server */
static const uint64_t default_sizes[] = {
	16ull << 10, 256ull << 10, 8ull << 20, 256ull << 20, 0
};

void run_latency_values(struct printer *p, const struct latency_result *r,
			bool asked, double ghz, const char *row)
{
	int walks = run_page_walks(&r->pages);

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
	run_print_page_walks(p, asked, &r->pages);
	print_uint(p, PRINT_TEXT, NULL, " %6u\n", r->timed.reps);
	print_string(p, PRINT_JSON, "verified", "%s", NULL);
	print_u64(p, PRINT_JSON, "loads", "%" PRIu64, r->loads);
	run_check_pages(asked, &r->pages, row, walks > 0);
}

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
		slot[i] = run_counters_next(a->counters, 1, label);
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
	run_counters_text(p, a->counters, "size");
	return MDC_EXIT_OK;
}

const struct run_kernel run_latency = {
	.name = "latency", .default_sizes = default_sizes, .size_list = true,
	.params = latency_params,
	.opts_size = sizeof(struct latency_args),
	.opts_default = &latency_default,
	.head = latency_head,
	.run = latency_main,
};
