// SPDX-License-Identifier: GPL-2.0
/*
 * pages_test.c - kern_pages() (kernels/pages.c) against the kernel's own
 * per-mapping count in /proc/self/smaps, parsed here independently, on
 * buffers with all, none and part of their pages huge; kern_alloc()'s
 * alignment and whole huge pages, without which a 3M buffer gets at most
 * one; and its base pages' frames, in whole huge-page blocks, read from
 * /proc/self/pagemap, while the buffers held fit in the last-level cache
 * (a fake sysfs gives its size), unfaulted beyond (kselftest harness).
 */

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../../kernels/kernel.h"

#define MIB (1ull << 20)

/* smaps' Rss and AnonHugePages (bytes) summed over the mappings in [p, p + n) */
struct smaps_count {
	uint64_t rss, anon_huge;
	int mappings, outside;	/* outside: mappings reaching past the range */
};

static int smaps_count(const void *p, size_t n, struct smaps_count *c)
{
	uintptr_t lo = (uintptr_t)p, hi = lo + n, a, b;
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256], key[64];
	uint64_t kb;
	int in = 0;

	memset(c, 0, sizeof(*c));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &a, &b) == 2 &&
		    line[strspn(line, "0123456789abcdef")] == '-') {
			in = a < hi && b > lo;
			c->mappings += in;
			c->outside += in && (a < lo || b > hi);
			continue;
		}
		if (!in || sscanf(line, "%63[^:]: %" SCNu64, key, &kb) != 2)
			continue;
		if (!strcmp(key, "Rss"))
			c->rss += kb << 10;
		else if (!strcmp(key, "AnonHugePages"))
			c->anon_huge += kb << 10;
	}
	fclose(f);
	return 0;
}

/* THP usable for madvised memory: "[always]" or "[madvise]" */
static int thp_usable(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char mode[128] = "";

	if (!f)
		return 0;
	if (!fgets(mode, sizeof(mode), f))
		mode[0] = 0;
	fclose(f);
	return !strstr(mode, "[never]") && kern_thp_bytes() == 2 * MIB;
}

FIXTURE(buf) {
	void *p;
	size_t n;
};

FIXTURE_SETUP(buf)
{
	self->p = NULL;
	self->n = 0;
}

FIXTURE_TEARDOWN(buf)
{
	kern_free(self->p, self->n);
}

/* Allocate and touch @n bytes as the kernels do; skip without THP. */
static void *get(struct __test_metadata *_metadata, FIXTURE_DATA(buf) *self,
		 size_t n, bool huge)
{
	if (huge && !thp_usable())
		SKIP(return NULL, "transparent hugepages are off or not 2M here");
	self->n = n;
	self->p = kern_alloc(n, huge);
	ASSERT_NE(NULL, self->p);
	if (!huge)	/* base pages even where THP is "always" */
		ASSERT_EQ(0, madvise(self->p, n, MADV_NOHUGEPAGE));
	memset(self->p, 1, n);
	return self->p;
}

/*
 * kern_pages() and the smaps fallback both equal smaps' own count, which
 * is left in @c: skips are decided on it, never on what is tested.
 */
static void same_as_smaps(struct __test_metadata *_metadata, const void *p,
			  size_t n, struct kern_pages *pg,
			  struct smaps_count *c)
{
	struct kern_pages fb;

	ASSERT_EQ(0, smaps_count(p, n, c));
	ASSERT_EQ(0, c->outside) TH_LOG("a mapping reaches past the buffer");
	ASSERT_EQ(0, kern_pages(p, n, pg));
	EXPECT_EQ(n, pg->bytes);
	EXPECT_EQ(c->rss, pg->resident_bytes);
	EXPECT_EQ(c->anon_huge, pg->huge_bytes);
	EXPECT_EQ((uint64_t)sysconf(_SC_PAGESIZE), pg->base_page_bytes);
	ASSERT_EQ(0, kern_pages_smaps(p, n, &fb));
	EXPECT_FALSE(fb.exact);
	EXPECT_EQ(c->rss, fb.resident_bytes);
	EXPECT_EQ(c->anon_huge, fb.huge_bytes);
}

TEST_F(buf, huge_pages_as_smaps_counts_them)
{
	struct smaps_count c;
	struct kern_pages pg;
	void *p = get(_metadata, self, 8 * MIB, true);

	if (!p)
		return;
	EXPECT_EQ(0, (uintptr_t)p % (2 * MIB));
	same_as_smaps(_metadata, p, self->n, &pg, &c);
	/* the kernel may refuse THP when memory is fragmented: say so */
	if (!c.anon_huge)
		SKIP(return, "the kernel gave no huge page this time");
	EXPECT_EQ(2 * MIB, kern_pages_size(&pg));
}

TEST_F(buf, base_pages_as_smaps_counts_them)
{
	struct smaps_count c;
	struct kern_pages pg;
	void *p = get(_metadata, self, 8 * MIB, false);

	same_as_smaps(_metadata, p, self->n, &pg, &c);
	EXPECT_EQ(0, pg.huge_bytes);
	EXPECT_EQ(self->n, pg.resident_bytes);
	EXPECT_EQ((uint64_t)sysconf(_SC_PAGESIZE), kern_pages_size(&pg));
}

/* one huge page of four split by an mprotect(): 6M of 8M stay huge */
TEST_F(buf, part_split_as_smaps_counts_it)
{
	struct smaps_count c;
	struct kern_pages pg;
	char *p = get(_metadata, self, 8 * MIB, true);
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);

	if (!p)
		return;
	ASSERT_EQ(0, mprotect(p + 3 * MIB, ps, PROT_READ));
	same_as_smaps(_metadata, p, self->n, &pg, &c);
	if (c.anon_huge != 6 * MIB)
		SKIP(return, "%" PRIu64 " bytes huge, not the 6M this needs",
		     c.anon_huge);
	EXPECT_EQ(2 * MIB, kern_pages_size(&pg));
}

/*
 * aligned by kern_alloc() and mapped to whole huge pages, a 3M buffer is
 * huge throughout; kern_free() unmaps all that was mapped
 */
TEST_F(buf, odd_size_is_huge_throughout)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	struct smaps_count c;
	struct kern_pages pg;
	char *p = get(_metadata, self, 3 * MIB, true);
	unsigned char in;

	if (!p)
		return;
	EXPECT_EQ(0, (uintptr_t)p % (2 * MIB));
	ASSERT_EQ(0, smaps_count(p, 4 * MIB, &c));
	ASSERT_EQ(0, c.outside) TH_LOG("not mapped to whole huge pages");
	if (!c.anon_huge)
		SKIP(return, "the kernel gave no huge page this time");
	EXPECT_EQ(4 * MIB, c.anon_huge);
	ASSERT_EQ(0, kern_pages(p, self->n, &pg));
	EXPECT_EQ(3 * MIB, pg.huge_bytes);
	kern_free(self->p, self->n);
	self->p = NULL;
	/* the huge page past the buffer went too */
	EXPECT_EQ(-1, mincore(p + 4 * MIB - ps, ps, &in));
}

/*
 * Whether the kernel gives a huge page now, asked for directly: where it
 * does not (memory fragmented), kern_alloc() cannot either.
 */
static int huge_page_now(void)
{
	size_t len = 4 * MIB;
	struct smaps_count c;
	char *raw, *p;
	int got;

	raw = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return 0;
	p = (char *)(((uintptr_t)raw + 2 * MIB - 1) & ~(uintptr_t)(2 * MIB - 1));
	got = !madvise(p, 2 * MIB, MADV_HUGEPAGE);
	if (got) {
		memset(p, 1, 2 * MIB);
		got = !smaps_count(p, 2 * MIB, &c) && c.anon_huge;
	}
	munmap(raw, len);
	return got;
}

/*
 * How many of @n frames are parts of a larger folio (KPF_COMPOUND_HEAD
 * and _TAIL, bits 15 and 16 of /proc/kpageflags); -1 unreadable.
 */
static long compound_frames(const uint64_t *pfn, size_t n)
{
	int fd = open("/proc/kpageflags", O_RDONLY);
	long count = 0;
	uint64_t fl;
	size_t i;

	if (fd < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (pread(fd, &fl, sizeof(fl), (off_t)(pfn[i] * sizeof(fl))) !=
		    sizeof(fl)) {
			close(fd);
			return -1;
		}
		count += (fl >> 15 & 3) != 0;
	}
	close(fd);
	return count;
}

/* The frame of each base page of [p, p + n); 0 where pagemap hides it. */
static int frames_of(const char *p, size_t n, uint64_t *pfn)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), i;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t e;

	if (fd < 0)
		return -1;
	for (i = 0; i < n / ps; i++) {
		if (pread(fd, &e, sizeof(e),
			  (off_t)(((uintptr_t)p / ps + i) * sizeof(e))) !=
		    sizeof(e)) {
			close(fd);
			return -1;
		}
		pfn[i] = e & ((1ull << 55) - 1);
	}
	close(fd);
	return 0;
}

/*
 * A sysfs whose CPU 0 has a 48K L1 and an L3 of @llc ("" for no cache
 * listed at all), put in the test hook MEMDIAG_TEST_SYSFS_CPU, which
 * kern_alloc() reads the last-level cache from: the layout tests then do
 * not depend on this machine's cache. fake_llc_end() removes it.
 */
static char fake_dir[] = "/tmp/memdiag-llc.XXXXXX";

static void put(const char *dir, const char *name, const char *text)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int fake_llc(const char *llc)
{
	char d[256];

	strcpy(fake_dir, "/tmp/memdiag-llc.XXXXXX");
	if (!mkdtemp(fake_dir))
		return -1;
	setenv("MEMDIAG_TEST_SYSFS_CPU", fake_dir, 1);
	if (!*llc)
		return 0;
	snprintf(d, sizeof(d), "%s/cpu0", fake_dir);
	mkdir(d, 0700);
	snprintf(d, sizeof(d), "%s/cpu0/cache", fake_dir);
	mkdir(d, 0700);
	snprintf(d, sizeof(d), "%s/cpu0/cache/index0", fake_dir);
	mkdir(d, 0700);
	put(d, "level", "1\n");
	put(d, "size", "48K\n");
	snprintf(d, sizeof(d), "%s/cpu0/cache/index1", fake_dir);
	mkdir(d, 0700);
	put(d, "level", "3\n");
	put(d, "size", llc);
	return 0;
}

static void fake_llc_end(void)
{
	char cmd[300];

	unsetenv("MEMDIAG_TEST_SYSFS_CPU");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_dir);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", fake_dir);
}

/* Resident bytes of [p, p + n) by smaps; -1 unreadable. */
static int64_t resident(const void *p, size_t n)
{
	struct smaps_count c;

	return smaps_count(p, n, &c) ? -1 : (int64_t)c.rss;
}

/*
 * Base pages (4K translations: no huge page in smaps) whose frames are
 * consecutive within each 2M block, the last block past the buffer's
 * odd end included, and are base folios (alloc.c says why both).
 */
TEST_F(buf, base_pages_on_whole_blocks_of_frames)
{
	/* the last block's 12K in the buffer, the rest mapped past it */
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), n = 6 * MIB + 12 * 1024;
	size_t per = 2 * MIB / ps, i, off = 0;
	uint64_t *pfn;
	long large;
	struct smaps_count c;
	struct kern_pages pg;
	char *p;

	if (!thp_usable())
		SKIP(return, "transparent hugepages are off or not 2M here");
	if (!huge_page_now())
		SKIP(return, "the kernel gives no huge page now");
	ASSERT_EQ(0, fake_llc("16M\n"));	/* the 8M mapped fit */
	self->n = n;
	self->p = p = kern_alloc(n, false);
	fake_llc_end();
	ASSERT_NE(NULL, p);
	/* zeroed, as mmap() gives memory */
	for (i = 0; i < 8 * MIB && !p[i]; i++)
		;
	EXPECT_EQ(8 * MIB, i) TH_LOG("byte %zu is not 0", i);
	memset(p, 1, n);
	EXPECT_EQ(0, (uintptr_t)p % (2 * MIB));
	ASSERT_EQ(0, smaps_count(p, 8 * MIB, &c));
	EXPECT_EQ(0, c.outside);
	EXPECT_EQ(8 * MIB, c.rss) TH_LOG("the odd end's block not faulted in");
	EXPECT_EQ(0, c.anon_huge) TH_LOG("huge translations, not base pages");
	ASSERT_EQ(0, kern_pages(p, n, &pg));
	EXPECT_EQ(0, pg.huge_bytes);
	EXPECT_EQ(ps, kern_pages_size(&pg));
	pfn = calloc(8 * MIB / ps, sizeof(*pfn));
	ASSERT_NE(NULL, pfn);
	ASSERT_EQ(0, frames_of(p, 8 * MIB, pfn));
	if (!pfn[0]) {
		free(pfn);
		SKIP(return, "pagemap hides frames without CAP_SYS_ADMIN");
	}
	for (i = 0; i < 8 * MIB / ps; i++)
		if (i % per && pfn[i] != pfn[i - 1] + 1)
			off++;
	/* base folios: aged one by one, not 512 entries at a time */
	large = compound_frames(pfn, 8 * MIB / ps);
	free(pfn);
	EXPECT_EQ(0, off) TH_LOG("%zu of %zu pages not after their neighbour",
				 off, (size_t)(8 * MIB / ps));
	EXPECT_EQ(0, large) TH_LOG("frames still in huge folios");
}

/*
 * Beyond the last-level cache base pages are left to the first write
 * (alloc.c says why): nothing resident after kern_alloc(), for a buffer
 * larger than the cache and for a cache sysfs does not list.
 */
TEST(beyond_llc_left_unfaulted)
{
	size_t n = 6 * MIB + 12 * 1024;
	const char *llc[] = { "4M\n", "" };
	unsigned int i;
	char *p;

	if (!kern_thp_bytes())
		SKIP(return, "no THP size: kern_alloc() never lays out blocks");
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, fake_llc(llc[i]));
		p = kern_alloc(n, false);
		fake_llc_end();
		ASSERT_NE(NULL, p);
		EXPECT_EQ(0, resident(p, 8 * MIB))
			TH_LOG("LLC '%s': a buffer past it was faulted in",
			       *llc[i] ? "4M" : "unknown");
		kern_free(p, n);
	}
}

/*
 * The buffers held count together: with an 8M cache a 4M buffer is laid
 * out in blocks, a 6M one next to it is not (10M held), and the same 6M
 * once the 4M is freed is again.
 */
TEST(held_buffers_count_toward_llc)
{
	char *a, *b, *c;

	if (!kern_thp_bytes())
		SKIP(return, "no THP size: kern_alloc() never lays out blocks");
	ASSERT_EQ(0, fake_llc("8M\n"));
	a = kern_alloc(4 * MIB, false);
	b = kern_alloc(6 * MIB, false);
	EXPECT_EQ(4 * MIB, resident(a, 4 * MIB));
	EXPECT_EQ(0, resident(b, 6 * MIB)) TH_LOG("10M held, past the 8M");
	kern_free(a, 4 * MIB);
	kern_free(b, 6 * MIB);
	c = kern_alloc(6 * MIB, false);
	fake_llc_end();
	EXPECT_EQ(6 * MIB, resident(c, 6 * MIB)) TH_LOG("6M held, within 8M");
	kern_free(c, 6 * MIB);
}

TEST(sum_of_threads)
{
	struct kern_pages a = { 4 * MIB, 4 * MIB, 4 * MIB, 4096, 2 * MIB, true,
				4 * MIB };
	struct kern_pages b = { 1 * MIB, 1 * MIB, 0, 4096, 2 * MIB, false,
				1 * MIB };
	struct kern_pages s;

	memset(&s, 0, sizeof(s));
	kern_pages_add(&s, &a);
	EXPECT_TRUE(s.exact);
	kern_pages_add(&s, &b);
	EXPECT_FALSE(s.exact);
	EXPECT_EQ(5 * MIB, s.resident_bytes);
	EXPECT_EQ(4 * MIB, s.huge_bytes);
	EXPECT_EQ(2 * MIB, kern_pages_size(&s));
	/* the largest buffer, not the sum of them (which may be 2M or more) */
	EXPECT_EQ(4 * MIB, s.largest_bytes);
	kern_pages_add(&s, &b);
	kern_pages_add(&s, &b);
	kern_pages_add(&s, &b);
	EXPECT_EQ(4 * MIB, s.largest_bytes);
	/* half is not most: the base page size */
	EXPECT_EQ(8 * MIB, s.resident_bytes);
	EXPECT_EQ(4096, kern_pages_size(&s));
}

/* A buffer asked about alone is its own largest. */
TEST(largest_of_one)
{
	struct kern_pages pg;
	char *p = malloc(3 * 4096);

	ASSERT_NE(NULL, p);
	memset(p, 1, 3 * 4096);
	ASSERT_EQ(0, kern_pages(p, 3 * 4096, &pg));
	EXPECT_EQ(3 * 4096, pg.largest_bytes);
	EXPECT_EQ(3 * 4096, pg.bytes);
	free(p);
}

TEST_HARNESS_MAIN
