/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel.h - memdiag's micro-kernels: the memory read benchmark with NOP
 * delays (read_delay.c), STREAM (stream.c), a pointer-chase latency
 * kernel (latency.c) and 3D stencils (stencil.c), run by one harness
 * (harness.c) on pinned threads whose memory they first touch themselves.
 * The kernels written for one SIMD width each, load throughput and matrix
 * transpose, are declared in simd.h.
 */

#ifndef MEMDIAG_KERNEL_H
#define MEMDIAG_KERNEL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing.h"

#define KERN_LINE 64		/* bytes per cache line / record */
#define KERN_MAX_THREADS 1024

/* Which edge of a timed phase kern_cfg.mark is called at. */
enum kern_mark {
	KERN_MARK_BEGIN,
	KERN_MARK_END,
};

/*
 * Where a run is, for a progress line: repetition @rep (done) of about
 * @reps (what --min-time will take at the pace so far, at least
 * cfg->reps) of phase @phase of @nphases when @by_phase, else of every
 * phase. @done: that measurement (by phase), or every phase, is complete.
 * @name: the phase's (kern_ops.phase_name), or NULL. @left_sec: seconds
 * the measurement has left at the pace so far (phases not yet started
 * guessed at that pace), negative when nothing is timed yet. @pace_sec:
 * seconds timed per repetition of a phase, all phases' so far (what a
 * caller guesses its later measurements by), negative when none.
 */
struct kern_progress {
	unsigned int phase, nphases;
	unsigned int rep, reps;
	bool by_phase, done;
	const char *name;
	double left_sec;
	double pace_sec;
};

/* Repetitions of one measurement at most, whatever --min-time asks. */
#define KERN_MAX_REPS 100000

/*
 * How a multi-thread measurement is timed (kern_cfg.timing, run
 * --timing). REPETITION: every repetition ends at a barrier of all the
 * threads, as STREAM's implicit barrier ends each kernel, and thread 0's
 * clock from the barrier before it to the one after is its time. WHOLE:
 * as likwid-bench times, each thread runs its whole iteration count (its
 * parts: as many calls as last --min-time) between two barriers, and the
 * repetition's time is the slowest thread's own, from its start to its
 * end; the threads meet once per repetition, not once per call. Only for
 * kernels whose ops say kern_ops.whole (repeat.c).
 */
enum kern_timing { KERN_TIMING_REPETITION, KERN_TIMING_WHOLE,
		   KERN_NR_TIMINGS };

/* "repetition", "whole": the names run --timing takes and prints */
extern const char *const kern_timing_name[KERN_NR_TIMINGS];

/* How a kernel is run: which CPUs, how often, with which pages. */
struct kern_cfg {
	unsigned int nthreads;
	const int *cpu;		/* nthreads CPUs, thread i pinned to cpu[i] */
	/*
	 * Each measurement (a phase of the kernel) runs at least @reps
	 * repetitions, and more until they add up to @min_time seconds
	 * timed (0: exactly @reps), at most KERN_MAX_REPS.
	 */
	unsigned int reps;
	double min_time;
	/*
	 * KERN_TIMING_WHOLE: each repetition runs as many calls per thread
	 * as last @min_time (sized on a first call, thrown away), and
	 * @reps repetitions are kept whatever their sum.
	 */
	enum kern_timing timing;
	bool hugepages;		/* madvise(MADV_HUGEPAGE) the buffers */
	/*
	 * Bind every buffer to node @bind_node (mbind MPOL_BIND) rather than
	 * prefer the node of the thread's CPU: remote-memory measurements.
	 */
	bool bind;
	unsigned int bind_node;
	/* called by thread 0 after each repetition, or NULL */
	void (*progress)(void *arg, const struct kern_progress *pr);
	void *progress_arg;
	/*
	 * Filled by kern_run() when not NULL (nthreads entries, -1 when
	 * unknown): the NUMA node of each thread's CPU, and the node that
	 * holds the first buffer the thread placed (kern_mem_nodes(): up to
	 * 512 of its pages asked about, KERN_NODE_MIXED when on several).
	 */
	int *node;
	int *mem_node;
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
	/*
	 * Set (by a signal handler) to stop: kern_run() starts no further
	 * phase once it sees it and fails with "interrupted". NULL: never.
	 */
	volatile sig_atomic_t *stop;
};


/*
 * A buffer of @bytes (alloc.c), placed (kern_place()) on the calling
 * worker's node; NULL when out of memory. From a huge page size on, it
 * starts on a huge page boundary and is mapped to a whole number of huge
 * pages. @hugepages: madvised for transparent hugepages, not touched.
 * Else base pages; while the buffers held fit in the last-level cache
 * (kern_llc_bytes_cpu0(), cache.h), each huge-page-sized block of them on
 * one block of physical frames where the kernel has one (faulted in
 * here: the caller still writes it first from the thread that will use
 * it), beyond it left unfaulted. Freed with kern_free().
 */
void *kern_alloc(size_t bytes, bool hugepages);
void kern_free(void *p, size_t bytes);

/*
 * The memory budget of kern_alloc() (budget.c): take @bytes against
 * MemAvailable (-1 when they do not fit: refused, nothing taken), give
 * them back; kern_budget_held(): the bytes taken and not given back.
 * kern_oom() writes why the last allocation failed: the refusal with its
 * numbers, or "out of memory".
 */
/* MemAvailable in bytes; false without /proc/meminfo (no check then). */
bool kern_mem_available(uint64_t *bytes);
int kern_budget_take(size_t bytes);
void kern_budget_give(size_t bytes);
uint64_t kern_budget_held(void);
void kern_oom(char *err, size_t errsz);

/*
 * The pages the kernel gave a buffer (pages.c), asked for or not: exact
 * for the range on Linux 6.7 and later (PAGEMAP_SCAN), else per mapping
 * from /proc/self/smaps (exact false). Huge pages are PMD-mapped THP
 * (or hugetlb) pages; smaller transparent folios count as base pages,
 * which is what the TLB sees on x86.
 */
struct kern_pages {
	uint64_t bytes;			/* the range asked about */
	uint64_t resident_bytes;	/* of it in memory */
	uint64_t huge_bytes;		/* of those in huge pages */
	uint64_t base_page_bytes;	/* sysconf(_SC_PAGESIZE) */
	uint64_t huge_page_bytes;	/* THP's PMD size, 0 unknown */
	bool exact;
	/*
	 * The largest single buffer summed in: one smaller than a huge page
	 * never gets one, whatever the sum (two 1M grids are not a 2M one)
	 */
	uint64_t largest_bytes;
};
/* The PMD size transparent hugepages map, 0 where the kernel does not say. */
uint64_t kern_thp_bytes(void);
/* 0, or -1 when neither source could be read. */
int kern_pages(const void *p, size_t bytes, struct kern_pages *pg);
/* The same from /proc/self/smaps only (what kern_pages() falls back to). */
int kern_pages_smaps(const void *p, size_t bytes, struct kern_pages *pg);
/*
 * Sum @pg into @sum (zeroed first): the buffers of several threads, or a
 * kernel's buffers that all threads share. A kernel asks about a buffer
 * of one thread in its setup, after the first touch; about a shared one
 * (stencil's grids, transpose's matrices) after the run, when every
 * thread has touched its part.
 */
void kern_pages_add(struct kern_pages *sum, const struct kern_pages *pg);
/* The page size that maps most of the resident bytes. */
uint64_t kern_pages_size(const struct kern_pages *pg);

/*
 * place.c: prefer the NUMA node of the calling worker's CPU for the whole
 * pages of [p, p + bytes) (mbind MPOL_PREFERRED), or bind them to
 * kern_cfg.bind_node (MPOL_BIND), before they are first touched; for a
 * buffer shared by threads, each places the part it touches. Does
 * nothing outside a worker or where the kernel has no NUMA support.
 */
void kern_place(void *p, size_t bytes);
/* A pinned worker's start: what kern_place() does; its CPU's node or -1. */
int kern_place_begin(const struct kern_cfg *cfg);
/* kern_mem_nodes() of the first range the worker placed. */
int kern_place_first_node(void);

/* A node number's value when the pages are on more than one (place.c). */
#define KERN_NODE_MIXED (-2)

#define KERN_MAX_VALS 4	/* kern_ops.nvals at most */

/*
 * What a kernel gives the harness. Each thread calls setup() once (to
 * allocate and first-touch its memory), then body() between two barriers
 * for each timed call (repetition of a phase); the time from the first
 * barrier to the last thread's end is that call's time. Then teardown()
 * (may be NULL). setup() returns 0 or -1 (out of memory); then nothing is
 * timed.
 *
 * Each of the @nphases phases is a measurement of its own, with as many
 * repetitions as kern_cfg asks. Without @by_phase, a repetition runs
 * every phase in turn (STREAM-like kernels whose phases feed each other);
 * with it, all repetitions of phase 0, then of phase 1, ..., so that a
 * stopped run still has the phases before it whole.
 *
 * @collect, when not NULL, is called by thread 0 after each timed call,
 * once every thread has finished it and before any starts the next: it
 * gives the call's @nvals values (the kernel's own measures, which the
 * threads left in @ctx) to keep beside its time.
 *
 * @lengthen: a repetition may run body() several times in a row on each
 * thread between its two barriers (its "parts"), so that threads that
 * finish unevenly average out before they meet (repeat.c says when).
 * The kernel's work per body() call is fixed and its values add up over
 * the calls of a repetition (collect() gives their sum and clears
 * them); the series keeps the time and values of one call, the
 * repetition's divided by its parts. Only where ops is by_phase or has
 * one phase.
 */
struct kern_ops {
	int (*setup)(void *ctx, unsigned int tid);
	void (*body)(void *ctx, unsigned int tid, unsigned int phase);
	void (*teardown)(void *ctx, unsigned int tid);
	unsigned int nphases;
	bool by_phase;
	void (*collect)(void *ctx, unsigned int phase, double *v);
	unsigned int nvals;
	/* the name of @phase for the progress line (a stream op), or NULL */
	const char *(*phase_name)(void *ctx, unsigned int phase);
	bool lengthen;
	bool warm;	/* the run's first 0.5 s of calls not kept (repeat.c) */
	/*
	 * May be timed whole (kern_cfg.timing): body()'s work is fixed and
	 * its values add up over calls, as for @lengthen; by_phase or one
	 * phase. Kernels whose threads share data within a call (stencil,
	 * transpose) or that time one thread's chase (latency) do not.
	 */
	bool whole;
};

/* One phase's repetitions: times in seconds, and nvals values each. */
struct kern_series {
	double *sec;		/* [rep] */
	double *val;		/* [rep * nvals + i] */
	/*
	 * [rep]: the share of the threads' time in the call spent waiting
	 * for the slowest one to finish its part (0: all finished together;
	 * NAN with one thread). What the aggregate lost to imbalance: a
	 * thread that waits moves nothing. Timed whole, each thread's wait
	 * from the end of its own run to the end of the slowest one's, over
	 * the threads times the slowest one's run: what the one barrier
	 * at the end of the run cost.
	 */
	double *wait;
	unsigned int reps, cap;
	double total;		/* seconds timed: the repetitions' own */
	/*
	 * body() calls per thread in each repetition kept (kern_ops.lengthen,
	 * or the calls a whole-timed repetition took)
	 */
	unsigned int parts;
};

/*
 * How a result was measured: its repetitions, their seconds timed, the
 * median of their wait shares (NAN with one thread) and the body() calls
 * each thread made in one repetition.
 */
struct kern_timed {
	unsigned int reps;
	double sec;
	double wait;
	unsigned int parts;	/* kern_series.parts */
};

struct kern_timed kern_timed_of(const struct kern_series *s);

/* What kern_run_timed() measured: one series per phase. */
struct kern_times {
	struct kern_series *ph;
	unsigned int nphases, nvals;
	/*
	 * Phases whose repetitions are all done: all of them after a run
	 * that ends normally; after a stop, 0 without by_phase, else the
	 * phases before the one that was running.
	 */
	unsigned int done;
};

int kern_times_init(struct kern_times *t, const struct kern_ops *ops);
void kern_times_free(struct kern_times *t);

/*
 * Run @ops on cfg->nthreads pinned threads; @t is initialized here and
 * freed by the caller (kern_times_free()) whatever the outcome. Returns
 * 0, or -1 with a reason in @err: "interrupted" when cfg->stop stopped it,
 * @t then holding what was timed (t->done says which phases are whole).
 */
int kern_run_timed(const struct kern_cfg *cfg, const struct kern_ops *ops,
		   void *ctx, struct kern_times *t, char *err, size_t errsz);

/*
 * kern_run_timed() with exactly cfg->reps repetitions (cfg->min_time is
 * ignored), phases in turn, times only: @sec gets reps * nphases times in
 * seconds, rep-major (sec[rep * nphases + phase]).
 */
int kern_run(const struct kern_cfg *cfg, const struct kern_ops *ops,
	     void *ctx, double *sec, char *err, size_t errsz);

/*
 * The nominal TSC frequency in GHz, from rdtsc against CLOCK_MONOTONIC
 * over about 50 ms; 0 where there is no TSC (not x86).
 */
double kern_tsc_ghz(void);

/* ---- pieces the kernels share ---- */

/*
 * A pointer chase (latency.c): one pointer per 64-byte line, the lines
 * linked in one random cycle (Sattolo), first touched by the caller.
 */
#define KERN_CHASE_UNROLL 8	/* loads is a multiple of this */

/* One line of a chase: the next line's address, then padding. */
struct kern_line {
	struct kern_line *next;
	char pad[KERN_LINE - sizeof(struct kern_line *)];
};

/*
 * Follow @loads pointers from @p (a multiple of KERN_CHASE_UNROLL) and
 * return where the chase ends. Unrolled so that the loop's compare and
 * branch are paid once per eight dependent loads; static inline so that
 * the timed loop is compiled into each caller, with no call in it (the
 * latency chase and the flushing chase of fchase.c both time it).
 */
static inline struct kern_line *kern_chase_lines(struct kern_line *p,
						 uint64_t loads)
{
	uint64_t i;

	for (i = 0; i < loads; i += KERN_CHASE_UNROLL) {
		p = p->next;
		p = p->next;
		p = p->next;
		p = p->next;
		p = p->next;
		p = p->next;
		p = p->next;
		p = p->next;
	}
	return p;
}

struct kern_chase {
	void *lines;
	size_t bytes;
	void *p;		/* where the chase is */
};

/*
 * One thread's part of the memory read benchmark (read_delay.c): 64-byte
 * records in four quarters, of which only the first 8 bytes are read.
 */
struct kern_rd_slice {
	void *a;
	size_t bytes;		/* allocated: the quarters and the stagger */
	size_t per_quarter;	/* records in each quarter */
};
/*
 * Allocate and first-touch @bytes (a multiple of 256) in four quarters,
 * each a page and a line further from the one before than its size (see
 * read_delay.c), so a little more is allocated. 0 or -1 (OOM).
 */
int kern_rd_slice_init(struct kern_rd_slice *s, size_t bytes, bool hugepages);
/*
 * The same four quarters laid over [@base, @base + @bytes) of a buffer the
 * caller owns and has touched (calibrate's shared pool): nothing is
 * allocated, so nothing is freed. 0, or -1 when @bytes cannot hold four
 * records and the staggers.
 */
int kern_rd_slice_view(struct kern_rd_slice *s, void *base, size_t bytes);
void kern_rd_slice_free(struct kern_rd_slice *s);

/* ---- the kernels ---- */

/* Memory read benchmark (the seed paper's Fig. 2). */
struct read_delay_result {
	struct kern_stats gbps;	/* 64 bytes per record read, 10^9 B/s */
	uint64_t records;	/* records read per repetition, all threads */
	struct kern_timed timed;	/* its repetitions */
	struct kern_pages pages;	/* all threads' slices */
};
int read_delay_run(const struct kern_cfg *cfg, size_t bytes,
		   unsigned long delay, struct read_delay_result *r,
		   char *err, size_t errsz);

/* STREAM: copy, scale, add, triad. */
enum stream_op { STREAM_COPY, STREAM_SCALE, STREAM_ADD, STREAM_TRIAD,
		 STREAM_NR_OPS };
extern const char *const stream_op_name[STREAM_NR_OPS];
/* the code the loops run: plain C, or x86 SIMD of one width */
enum stream_isa { STREAM_ISA_C, STREAM_ISA_SSE2, STREAM_ISA_AVX,
		  STREAM_ISA_AVX512, STREAM_NR_ISAS };
extern const char *const stream_isa_name[STREAM_NR_ISAS];	/* c, sse2, avx, avx512 */
/* The widest @isa this CPU runs. */
enum stream_isa stream_isa_best(void);
/* Bytes from one of stream's arrays of @n doubles to the next (stream.c). */
size_t stream_array_span(size_t n);
struct stream_opts {
	enum stream_isa isa;
	bool nt;		/* non-temporal stores (not with STREAM_ISA_C) */
};
struct stream_result {
	struct kern_stats gbps[STREAM_NR_OPS];		/* named bytes */
	/* + the write-allocate read, unless the stores are non-temporal */
	struct kern_stats traffic_gbps[STREAM_NR_OPS];
	bool verified;
	double avg_rel_err[3];	/* a, b, c: average relative error */
	uint64_t sweeps;	/* passes over the arrays per timed op */
	/*
	 * Bytes one repetition of each op (all its sweeps) moves to and
	 * from memory, all threads, write-allocate included unless the
	 * stores are non-temporal (what the memory controllers should
	 * count), and the part of them that is reads.
	 */
	uint64_t traffic_bytes[STREAM_NR_OPS];
	uint64_t traffic_read_bytes[STREAM_NR_OPS];
	struct kern_timed timed[STREAM_NR_OPS];	/* its repetitions */
	unsigned int done;	/* ops measured: all but after a stop */
	struct kern_pages pages;	/* all threads' arrays */
};
/* @bytes per array (three arrays), split among the threads. */
int stream_run(const struct kern_cfg *cfg, size_t bytes,
	       const struct stream_opts *o, struct stream_result *r,
	       char *err, size_t errsz);

/* Pointer chase over one working-set size. */
struct latency_result {
	struct kern_stats ns;	/* ns per load */
	uint64_t loads;		/* loads per thread per repetition */
	struct kern_pages pages;	/* all threads' working sets */
	struct kern_timed timed;	/* its repetitions */
};
/* The loads each thread's chase over @bytes times per repetition. */
uint64_t latency_loads(size_t bytes);
int latency_run(const struct kern_cfg *cfg, size_t bytes,
		struct latency_result *r, char *err, size_t errsz);

/*
 * 3D 7-point stencil sweeps (stencil.c): Jacobi and lexicographic
 * Gauss-Seidel, threaded or with wavefront temporal blocking, verified
 * bitwise against the serial sweeps.
 */
enum stencil_method { STENCIL_JACOBI, STENCIL_GS, STENCIL_NR_METHODS };
enum stencil_schedule { STENCIL_THREADED, STENCIL_WAVEFRONT,
			STENCIL_NR_SCHEDULES };
enum stencil_barrier { STENCIL_SPIN, STENCIL_TREE, STENCIL_NR_BARRIERS };
extern const char *const stencil_method_name[STENCIL_NR_METHODS];
extern const char *const stencil_schedule_name[STENCIL_NR_SCHEDULES];
extern const char *const stencil_barrier_name[STENCIL_NR_BARRIERS];
struct stencil_params {
	size_t n;		/* sites per dimension, boundary included */
	unsigned int sweeps;	/* per repetition */
	enum stencil_method method;
	enum stencil_schedule schedule;
	enum stencil_barrier barrier;
	/* wavefront: thread groups, each of threads sharing an LLC: thread
	 * i is in group i / (nthreads / groups); must divide nthreads */
	unsigned int groups;
};
struct stencil_result {
	struct kern_stats mlups;	/* 10^6 interior sites updated / s */
	unsigned int groups, group_size; /* group_size: sweeps per pass */
	double bytes_per_lup;		/* the model's: a load, a store */
	double traffic_bytes_per_lup;	/* and the write-allocate */
	bool verified;			/* bitwise equal to the reference */
	uint64_t mismatches;		/* sites that differ */
	double max_abs_diff;
	struct kern_timed timed;		/* its repetitions */
	struct kern_pages pages;	/* the grids (and rings) */
};
/*
 * The grid after @sweeps serial sweeps from the kernel's initial values
 * (n^3 doubles, malloc()ed), or NULL when out of memory.
 */
double *stencil_reference(size_t n, enum stencil_method m, uint64_t sweeps);
/*
 * Run repetitions of p->sweeps sweeps each (continuing from one to the
 * next) as cfg asks, and compare the result with stencil_reference()
 * after as many sweeps.
 */
int stencil_run(const struct kern_cfg *cfg, const struct stencil_params *p,
		struct stencil_result *r, char *err, size_t errsz);

/* ---- which instructions this CPU runs ---- */

enum kern_cpu_feature { KERN_CPU_SSE2, KERN_CPU_AVX, KERN_CPU_AVX512F,
			KERN_CPU_HYPERVISOR, KERN_CPU_NR_FEATURES };
/*
 * "sse2", "avx", "avx512f", "hypervisor" (CPUID.1:ECX[31], set by a
 * hypervisor for its guests): as /proc/cpuinfo and GCC name them
 */
extern const char *const kern_cpu_feature_name[KERN_CPU_NR_FEATURES];
/* Whether the CPU and the OS (XSAVE state) support @f; false off x86. */
bool kern_cpu_has(enum kern_cpu_feature f);

#endif /* MEMDIAG_KERNEL_H */
