/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calib_plan.h - what "memdiagctl calibrate" measures and how its samples
 * become curves: the socket's CPUs and cache size from sysfs, the points
 * (threads x delay, per mix) in order of rising intensity, the statistics
 * over repeats (outliers dropped, CoV kept) and the sustainable peak.
 * Pure computation apart from the sysfs reads, so the tests can feed it.
 */

#ifndef MEMDIAGCTL_CALIB_PLAN_H
#define MEMDIAGCTL_CALIB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../kernels/calib.h"
#include "curve.h"

#define CALIB_MAX_CPUS 4096
/*
 * The chase's buffer, calibrate's and probe's alike (the same
 * measurement): the flushes send every load to DRAM whatever the cache
 * size, so it only has to hold many segments (a random cycle that does
 * not revisit a line for a long time) and stay within what the TLBs
 * reach with transparent hugepages.
 */
#define CALIB_CHASE_BYTES (64ULL << 20)

/* One socket as sysfs shows it (calib_sockets.c). */
struct calib_socket {
	uint32_t id;
	uint32_t *cpu;		/* online CPUs, ascending */
	size_t nr_cpu;
	/*
	 * Its last-level cache instances (highest cache level; CPUs with
	 * the same shared_cpu_list share one): llc_of[i] is cpu[i]'s, each
	 * llc_size[] counted once, llc_bytes their sum. nr_llc 0: sysfs
	 * does not say (llc_bytes 0).
	 */
	unsigned int *llc_of;
	uint64_t *llc_size;
	size_t nr_llc;
	uint64_t llc_bytes;
};

/*
 * The sockets of the online CPUs this process may run on, ascending by
 * id (physical_package_id), from @cpu_dir (NULL: /sys/devices/system/cpu
 * and this process's affinity; the tests give a fake tree, the test hook
 * MEMDIAG_TEST_SYSFS_CPU). Returns the count (0 when none could be read).
 */
size_t calib_sockets(const char *cpu_dir, struct calib_socket **out);
void calib_sockets_free(struct calib_socket *s, size_t n);
/*
 * A "socket" of the @n CPUs @cpu, in that order (cpu[0] chases, the
 * others generate), with their last-level caches from @cpu_dir as
 * calib_sockets() reads them: what "run loaded-latency" sizes its pool
 * from (the CPUs need not share a package). Returns 0 with *@out
 * allocated (calib_sockets_free(*out, 1)), or -1 (out of memory).
 */
int calib_socket_of(const char *cpu_dir, const int *cpu, size_t n,
		    struct calib_socket **out);

/* How hard and how long: --quick or not. */
struct calib_opts {
	bool quick;
	unsigned int mixes;	/* bit per enum kern_mix */
	unsigned int reps;	/* >= 3 */
};

/*
 * The generators' pool is at least this many times the socket's last-
 * level cache at every point: a line comes back only after four caches'
 * worth of others, which evicts it under LRU and under the adaptive
 * policies that keep part of a streamed set. Where sysfs lists no cache,
 * CALIB_LLC_PER_CPU per CPU is assumed (more than any server part has
 * had per core so far), and the plan says so.
 */
#define CALIB_LLC_TIMES 4
#define CALIB_LLC_PER_CPU (8ULL << 20)

struct calib_plan {
	struct calib_point *pt;	/* pt[0]: idle (threads 0) */
	unsigned int npt;
	unsigned int reps;
	size_t seg, segs;	/* chase loads per segment, segments per point */
	unsigned int gen;	/* generator threads at most */
	/*
	 * The generators' one pool, split at each point among its threads
	 * (calib_pool_part()): every point sweeps all of it.
	 */
	size_t pool_bytes;
	size_t chase_bytes;
	uint64_t llc_bytes;	/* what the pool was sized from */
	bool llc_assumed;	/* sysfs lists none: CALIB_LLC_PER_CPU each */
};

/*
 * The plan for socket @so (one CPU chases, the others generate; at least
 * 2 CPUs). Returns 0, or -1 (out of memory).
 */
int calib_plan_make(struct calib_plan *p, const struct calib_opts *o,
		    const struct calib_socket *so);
void calib_plan_free(struct calib_plan *p);
/*
 * The plan of "run loaded-latency" on @so: every generator (all CPUs but
 * the chasing cpu[0]) at each of the @ndelay delays @delay with @mix, in
 * that order, each point @per_delay times in a row (the harness's one
 * repetition then runs a delay's repeats together, so that a stop keeps
 * the delays before it whole), reps 1; the pool, chase and segments of
 * calibrate's full plan. No idle point. Returns 0, or -1 (out of memory,
 * or fewer than 2 CPUs).
 */
int calib_plan_delays(struct calib_plan *p, const struct calib_socket *so,
		      const unsigned long *delay, unsigned int ndelay,
		      unsigned int per_delay, enum kern_mix mix);

/*
 * Whether the plan's buffers (pool and chase) fit in @budget bytes: 0, or
 * -1 with @why saying what it needs and why it cannot be less.
 */
int calib_plan_fits(const struct calib_plan *p, uint64_t budget,
		    const char *budget_from, char *why, size_t size);
/* Bytes point @i sweeps before it revisits a line (0 for the idle one). */
size_t calib_plan_swept(const struct calib_plan *p, unsigned int i);
/*
 * The lowest, over points and cache instances, of the bytes a point's
 * threads on one instance sweep over that instance's size: what the
 * plan guarantees (>= CALIB_LLC_TIMES). 0 when the caches are unknown.
 */
double calib_plan_llc_ratio(const struct calib_plan *p,
			    const struct calib_socket *so);

/* Seconds one point takes when a chased load costs @load_sec. */
double calib_point_sec(const struct calib_plan *p, double load_sec);

/*
 * One point's repeats (@n samples, at most 64, @stride apart in @s)
 * summarized: samples farther than 3 scaled MADs from the median in
 * latency or in bandwidth dropped (robust with three repeats, where 3
 * sigma never triggers), then latency (p50), p90, p99 and bandwidth are
 * the medians of the rest, the read share their byte-weighted one and
 * cov latency's CoV.
 */
#define CALIB_MAX_REPEATS 64
struct calib_summary {
	double latency_ns, cov;
	double latency_p90_ns, latency_p99_ns;
	double bandwidth_gbps, read_gbps, write_gbps;
	unsigned int repeats;	/* kept */
};
void calib_summarize(const struct calib_sample *s, size_t n, size_t stride,
		     struct calib_summary *out);

/*
 * The curve of @mix from the summaries of @p's points (@sum[i] for
 * p->pt[i]; the idle point is not part of it): points in plan order,
 * peak_index at the highest bandwidth. Returns 0, or -1 (out of memory,
 * or fewer than two points).
 */
int calib_curve(const struct calib_plan *p, const struct calib_summary *sum,
		enum kern_mix mix, enum curve_pf pf, struct curve_mix *out);

#endif /* MEMDIAGCTL_CALIB_PLAN_H */
