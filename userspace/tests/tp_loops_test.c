// SPDX-License-Identifier: GPL-2.0
/*
 * tp_loops_test.c - the throughput kernel's assembly loops
 * (kernels/throughput_x86.S) load every byte of their buffer once per
 * pass and nothing outside it, counted by the CPU's own data watchpoints
 * (perf_event_open() breakpoint events, the debug registers), not by
 * anything the loops compute: every 8-byte word of the buffer must be
 * accessed exactly @passes times, the words either side of it never.
 * Every loop of every width this CPU runs, at sizes of one and several
 * iterations of every loop shape (kselftest harness).
 */

#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../../kernels/simd.h"

#define WORD 8
#define MAX_WATCH 4	/* x86 has four debug address registers */
#define PASSES 3

/* one data watchpoint on the 8 bytes at @addr, counting from now */
static int watch_open(const void *addr)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof(a);
	a.bp_type = HW_BREAKPOINT_RW;	/* x86 has no read-only watchpoint */
	a.bp_addr = (uintptr_t)addr;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/*
 * Accesses of @n words from @first (which may lie either side of the
 * buffer) while @fn makes @passes over @buf's @bytes, in @count; the
 * watchpoints opened, or -errno of the first that could not be.
 */
static int count_words(tp_loop_fn *fn, const char *buf, size_t bytes,
		       uint64_t passes, const char *first, int n,
		       uint64_t *count)
{
	int fd[MAX_WATCH], i, opened = 0, err = 0;

	for (i = 0; i < n; i++) {
		fd[i] = watch_open(first + i * WORD);
		if (fd[i] < 0) {
			err = -errno;
			break;
		}
		opened++;
	}
	if (!err)
		fn(buf, bytes, passes);
	for (i = 0; i < opened; i++) {
		if (!err && read(fd[i], &count[i], sizeof(count[i])) !=
		    sizeof(count[i]))
			err = -EIO;
		close(fd[i]);
	}
	return err ? err : opened;
}

FIXTURE(loops) {
	char *mem;	/* a guard word, the buffer, a guard word */
	size_t cap;
	int watch;	/* watchpoints a call may hold */
};

FIXTURE_SETUP(loops)
{
	int fd = watch_open(&self->watch);

	if (fd < 0)
		SKIP(return, "no data watchpoints here (perf_event_open: %s)",
		     strerror(errno));
	close(fd);
	self->watch = MAX_WATCH;
	self->cap = 3 * TP_SIZE_ALIGN + 2 * KERN_LINE;
	self->mem = aligned_alloc(KERN_LINE, self->cap);
	ASSERT_NE(NULL, self->mem);
	memset(self->mem, 0, self->cap);
}

FIXTURE_TEARDOWN(loops)
{
	free(self->mem);
}

/*
 * Every word of a @bytes buffer and the word either side: accessed
 * @passes times and never. Fails the test naming the first two words
 * that differ and how many do.
 */
static void check_loop(struct __test_metadata *_metadata,
		       FIXTURE_DATA(loops) *self, enum tp_width w,
		       enum tp_mix m, size_t bytes)
{
	tp_loop_fn *fn = throughput_loop(w, m);
	const char *buf = self->mem + KERN_LINE;
	const char *lo = buf - WORD, *hi = buf + bytes + WORD;
	uint64_t count[MAX_WATCH], want;
	unsigned int wrong = 0;
	const char *p, *at;
	int i, got, n;

	ASSERT_NE(NULL, fn);
	for (p = lo; p < hi; p += got * WORD) {
		n = (hi - p) / WORD < self->watch ? (int)((hi - p) / WORD) :
						    self->watch;
		got = count_words(fn, buf, bytes, PASSES, p, n, count);
		if (got == -ENOSPC && self->watch > 1) {
			self->watch--;	/* a register someone else holds */
			got = 0;
			continue;
		}
		ASSERT_LT(0, got) TH_LOG("watchpoints: %s", strerror(-got));
		for (i = 0; i < got; i++) {
			at = p + i * WORD;
			want = at >= buf && at < buf + bytes ? PASSES : 0;
			if (count[i] != want && ++wrong <= 2)
				TH_LOG("%s %s, %zu bytes: the word at byte %td accessed %llu times in %d passes, not %llu",
				       tp_width_name[w], tp_mix_name[m], bytes,
				       at - buf, (unsigned long long)count[i],
				       PASSES, (unsigned long long)want);
		}
	}
	EXPECT_EQ(0, wrong) TH_LOG("%s %s, %zu bytes: %u words wrong",
				   tp_width_name[w], tp_mix_name[m], bytes,
				   wrong);
}

/* One iteration of every loop (TP_SIZE_ALIGN is a whole one), and three. */
TEST_F(loops, every_byte_once_a_pass)
{
	static const size_t sizes[] = { TP_SIZE_ALIGN, 3 * TP_SIZE_ALIGN };
	unsigned int w, m, s, ran = 0;

	for (w = 0; w < TP_NR_WIDTHS; w++) {
		if (!kern_cpu_has(tp_width_feature[w])) {
			TH_LOG("%s: this CPU lacks it, not run",
			       tp_width_name[w]);
			continue;
		}
		for (m = 0; m < TP_NR_MIXES; m++)
			for (s = 0; s < ARRAY_SIZE(sizes); s++) {
				check_loop(_metadata, self, w, m, sizes[s]);
				ran++;
			}
	}
	ASSERT_LT(0, ran);
}

TEST_HARNESS_MAIN
