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

#include "../kernels/calib.h"
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

/* One socket as sysfs shows it. */
struct calib_socket {
	uint32_t id;
	uint32_t *cpu;		/* online CPUs, ascending */
	size_t nr_cpu;
	uint64_t llc_bytes;	/* largest cache of the first CPU; 0: unknown */
};

/*
 * The sockets of the online CPUs this process may run on, ascending by
 * id (physical_package_id), under @sysfs (normally "/sys"; the tests give
 * a fake tree). Returns the count (0 when none could be read).
 */
size_t calib_sockets(const char *sysfs, struct calib_socket **out);
void calib_sockets_free(struct calib_socket *s, size_t n);

/* How hard and how long: --quick or not. */
struct calib_opts {
	bool quick;
	unsigned int mixes;	/* bit per enum kern_mix */
	unsigned int reps;	/* >= 3 */
};

struct calib_plan {
	struct calib_point *pt;	/* pt[0]: idle (threads 0) */
	unsigned int npt;
	unsigned int reps;
	size_t seg, segs;	/* chase loads per segment, segments per point */
	size_t gen_bytes;	/* per generator thread */
	size_t chase_bytes;
};

/*
 * The plan for a socket with @nr_cpu CPUs (one chases, the others
 * generate; @nr_cpu >= 2) and a last-level cache of @llc_bytes. Returns
 * 0, or -1 (out of memory).
 */
int calib_plan_make(struct calib_plan *p, const struct calib_opts *o,
		    size_t nr_cpu, uint64_t llc_bytes);
void calib_plan_free(struct calib_plan *p);

/* Seconds one point takes when a chased load costs @load_sec. */
double calib_point_sec(const struct calib_plan *p, double load_sec);

/*
 * One point's repeats (@n samples, @stride apart in @s) summarized:
 * samples farther than 3 scaled MADs from the median in latency or in
 * bandwidth dropped (robust with three repeats, where 3 sigma never
 * triggers), then latency and bandwidth are the medians of the rest,
 * the read share their byte-weighted one and cov latency's CoV.
 */
struct calib_summary {
	double latency_ns, cov;
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
