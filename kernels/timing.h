/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timing.h - the clocks and the summary of repeated values (timing.c),
 * below everything else of the harness; kernel.h includes it.
 */

#ifndef MEMDIAG_KERNELS_TIMING_H
#define MEMDIAG_KERNELS_TIMING_H

#include <stdbool.h>
#include <stddef.h>

/* median, min, max and coefficient of variation (stddev / mean) */
struct kern_stats {
	double median, min, max, cov;
};

/* Summarize @n values (n >= 1); cov is 0 for a single value. */
void kern_stats(const double *v, size_t n, struct kern_stats *s);
/*
 * kern_stats() of @n values @v[i * @stride] mapped to @k / v (@inverse:
 * a rate from a time) or @k * v.
 */
void kern_map_stats(const double *v, size_t n, size_t stride, double k,
		    bool inverse, struct kern_stats *s);

/* CLOCK_MONOTONIC in seconds. */
double kern_now(void);

/*
 * The calling thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID),
 * negative where the clock cannot be read.
 */
double kern_thread_cpu_sec(void);

#endif /* MEMDIAG_KERNELS_TIMING_H */
