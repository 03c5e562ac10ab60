// SPDX-License-Identifier: GPL-2.0
/*
 * latency_pages.c - what "run latency" (latency.c) and its --matrix
 * (matrix.c) share: the page size each chase asks for (--pages) and one
 * result's values. Both call it; it calls neither.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "run/latency.h"
#include "run/pages.h"
#include "run/run.h"
#include "run/warn.h"

const char *const run_latency_pages_names[] = { "auto", "4k", "huge" };

/* The --pages in force: --hugepages is --pages huge; neither is auto. */
enum latency_pages run_latency_pages(const struct run_args *a)
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

	switch (run_latency_pages(a)) {
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
	enum latency_pages pg = run_latency_pages(a);

	if (a->hugepages && pg != LATENCY_PAGES_HUGE)
		return cli_usage(cmd, "options '--hugepages' and '--pages %s' exclude each other: --hugepages is --pages huge",
				 run_latency_pages_names[pg]);
	*la = *a;
	/* the head's hugepages_requested: every buffer asked for them */
	la->hugepages = pg == LATENCY_PAGES_HUGE;
	return MDC_EXIT_OK;
}

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
	if (run_page_walks_hidden(&r->pages))
		run_warn_host_pages(row);
}
