// SPDX-License-Identifier: GPL-2.0
/*
 * pages.c - the pages the kernel really gave a run's buffers, as "run"
 * prints them (every kernel's rows), and the warning when hugepages were
 * asked for (--hugepages, latency's --pages) but not granted:
 * MADV_HUGEPAGE is a hint, and a result over 4K pages is not one over 2M
 * pages. For the latency rows, whether page walks are in their time.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "../../kernels/cache.h"
#include "run/pages.h"
#include "run/warn.h"

void run_print_pages(struct printer *p, const struct kern_pages *pg)
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

/* The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled. */
static void thp_mode(char *buf, size_t size)
{
	const char *path = getenv("MEMDIAG_TEST_THP_ENABLED");
	char line[128] = "", *b, *e;
	FILE *f;

	snprintf(buf, size, "unknown");
	f = fopen(path ? path : "/sys/kernel/mm/transparent_hugepage/enabled",
		  "r");
	if (!f)
		return;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	b = strchr(line, '[');
	e = b ? strchr(b, ']') : NULL;
	if (b && e)
		snprintf(buf, size, "%.*s", (int)(e - b - 1), b + 1);
}

/* Whether huge pages map half of @pg's resident bytes or less. */
static bool run_pages_short(const struct kern_pages *pg)
{
	/* granted: huge pages map most of it (page_size_bytes says so too) */
	return pg->resident_bytes && 2 * pg->huge_bytes <= pg->resident_bytes;
}

void run_pages_miss_add(struct run_pages_miss *m, const struct kern_pages *pg,
			const char *name)
{
	size_t len = strlen(m->names);

	if (!run_pages_short(pg))
		return;
	kern_pages_add(&m->pages, pg);
	snprintf(m->names + len, sizeof(m->names) - len, "%s%s",
		 len ? ", " : "", name);
}

void run_pages_miss_check(const struct run_args *a,
			  const struct run_pages_miss *m, const char *what)
{
	char row[sizeof(m->names) + 64];

	if (!m->names[0])
		return;
	snprintf(row, sizeof(row), "%s (%s)", what, m->names);
	run_check_hugepages(a, &m->pages, row);
}

/* Why @pg is short of huge pages, into @why. */
static void short_reason(const struct kern_pages *pg, char *why, size_t size)
{
	char mode[32], huge[16];

	thp_mode(mode, sizeof(mode));
	run_fmt_size(huge, sizeof(huge), pg->huge_page_bytes);
	if (!strcmp(mode, "never"))
		snprintf(why, size, "transparent hugepages are \"never\" here (/sys/kernel/mm/transparent_hugepage/enabled)");
	else if (!pg->huge_page_bytes)
		snprintf(why, size, "this kernel has no transparent hugepages");
#ifdef PR_GET_THP_DISABLE
	else if (prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) > 0)
		snprintf(why, size, "this process has transparent hugepages disabled (prctl PR_SET_THP_DISABLE, inherited from its parent)");
#endif
	else if (pg->largest_bytes < pg->huge_page_bytes)
		snprintf(why, size, "each buffer is smaller than one %s huge page", huge);
	else
		snprintf(why, size, "the kernel had no more %s pages to give (THP \"%s\"; see /sys/kernel/mm/transparent_hugepage/defrag)",
			 huge, mode);
}

void run_check_pages(bool asked, const struct kern_pages *pg,
		     const char *what, bool walks)
{
	char why[200];

	if (!asked || !run_pages_short(pg))
		return;
	short_reason(pg, why, sizeof(why));
	run_warn("hugepages asked for but not granted: %s: %.0f%% of its memory is in huge pages - %s%s",
		 what, 100.0 * (double)pg->huge_bytes /
		 (double)pg->resident_bytes, why,
		 walks ? "; its latency includes page walks (page_walks)" : "");
}

void run_check_hugepages(const struct run_args *a, const struct kern_pages *pg,
			 const char *what)
{
	run_check_pages(a->hugepages, pg, what, false);
}

bool run_page_walks_hidden(const struct kern_pages *pg)
{
	return pg->resident_bytes &&
	       kern_pages_size(pg) != pg->base_page_bytes &&
	       run_cpu_has(KERN_CPU_HYPERVISOR);
}

void run_warn_host_pages(const char *row)
{
	static bool warned;

	if (warned)
		return;
	warned = true;
	run_warn("page walks unknown from %s on: huge pages in a virtual machine, whose host may map them with smaller pages, and then its page walks are in the latency (page_walks null)",
		 row);
}

int run_page_walks(const struct kern_pages *pg)
{
	uint64_t l2 = kern_l2_bytes_cpu0();

	if (!pg->resident_bytes || run_page_walks_hidden(pg))
		return -1;	/* the pages, or the host's, are unknown */
	if (kern_pages_size(pg) != pg->base_page_bytes)
		return 0;	/* huge pages: a few TLB entries map it all */
	/* no L2 in sysfs: base pages may walk, say so */
	return !l2 || pg->largest_bytes > l2;
}

void run_print_page_walks(struct printer *p, bool asked,
			  const struct kern_pages *pg)
{
	uint64_t want = asked ? pg->huge_page_bytes : pg->base_page_bytes;
	int walks = run_page_walks(pg);
	char buf[16];

	/* huge pages asked for where the kernel names no size: "huge", null */
	if (want)
		run_fmt_size(buf, sizeof(buf), want);
	else
		snprintf(buf, sizeof(buf), "%s", asked ? "huge" : "?");
	print_string(p, PRINT_TEXT, NULL, " %6s", buf);
	if (want)
		print_u64(p, PRINT_JSON, "requested_page_size_bytes",
			  "%" PRIu64, want);
	else
		print_string(p, PRINT_JSON, "requested_page_size_bytes", "%s",
			     NULL);
	if (walks < 0) {
		print_string(p, PRINT_TEXT, NULL, " %6s", "?");
		print_string(p, PRINT_JSON, "page_walks", "%s", NULL);
	} else {
		print_bool(p, PRINT_ANY, "page_walks", " %6s", walks);
	}
}
