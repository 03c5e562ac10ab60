/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pages.h - the pages "memdiagctl run" got (kern_pages()), as its results
 * print them, whether a latency row's time has page walks in it, and the
 * warning when huge pages were asked for but not granted.
 */

#ifndef MEMDIAGCTL_RUN_PAGES_H
#define MEMDIAGCTL_RUN_PAGES_H

#include "print.h"
#include "run/run.h"

/*
 * The pages column: "2M" or "4K" when one size maps all that is
 * resident, else the larger with its share ("2M 63%"), "?" when the
 * kernel did not say. JSON: page_size_bytes (the size mapping the most),
 * hugepage_bytes and pages_from (pagemap or smaps), null when unknown.
 */
void run_print_pages(struct printer *p, const struct kern_pages *pg);

/*
 * With --hugepages, warn when part of @pg is not in huge pages, naming
 * @what ("latency 16K") and the likely reason (THP "never", a buffer
 * smaller than a huge page, none left). The test hook
 * MEMDIAG_TEST_THP_ENABLED replaces /sys/kernel/mm/transparent_hugepage/enabled.
 */
void run_check_hugepages(const struct run_args *a, const struct kern_pages *pg,
			 const char *what);
/*
 * The same for a row that itself says whether it @asked for huge pages
 * (latency's --pages); with @walks the warning adds that its latency
 * includes page walks.
 */
void run_check_pages(bool asked, const struct kern_pages *pg,
		     const char *what, bool walks);

/*
 * Whether a chase over @pg has page walks in its time: 1 when base pages
 * map most of it and its largest buffer (one thread's) is larger than
 * CPU 0's L2 cache (kern_l2_bytes_cpu0(); unknown: 1). Past the L2 a
 * random chase misses the first-level data TLB on every load, and once
 * past the second-level TLB's reach, which sysfs does not give, it walks
 * the page tables: 1 is "may include walks", certain at DRAM sizes. 0 on
 * huge pages or within the L2; -1 when the pages are unknown or are huge
 * pages of a virtual machine (run_page_walks_hidden()).
 */
int run_page_walks(const struct kern_pages *pg);
/*
 * Whether @pg are huge pages of a virtual machine (CPUID's hypervisor
 * bit): with nested paging a TLB entry maps the smaller of the guest's
 * and the host's page, and the host's is not visible from inside, so a
 * chase over them may walk the host's tables. run_page_walks() says -1.
 */
bool run_page_walks_hidden(const struct kern_pages *pg);
/* Warn, once a run, that from latency row @row on the walks are unknown. */
void run_warn_host_pages(const char *row);
/*
 * The latency rows' columns after "pages": "asked" (the page size the
 * row asked for: the base page, or with @asked the huge page) and
 * "walks" (run_page_walks(): yes, no, ?); JSON requested_page_size_bytes
 * and page_walks (null: unknown).
 */
void run_print_page_walks(struct printer *p, bool asked,
			  const struct kern_pages *pg);

/*
 * The rows of one run that each have buffers of their own (stencil's and
 * transpose's variants): those short of huge pages, summed, so that one
 * warning names them all. Zeroed before the first run_pages_miss_add().
 */
struct run_pages_miss {
	struct kern_pages pages;
	char names[128];	/* "jacobi-threaded, gs-wavefront" */
};

/* Add @pg under @name when it is short of huge pages. */
void run_pages_miss_add(struct run_pages_miss *m, const struct kern_pages *pg,
			const char *name);
/* run_check_hugepages() of what was added, as "@what (names)"; none: no-op. */
void run_pages_miss_check(const struct run_args *a,
			  const struct run_pages_miss *m, const char *what);

#endif /* MEMDIAGCTL_RUN_PAGES_H */
