// SPDX-License-Identifier: GPL-2.0
/*
 * throughput.c - load throughput in the manner of x86-membench's throughput
 * benchmark (seed 002): each thread loads a buffer of its own, over and
 * over, with the assembly loops of throughput_x86.S at one SIMD width,
 * loads alone or mixed with FP adds or NOPs, and times itself with
 * serialized TSC reads. One size per call; the caller walks the list of
 * working sets from L1 to DRAM.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simd.h"

/*
 * Bytes each thread loads per repetition at least: a few milliseconds
 * even from L1, so that a TSC read or an interrupt is noise, and one
 * pass when the buffer is larger.
 */
#define TP_TARGET_BYTES (512ull << 20)

const char *const tp_width_name[TP_NR_WIDTHS] = { "sse", "avx", "avx512" };
const unsigned int tp_width_bits[TP_NR_WIDTHS] = { 128, 256, 512 };
const enum kern_cpu_feature tp_width_feature[TP_NR_WIDTHS] = {
	KERN_CPU_SSE2, KERN_CPU_AVX, KERN_CPU_AVX512F
};
const char *const tp_mix_name[TP_NR_MIXES] = {
	"load", "load-fadd", "load-nop"
};

#if defined(__x86_64__)
/* throughput_x86.S */
tp_loop_fn tp_load_sse, tp_fadd_sse, tp_nop_sse;
tp_loop_fn tp_load_avx, tp_fadd_avx, tp_nop_avx;
tp_loop_fn tp_load_avx512, tp_fadd_avx512, tp_nop_avx512;

static tp_loop_fn *const tp_fns[TP_NR_WIDTHS][TP_NR_MIXES] = {
	{ tp_load_sse, tp_fadd_sse, tp_nop_sse },
	{ tp_load_avx, tp_fadd_avx, tp_nop_avx },
	{ tp_load_avx512, tp_fadd_avx512, tp_nop_avx512 },
};

/*
 * The TSC once every earlier load and store has completed (mfence, then
 * lfence so rdtsc cannot start early) and before any later instruction
 * starts (lfence after it), at both ends of the timed loop.
 */
static inline uint64_t tp_tsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("mfence\n\tlfence\n\trdtsc\n\tlfence"
			     : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}
#else
/* no loops: kern_cpu_has() is false for every width, nothing calls these */
static tp_loop_fn *const tp_fns[TP_NR_WIDTHS][TP_NR_MIXES];

static inline uint64_t tp_tsc(void)
{
	return 0;
}
#endif

tp_loop_fn *throughput_loop(enum tp_width width, enum tp_mix mix)
{
	if ((unsigned int)width >= TP_NR_WIDTHS ||
	    (unsigned int)mix >= TP_NR_MIXES)
		return NULL;
	return tp_fns[width][mix];
}

struct tp_thread {
	double *buf;
	uint64_t last;		/* TSC cycles of this repetition's calls */
	struct kern_pages pg;	/* what the kernel gave buf */
} __attribute__((aligned(KERN_LINE)));

struct tp_ctx {
	const struct kern_cfg *cfg;
	size_t bytes;
	uint64_t passes;
	enum tp_width width;
	unsigned int nmix;
	enum tp_mix mix[TP_NR_MIXES];	/* the phases, in this order */
	struct tp_thread *t;
};

static int tp_setup(void *vctx, unsigned int tid)
{
	/*
	 * x86-membench's denormal-free data: a number, its reciprocal and
	 * their negatives. Every lane of an fadd accumulator keeps adding
	 * one of these, so sums stay normal (and far from overflowing).
	 */
	static const double pattern[4] = { 1.25, 0.8, -1.25, -0.8 };
	struct tp_ctx *ctx = vctx;
	struct tp_thread *t = &ctx->t[tid];
	size_t j, n = ctx->bytes / sizeof(double);

	t->buf = kern_alloc(ctx->bytes, ctx->cfg->hugepages);
	if (!t->buf)
		return -1;
	for (j = 0; j < n; j++)	/* first touch, by this thread */
		t->buf[j] = pattern[j % 4];
	/* one untimed pass: caches and TLB as every timed pass finds them */
	tp_fns[ctx->width][TP_LOAD](t->buf, ctx->bytes, 1);
	/* unreadable: nothing resident, which the caller prints as unknown */
	(void)kern_pages(t->buf, ctx->bytes, &t->pg);
	return 0;
}

static void tp_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct tp_ctx *ctx = vctx;
	struct tp_thread *t = &ctx->t[tid];
	tp_loop_fn *fn = tp_fns[ctx->width][ctx->mix[phase]];
	uint64_t c0, c1;

	c0 = tp_tsc();
	fn(t->buf, ctx->bytes, ctx->passes);
	c1 = tp_tsc();
	t->last += c1 - c0;	/* tp_collect() clears it */
}

/*
 * The repetition's time: the slowest thread's TSC cycles over its calls
 * (one, or the parts of a lengthened repetition), cleared for the next.
 */
static void tp_collect(void *vctx, unsigned int phase, double *v)
{
	struct tp_ctx *ctx = vctx;
	uint64_t slowest = 1;
	unsigned int tid;

	(void)phase;
	for (tid = 0; tid < ctx->cfg->nthreads; tid++) {
		if (ctx->t[tid].last > slowest)
			slowest = ctx->t[tid].last;
		ctx->t[tid].last = 0;
	}
	v[0] = (double)slowest;
}

static void tp_teardown(void *vctx, unsigned int tid)
{
	struct tp_ctx *ctx = vctx;

	kern_free(ctx->t[tid].buf, ctx->bytes);
	ctx->t[tid].buf = NULL;
}

/* The checks of throughput_run()'s arguments, and ctx's mixes; 0 or -1. */
static int tp_check(size_t bytes, enum tp_width width, unsigned int mixes,
		    double tsc_ghz, struct tp_ctx *ctx, char *err,
		    size_t errsz)
{
	unsigned int m;

	if ((unsigned int)width >= TP_NR_WIDTHS ||
	    !kern_cpu_has(tp_width_feature[width])) {
		snprintf(err, errsz, "this CPU cannot run %s loads",
			 (unsigned int)width < TP_NR_WIDTHS ?
			 tp_width_name[width] : "such");
		return -1;
	}
	if (!bytes || bytes % TP_SIZE_ALIGN) {
		snprintf(err, errsz, "the size must be a multiple of %d bytes",
			 TP_SIZE_ALIGN);
		return -1;
	}
	if (!(tsc_ghz > 0)) {
		snprintf(err, errsz, "no TSC rate to convert cycles to time");
		return -1;
	}
	memset(ctx, 0, sizeof(*ctx));
	for (m = 0; m < TP_NR_MIXES; m++)
		if (mixes & (1u << m))
			ctx->mix[ctx->nmix++] = (enum tp_mix)m;
	if (!ctx->nmix) {
		snprintf(err, errsz, "no mix to run");
		return -1;
	}
	return 0;
}

uint64_t throughput_passes(size_t bytes)
{
	return bytes ? (TP_TARGET_BYTES + bytes - 1) / bytes : 0;
}

int throughput_run(const struct kern_cfg *cfg, size_t bytes,
		   enum tp_width width, unsigned int mixes, double tsc_ghz,
		   struct throughput_result *r, char *err, size_t errsz)
{
	struct kern_ops ops = { .setup = tp_setup, .body = tp_body,
				.teardown = tp_teardown, .collect = tp_collect,
				.nvals = 1, .lengthen = true,
				.warm = true, .whole = true };
	const struct kern_series *s;
	struct kern_times tm;
	struct tp_ctx ctx;
	unsigned int i, m;
	int rc;

	memset(r, 0, sizeof(*r));
	if (tp_check(bytes, width, mixes, tsc_ghz, &ctx, err, errsz))
		return -1;
	ctx.cfg = cfg;
	ctx.bytes = bytes;
	ctx.width = width;
	ctx.passes = throughput_passes(bytes);
	ops.nphases = ctx.nmix;
	/* timed whole, each mix is a run of its own, one after the other */
	ops.by_phase = cfg->timing == KERN_TIMING_WHOLE;
	ctx.t = aligned_alloc(KERN_LINE, cfg->nthreads * sizeof(*ctx.t));
	if (!ctx.t) {
		kern_oom(err, errsz);
		return -1;
	}
	memset(ctx.t, 0, cfg->nthreads * sizeof(*ctx.t));
	/*
	 * The harness's wall-clock times are not used: each thread's TSC
	 * is, the slowest thread's (tp_collect()) being the call's.
	 */
	rc = kern_run_timed(cfg, &ops, &ctx, &tm, err, errsz);
	if (!rc) {
		r->passes = ctx.passes;
		for (i = 0; i < ctx.nmix; i++) {
			m = ctx.mix[i];
			s = &tm.ph[i];
			r->timed[m] = kern_timed_of(s);
			/* bytes per ns is GB/s */
			kern_map_stats(s->val, s->reps, 1,
				       (double)cfg->nthreads * (double)bytes *
				       (double)ctx.passes * tsc_ghz, true,
				       &r->gbps[m]);
			r->bytes_per_cycle[m] = r->gbps[m].median / tsc_ghz /
						(double)cfg->nthreads;
		}
		for (i = 0; i < cfg->nthreads; i++)
			kern_pages_add(&r->pages, &ctx.t[i].pg);
	}
	kern_times_free(&tm);
	free(ctx.t);
	return rc;
}
