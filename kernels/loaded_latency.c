// SPDX-License-Identifier: GPL-2.0
/*
 * loaded_latency.c - the latency-versus-bandwidth curve Intel's MLC calls
 * loaded latency: thread 0 chases pointers (latency.c's chase) while every
 * other thread runs the memory read benchmark (read_delay.c) with a given
 * delay; one phase per delay, so each delay gives one point of the curve:
 * the load the others inject, and the latency the chase sees under it.
 */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

/*
 * The chase's loads per point: a lap of the working set, from 2^18 (a few
 * ms in cache, timed well enough) to 2^21 (~0.2 s at DRAM latency).
 */
#define LL_MIN_LOADS (1u << 18)
#define LL_MAX_LOADS (1u << 21)
/*
 * Iterations (of four records) a load generator reads between two looks
 * at whether the chase is done: often enough to stop within microseconds
 * of it even at long delays, rare enough to cost nothing.
 */
#define LL_CHUNK 16

struct ll_thread {
	struct kern_chase chase;	/* thread 0 */
	struct kern_rd_slice slice;	/* the others */
	size_t pos;		/* where the generator's sweep is */
	uint64_t calls;		/* body() calls so far: the call's number */
	double last;		/* the last call's ns per load or GB/s */
	struct kern_pages pg;	/* what the kernel gave its buffer */
	char pad[KERN_LINE];	/* keep the threads' counters apart */
};

struct ll_ctx {
	const struct kern_cfg *cfg;
	size_t bytes;
	const unsigned long *delay;
	unsigned int ndelay;
	char name[32];		/* the progress line's "delay N" */
	uint64_t loads;
	/* body() calls the chase has finished: the generators stop on it */
	_Atomic uint64_t done;
	struct ll_thread *t;
};

/* kern_ops.collect's values: the chase's ns per load, the generators' GB/s */
enum { LL_NS, LL_GBPS, LL_NR_VALS };

static int ll_setup(void *vctx, unsigned int tid)
{
	struct ll_ctx *ctx = vctx;
	struct ll_thread *t = &ctx->t[tid];
	size_t n = ctx->bytes / KERN_LINE;

	int rc;

	if (!tid) {
		rc = kern_chase_init(&t->chase, ctx->bytes, ctx->cfg->hugepages,
				     0x9e3779b97f4a7c15ULL ^ n, ctx->loads);
		/* unreadable: nothing resident, printed as unknown */
		if (!rc)
			(void)kern_pages(t->chase.lines, t->chase.bytes, &t->pg);
		return rc;
	}
	rc = kern_rd_slice_init(&t->slice, ctx->bytes, ctx->cfg->hugepages);
	if (!rc)
		(void)kern_pages(t->slice.a, t->slice.bytes, &t->pg);
	return rc;
}

static void ll_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct ll_ctx *ctx = vctx;
	struct ll_thread *t = &ctx->t[tid];
	uint64_t call = t->calls++, recs = 0;
	unsigned long delay = ctx->delay[phase];
	size_t i = t->pos, to, nq = t->slice.per_quarter;
	double t0 = kern_now(), sec;

	if (!tid) {
		kern_chase_run(&t->chase, ctx->loads);
		sec = kern_now() - t0;
		t->last = sec * 1e9 / (double)ctx->loads;
		atomic_store_explicit(&ctx->done, call + 1,
				      memory_order_release);
		return;
	}
	/* keep the memory busy for exactly as long as the chase runs */
	while (atomic_load_explicit(&ctx->done, memory_order_acquire) <=
	       call) {
		to = i + LL_CHUNK < nq ? i + LL_CHUNK : nq;
		kern_rd_slice_read(&t->slice, i, to, delay);
		recs += 4 * (to - i);
		i = to == nq ? 0 : to;
	}
	sec = kern_now() - t0;
	t->pos = i;
	t->last = (double)recs * KERN_LINE / sec / 1e9;
}

/* Every thread is done with the call: its values, as a point's. */
static void ll_collect(void *vctx, unsigned int phase, double *v)
{
	struct ll_ctx *ctx = vctx;
	unsigned int i;

	(void)phase;
	v[LL_NS] = ctx->t[0].last;
	v[LL_GBPS] = 0;
	for (i = 1; i < ctx->cfg->nthreads; i++)
		v[LL_GBPS] += ctx->t[i].last;
}

static void ll_teardown(void *vctx, unsigned int tid)
{
	struct ll_ctx *ctx = vctx;

	if (!tid)
		kern_chase_free(&ctx->t[tid].chase);
	else
		kern_rd_slice_free(&ctx->t[tid].slice);
}

/* The checks of loaded_latency_run()'s arguments; 0 or -1. */
static int ll_check(const struct kern_cfg *cfg, size_t bytes,
		    unsigned int ndelay, char *err, size_t errsz)
{
	if (cfg->nthreads < 2) {
		snprintf(err, errsz,
			 "needs at least 2 threads: one chases pointers, the others load the memory");
		return -1;
	}
	if (!ndelay) {
		snprintf(err, errsz, "no delay given");
		return -1;
	}
	if (bytes < 4 * KERN_LINE) {
		snprintf(err, errsz, "the buffers must be at least %d bytes",
			 4 * KERN_LINE);
		return -1;
	}
	return 0;
}

/* One point per delay measured, from the collected values. */
static void ll_points(const struct kern_times *tm, const unsigned long *delay,
		      struct loaded_latency_point *r)
{
	const struct kern_series *s;
	double *w;
	unsigned int d, k;

	for (d = 0; d < tm->done; d++) {
		s = &tm->ph[d];
		r[d].delay = delay[d];
		r[d].timed = kern_timed_of(s);
		kern_map_stats(s->val + LL_NS, s->reps, LL_NR_VALS, 1, false,
			       &r[d].ns);
		kern_map_stats(s->val + LL_GBPS, s->reps, LL_NR_VALS, 1, false,
			       &r[d].gbps);
		/* the generators' reads, and with the chase's lines */
		w = malloc((s->reps ? s->reps : 1) * sizeof(*w));
		if (!w) {
			r[d].traffic_gbps = r[d].gbps;
			continue;
		}
		for (k = 0; k < s->reps; k++)
			w[k] = s->val[k * LL_NR_VALS + LL_GBPS] +
			       KERN_LINE / s->val[k * LL_NR_VALS + LL_NS];
		kern_stats(w, s->reps, &r[d].traffic_gbps);
		free(w);
	}
}

static const char *ll_phase_name(void *vctx, unsigned int phase)
{
	struct ll_ctx *ctx = vctx;

	snprintf(ctx->name, sizeof(ctx->name), "delay %lu", ctx->delay[phase]);
	return ctx->name;
}

int loaded_latency_run(const struct kern_cfg *cfg, size_t bytes,
		       const unsigned long *delay, unsigned int ndelay,
		       struct loaded_latency_point *r, uint64_t *loads,
		       unsigned int *done, char *err, size_t errsz)
{
	/* by phase: each delay is a point of its own, kept after Ctrl-C */
	struct kern_ops ops = { .setup = ll_setup, .body = ll_body,
				.teardown = ll_teardown, .nphases = ndelay,
				.by_phase = true, .collect = ll_collect,
				.nvals = LL_NR_VALS,
				.phase_name = ll_phase_name };
	struct kern_pages pages = { 0 };
	struct kern_times tm;
	struct ll_ctx ctx;
	unsigned int i;
	int rc;

	memset(r, 0, ndelay * sizeof(*r));
	*done = 0;
	/* four quarters of whole lines, and two lines to chase */
	bytes = bytes / (4 * KERN_LINE) * (4 * KERN_LINE);
	if (ll_check(cfg, bytes, ndelay, err, errsz))
		return -1;
	memset(&ctx, 0, sizeof(ctx));
	ctx.cfg = cfg;
	ctx.bytes = bytes;
	ctx.delay = delay;
	ctx.ndelay = ndelay;
	ctx.loads = bytes / KERN_LINE;
	if (ctx.loads < LL_MIN_LOADS)
		ctx.loads = LL_MIN_LOADS;
	if (ctx.loads > LL_MAX_LOADS)
		ctx.loads = LL_MAX_LOADS;
	ctx.loads = ctx.loads / KERN_CHASE_UNROLL * KERN_CHASE_UNROLL;
	atomic_init(&ctx.done, 0);
	ctx.t = calloc(cfg->nthreads, sizeof(*ctx.t));
	if (!ctx.t) {
		kern_oom(err, errsz);
		return -1;
	}
	rc = kern_run_timed(cfg, &ops, &ctx, &tm, err, errsz);
	*loads = ctx.loads;
	ll_points(&tm, delay, r);
	for (i = 0; i < cfg->nthreads; i++)
		kern_pages_add(&pages, &ctx.t[i].pg);
	for (i = 0; i < tm.done; i++)
		r[i].pages = pages;
	*done = tm.done;
	kern_times_free(&tm);
	free(ctx.t);
	return rc;
}
