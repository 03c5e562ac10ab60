/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel.h - memdiag's micro-kernels: the memory read benchmark with NOP
 * delays (read_delay.c), STREAM (stream.c) and a pointer-chase latency
 * kernel (latency.c), run by one harness (harness.c) on pinned threads
 * whose memory they first touch themselves.
 */

#ifndef MEMDIAG_KERNEL_H
#define MEMDIAG_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KERN_LINE 64		/* bytes per cache line / record */
#define KERN_MAX_THREADS 1024

/* Which edge of a timed phase kern_cfg.mark is called at. */
enum kern_mark {
	KERN_MARK_BEGIN,
	KERN_MARK_END,
};

/* How a kernel is run: which CPUs, how often, with which pages. */
struct kern_cfg {
	unsigned int nthreads;
	const int *cpu;		/* nthreads CPUs, thread i pinned to cpu[i] */
	unsigned int reps;
	bool hugepages;		/* madvise(MADV_HUGEPAGE) the buffers */
	/* called by thread 0 after each repetition, or NULL */
	void (*progress)(void *arg, unsigned int rep, unsigned int reps);
	void *progress_arg;
	/*
	 * Called by thread 0 around the timed part of each phase of each
	 * repetition, or NULL, so that counters can be read over exactly
	 * what is timed: KERN_MARK_BEGIN once every thread is done with
	 * what came before (setup or the previous phase) and before any
	 * starts the phase, KERN_MARK_END once every thread has finished
	 * it and before any goes on (to the next phase or to teardown).
	 * Its own time is not part of the phase's time.
	 */
	void (*mark)(void *arg, enum kern_mark m, unsigned int rep,
		     unsigned int phase);
	void *mark_arg;
};

/* median, min, max and coefficient of variation (stddev / mean) */
struct kern_stats {
	double median, min, max, cov;
};

/* Summarize @n values (n >= 1); cov is 0 for a single value. */
void kern_stats(const double *v, size_t n, struct kern_stats *s);

/* CLOCK_MONOTONIC in seconds. */
double kern_now(void);

/*
 * A page-aligned buffer of @bytes, madvised for transparent hugepages
 * when asked; NULL when out of memory. Not touched: the caller touches it
 * from the thread that will use it. Freed with kern_free().
 */
void *kern_alloc(size_t bytes, bool hugepages);
void kern_free(void *p, size_t bytes);

/*
 * What a kernel gives the harness. Each thread calls setup() once (to
 * allocate and first-touch its memory), then, for each of the cfg->reps
 * repetitions and each of the @nphases phases, body() between two
 * barriers; the time from the first barrier to the last thread's end is
 * that phase's time. Then teardown() (may be NULL). setup() returns 0 or
 * -1 (out of memory); then nothing is timed.
 */
struct kern_ops {
	int (*setup)(void *ctx, unsigned int tid);
	void (*body)(void *ctx, unsigned int tid, unsigned int phase);
	void (*teardown)(void *ctx, unsigned int tid);
	unsigned int nphases;
};

/*
 * Run @ops on cfg->nthreads pinned threads. @sec gets reps * nphases
 * times in seconds, rep-major (sec[rep * nphases + phase]). Returns 0, or
 * -1 with a reason in @err.
 */
int kern_run(const struct kern_cfg *cfg, const struct kern_ops *ops,
	     void *ctx, double *sec, char *err, size_t errsz);

/*
 * The nominal TSC frequency in GHz, from rdtsc against CLOCK_MONOTONIC
 * over about 50 ms; 0 where there is no TSC (not x86).
 */
double kern_tsc_ghz(void);

/* ---- the kernels ---- */

/* Memory read benchmark (the seed paper's Fig. 2). */
struct read_delay_result {
	struct kern_stats gbps;	/* 64 bytes per record read, 10^9 B/s */
	uint64_t records;	/* records read per repetition, all threads */
};
int read_delay_run(const struct kern_cfg *cfg, size_t bytes,
		   unsigned long delay, struct read_delay_result *r,
		   char *err, size_t errsz);

/* STREAM: copy, scale, add, triad. */
enum stream_op { STREAM_COPY, STREAM_SCALE, STREAM_ADD, STREAM_TRIAD,
		 STREAM_NR_OPS };
extern const char *const stream_op_name[STREAM_NR_OPS];
struct stream_result {
	struct kern_stats gbps[STREAM_NR_OPS];		/* named bytes */
	struct kern_stats traffic_gbps[STREAM_NR_OPS];	/* + write-allocate */
	bool verified;
	double avg_rel_err[3];	/* a, b, c: average relative error */
	/*
	 * Bytes one repetition of each op moves to and from memory, all
	 * threads, write-allocate included (what the memory controllers
	 * should count), and the part of them that is reads.
	 */
	uint64_t traffic_bytes[STREAM_NR_OPS];
	uint64_t traffic_read_bytes[STREAM_NR_OPS];
};
/* @bytes per array (three arrays), split among the threads. */
int stream_run(const struct kern_cfg *cfg, size_t bytes,
	       struct stream_result *r, char *err, size_t errsz);

/* Pointer chase over one working-set size. */
struct latency_result {
	struct kern_stats ns;	/* ns per load */
	uint64_t loads;		/* loads per thread per repetition */
};
int latency_run(const struct kern_cfg *cfg, size_t bytes,
		struct latency_result *r, char *err, size_t errsz);

#endif /* MEMDIAG_KERNEL_H */
