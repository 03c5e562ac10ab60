/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calib.h - the kernels behind "memdiagctl calibrate" and "probe": the
 * read-delay traffic generator with a chosen read/write mix (traffic.c),
 * a pointer chase over lines flushed from every cache before they are
 * chased, timed in short segments (fchase.c), and the loaded-latency
 * sweep that runs the two together, one point per (threads, delay, mix)
 * (calib.c).
 */

#ifndef MEMDIAG_CALIB_H
#define MEMDIAG_CALIB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

/*
 * Read/write mixes of the traffic generator, as DRAM sees them with
 * write-allocate: every record is read (one line from DRAM), and in the
 * mixes with writes some records are also written back (read-modify-
 * write of the 8 bytes read, so the line goes back dirty). Of the four
 * records read per iteration, kern_mix_writes[] are written: 0, 2 or 4,
 * so DRAM reads:writes are 1:0, 2:1 and 1:1.
 */
enum kern_mix { KERN_MIX_READ, KERN_MIX_2R1W, KERN_MIX_1R1W, KERN_NR_MIXES };
extern const char *const kern_mix_name[KERN_NR_MIXES];	/* read, 2:1, 1:1 */
extern const unsigned int kern_mix_writes[KERN_NR_MIXES];
/* The reads' share of the DRAM bytes: 1, 2/3, 1/2. */
double kern_mix_read_share(enum kern_mix m);

/* Bytes a kernel moved to and from DRAM by its own count. */
struct kern_bytes {
	uint64_t read, write;
};

/*
 * Like kern_rd_slice_read() (records @from to @to - 1 of each quarter of
 * @s, @delay NOPs after every four), with the writes of @mix: quarters 0
 * and 2 (2:1) or all four (1:1) get their first 8 bytes incremented.
 * Adds the lines read and written back to @b; returns the sum of the
 * values read (what the tests check the reads with).
 */
uint64_t kern_rw_slice_run(const struct kern_rd_slice *s, size_t from,
			   size_t to, unsigned long delay, enum kern_mix mix,
			   struct kern_bytes *b);

/*
 * The generator alone ("run traffic", and make bench's measure of its
 * strength): every thread sweeps its own slice of @bytes / nthreads once
 * per repetition at @delay and @mix. gbps counts the DRAM bytes by the
 * kernel's own count (reads and write-backs), per repetition.
 */
struct traffic_result {
	struct kern_stats gbps;
	struct kern_bytes bytes;	/* one repetition, all threads */
	struct kern_timed timed;		/* its repetitions */
	struct kern_pages pages;	/* all threads' slices */
};
int traffic_run(const struct kern_cfg *cfg, size_t bytes, unsigned long delay,
		enum kern_mix mix, struct traffic_result *r, char *err,
		size_t errsz);

/*
 * A pointer chase that reaches DRAM whatever the caches' size: the lines
 * are linked in one random cycle, and before each segment of @seg loads
 * the lines it will visit are flushed (clflush) and fenced, outside the
 * timed part. The buffer then only has to be larger than what one
 * segment visits; no working set has to outgrow the last-level cache.
 * The probe and the calibration's chaser both use it, so their latencies
 * are the same measurement.
 */
struct kern_fchase {
	void *lines;
	uint32_t *order;	/* the cycle, as line indices */
	size_t n;		/* lines */
	size_t pos;		/* index in @order of the next line */
	size_t seg;		/* loads per segment, a multiple of 8 */
	bool hugepages;
};
/*
 * @bytes of lines (at least 2 segments of them), first-touched by the
 * caller, linked in an order drawn from @seed. 0, or -1 (out of memory,
 * too small).
 */
int kern_fchase_init(struct kern_fchase *c, size_t bytes, size_t seg,
		     bool hugepages, uint64_t seed);
/*
 * Chase @segs segments; returns the seconds the chase itself took
 * (flushing excluded), puts each segment's ns per load in @seg_ns (@segs
 * entries) and adds the seconds spent flushing to *@flush_sec, each when
 * not NULL. Stops early, between segments, once *@stop is non-zero
 * (@stop may be NULL); *@done gets the segments chased.
 */
double kern_fchase_run(struct kern_fchase *c, unsigned int segs,
		       const volatile sig_atomic_t *stop, unsigned int *done,
		       double *seg_ns, double *flush_sec);
void kern_fchase_free(struct kern_fchase *c);
/*
 * What one flushed, chased load costs here, flush included, in seconds:
 * the median segment of a short chase over 8 MiB (what calibrate and
 * loaded-latency estimate their time from); 300e-9 when it cannot run.
 */
double kern_fchase_load_sec(void);

/*
 * The 50th, 90th and 99th percentiles of @n segment latencies @v,
 * nearest-rank (the value of rank ceil(p/100 * n) of the sorted ones), so
 * that each is a segment that was measured; all 0 when @n is 0. @v is
 * left as it was.
 */
struct kern_pct {
	double p50, p90, p99;
};
void kern_percentiles(const double *v, size_t n, struct kern_pct *out);

/* One point of a calibration: who loads the memory, how hard, how. */
struct calib_point {
	unsigned int threads;	/* generator threads (0: idle latency) */
	unsigned long delay;	/* NOPs after every four records */
	enum kern_mix mix;
};

/* What one repetition of one point measured. */
struct calib_sample {
	/*
	 * The chase's ns per load: the median over its segments, so that a
	 * segment during which another task had the CPU (a shared machine,
	 * a VM's steal time) does not pass its wait off as memory latency.
	 * Nearest-rank, as the other percentiles: @ns is their p50.
	 */
	double ns;
	double p90, p99;	/* of the same segments (kern_percentiles()) */
	double sec;		/* the point's wall time */
	struct kern_bytes gen;	/* the generators' bytes */
	uint64_t chase_bytes;	/* the chase's lines (64 B per load) */
	bool stopped;		/* cut short by *stop: not a measurement */
};

struct calib_params {
	/*
	 * The generators' one pool, split evenly among the threads active
	 * at each point (calib_pool_part()), so that every point sweeps the
	 * whole pool before a line comes back, however many threads it has.
	 */
	size_t pool_bytes;
	size_t chase_bytes;
	size_t seg;		/* chase loads per segment */
	unsigned int segs;	/* segments per point */
	const struct calib_point *pt;
	unsigned int npt;
	const volatile sig_atomic_t *stop;	/* may be NULL */
	/* filled with the pages the chase was given, when not NULL */
	struct kern_pages *chase_pages;
};

/*
 * The bytes the @k generators of a point read in one sweep of their
 * parts (what comes between two visits of a line): the records of each
 * part's four quarters, a little under @pool.
 */
size_t calib_pool_swept(size_t pool, unsigned int k);

/*
 * Thread 0 (cfg->cpu[0]) chases; threads 1..cfg->nthreads-1 generate
 * traffic over their part of the pool (pool_bytes split among the
 * point's active threads), thread i taking part in the points whose
 * threads >= i. Each point is a phase of the harness (cfg->mark sees
 * them), repeated cfg->reps times, rep-major: @out[rep * npt + point].
 * The generators run for exactly as long as the chase's segments do.
 */
int calib_run(const struct kern_cfg *cfg, const struct calib_params *p,
	      struct calib_sample *out, char *err, size_t errsz);

#endif /* MEMDIAG_CALIB_H */
