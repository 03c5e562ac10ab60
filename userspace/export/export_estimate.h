/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export_estimate.h - what "memdiagctl export --probe" serves where the
 * module's counters are out of reach (a VM): the counter-free probe's
 * measured latency, and the bandwidth, utilization and label its latency
 * implies on the calibrated curve, as series named as estimates, with the
 * curve's age. No I/O besides the output stream (the unit tests feed it).
 */

#ifndef MEMDIAGCTL_EXPORT_ESTIMATE_H
#define MEMDIAGCTL_EXPORT_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probe.h"

struct export_estimate {
	uint32_t socket;		/* whose curve the chase is placed on */
	bool have;			/* a sample was taken */
	double latency_ns;		/* the last sample's median */
	double noise_ns;
	struct probe_est est;		/* on the curve, or why not */
	uint64_t samples;
	double cpu_sec;			/* the probe's own CPU time, in all */
	bool have_curve_time;		/* the curve says when it was made */
	double curve_created_unix;	/* seconds */
};

/* Parse a curve's "created" (ISO 8601 UTC, ...Z): 0, or -1. */
int export_estimate_curve_time(struct export_estimate *e,
			       const char *created);

/*
 * Every series of @e, the curve's age taken at @now_unix. -1 when @f
 * fails.
 */
int export_estimate_render(const struct export_estimate *e, double now_unix,
			   FILE *f);

#endif /* MEMDIAGCTL_EXPORT_ESTIMATE_H */
