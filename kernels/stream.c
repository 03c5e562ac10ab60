// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - McCalpin's STREAM kernels (copy, scale, add, triad) on
 * per-thread slices of three double arrays, checked at the end the way
 * STREAM checks them: against the scalar recurrence the same operations
 * give for one element, by average relative error.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

#define STREAM_SCALAR 3.0
#define STREAM_EPSILON 1e-13	/* STREAM's bound for doubles */

const char *const stream_op_name[STREAM_NR_OPS] = {
	"copy", "scale", "add", "triad"
};

/* bytes per element the kernel names, and with write-allocate */
static const unsigned int named_bytes[STREAM_NR_OPS] = { 16, 16, 24, 24 };
static const unsigned int traffic_bytes[STREAM_NR_OPS] = { 24, 24, 32, 32 };

struct st_thread {
	double *a, *b, *c;
	size_t n;
	double err[3];		/* sum of |x[j] - expected| over the slice */
};

struct st_ctx {
	const struct kern_cfg *cfg;
	size_t n;		/* elements per thread per array */
	double expect[3];	/* a, b, c after cfg->reps repetitions */
	struct st_thread *t;
};

static int st_setup(void *vctx, unsigned int tid)
{
	struct st_ctx *ctx = vctx;
	struct st_thread *t = &ctx->t[tid];
	size_t j, bytes = ctx->n * sizeof(double);

	t->n = ctx->n;
	t->a = kern_alloc(bytes, ctx->cfg->hugepages);
	t->b = kern_alloc(bytes, ctx->cfg->hugepages);
	t->c = kern_alloc(bytes, ctx->cfg->hugepages);
	if (!t->a || !t->b || !t->c) {
		kern_free(t->a, bytes);
		kern_free(t->b, bytes);
		kern_free(t->c, bytes);
		t->a = t->b = t->c = NULL;
		return -1;
	}
	for (j = 0; j < t->n; j++) {	/* first touch, by this thread */
		t->a[j] = 1.0;
		t->b[j] = 2.0;
		t->c[j] = 0.0;
	}
	for (j = 0; j < t->n; j++)	/* as STREAM does before timing */
		t->a[j] = 2.0 * t->a[j];
	return 0;
}

static void st_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct st_ctx *ctx = vctx;
	struct st_thread *t = &ctx->t[tid];
	double *restrict a = t->a, *restrict b = t->b, *restrict c = t->c;
	const double s = STREAM_SCALAR;
	size_t j, n = t->n;

	switch (phase) {
	case STREAM_COPY:
		for (j = 0; j < n; j++)
			c[j] = a[j];
		break;
	case STREAM_SCALE:
		for (j = 0; j < n; j++)
			b[j] = s * c[j];
		break;
	case STREAM_ADD:
		for (j = 0; j < n; j++)
			c[j] = a[j] + b[j];
		break;
	case STREAM_TRIAD:
		for (j = 0; j < n; j++)
			a[j] = b[j] + s * c[j];
		break;
	}
}

static void st_teardown(void *vctx, unsigned int tid)
{
	struct st_ctx *ctx = vctx;
	struct st_thread *t = &ctx->t[tid];
	size_t j, bytes = t->n * sizeof(double);

	t->err[0] = t->err[1] = t->err[2] = 0;
	for (j = 0; j < t->n; j++) {
		t->err[0] += fabs(t->a[j] - ctx->expect[0]);
		t->err[1] += fabs(t->b[j] - ctx->expect[1]);
		t->err[2] += fabs(t->c[j] - ctx->expect[2]);
	}
	kern_free(t->a, bytes);
	kern_free(t->b, bytes);
	kern_free(t->c, bytes);
	t->a = t->b = t->c = NULL;
}

int stream_run(const struct kern_cfg *cfg, size_t bytes,
	       struct stream_result *r, char *err, size_t errsz)
{
	static const struct kern_ops ops = {
		st_setup, st_body, st_teardown, STREAM_NR_OPS
	};
	double aj = 1.0, bj = 2.0, cj = 0.0, sum[3] = { 0, 0, 0 };
	double *sec, *v;
	struct st_thread *t;
	struct st_ctx ctx;
	unsigned int i, k, op;
	uint64_t total;
	int rc;

	memset(r, 0, sizeof(*r));
	ctx.n = bytes / sizeof(double) / cfg->nthreads;
	if (!ctx.n) {
		snprintf(err, errsz, "the arrays are too small for %u threads",
			 cfg->nthreads);
		return -1;
	}
	/* the recurrence one element goes through */
	aj = 2.0 * aj;
	for (k = 0; k < cfg->reps; k++) {
		cj = aj;
		bj = STREAM_SCALAR * cj;
		cj = aj + bj;
		aj = bj + STREAM_SCALAR * cj;
	}
	ctx.expect[0] = aj;
	ctx.expect[1] = bj;
	ctx.expect[2] = cj;
	ctx.cfg = cfg;
	sec = calloc((size_t)cfg->reps * STREAM_NR_OPS, sizeof(*sec));
	v = calloc(cfg->reps, sizeof(*v));
	t = calloc(cfg->nthreads, sizeof(*t));
	if (!sec || !v || !t) {
		free(sec);
		free(v);
		free(t);
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	ctx.t = t;
	rc = kern_run(cfg, &ops, &ctx, sec, err, errsz);
	if (!rc) {
		total = (uint64_t)ctx.n * cfg->nthreads;
		for (op = 0; op < STREAM_NR_OPS; op++) {
			r->traffic_bytes[op] = total * traffic_bytes[op];
			/* each op writes one array: 8 bytes an element */
			r->traffic_read_bytes[op] = total *
				(traffic_bytes[op] - sizeof(double));
			for (k = 0; k < cfg->reps; k++)
				v[k] = (double)total * named_bytes[op] /
				       sec[k * STREAM_NR_OPS + op] / 1e9;
			kern_stats(v, cfg->reps, &r->gbps[op]);
			for (k = 0; k < cfg->reps; k++)
				v[k] = (double)total * traffic_bytes[op] /
				       sec[k * STREAM_NR_OPS + op] / 1e9;
			kern_stats(v, cfg->reps, &r->traffic_gbps[op]);
		}
		for (i = 0; i < cfg->nthreads; i++)
			for (k = 0; k < 3; k++)
				sum[k] += t[i].err[k];
		r->verified = true;
		for (k = 0; k < 3; k++) {
			r->avg_rel_err[k] = sum[k] / (double)total /
					    fabs(ctx.expect[k]);
			if (!(r->avg_rel_err[k] <= STREAM_EPSILON))
				r->verified = false;
		}
	}
	free(sec);
	free(v);
	free(t);
	return rc;
}
