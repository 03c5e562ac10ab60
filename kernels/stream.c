// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - McCalpin's STREAM kernels (copy, scale, add, triad) on
 * per-thread slices of three double arrays, checked at the end the way
 * STREAM checks them: against the scalar recurrence the same operations
 * give for one element, by average relative error.
 *
 * Access pattern: unit stride over whole arrays, 16 (copy, scale) or 24
 * (add, triad) bytes named per element. The loops are explicit SIMD code
 * (AVX-512, AVX or SSE2, the widest the CPU runs, chosen at run time)
 * because the compiler's scalar loops at -O2 reached half of
 * likwid-bench's bandwidth; with non-temporal stores (--nt) the
 * destination is not read first (no write-allocate). Working sets that
 * fit in a cache are swept several times per timed phase so the phase
 * lasts long enough for the clock and the barriers not to matter.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "kernel.h"

#define STREAM_SCALAR 3.0
#define STREAM_EPSILON 1e-13	/* STREAM's bound for doubles */
/*
 * Bytes of each array a timed phase sweeps at least: half a millisecond
 * or more even at L1 bandwidth, against barriers of some microseconds.
 * Not much longer: on a shared machine a phase that outlasts the
 * scheduler's slice is preempted on one thread or the other (each
 * phase waits for both), and the median repetition should be one that
 * was not.
 */
#define STREAM_MIN_PHASE_BYTES (64ull << 20)

const char *const stream_op_name[STREAM_NR_OPS] = {
	"copy", "scale", "add", "triad"
};

const char *const stream_isa_name[STREAM_NR_ISAS] = {
	"c", "sse2", "avx", "avx512"
};

/* bytes per element the kernel names, and with write-allocate */
static const unsigned int named_bytes[STREAM_NR_OPS] = { 16, 16, 24, 24 };
static const unsigned int traffic_bytes[STREAM_NR_OPS] = { 24, 24, 32, 32 };

/* ---- the sweep loops, one instance per instruction set ---- */

/* Plain C: where there is no x86 SIMD. The compiler may vectorize it. */
static void run_c(unsigned int op, double *restrict a, double *restrict b,
		  double *restrict c, size_t n, size_t sweeps, bool nt)
{
	const double s = STREAM_SCALAR;
	size_t j, k;

	(void)nt;	/* refused before: no portable streaming store */
	for (k = 0; k < sweeps; k++) {
		switch (op) {
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
}

#if defined(__x86_64__)
#define ST_NAME(x) x##_sse2
#define ST_TARGET "sse2"
#define ST_W 2
#define st_vec __m128d
#define st_set1 _mm_set1_pd
#define st_load _mm_load_pd
#define st_store _mm_store_pd
#define st_stream _mm_stream_pd
#define st_add _mm_add_pd
#define st_mul _mm_mul_pd
#include "stream_simd.h"	/* which #undefs the parameters */

#define ST_NAME(x) x##_avx
#define ST_TARGET "avx"
#define ST_W 4
#define st_vec __m256d
#define st_set1 _mm256_set1_pd
#define st_load _mm256_load_pd
#define st_store _mm256_store_pd
#define st_stream _mm256_stream_pd
#define st_add _mm256_add_pd
#define st_mul _mm256_mul_pd
#include "stream_simd.h"

#define ST_NAME(x) x##_avx512
#define ST_TARGET "avx512f"
#define ST_W 8
#define st_vec __m512d
#define st_set1 _mm512_set1_pd
#define st_load _mm512_load_pd
#define st_store _mm512_store_pd
#define st_stream _mm512_stream_pd
#define st_add _mm512_add_pd
#define st_mul _mm512_mul_pd
#include "stream_simd.h"
#endif /* __x86_64__ */

typedef void st_run_fn(unsigned int op, double *a, double *b, double *c,
		       size_t n, size_t sweeps, bool nt);

static st_run_fn *const st_run_isa[STREAM_NR_ISAS] = {
	[STREAM_ISA_C] = run_c,
#if defined(__x86_64__)
	[STREAM_ISA_SSE2] = run_sse2,
	[STREAM_ISA_AVX] = run_avx,
	[STREAM_ISA_AVX512] = run_avx512,
#endif
};

/* Whether this CPU (and OS) runs @isa's code (kern_cpu_has()). */
static bool stream_isa_supported(enum stream_isa isa)
{
	switch (isa) {
	case STREAM_ISA_C:
		return true;
	case STREAM_ISA_SSE2:
		return kern_cpu_has(KERN_CPU_SSE2);
	case STREAM_ISA_AVX:
		return kern_cpu_has(KERN_CPU_AVX);
	case STREAM_ISA_AVX512:
		return kern_cpu_has(KERN_CPU_AVX512F);
	default:
		return false;
	}
}

enum stream_isa stream_isa_best(void)
{
	int isa;

	for (isa = STREAM_NR_ISAS - 1; isa > STREAM_ISA_C; isa--)
		if (stream_isa_supported((enum stream_isa)isa))
			break;
	return (enum stream_isa)isa;
}

/*
 * The three arrays share one mapping, each starting one page after the
 * previous one ends (sizes rounded up to pages; two where one would make
 * the step a power of two), so that they start at the same offset in
 * their pages and are never a power of two apart:
 * - arrays a power of two apart would put the three streams on the same
 *   cache sets and DRAM banks in lockstep (the read-delay kernel lost a
 *   third of its bandwidth that way);
 * - a load whose address matches a store still in flight in its low 12
 *   bits waits for it ("4K aliasing"). At the same page offset the store
 *   a load matches is its own iteration's (later in program order) or
 *   one a whole page back. Arrays a line or two apart (this code's first
 *   layout) put it two lines back: copy at L1 485 against 524-536 GB/s on
 *   the Intel VM of kernels.rst. A quarter page apart (the second) put it
 *   1K to 3K back, in flight where stores drain at L2 speed: on the Ice
 *   Lake VM, two threads, copy at L2 151-156 GB/s against 161-175 at the
 *   same offset (likwid-bench, whose streams are page-aligned, 168-171),
 *   add 160-168 against 177-186, and at L1 copy 344-347 against 392-429.
 */
#define ST_PAGE 4096
#define ST_STAGGER ST_PAGE

size_t stream_array_span(size_t n)
{
	size_t span = (n * sizeof(double) + ST_PAGE - 1) / ST_PAGE * ST_PAGE +
		      ST_STAGGER;

	/* an array of 2^k minus a page would put the next 2^k on */
	return span & (span - 1) ? span : span + ST_PAGE;
}

struct st_thread {
	double *a, *b, *c;
	size_t n;
	void *mem;		/* the mapping holding a, b and c */
	size_t mem_bytes;
	/*
	 * What every element of a, b and c holds after the ops this thread
	 * ran: one element of STREAM's scalar recurrence, whatever order and
	 * number of ops ran (each op is idempotent over its sweeps).
	 */
	double expect[3];
	double err[3];		/* sum of |x[j] - expected| over the slice */
	struct kern_pages pg;	/* what the kernel gave a, b and c */
};

struct st_ctx {
	const struct kern_cfg *cfg;
	size_t n;		/* elements per thread per array */
	size_t sweeps;		/* passes over the arrays per timed phase */
	st_run_fn *run;
	bool nt;
	struct st_thread *t;
};

/* What op @op does to one element of a, b and c (x[0], x[1], x[2]). */
static void st_scalar(unsigned int op, double *x)
{
	switch (op) {
	case STREAM_COPY:
		x[2] = x[0];
		break;
	case STREAM_SCALE:
		x[1] = STREAM_SCALAR * x[2];
		break;
	case STREAM_ADD:
		x[2] = x[0] + x[1];
		break;
	case STREAM_TRIAD:
		x[0] = x[1] + STREAM_SCALAR * x[2];
		break;
	}
}

static int st_setup(void *vctx, unsigned int tid)
{
	struct st_ctx *ctx = vctx;
	struct st_thread *t = &ctx->t[tid];
	size_t j, span;

	t->n = ctx->n;
	span = stream_array_span(ctx->n);
	t->mem_bytes = 3 * span;
	t->mem = kern_alloc(t->mem_bytes, ctx->cfg->hugepages);
	if (!t->mem)
		return -1;
	t->a = t->mem;
	t->b = (double *)((char *)t->mem + span);
	t->c = (double *)((char *)t->mem + 2 * span);
	for (j = 0; j < t->n; j++) {	/* first touch, by this thread */
		t->a[j] = 1.0;
		t->b[j] = 2.0;
		t->c[j] = 0.0;
	}
	for (j = 0; j < t->n; j++)	/* as STREAM does before timing */
		t->a[j] = 2.0 * t->a[j];
	/* unreadable: nothing resident, which the caller prints as unknown */
	(void)kern_pages(t->mem, t->mem_bytes, &t->pg);
	t->expect[0] = 2.0;
	t->expect[1] = 2.0;
	t->expect[2] = 0.0;
	return 0;
}

static void st_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct st_ctx *ctx = vctx;
	struct st_thread *t = &ctx->t[tid];

	/* each op reads what it writes from other arrays: sweeps repeat it */
	ctx->run(phase, t->a, t->b, t->c, t->n, ctx->sweeps, ctx->nt);
	st_scalar(phase, t->expect);
}

static void st_teardown(void *vctx, unsigned int tid)
{
	struct st_ctx *ctx = vctx;
	struct st_thread *t = &ctx->t[tid];
	size_t j;

	t->err[0] = t->err[1] = t->err[2] = 0;
	for (j = 0; j < t->n; j++) {
		t->err[0] += fabs(t->a[j] - t->expect[0]);
		t->err[1] += fabs(t->b[j] - t->expect[1]);
		t->err[2] += fabs(t->c[j] - t->expect[2]);
	}
	kern_free(t->mem, t->mem_bytes);
	t->mem = NULL;
	t->a = t->b = t->c = NULL;
}

/* The checks of stream_run()'s arguments, and ctx's loops; 0 or -1. */
static int st_check(const struct kern_cfg *cfg, size_t bytes,
		    const struct stream_opts *o, struct st_ctx *ctx,
		    char *err, size_t errsz)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->n = bytes / sizeof(double) / cfg->nthreads;
	if (!ctx->n) {
		snprintf(err, errsz, "the arrays are too small for %u threads",
			 cfg->nthreads);
		return -1;
	}
	if (o->isa >= STREAM_NR_ISAS || !stream_isa_supported(o->isa)) {
		snprintf(err, errsz, "this CPU cannot run the %s code",
			 o->isa < STREAM_NR_ISAS ? stream_isa_name[o->isa] : "?");
		return -1;
	}
	if (o->nt && o->isa == STREAM_ISA_C) {
		snprintf(err, errsz,
			 "non-temporal stores need the SIMD code (x86-64)");
		return -1;
	}
	ctx->cfg = cfg;
	ctx->run = st_run_isa[o->isa];
	ctx->nt = o->nt;
	ctx->sweeps = STREAM_MIN_PHASE_BYTES / (ctx->n * sizeof(double));
	if (!ctx->sweeps)
		ctx->sweeps = 1;
	return 0;
}

/* GB/s and traffic of the ops measured, from their times. */
static void st_rates(const struct st_ctx *ctx, const struct kern_times *tm,
		     bool nt, struct stream_result *r)
{
	uint64_t total = (uint64_t)ctx->n * ctx->cfg->nthreads;
	const struct kern_series *s;
	unsigned int op;

	for (op = 0; op < r->done; op++) {
		/* streaming stores skip the write-allocate read */
		unsigned int moved = nt ? named_bytes[op] : traffic_bytes[op];

		s = &tm->ph[op];
		r->timed[op] = kern_timed_of(s);
		r->traffic_bytes[op] = total * moved * ctx->sweeps;
		/* each op writes one array: 8 bytes an element */
		r->traffic_read_bytes[op] = total *
			(moved - sizeof(double)) * ctx->sweeps;
		kern_map_stats(s->sec, s->reps, 1, (double)total *
			       named_bytes[op] * (double)ctx->sweeps / 1e9,
			       true, &r->gbps[op]);
		kern_map_stats(s->sec, s->reps, 1, (double)total * moved *
			       (double)ctx->sweeps / 1e9, true,
			       &r->traffic_gbps[op]);
	}
}

/* STREAM's check: the average relative error of each array. */
static void st_verify(const struct st_ctx *ctx, struct stream_result *r)
{
	double sum[3] = { 0, 0, 0 }, expect;
	uint64_t total = (uint64_t)ctx->n * ctx->cfg->nthreads;
	unsigned int i, k;

	for (i = 0; i < ctx->cfg->nthreads; i++)
		for (k = 0; k < 3; k++)
			sum[k] += ctx->t[i].err[k];
	r->verified = true;
	for (k = 0; k < 3; k++) {
		/* every thread ran the same ops: thread 0's values are all's */
		expect = ctx->t[0].expect[k];
		r->avg_rel_err[k] = sum[k] / (double)total /
				    (expect ? fabs(expect) : 1.0);
		if (!(r->avg_rel_err[k] <= STREAM_EPSILON))
			r->verified = false;
	}
}

static const char *st_phase_name(void *vctx, unsigned int phase)
{
	(void)vctx;
	return stream_op_name[phase];
}

int stream_run(const struct kern_cfg *cfg, size_t bytes,
	       const struct stream_opts *o, struct stream_result *r,
	       char *err, size_t errsz)
{
	/*
	 * By phase: each op is a measurement of its own, its repetitions
	 * in a row, so that Ctrl-C keeps the ops done.
	 */
	static const struct kern_ops ops = {
		.setup = st_setup, .body = st_body, .teardown = st_teardown,
		.nphases = STREAM_NR_OPS, .by_phase = true,
		.phase_name = st_phase_name, .lengthen = true,
		.warm = true, .whole = true,
	};
	struct kern_times tm;
	struct st_ctx ctx;
	unsigned int i;
	int rc;

	memset(r, 0, sizeof(*r));
	if (st_check(cfg, bytes, o, &ctx, err, errsz))
		return -1;
	r->sweeps = ctx.sweeps;
	ctx.t = calloc(cfg->nthreads, sizeof(*ctx.t));
	if (!ctx.t) {
		kern_oom(err, errsz);
		return -1;
	}
	rc = kern_run_timed(cfg, &ops, &ctx, &tm, err, errsz);
	if (!rc || tm.done) {
		r->done = tm.done;
		st_rates(&ctx, &tm, o->nt, r);
		st_verify(&ctx, r);
		for (i = 0; i < cfg->nthreads; i++)
			kern_pages_add(&r->pages, &ctx.t[i].pg);
	}
	kern_times_free(&tm);
	free(ctx.t);
	return rc;
}
