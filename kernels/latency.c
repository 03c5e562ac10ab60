// SPDX-License-Identifier: GPL-2.0
/*
 * latency.c - load-to-use latency by pointer chasing: one pointer per
 * 64-byte line, the lines linked in a random order that is one cycle
 * through all of them (Sattolo's algorithm), so that every load depends
 * on the previous one and the prefetchers cannot guess the next line.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

#define LAT_MIN_LOADS (1u << 21)	/* enough to time small sets */

struct lat_ctx {
	const struct kern_cfg *cfg;
	size_t bytes;		/* working set per thread */
	uint64_t loads;		/* per thread per repetition */
	struct kern_chase *t;
	struct kern_pages *pg;	/* per thread: the fewest huge pages seen */
};

static void *volatile lat_sink;

/* xorshift64*: reproducible, good enough to shuffle */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/*
 * Link bytes / 64 lines (at least 2) in an order drawn from @seed, then
 * follow @warm pointers (at most one lap) to warm caches and TLBs up.
 * Returns 0, or -1 when out of memory or too small.
 */
static int kern_chase_init(struct kern_chase *c, size_t bytes, bool hugepages,
			   uint64_t seed, uint64_t warm)
{
	size_t n = bytes / KERN_LINE, i, j, tmp;
	struct kern_line *lines;
	size_t *succ;

	memset(c, 0, sizeof(*c));
	if (n < 2)
		return -1;
	c->bytes = n * KERN_LINE;
	lines = kern_alloc(c->bytes, hugepages);
	if (!lines)
		return -1;
	/* the permutation's scratch counts against MemAvailable too */
	succ = kern_budget_take(n * sizeof(*succ)) < 0 ? NULL :
	       malloc(n * sizeof(*succ));
	if (!succ) {
		kern_free(lines, c->bytes);
		return -1;
	}
	/* Sattolo: a uniformly random permutation with a single cycle */
	for (i = 0; i < n; i++)
		succ[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = (size_t)(rnd(&seed) % i);
		tmp = succ[i];
		succ[i] = succ[j];
		succ[j] = tmp;
	}
	for (i = 0; i < n; i++)	/* first touch, by this thread */
		lines[i].next = &lines[succ[i]];
	free(succ);
	kern_budget_give(n * sizeof(*succ));
	c->lines = lines;
	/* warm the caches and TLBs up with at most one lap */
	if (warm > n)
		warm = n;
	warm = (warm + KERN_CHASE_UNROLL - 1) / KERN_CHASE_UNROLL *
	       KERN_CHASE_UNROLL;
	c->p = kern_chase_lines(&lines[0], warm);
	return 0;
}

/* Follow @loads pointers (a multiple of KERN_CHASE_UNROLL). */
static void kern_chase_run(struct kern_chase *c, uint64_t loads)
{
	c->p = kern_chase_lines(c->p, loads);
	lat_sink = c->p;
}

static void kern_chase_free(struct kern_chase *c)
{
	kern_free(c->lines, c->bytes);
	c->lines = c->p = NULL;
}

static int lat_setup(void *vctx, unsigned int tid)
{
	struct lat_ctx *ctx = vctx;
	struct kern_chase *c = &ctx->t[tid];
	size_t n = ctx->bytes / KERN_LINE;

	if (kern_chase_init(c, ctx->bytes, ctx->cfg->hugepages,
			    0x9e3779b97f4a7c15ULL ^ ((uint64_t)tid << 32 | n),
			    ctx->loads))
		return -1;
	/* unreadable: nothing resident, which the caller prints as unknown */
	(void)kern_pages(c->lines, c->bytes, &ctx->pg[tid]);
	return 0;
}

static void lat_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct lat_ctx *ctx = vctx;

	(void)phase;
	kern_chase_run(&ctx->t[tid], ctx->loads);
}

static void lat_teardown(void *vctx, unsigned int tid)
{
	struct lat_ctx *ctx = vctx;
	struct kern_chase *c = &ctx->t[tid];
	struct kern_pages end;

	/*
	 * Again after the last repetition: khugepaged may have collapsed
	 * pages in between, or the kernel split some. The fewer huge pages
	 * is what every repetition had at least.
	 */
	if (!kern_pages(c->lines, c->bytes, &end) &&
	    end.huge_bytes < ctx->pg[tid].huge_bytes)
		ctx->pg[tid] = end;
	kern_chase_free(c);
}

uint64_t latency_loads(size_t bytes)
{
	uint64_t n = bytes / KERN_LINE;

	n = n > LAT_MIN_LOADS ? n : LAT_MIN_LOADS;
	return (n + KERN_CHASE_UNROLL - 1) / KERN_CHASE_UNROLL *
	       KERN_CHASE_UNROLL;
}

int latency_run(const struct kern_cfg *cfg, size_t bytes,
		struct latency_result *r, char *err, size_t errsz)
{
	static const struct kern_ops ops = {
		.setup = lat_setup, .body = lat_body,
		.teardown = lat_teardown, .nphases = 1,
	};
	struct kern_times tm;
	struct lat_ctx ctx;
	unsigned int k;
	size_t n = bytes / KERN_LINE;
	int rc;

	memset(r, 0, sizeof(*r));
	if (n < 2) {
		snprintf(err, errsz, "the working set must be at least %d bytes",
			 2 * KERN_LINE);
		return -1;
	}
	ctx.cfg = cfg;
	ctx.bytes = bytes;
	ctx.loads = latency_loads(bytes);
	ctx.t = calloc(cfg->nthreads, sizeof(*ctx.t));
	ctx.pg = calloc(cfg->nthreads, sizeof(*ctx.pg));
	if (!ctx.t || !ctx.pg) {
		free(ctx.t);
		free(ctx.pg);
		kern_oom(err, errsz);
		return -1;
	}
	rc = kern_run_timed(cfg, &ops, &ctx, &tm, err, errsz);
	if (!rc) {
		r->loads = ctx.loads;
		r->timed = kern_timed_of(&tm.ph[0]);
		/* every thread chases its own list: time per load of each */
		kern_map_stats(tm.ph[0].sec, r->timed.reps, 1,
			       1e9 / (double)ctx.loads, false, &r->ns);
		for (k = 0; k < cfg->nthreads; k++)
			kern_pages_add(&r->pages, &ctx.pg[k]);
	}
	kern_times_free(&tm);
	free(ctx.t);
	free(ctx.pg);
	return rc;
}
