/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simd.h - the micro-kernels written for one SIMD width each: load
 * throughput (throughput.c, throughput_x86.S) and matrix transpose
 * (transpose.c). What the CPU runs is kern_cpu_has() (kernel.h).
 */

#ifndef MEMDIAG_SIMD_H
#define MEMDIAG_SIMD_H

#include "kernel.h"

/*
 * Throughput (x86-membench style): each thread loads its own buffer over
 * and over with hand-written loops at one SIMD width, loads only or mixed
 * with FP adds or NOPs, timed with serialized TSC reads.
 */
enum tp_width { TP_SSE, TP_AVX, TP_AVX512, TP_NR_WIDTHS };
enum tp_mix { TP_LOAD, TP_LOAD_FADD, TP_LOAD_NOP, TP_NR_MIXES };
extern const char *const tp_width_name[TP_NR_WIDTHS];	/* sse, avx, avx512 */
extern const unsigned int tp_width_bits[TP_NR_WIDTHS];	/* 128, 256, 512 */
extern const enum kern_cpu_feature tp_width_feature[TP_NR_WIDTHS];
extern const char *const tp_mix_name[TP_NR_MIXES];	/* load, load-fadd, load-nop */
#define TP_SIZE_ALIGN 1024	/* buffer sizes: multiples of one loop iteration */
/* one pass of a loop loads each byte of @buf once; it makes @passes */
typedef void tp_loop_fn(const void *buf, size_t bytes, uint64_t passes);
/*
 * The loop of @width and @mix (throughput_x86.S), NULL off x86-64 or out
 * of range; whether the CPU runs it is kern_cpu_has(tp_width_feature[]).
 */
tp_loop_fn *throughput_loop(enum tp_width width, enum tp_mix mix);

struct throughput_result {
	struct kern_stats gbps[TP_NR_MIXES];	/* bytes loaded, all threads */
	double bytes_per_cycle[TP_NR_MIXES];	/* median, per thread per TSC cycle */
	uint64_t passes;	/* over each thread's buffer per repetition */
	struct kern_timed timed[TP_NR_MIXES];	/* its repetitions */
	struct kern_pages pages;	/* all threads' buffers (every mix's) */
};
/* The passes over a buffer of @bytes each repetition makes. */
uint64_t throughput_passes(size_t bytes);
/*
 * @bytes per thread (a multiple of TP_SIZE_ALIGN), every mix whose bit is
 * set in @mixes, one after the other in each repetition (the harness's
 * phases 0, 1, ... in enum order); @tsc_ghz from kern_tsc_ghz(). GB/s is
 * all threads' bytes over the slowest thread's time.
 */
int throughput_run(const struct kern_cfg *cfg, size_t bytes,
		   enum tp_width width, unsigned int mixes, double tsc_ghz,
		   struct throughput_result *r, char *err, size_t errsz);

/*
 * Transpose of an N x N matrix of doubles, by the variants of the
 * software-prefetching seed; each thread writes a band of destination
 * rows (reading the same band of source columns).
 */
enum tr_variant { TR_NAIVE, TR_SSE, TR_SSE_PREFETCH, TR_AVX,
		  TR_AVX_PREFETCH, TR_NR_VARIANTS };
/* naive, sse, sse-prefetch, avx, avx-prefetch */
extern const char *const tr_variant_name[TR_NR_VARIANTS];
extern const enum kern_cpu_feature tr_variant_feature[TR_NR_VARIANTS];
#define TR_ALIGN 8		/* N is a multiple of 8: 64-byte rows */
#define TR_MAX_DISTANCE 1024	/* rows */

struct transpose_result {
	size_t n;
	struct kern_stats gbps[TR_NR_VARIANTS];		/* 2 * N * N * 8 */
	struct kern_stats traffic_gbps[TR_NR_VARIANTS];	/* + write-allocate */
	bool verified[TR_NR_VARIANTS];
	uint64_t mismatches[TR_NR_VARIANTS];	/* elements that differ */
	struct kern_timed timed[TR_NR_VARIANTS];	/* its repetitions */
	/* the source and the variant's destination, after its run */
	struct kern_pages pages[TR_NR_VARIANTS];
	unsigned int done;	/* variants measured (a mask): all asked for
				 * but after a stop */
};
/*
 * The largest multiple of TR_ALIGN whose N x N doubles fit in @bytes;
 * 0 if none does.
 */
size_t transpose_dim(size_t bytes);
/*
 * Transpose an @n x @n matrix (n from transpose_dim()) with every variant
 * whose bit is set in @variants, each run cfg->reps times; the prefetching
 * ones prefetch the source @distance rows ahead. naive's result is checked
 * against the definition, every other one element for element against
 * naive's. @corrupt is a test hook: a variant whose output gets one bit
 * flipped before it is checked, or -1. To cfg->mark the variants asked
 * for are phases 0, 1, ... in enum order; naive run only as the
 * reference is not marked.
 */
int transpose_run(const struct kern_cfg *cfg, size_t n, unsigned int variants,
		  unsigned int distance, int corrupt,
		  struct transpose_result *r, char *err, size_t errsz);

#endif /* MEMDIAG_SIMD_H */
