// SPDX-License-Identifier: GPL-2.0
/*
 * read_delay.c - the memory read benchmark of Helm & Taura (Fig. 2): an
 * array of 64-byte records, of which only the first 8-byte element is
 * read (through a volatile pointer), four records at a time from four
 * quarters of the thread's slice, then @delay NOPs; each line comes from
 * DRAM once per sweep when the array is far larger than the LLC.
 *
 * The quarters do not start a power of two apart: each is shifted by
 * RD_STAGGER records more than the one before, so the four streams do
 * not fall on the same cache sets and DRAM banks in lockstep, which cost
 * a third of the bandwidth at delay 0 on a Zen 5 host.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

struct record {
	uint64_t first;
	uint64_t pad[KERN_LINE / sizeof(uint64_t) - 1];
};

/* a 4 KiB page and one line: 65 records */
#define RD_STAGGER ((4096 + KERN_LINE) / sizeof(struct record))

struct rd_ctx {
	const struct kern_cfg *cfg;
	size_t bytes_per_thread;
	unsigned long delay;
	struct kern_rd_slice *t;
	struct kern_pages *pg;	/* per thread: the pages its slice got */
};

static volatile uint64_t rd_sink;

int kern_rd_slice_init(struct kern_rd_slice *s, size_t bytes, bool hugepages)
{
	struct record *a;
	size_t i, n, nq = bytes / sizeof(struct record) / 4;

	memset(s, 0, sizeof(*s));
	/* the four quarters, and the stagger before each but the first */
	n = 4 * nq + 3 * RD_STAGGER;
	a = kern_alloc(n * sizeof(struct record), hugepages);
	if (!a)
		return -1;
	for (i = 0; i < n; i++)	/* first touch, by this thread */
		a[i].first = i;
	s->a = a;
	s->bytes = n * sizeof(struct record);
	s->per_quarter = nq;
	return 0;
}

int kern_rd_slice_view(struct kern_rd_slice *s, void *base, size_t bytes)
{
	size_t n = bytes / sizeof(struct record);

	memset(s, 0, sizeof(*s));
	/* the same layout as kern_rd_slice_init(), inside the caller's range */
	if (n < 4 + 3 * RD_STAGGER)
		return -1;
	s->a = base;
	s->per_quarter = (n - 3 * RD_STAGGER) / 4;
	s->bytes = (4 * s->per_quarter + 3 * RD_STAGGER) * sizeof(struct record);
	return 0;
}

/*
 * Read record i of each quarter, then @delay NOPs, for i from @from to
 * @to - 1 (at most per_quarter): 4 * (to - from) records.
 */
static void kern_rd_slice_read(const struct kern_rd_slice *s, size_t from,
			       size_t to, unsigned long delay)
{
	volatile struct record *a0 = s->a;
	volatile struct record *a1 = a0 + s->per_quarter + RD_STAGGER;
	volatile struct record *a2 = a1 + s->per_quarter + RD_STAGGER;
	volatile struct record *a3 = a2 + s->per_quarter + RD_STAGGER;
	unsigned long d;
	uint64_t sum = 0;
	size_t i;

	for (i = from; i < to; i++) {
		sum += a0[i].first;
		sum += a1[i].first;
		sum += a2[i].first;
		sum += a3[i].first;
		for (d = 0; d < delay; d++)
			__asm__ __volatile__("nop");
	}
	rd_sink = sum;
}

void kern_rd_slice_free(struct kern_rd_slice *s)
{
	kern_free(s->a, s->bytes);
	s->a = NULL;
}

static int rd_setup(void *vctx, unsigned int tid)
{
	struct rd_ctx *ctx = vctx;

	if (kern_rd_slice_init(&ctx->t[tid], ctx->bytes_per_thread,
			       ctx->cfg->hugepages))
		return -1;
	/* unreadable: nothing resident, which the caller prints as unknown */
	(void)kern_pages(ctx->t[tid].a, ctx->t[tid].bytes, &ctx->pg[tid]);
	return 0;
}

static void rd_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct rd_ctx *ctx = vctx;
	const struct kern_rd_slice *s = &ctx->t[tid];

	(void)phase;
	kern_rd_slice_read(s, 0, s->per_quarter, ctx->delay);
}

static void rd_teardown(void *vctx, unsigned int tid)
{
	struct rd_ctx *ctx = vctx;

	kern_rd_slice_free(&ctx->t[tid]);
}

int read_delay_run(const struct kern_cfg *cfg, size_t bytes,
		   unsigned long delay, struct read_delay_result *r,
		   char *err, size_t errsz)
{
	static const struct kern_ops ops = {
		.setup = rd_setup, .body = rd_body,
		.teardown = rd_teardown, .nphases = 1, .whole = true,
	};
	struct kern_rd_slice *t;
	struct kern_times tm;
	struct rd_ctx ctx;
	unsigned int i;
	size_t per;
	int rc;

	memset(r, 0, sizeof(*r));
	per = bytes / cfg->nthreads / (4 * KERN_LINE) * (4 * KERN_LINE);
	if (!per) {
		snprintf(err, errsz, "the array is too small for %u threads",
			 cfg->nthreads);
		return -1;
	}
	t = calloc(cfg->nthreads, sizeof(*t));
	ctx.pg = calloc(cfg->nthreads, sizeof(*ctx.pg));
	if (!t || !ctx.pg) {
		free(t);
		free(ctx.pg);
		kern_oom(err, errsz);
		return -1;
	}
	ctx.cfg = cfg;
	ctx.bytes_per_thread = per;
	ctx.delay = delay;
	ctx.t = t;
	rc = kern_run_timed(cfg, &ops, &ctx, &tm, err, errsz);
	if (!rc) {
		r->records = (uint64_t)(per / KERN_LINE) * cfg->nthreads;
		r->timed = kern_timed_of(&tm.ph[0]);
		kern_map_stats(tm.ph[0].sec, r->timed.reps, 1,
			       (double)r->records * KERN_LINE / 1e9, true,
			       &r->gbps);
		for (i = 0; i < cfg->nthreads; i++)
			kern_pages_add(&r->pages, &ctx.pg[i]);
	}
	kern_times_free(&tm);
	free(ctx.pg);
	free(t);
	return rc;
}
