/* SPDX-License-Identifier: GPL-2.0 */
/*
 * latency.h - what "run latency" (latency.c) and its --matrix (matrix.c)
 * share.
 */

#ifndef MEMDIAGCTL_RUN_LATENCY_H
#define MEMDIAGCTL_RUN_LATENCY_H

#include "run/run.h"

/* --pages: the names' order is the values' */
enum latency_pages {
	LATENCY_PAGES_AUTO, LATENCY_PAGES_4K, LATENCY_PAGES_HUGE,
	LATENCY_PAGES_UNSET,	/* not given: --hugepages, else auto */
};

struct latency_args {
	bool matrix;	/* --matrix: CPU node x memory node */
	unsigned int pages;	/* enum latency_pages */
};

/* --pages's names, indexed by enum latency_pages */
extern const char *const run_latency_pages_names[];

/* The --pages in force: --hugepages is --pages huge; neither is auto. */
enum latency_pages run_latency_pages(const struct run_args *a);

/*
 * One latency result's values after its first column: ns per load (median,
 * min, max, CoV), cycles, pages, the pages @asked for (huge: true), page
 * walks, reps, and the warnings naming @row ("latency 64M") when it is
 * noisy or its hugepages were not granted.
 */
void run_latency_values(struct printer *p, const struct latency_result *r,
			bool asked, double ghz, const char *row);

/*
 * Check --pages against --hugepages (a usage error when they disagree)
 * and give @la, @a with hugepages true when every buffer asks for huge
 * pages (--pages huge or --hugepages), false otherwise; an exit code.
 */
int run_latency_args(const char *cmd, const struct run_args *a,
		     struct run_args *la);
/* Whether a chase of @size bytes per thread asks for huge pages (--pages). */
bool run_latency_huge(const struct run_args *a, uint64_t size);

/* run latency --matrix: a struct run_kernel's run(). */
int run_latency_matrix(const char *cmd, struct printer *p,
		       const struct run_args *a, const struct kern_cfg *cfg,
		       bool *printed);

#endif /* MEMDIAGCTL_RUN_LATENCY_H */
