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
	uint64_t calls;		/* body() calls so far: the phase's number */
	double *gbps;		/* generator's GB/s per repetition and phase */
	char pad[KERN_LINE];	/* keep the threads' counters apart */
};

struct ll_ctx {
	const struct kern_cfg *cfg;
	size_t bytes;
	const unsigned long *delay;
	unsigned int ndelay;
	uint64_t loads;
	/* body() calls the chase has finished: the generators stop on it */
	_Atomic uint64_t done;
	double *ns;		/* chase ns per load, per repetition and phase */
	struct ll_thread *t;
};

static int ll_setup(void *vctx, unsigned int tid)
{
	struct ll_ctx *ctx = vctx;
	struct ll_thread *t = &ctx->t[tid];
	size_t n = ctx->bytes / KERN_LINE;

	if (!tid)
		return kern_chase_init(&t->chase, ctx->bytes,
				       ctx->cfg->hugepages,
				       0x9e3779b97f4a7c15ULL ^ n, ctx->loads);
	return kern_rd_slice_init(&t->slice, ctx->bytes, ctx->cfg->hugepages);
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
		ctx->ns[call] = sec * 1e9 / (double)ctx->loads;
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
	t->gbps[call] = (double)recs * KERN_LINE / sec / 1e9;
}

static void ll_teardown(void *vctx, unsigned int tid)
{
	struct ll_ctx *ctx = vctx;

	if (!tid)
		kern_chase_free(&ctx->t[tid].chase);
	else
		kern_rd_slice_free(&ctx->t[tid].slice);
}

int loaded_latency_run(const struct kern_cfg *cfg, size_t bytes,
		       const unsigned long *delay, unsigned int ndelay,
		       struct loaded_latency_point *r, uint64_t *loads,
		       char *err, size_t errsz)
{
	struct kern_ops ops = { ll_setup, ll_body, ll_teardown, ndelay };
	unsigned int i, k, d, reps = cfg->reps, n = reps * ndelay;
	double *sec = NULL, *v = NULL, *w = NULL, *gen = NULL;
	struct ll_thread *t = NULL;
	struct ll_ctx ctx;
	int rc = -1;

	memset(r, 0, ndelay * sizeof(*r));
	if (cfg->nthreads < 2) {
		snprintf(err, errsz,
			 "needs at least 2 threads: one chases pointers, the others load the memory");
		return -1;
	}
	if (!ndelay) {
		snprintf(err, errsz, "no delay given");
		return -1;
	}
	/* four quarters of whole lines, and two lines to chase */
	bytes = bytes / (4 * KERN_LINE) * (4 * KERN_LINE);
	if (bytes < 4 * KERN_LINE) {
		snprintf(err, errsz, "the buffers must be at least %d bytes",
			 4 * KERN_LINE);
		return -1;
	}
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
	sec = calloc(n, sizeof(*sec));
	v = calloc(reps, sizeof(*v));
	w = calloc(reps, sizeof(*w));
	ctx.ns = calloc(n, sizeof(*ctx.ns));
	gen = calloc((size_t)n * cfg->nthreads, sizeof(*gen));
	t = calloc(cfg->nthreads, sizeof(*t));
	if (!sec || !v || !w || !ctx.ns || !gen || !t) {
		kern_oom(err, errsz);
		goto out;
	}
	for (i = 0; i < cfg->nthreads; i++)
		t[i].gbps = gen + (size_t)i * n;
	ctx.t = t;
	rc = kern_run(cfg, &ops, &ctx, sec, err, errsz);
	if (rc)
		goto out;
	*loads = ctx.loads;
	for (d = 0; d < ndelay; d++) {
		r[d].delay = delay[d];
		for (k = 0; k < reps; k++)
			v[k] = ctx.ns[k * ndelay + d];
		kern_stats(v, reps, &r[d].ns);
		for (k = 0; k < reps; k++) {
			/* the generators' reads, and with the chase's lines */
			v[k] = 0;
			for (i = 1; i < cfg->nthreads; i++)
				v[k] += t[i].gbps[k * ndelay + d];
			w[k] = v[k] + KERN_LINE / ctx.ns[k * ndelay + d];
		}
		kern_stats(v, reps, &r[d].gbps);
		kern_stats(w, reps, &r[d].traffic_gbps);
	}
out:
	free(sec);
	free(v);
	free(w);
	free(ctx.ns);
	free(gen);
	free(t);
	return rc;
}
