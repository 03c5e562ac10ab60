// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - the loaded-latency sweep of "memdiagctl calibrate": thread 0
 * chases flushed pointers (fchase.c) while threads 1.. run the traffic
 * generator (traffic.c) at one point's delay and mix, for as long as the
 * chase runs; one harness phase per point, so cfg->mark brackets each
 * point (for the memory controllers' counters and the progress bar).
 */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

/*
 * Iterations (of four records) between two looks at whether the chase is
 * done: a few microseconds even at long delays.
 */
#define CALIB_CHUNK 16

struct calib_thread {
	struct kern_fchase chase;	/* thread 0 */
	struct kern_rd_slice slice;	/* a generator's part of the pool */
	unsigned int slice_k;		/* the active count it was cut for */
	size_t pos;			/* where the generator's sweep is */
	uint64_t calls;			/* body() calls so far */
	struct kern_bytes *bytes;	/* per repetition and point */
	char pad[KERN_LINE];		/* keep the threads' counters apart */
};

struct calib_ctx {
	const struct calib_params *p;
	const struct kern_cfg *cfg;
	struct calib_sample *out;
	_Atomic uint64_t done;	/* body() calls the chase has finished */
	double *seg_ns;		/* the chase's segments of one point */
	char *pool;		/* the generators' buffer, p->pool_bytes */
	unsigned int max_gen;	/* the most generators any point has */
	struct calib_thread *t;
};

/*
 * Generator @i (1..@k) of a point with @k active: its part of a pool of
 * @pool bytes, page-aligned, at *@off; returns the part's length.
 */
static size_t calib_pool_part(size_t pool, unsigned int k, unsigned int i,
			      size_t *off)
{
	size_t len = k ? pool / k / 4096 * 4096 : 0;

	*off = i ? (size_t)(i - 1) * len : 0;
	return len;
}

size_t calib_pool_swept(size_t pool, unsigned int k)
{
	struct kern_rd_slice v;
	size_t off, len = calib_pool_part(pool, k, 1, &off);
	char probe[1];

	/* the view only computes the layout: no byte of @probe is read */
	if (kern_rd_slice_view(&v, probe, len))
		return 0;
	return (size_t)k * 4 * v.per_quarter * KERN_LINE;
}

/*
 * First touch of generator @tid's part of the pool as the point with the
 * most generators splits it, from the generator's own pinned thread, so
 * that the pages sit on its node; a point with fewer generators sweeps
 * longer parts that span several threads' pages, all of this socket.
 */
static void calib_touch(struct calib_ctx *ctx, unsigned int tid)
{
	size_t off, len, i;
	uint64_t *w;

	if (tid > ctx->max_gen)
		return;
	len = calib_pool_part(ctx->p->pool_bytes, ctx->max_gen, tid, &off);
	/* the last thread also takes the tail the page rounding left */
	if (tid == ctx->max_gen)
		len = ctx->p->pool_bytes - off;
	for (i = 0; i < len; i += KERN_LINE) {
		w = (uint64_t *)(ctx->pool + off + i);
		*w = i;
	}
}

/* Cut generator @tid's part of the pool for a point with @k active. */
static void calib_cut(struct calib_ctx *ctx, struct calib_thread *t,
		      unsigned int tid, unsigned int k)
{
	size_t off, len = calib_pool_part(ctx->p->pool_bytes, k, tid, &off);

	/* calib_check() made sure that every part holds a view */
	(void)kern_rd_slice_view(&t->slice, ctx->pool + off, len);
	t->slice_k = k;
	t->pos = 0;
}

static int calib_setup(void *vctx, unsigned int tid)
{
	struct calib_ctx *ctx = vctx;
	struct calib_thread *t = &ctx->t[tid];
	const struct calib_params *p = ctx->p;

	int rc;

	if (!tid) {
		rc = kern_fchase_init(&t->chase, p->chase_bytes, p->seg,
				      ctx->cfg->hugepages,
				      0x6a09e667f3bcc909ULL ^ p->chase_bytes);
		/* unreadable: nothing resident, reported as unknown */
		if (!rc && p->chase_pages)
			(void)kern_pages(t->chase.lines,
					 t->chase.n * KERN_LINE,
					 p->chase_pages);
		return rc;
	}
	calib_touch(ctx, tid);
	return 0;
}

static void calib_chaser(struct calib_ctx *ctx, uint64_t call)
{
	struct calib_sample *s = &ctx->out[call];
	struct kern_fchase *c = &ctx->t[0].chase;
	struct kern_pct pct;
	unsigned int segs = 0;

	kern_fchase_run(c, ctx->p->segs, ctx->p->stop, &segs, ctx->seg_ns,
			NULL);
	atomic_store_explicit(&ctx->done, call + 1, memory_order_release);
	s->stopped = segs < ctx->p->segs;
	s->chase_bytes = (uint64_t)segs * c->seg * KERN_LINE;
	kern_percentiles(ctx->seg_ns, segs, &pct);
	s->ns = pct.p50;
	s->p90 = pct.p90;
	s->p99 = pct.p99;
}

static void calib_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct calib_ctx *ctx = vctx;
	struct calib_thread *t = &ctx->t[tid];
	const struct calib_point *pt = &ctx->p->pt[phase];
	uint64_t call = t->calls++;
	struct kern_bytes b = { 0, 0 };
	size_t i, to, nq;

	if (!tid) {
		calib_chaser(ctx, call);
		return;
	}
	if (tid > pt->threads)
		return;		/* not in this point: sleeps at the barrier */
	if (t->slice_k != pt->threads)
		calib_cut(ctx, t, tid, pt->threads);
	i = t->pos;
	nq = t->slice.per_quarter;
	while (atomic_load_explicit(&ctx->done, memory_order_acquire) <=
	       call) {
		to = i + CALIB_CHUNK < nq ? i + CALIB_CHUNK : nq;
		kern_rw_slice_run(&t->slice, i, to, pt->delay, pt->mix, &b);
		i = to == nq ? 0 : to;
	}
	t->pos = i;
	t->bytes[call] = b;
}

static void calib_teardown(void *vctx, unsigned int tid)
{
	struct calib_ctx *ctx = vctx;

	/* the generators' parts are views of the pool: calib_run() frees it */
	if (!tid)
		kern_fchase_free(&ctx->t[0].chase);
}

static int calib_check(const struct kern_cfg *cfg,
		       const struct calib_params *p, char *err, size_t errsz)
{
	unsigned int i;

	if (!p->npt || !p->segs || !p->seg) {
		snprintf(err, errsz, "no point, segment or load to measure");
		return -1;
	}
	if (cfg->nthreads > 1 &&
	    !calib_pool_swept(p->pool_bytes, cfg->nthreads - 1)) {
		snprintf(err, errsz,
			 "a pool of %zu bytes is too small to split among %u generators",
			 p->pool_bytes, cfg->nthreads - 1);
		return -1;
	}
	for (i = 0; i < p->npt; i++) {
		if (p->pt[i].threads >= cfg->nthreads ||
		    (unsigned int)p->pt[i].mix >= KERN_NR_MIXES) {
			snprintf(err, errsz,
				 "point %u: %u generator threads or mix %d out of range",
				 i, p->pt[i].threads, (int)p->pt[i].mix);
			return -1;
		}
	}
	return 0;
}

int calib_run(const struct kern_cfg *cfg, const struct calib_params *p,
	      struct calib_sample *out, char *err, size_t errsz)
{
	struct kern_ops ops = { .setup = calib_setup, .body = calib_body,
				.teardown = calib_teardown, .nphases = p->npt };
	size_t n = (size_t)cfg->reps * p->npt, k;
	struct kern_bytes *bytes = NULL;
	struct calib_thread *t = NULL;
	struct calib_ctx ctx;
	double *sec = NULL;
	unsigned int i;
	int rc = -1;

	memset(out, 0, n * sizeof(*out));
	if (calib_check(cfg, p, err, errsz))
		return -1;
	memset(&ctx, 0, sizeof(ctx));
	ctx.p = p;
	ctx.cfg = cfg;
	ctx.out = out;
	atomic_init(&ctx.done, 0);
	sec = calloc(n, sizeof(*sec));
	t = calloc(cfg->nthreads, sizeof(*t));
	bytes = calloc(n * cfg->nthreads, sizeof(*bytes));
	ctx.seg_ns = calloc(p->segs, sizeof(*ctx.seg_ns));
	if (!sec || !t || !bytes || !ctx.seg_ns) {
		kern_oom(err, errsz);
		goto out;
	}
	for (i = 0; i < cfg->nthreads; i++)
		t[i].bytes = bytes + i * n;
	ctx.t = t;
	for (i = 0; i < p->npt; i++)
		if (p->pt[i].threads > ctx.max_gen)
			ctx.max_gen = p->pt[i].threads;
	/*
	 * Sequential sweeps gain nothing from huge pages, and faulting in
	 * gigabytes of them cost five times as long as small pages in a VM
	 * (zeroing 2 MiB at a time on a host that backs them lazily): only
	 * the chase, whose random loads miss the TLB, asks for them.
	 */
	if (ctx.max_gen) {
		ctx.pool = kern_alloc(p->pool_bytes, false);
		if (!ctx.pool) {
			kern_oom(err, errsz);
			rc = -1;
			goto out;
		}
	}
	rc = kern_run(cfg, &ops, &ctx, sec, err, errsz);
	if (rc)
		goto out;
	for (k = 0; k < n; k++) {
		out[k].sec = sec[k];
		for (i = 1; i < cfg->nthreads; i++) {
			out[k].gen.read += t[i].bytes[k].read;
			out[k].gen.write += t[i].bytes[k].write;
		}
	}
out:
	if (ctx.pool)
		kern_free(ctx.pool, p->pool_bytes);
	free(ctx.seg_ns);
	free(sec);
	free(t);
	free(bytes);
	return rc;
}
