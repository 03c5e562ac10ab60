// SPDX-License-Identifier: GPL-2.0
/*
 * pages.c - which page sizes the kernel really gave a buffer: asking
 * for transparent hugepages (MADV_HUGEPAGE) is a hint, and a chase over
 * 4K pages walks the page tables on almost every load where one over
 * 2M pages does not, so a latency is only comparable with the page size
 * it ran on.
 *
 * Linux 6.7 and later answer for the exact range (PAGEMAP_SCAN on
 * /proc/self/pagemap: PAGE_IS_HUGE marks PMD-mapped THP and hugetlb
 * pages); older kernels only per mapping, from /proc/self/smaps.
 */

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kernel.h"

/* Debian 12's headers predate it: the UAPI of include/uapi/linux/fs.h */
#ifndef PAGEMAP_SCAN
struct page_region {
	uint64_t start, end, categories;
};

struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask;
	uint64_t return_mask;
};

#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PAGE_IS_PRESENT (1 << 3)
#define PAGE_IS_HUGE (1 << 6)
#endif

#define PAGES_VEC 64	/* regions per ioctl; the walk goes on from its end */

/* 0, or -1 where the kernel has no PAGEMAP_SCAN (before 6.7) or it failed. */
static int scan(uintptr_t lo, uintptr_t hi, struct kern_pages *pg)
{
	struct page_region vec[PAGES_VEC];
	struct pm_scan_arg a;
	int fd, n, i, rc = 0;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (lo < hi) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.start = lo;
		a.end = hi;
		a.vec = (uintptr_t)vec;
		a.vec_len = PAGES_VEC;
		a.category_mask = PAGE_IS_PRESENT;	/* resident pages only */
		a.return_mask = PAGE_IS_PRESENT | PAGE_IS_HUGE;
		n = ioctl(fd, PAGEMAP_SCAN, &a);
		if (n < 0) {
			rc = -1;
			break;
		}
		for (i = 0; i < n; i++) {
			pg->resident_bytes += vec[i].end - vec[i].start;
			if (vec[i].categories & PAGE_IS_HUGE)
				pg->huge_bytes += vec[i].end - vec[i].start;
		}
		if (a.walk_end <= lo)	/* no progress: never loop forever */
			break;
		lo = a.walk_end;
	}
	close(fd);
	return rc;
}

/* Scale a mapping's count to the part of it inside [lo, hi). */
static uint64_t part(uint64_t kb, uintptr_t vlo, uintptr_t vhi, uintptr_t lo,
		     uintptr_t hi)
{
	uintptr_t a = vlo > lo ? vlo : lo, b = vhi < hi ? vhi : hi;

	return (uint64_t)((double)kb * 1024 * (double)(b - a) /
			  (double)(vhi - vlo));
}

/*
 * The mappings that overlap [lo, hi): a mapping that reaches past the
 * range (merged with a neighbour of the same flags) counts in proportion.
 */
static int from_smaps(uintptr_t lo, uintptr_t hi, struct kern_pages *pg)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	uintptr_t vlo = 0, vhi = 0, a, b;
	bool in = false;
	char line[256];
	uint64_t kb;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* a mapping's first line: "lo-hi perms ..." */
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &a, &b) == 2) {
			vlo = a;	/* "AnonHugePages" starts with a hex digit */
			vhi = b;
			in = vlo < hi && vhi > lo;
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "Rss: %" SCNu64, &kb) == 1)
			pg->resident_bytes += part(kb, vlo, vhi, lo, hi);
		else if (sscanf(line, "AnonHugePages: %" SCNu64, &kb) == 1)
			pg->huge_bytes += part(kb, vlo, vhi, lo, hi);
	}
	fclose(f);
	return 0;
}

/* The pages of [p, p + bytes) rounded out to the base page size. */
static void range(const void *p, size_t bytes, uintptr_t *lo, uintptr_t *hi,
		  struct kern_pages *pg)
{
	uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);

	*lo = (uintptr_t)p & ~(ps - 1);
	*hi = ((uintptr_t)p + bytes + ps - 1) & ~(ps - 1);
	memset(pg, 0, sizeof(*pg));
	pg->bytes = bytes;
	pg->largest_bytes = bytes;
	pg->base_page_bytes = ps;
	pg->huge_page_bytes = kern_thp_bytes();
	pg->exact = true;
}

int kern_pages_smaps(const void *p, size_t bytes, struct kern_pages *pg)
{
	uintptr_t lo, hi;

	range(p, bytes, &lo, &hi, pg);
	pg->exact = false;
	return p && bytes ? from_smaps(lo, hi, pg) : 0;
}

int kern_pages(const void *p, size_t bytes, struct kern_pages *pg)
{
	uintptr_t lo, hi;

	range(p, bytes, &lo, &hi, pg);
	if (!p || !bytes || !scan(lo, hi, pg))
		return 0;
	/* before 6.7 (ENOTTY, EINVAL), or a partial scan, which is no answer */
	return kern_pages_smaps(p, bytes, pg);
}

void kern_pages_add(struct kern_pages *sum, const struct kern_pages *pg)
{
	/* the first added sets it; one inexact part makes the sum so */
	sum->exact = pg->exact && (sum->exact || !sum->bytes);
	sum->bytes += pg->bytes;
	sum->resident_bytes += pg->resident_bytes;
	sum->huge_bytes += pg->huge_bytes;
	sum->base_page_bytes = pg->base_page_bytes;
	sum->huge_page_bytes = pg->huge_page_bytes;
	if (pg->largest_bytes > sum->largest_bytes)
		sum->largest_bytes = pg->largest_bytes;
}

uint64_t kern_pages_size(const struct kern_pages *pg)
{
	/* the size that maps most of what is resident */
	if (pg->huge_page_bytes && 2 * pg->huge_bytes > pg->resident_bytes)
		return pg->huge_page_bytes;
	return pg->base_page_bytes;
}
