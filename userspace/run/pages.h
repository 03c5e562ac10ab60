/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pages.h - the pages "memdiagctl run" got (kern_pages()), as its results
 * print them, and the warning when --hugepages was not granted.
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

#endif /* MEMDIAGCTL_RUN_PAGES_H */
