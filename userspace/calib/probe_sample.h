/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_sample.h - one counter-free probe sample: a short flushed chase,
 * its latency placed on the socket's curve (probe.h). What "probe" prints
 * and what "export --probe" serves come from here, so they agree.
 */

#ifndef MEMDIAGCTL_PROBE_SAMPLE_H
#define MEMDIAGCTL_PROBE_SAMPLE_H

#include <signal.h>
#include <stdint.h>

#include "../kernels/calib.h"
#include "../kernels/kernel.h"
#include "curve.h"
#include "probe.h"

/*
 * One sample: 8 segments of 512 loads, under a millisecond each (cheap
 * enough for a sample every 50 ms). Of 8 segments, the nearest-rank p90
 * and p99 are both the slowest one.
 */
#define PROBE_SEGS 8
#define PROBE_SEG 512

struct probe_sample {
	struct kern_pct pct;	/* of the segments' ns per load */
	double noise_ns;	/* 1.4826 x their median absolute deviation */
	struct probe_est est;	/* placed on the curve, or why not */
	double cpu_sec;		/* the sample's own CPU time */
};

/*
 * The stored (or @path's) curve of socket @socket, checked against this
 * machine's fingerprint; NULL with the reason in @why when there is none
 * usable. @c is the caller's to curve_free() either way. When @bad_file
 * is not NULL it says whether @path was given and could not be read: an
 * error in every command that reads a curve, where a missing default
 * curve only leaves the estimate out.
 */
const struct curve_socket *probe_curve_find(const char *path, uint32_t socket,
					    struct curve *c, char *why,
					    size_t size, bool *bad_file);

/*
 * Chase once on this CPU and place the median on @s (NULL: no curve,
 * @why says why). Stops early once *@stop is non-zero.
 */
void probe_sample_take(struct kern_fchase *fc, const struct curve_socket *s,
		       const char *why, const volatile sig_atomic_t *stop,
		       struct probe_sample *ps);

#endif /* MEMDIAGCTL_PROBE_SAMPLE_H */
