// SPDX-License-Identifier: GPL-2.0
/*
 * transpose.c - out-of-place transpose of an N x N matrix of doubles, the
 * software-prefetching seed's variants (seed 003): naive, SSE 2x2 and
 * AVX 4x4 register blocks, and those two with a prefetch of the source
 * rows D rows ahead.
 *
 * Every variant writes destination rows in order and walks down the
 * source's columns: consecutive source reads are a whole row (N * 8
 * bytes, usually more than a page) apart, a stride the hardware
 * prefetchers do not follow, which is what software prefetching is for.
 * Each thread writes its own band of destination rows.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "simd.h"

const char *const tr_variant_name[TR_NR_VARIANTS] = {
	"naive", "sse", "sse-prefetch", "avx", "avx-prefetch"
};
const enum kern_cpu_feature tr_variant_feature[TR_NR_VARIANTS] = {
	KERN_CPU_NR_FEATURES,	/* plain C: none */
	KERN_CPU_SSE2, KERN_CPU_SSE2, KERN_CPU_AVX, KERN_CPU_AVX
};

/* dst rows [x0, x1) of the transpose of the n x n matrix src */
typedef void tr_fn(const double *src, double *dst, size_t n, size_t x0,
		   size_t x1, size_t d);

static void tr_naive(const double *src, double *dst, size_t n, size_t x0,
		     size_t x1, size_t d)
{
	size_t x, y;

	(void)d;
	for (x = x0; x < x1; x++)
		for (y = 0; y < n; y++)
			dst[x * n + y] = src[y * n + x];
}

#if defined(__x86_64__)
/*
 * Rows y, y+1 of src, columns x, x+1, become rows x, x+1 of dst, columns
 * y, y+1. x and y are even and rows are 64-byte aligned: aligned loads.
 */
static inline void tr_sse_2x2(const double *src, double *dst, size_t n,
			      size_t x, size_t y)
{
	__m128d r0 = _mm_load_pd(src + y * n + x);
	__m128d r1 = _mm_load_pd(src + (y + 1) * n + x);

	_mm_store_pd(dst + x * n + y, _mm_unpacklo_pd(r0, r1));
	_mm_store_pd(dst + (x + 1) * n + y, _mm_unpackhi_pd(r0, r1));
}

static void tr_sse(const double *src, double *dst, size_t n, size_t x0,
		   size_t x1, size_t d)
{
	size_t x, y;

	(void)d;
	for (x = x0; x < x1; x += 2)
		for (y = 0; y < n; y += 2)
			tr_sse_2x2(src, dst, n, x, y);
}

static void tr_sse_prefetch(const double *src, double *dst, size_t n,
			    size_t x0, size_t x1, size_t d)
{
	/* the last y whose prefetched rows are still in the matrix */
	size_t ylim = n > d + 1 ? n - d - 1 : 0;
	size_t x, y;

	for (x = x0; x < x1; x += 2) {
		for (y = 0; y < ylim; y += 2) {
			_mm_prefetch((const char *)(src + (y + d) * n + x),
				     _MM_HINT_T0);
			_mm_prefetch((const char *)(src + (y + d + 1) * n + x),
				     _MM_HINT_T0);
			tr_sse_2x2(src, dst, n, x, y);
		}
		for (; y < n; y += 2)
			tr_sse_2x2(src, dst, n, x, y);
	}
}

/*
 * Rows y..y+3 of src, columns x..x+3, become rows x..x+3 of dst, columns
 * y..y+3: pair the rows' even and odd elements in each 128-bit lane, then
 * swap lanes.
 */
__attribute__((target("avx")))
static inline void tr_avx_4x4(const double *src, double *dst, size_t n,
			      size_t x, size_t y)
{
	__m256d r0 = _mm256_load_pd(src + y * n + x);
	__m256d r1 = _mm256_load_pd(src + (y + 1) * n + x);
	__m256d r2 = _mm256_load_pd(src + (y + 2) * n + x);
	__m256d r3 = _mm256_load_pd(src + (y + 3) * n + x);
	/* e.g. lo01 = r0[0] r1[0] r0[2] r1[2] */
	__m256d lo01 = _mm256_unpacklo_pd(r0, r1);
	__m256d hi01 = _mm256_unpackhi_pd(r0, r1);
	__m256d lo23 = _mm256_unpacklo_pd(r2, r3);
	__m256d hi23 = _mm256_unpackhi_pd(r2, r3);

	_mm256_store_pd(dst + x * n + y,
			_mm256_permute2f128_pd(lo01, lo23, 0x20));
	_mm256_store_pd(dst + (x + 1) * n + y,
			_mm256_permute2f128_pd(hi01, hi23, 0x20));
	_mm256_store_pd(dst + (x + 2) * n + y,
			_mm256_permute2f128_pd(lo01, lo23, 0x31));
	_mm256_store_pd(dst + (x + 3) * n + y,
			_mm256_permute2f128_pd(hi01, hi23, 0x31));
}

__attribute__((target("avx")))
static void tr_avx(const double *src, double *dst, size_t n, size_t x0,
		   size_t x1, size_t d)
{
	size_t x, y;

	(void)d;
	for (x = x0; x < x1; x += 4)
		for (y = 0; y < n; y += 4)
			tr_avx_4x4(src, dst, n, x, y);
	_mm256_zeroupper();
}

__attribute__((target("avx")))
static void tr_avx_prefetch(const double *src, double *dst, size_t n,
			    size_t x0, size_t x1, size_t d)
{
	size_t ylim = n > d + 3 ? n - d - 3 : 0;
	size_t x, y, k;

	for (x = x0; x < x1; x += 4) {
		for (y = 0; y < ylim; y += 4) {
			for (k = 0; k < 4; k++)
				_mm_prefetch((const char *)
					     (src + (y + d + k) * n + x),
					     _MM_HINT_T0);
			tr_avx_4x4(src, dst, n, x, y);
		}
		for (; y < n; y += 4)
			tr_avx_4x4(src, dst, n, x, y);
	}
	_mm256_zeroupper();
}

static tr_fn *const tr_fns[TR_NR_VARIANTS] = {
	tr_naive, tr_sse, tr_sse_prefetch, tr_avx, tr_avx_prefetch
};
#else
static tr_fn *const tr_fns[TR_NR_VARIANTS] = { tr_naive };
#endif

static bool tr_supported(enum tr_variant v)
{
	return tr_fns[v] && (tr_variant_feature[v] == KERN_CPU_NR_FEATURES ||
			     kern_cpu_has(tr_variant_feature[v]));
}

struct tr_ctx {
	const struct kern_cfg *cfg;
	size_t n;
	size_t d;
	double *src;
	double *out;		/* naive's result (ref) or the others' (dst) */
	const double *ref;	/* what out must equal; NULL: the definition */
	tr_fn *fn;
	unsigned int v;		/* the variant running: its name */
	bool init_src;		/* setup fills src (the first run only) */
	bool corrupt;		/* test hook: flip a bit of out before checking */
	uint64_t *bad;		/* per thread: elements that differ */
};

/* Element (i, j) of the source: unique, exact, never 0 or the poison. */
static double tr_value(size_t n, size_t i, size_t j)
{
	return (double)(i * n + j + 1);
}

#define TR_POISON (-1.0)

/* Thread @tid's band of rows, in whole 8-row (64-byte) blocks. */
static void tr_band(const struct tr_ctx *ctx, unsigned int tid, size_t *x0,
		    size_t *x1)
{
	size_t blocks = ctx->n / TR_ALIGN, T = ctx->cfg->nthreads;

	*x0 = blocks * tid / T * TR_ALIGN;
	*x1 = blocks * (tid + 1) / T * TR_ALIGN;
}

static int tr_setup(void *vctx, unsigned int tid)
{
	struct tr_ctx *ctx = vctx;
	size_t n = ctx->n, x0, x1, i, j;

	/* first touch by the thread that writes these rows */
	tr_band(ctx, tid, &x0, &x1);
	for (i = x0; i < x1; i++) {
		if (ctx->init_src)
			for (j = 0; j < n; j++)
				ctx->src[i * n + j] = tr_value(n, i, j);
		/* a variant that skips an element cannot pass for correct */
		for (j = 0; j < n; j++)
			ctx->out[i * n + j] = TR_POISON;
	}
	return 0;
}

static void tr_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct tr_ctx *ctx = vctx;
	size_t x0, x1;

	(void)phase;
	tr_band(ctx, tid, &x0, &x1);
	ctx->fn(ctx->src, ctx->out, ctx->n, x0, x1, ctx->d);
}

/* Check this thread's rows of the result, bit for bit. */
static void tr_teardown(void *vctx, unsigned int tid)
{
	struct tr_ctx *ctx = vctx;
	size_t n = ctx->n, x0, x1, x, y;
	uint64_t bad = 0, a, b;
	double want;

	tr_band(ctx, tid, &x0, &x1);
	if (ctx->corrupt && !tid) {
		/* one bit of one element: the last of the first band */
		memcpy(&a, &ctx->out[x1 * n - 1], sizeof(a));
		a ^= 1;
		memcpy(&ctx->out[x1 * n - 1], &a, sizeof(a));
	}
	for (x = x0; x < x1; x++) {
		for (y = 0; y < n; y++) {
			want = ctx->ref ? ctx->ref[x * n + y] :
					  tr_value(n, y, x);
			memcpy(&a, &ctx->out[x * n + y], sizeof(a));
			memcpy(&b, &want, sizeof(b));
			bad += a != b;
		}
	}
	ctx->bad[tid] = bad;
}

size_t transpose_dim(size_t bytes)
{
	size_t elems = bytes / sizeof(double);
	size_t n = (size_t)sqrt((double)elems);

	/* the double's square root can be one off either way */
	while (n && n * n > elems)
		n--;
	while ((n + 1) * (n + 1) <= elems)
		n++;
	return n / TR_ALIGN * TR_ALIGN;
}

/*
 * Each variant is a kern_run() of one phase; to kern_cfg.mark they are
 * the phases of one run, numbered in the order they run.
 */
struct tr_mark {
	const struct kern_cfg *cfg;
	unsigned int phase;
};

static void tr_mark(void *arg, enum kern_mark m, unsigned int rep,
		    unsigned int phase)
{
	const struct tr_mark *tm = arg;

	(void)phase;	/* always 0 */
	tm->cfg->mark(tm->cfg->mark_arg, m, rep, tm->phase);
}

/* The checks of transpose_run()'s arguments; 0 or -1. */
static int tr_check(const struct kern_cfg *cfg, size_t n,
		    unsigned int variants, unsigned int distance, char *err,
		    size_t errsz)
{
	unsigned int v;

	if (!n || n % TR_ALIGN || n / TR_ALIGN < cfg->nthreads) {
		snprintf(err, errsz, "the matrix (%zu x %zu) is too small for %u thread%s: each needs %d rows",
			 n, n, cfg->nthreads, cfg->nthreads == 1 ? "" : "s",
			 TR_ALIGN);
		return -1;
	}
	if (distance > TR_MAX_DISTANCE) {
		snprintf(err, errsz, "the prefetch distance is more than %d rows",
			 TR_MAX_DISTANCE);
		return -1;
	}
	for (v = 0; v < TR_NR_VARIANTS; v++) {
		if ((variants & (1u << v)) && !tr_supported(v)) {
			snprintf(err, errsz, "this CPU cannot run the %s variant",
				 tr_variant_name[v]);
			return -1;
		}
	}
	return 0;
}

/* The matrices and what the threads keep; 0 or -1 (all freed). */
struct tr_bufs {
	double *src, *ref, *dst;
	size_t bytes;
};

static void tr_free(struct tr_bufs *b, struct tr_ctx *ctx)
{
	kern_free(b->src, b->bytes);
	kern_free(b->ref, b->bytes);
	kern_free(b->dst, b->bytes);
	free(ctx->bad);
}

static int tr_alloc(const struct kern_cfg *cfg, size_t n, bool need_dst,
		    struct tr_bufs *b, struct tr_ctx *ctx)
{
	memset(b, 0, sizeof(*b));
	b->bytes = n * n * sizeof(double);
	b->src = kern_alloc(b->bytes, cfg->hugepages);
	b->ref = kern_alloc(b->bytes, cfg->hugepages);
	if (need_dst)
		b->dst = kern_alloc(b->bytes, cfg->hugepages);
	ctx->bad = calloc(cfg->nthreads, sizeof(*ctx->bad));
	if (b->src && b->ref && (!need_dst || b->dst) && ctx->bad)
		return 0;
	tr_free(b, ctx);
	return -1;
}

static const char *tr_phase_name(void *vctx, unsigned int phase)
{
	const struct tr_ctx *ctx = vctx;

	(void)phase;	/* always 0: a variant is a run of its own */
	return tr_variant_name[ctx->v];
}

/*
 * The pages of the source and of @ctx's destination, asked after the
 * run: each thread first-touches its band of both (and no thread's band
 * is a buffer of its own), so only then is all of them resident.
 */
static void tr_pages(const struct tr_ctx *ctx, size_t bytes,
		     struct kern_pages *sum)
{
	struct kern_pages pg;

	/* unreadable: nothing resident, printed as unknown */
	(void)kern_pages(ctx->src, bytes, &pg);
	kern_pages_add(sum, &pg);
	(void)kern_pages(ctx->out, bytes, &pg);
	kern_pages_add(sum, &pg);
}

/*
 * Variant @v: a run of its own (@cfg, or once untimed), checked in
 * teardown; its rates into @r. 0 or -1 (@err; "interrupted" too).
 */
static int tr_variant(const struct kern_cfg *cfg, struct tr_ctx *ctx,
		      const struct tr_bufs *b, unsigned int v, int corrupt,
		      struct transpose_result *r, char *err, size_t errsz)
{
	static const struct kern_ops ops = {
		.setup = tr_setup, .body = tr_body,
		.teardown = tr_teardown, .nphases = 1,
		.phase_name = tr_phase_name,
	};
	const double moved = 2.0 * (double)b->bytes;
	struct kern_times tm;
	uint64_t bad = 0;
	unsigned int tid;
	int rc;

	ctx->fn = tr_fns[v];
	ctx->v = v;
	ctx->out = v == TR_NAIVE ? b->ref : b->dst;
	ctx->ref = v == TR_NAIVE ? NULL : b->ref;
	ctx->corrupt = (int)v == corrupt;
	rc = kern_run_timed(cfg, &ops, ctx, &tm, err, errsz);
	if (!rc) {
		ctx->init_src = false;
		for (tid = 0; tid < cfg->nthreads; tid++)
			bad += ctx->bad[tid];
		r->mismatches[v] = bad;
		r->verified[v] = !bad;
		r->timed[v] = kern_timed_of(&tm.ph[0]);
		kern_map_stats(tm.ph[0].sec, r->timed[v].reps, 1, moved / 1e9, true,
			       &r->gbps[v]);
		/* the write-allocate reads the destination once more */
		kern_map_stats(tm.ph[0].sec, r->timed[v].reps, 1, 1.5 * moved / 1e9,
			       true, &r->traffic_gbps[v]);
		tr_pages(ctx, b->bytes, &r->pages[v]);
	}
	kern_times_free(&tm);
	return rc;
}

int transpose_run(const struct kern_cfg *cfg, size_t n, unsigned int variants,
		  unsigned int distance, int corrupt,
		  struct transpose_result *r, char *err, size_t errsz)
{
	struct kern_cfg once, each;
	struct tr_mark tm = { cfg, 0 };
	struct tr_ctx ctx;
	struct tr_bufs b;
	unsigned int v;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->n = n;
	if (tr_check(cfg, n, variants, distance, err, errsz))
		return -1;
	memset(&ctx, 0, sizeof(ctx));
	if (tr_alloc(cfg, n, variants & ~1u, &b, &ctx)) {
		kern_oom(err, errsz);	/* three matrices of bytes each */
		return -1;
	}
	ctx.cfg = cfg;
	ctx.n = n;
	ctx.d = distance;
	ctx.src = b.src;
	ctx.init_src = true;
	/*
	 * naive first, into ref: the others are checked against it. When it
	 * is not asked for, it still runs, once and untimed.
	 */
	once = *cfg;
	once.reps = 1;
	once.min_time = 0;
	once.progress = NULL;
	once.mark = NULL;	/* not a result: nothing to count */
	each = *cfg;
	if (cfg->mark) {
		each.mark = tr_mark;
		each.mark_arg = &tm;
	}
	for (v = 0; v < TR_NR_VARIANTS && !rc; v++) {
		bool want = variants & (1u << v);

		if (v != TR_NAIVE && !want)
			continue;
		rc = tr_variant(want ? &each : &once, &ctx, &b, v, corrupt, r,
				err, errsz);
		if (!rc && want)
			r->done |= 1u << v;
		tm.phase += want;
	}
	tr_free(&b, &ctx);
	return rc;
}
