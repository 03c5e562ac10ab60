// SPDX-License-Identifier: GPL-2.0
/*
 * alloc.c - the kernels' buffers: huge pages when asked, else base pages
 * whose frames come in whole huge-page blocks while they fit in the
 * last-level cache, placed (place.c) and counted against the memory
 * budget (budget.c).
 *
 * Why base pages get whole blocks of frames: which physical frames the
 * allocator hands out is left over from whatever ran before, and it
 * shows. On the Intel VM of Documentation/kernels.rst an 8190K AVX-512
 * load loop over 4K pages read 28.5-28.9 GB/s over scattered frames
 * (0-30 % of neighbouring pages physically consecutive) and 29.2-29.5
 * over the same 4K translations of whole 2M blocks, by the process's
 * luck: the same run a second time in one process, after other sizes
 * had freed theirs, lost about 1 %. With the frames fixed, base pages
 * and --hugepages differ only in translation, which is what comparing
 * them is for.
 *
 * Why only while they fit in the last-level cache: that is where the
 * frames decide how a buffer spreads over the cache's sets and slices.
 * Beyond it the same layout bought DRAM loops ~1.5 % (stream copy 1920M
 * 14.71-14.75 vs 14.49-14.57 GB/s) and cost twice the set-up time in
 * huge-page faults, and after a process had faulted and freed gigabytes
 * that way the next one's DRAM bandwidth on that VM fell ~9 % for some
 * seconds (likwid-bench copy 2T 24.9-25.3 vs 27.9 GB/s alone): a peer
 * run after memdiag paid for memdiag's layout.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cache.h"
#include "kernel.h"

uint64_t kern_thp_bytes(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
			"r");
	uint64_t v = 0;

	if (f) {
		if (fscanf(f, "%" SCNu64, &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* The huge page size a buffer of @bytes is mapped in, 0 for none. */
static size_t block_bytes(size_t bytes)
{
	size_t huge = (size_t)kern_thp_bytes();
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	if (huge <= pg || huge & (huge - 1) || bytes < huge)
		return 0;	/* nothing to align to, or no whole page */
	return huge;
}

/*
 * What is mapped for a buffer of @bytes in @block sized huge pages
 * (block_bytes(), 0 for none), from its start: whole base pages, and
 * whole huge pages once it holds one, so that its last part is not left
 * on whatever the allocator has (at most one huge page more than asked,
 * untouched where nothing faults it in; kern_free() unmaps the same).
 */
static size_t map_bytes(size_t bytes, size_t block)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t unit = block ? block : pg;

	return (bytes + unit - 1) & ~(unit - 1);
}

/*
 * @len bytes starting on a huge page boundary: Linux aligns an anonymous
 * mapping to huge pages only since 6.7 and only when its length is a
 * multiple, and only whole, aligned huge pages can be transparent ones.
 * So map one huge page more and trim.
 */
static char *map_aligned(size_t len, size_t block)
{
	uintptr_t raw, p;

	raw = (uintptr_t)mmap(NULL, len + block, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == (uintptr_t)MAP_FAILED)
		return NULL;
	p = block ? (raw + block - 1) & ~(uintptr_t)(block - 1) : raw;
	if (p > raw)
		munmap((void *)raw, p - raw);
	if (raw + block > p)
		munmap((void *)(p + len), raw + block - p);
	return (char *)p;
}

/*
 * Base pages over whole blocks of frames: fault each block in as one
 * transparent huge page (where the kernel has one to give), keep
 * khugepaged from ever collapsing it again, split each block's PMD into
 * 4K entries that map the same frames (an mprotect() of one page and
 * back does that, and moves no data), then split the huge folio itself
 * into base folios (MADV_COLD on part of one does, since 5.4; the page
 * it names is only marked cold). The last step matters: a PTE-mapped
 * huge folio is aged as one, and the Intel VM's kdamond clearing the
 * accessed bits of all its 512 entries at a time left a 1920M load loop
 * at 13.8-15.0 GB/s where base folios on the same frames read 16.6-16.7.
 * Where THP is off or no huge page is free, the block is base pages from
 * wherever, as before.
 */
static void frames_in_blocks(char *p, size_t len, size_t block)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), o;

	/* the stores below are volatile: they are for the kernel to see */
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
	if (madvise(p, len, MADV_HUGEPAGE) == 0)
		for (o = 0; o < len; o += block)
			*(volatile char *)(p + o) = 0;
	(void)madvise(p, len, MADV_NOHUGEPAGE);
#endif
	/*
	 * A split hands the zero-filled parts of a huge folio back for the
	 * shared zero page (the Intel VM's 6.18 did): mark every page until
	 * then, and give the buffer back as zeroed as mmap() made it.
	 */
	for (o = 0; o < len; o += pg)
		*(volatile char *)(p + o) = 1;
	for (o = 0; o < len; o += block) {
		if (mprotect(p + o, pg, PROT_READ) == 0)
			(void)mprotect(p + o, pg, PROT_READ | PROT_WRITE);
#ifdef MADV_COLD
		(void)madvise(p + o, pg, MADV_COLD);
#endif
	}
	for (o = 0; o < len; o += pg)
		*(volatile char *)(p + o) = 0;
}

/*
 * Whether the buffers held (kern_budget_held(), the one being allocated
 * included) fit in the last-level cache (kern_llc_bytes_cpu0()). Counting all
 * of them, not the one buffer, leaves a DRAM-sized run of many small
 * buffers (threads, arrays) on plain pages from the point its total
 * passes the cache; an unknown cache size gets plain pages throughout.
 */
static bool held_fits_llc(void)
{
	uint64_t llc = kern_llc_bytes_cpu0();

	return llc && kern_budget_held() <= llc;
}

void *kern_alloc(size_t bytes, bool hugepages)
{
	size_t len, block;
	char *p;

	if (!bytes)
		bytes = 1;
	block = block_bytes(bytes);
	len = map_bytes(bytes, block);
	if (kern_budget_take(len) < 0)
		return NULL;	/* more than MemAvailable: kern_oom() says */
	p = map_aligned(len, block);
	if (!p) {
		kern_budget_give(len);
		return NULL;
	}
	/* before the first fault: the node's frames from the start */
	kern_place(p, len);
#ifdef MADV_HUGEPAGE
	if (hugepages)
		(void)madvise(p, len, MADV_HUGEPAGE);	/* a hint only */
#endif
	if (!hugepages && block && held_fits_llc())
		frames_in_blocks(p, len, block);
	return p;
}

void kern_free(void *p, size_t bytes)
{
	size_t len;

	if (!p)
		return;
	if (!bytes)
		bytes = 1;
	len = map_bytes(bytes, block_bytes(bytes));
	munmap(p, len);
	kern_budget_give(len);
}
