// SPDX-License-Identifier: GPL-2.0
/*
 * probe.c - from a chased latency back to the load that explains it, on
 * a calibrated curve: the inverse of the verdict's placement, for
 * machines where no counter says what the bandwidth is.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe.h"

static const struct curve_mix *pick(const struct curve_socket *s,
				    enum curve_pf pf)
{
	const struct curve_mix *best = NULL;
	size_t i;

	for (i = 0; i < s->nr_mixes; i++) {
		if (s->mixes[i].prefetch != pf)
			continue;
		if (!best || s->mixes[i].read_fraction > best->read_fraction)
			best = &s->mixes[i];
	}
	return best;
}

/* Bandwidth on the ascending branch of @m at latency @lat. */
static double invert(const struct curve_mix *m, double idle, double lat)
{
	double x0 = 0, y0 = idle, x1, y1;
	size_t i;

	if (lat <= idle)
		return 0;
	for (i = 0; i <= m->peak_index; i++) {
		x1 = m->points[i].bandwidth_gbps;
		y1 = m->points[i].latency_ns;
		if (y1 <= y0 || x1 <= x0)
			continue;	/* noise: not a rise, not in the lookup */
		if (lat <= y1)
			return x0 + (x1 - x0) * (lat - y0) / (y1 - y0);
		x0 = x1;
		y0 = y1;
	}
	return m->points[m->peak_index].bandwidth_gbps;
}

void probe_place(const struct curve_socket *s, enum curve_pf pf,
		 double latency_ns, struct probe_est *e)
{
	const struct curve_mix *m = s ? pick(s, pf) : NULL;
	size_t i;

	memset(e, 0, sizeof(*e));
	if (!m) {
		snprintf(e->reason, sizeof(e->reason), "%s",
			 s ? "no curve for this prefetcher state: run memdiagctl calibrate" :
			 "no curve for this socket: run memdiagctl calibrate");
		return;
	}
	if (!isfinite(latency_ns) || latency_ns <= 0) {
		snprintf(e->reason, sizeof(e->reason), "no latency measured");
		return;
	}
	e->valid = true;
	e->read_fraction = m->read_fraction;
	e->idle_latency_ns = s->idle_latency_ns;
	e->peak_gbps = m->points[m->peak_index].bandwidth_gbps;
	e->peak_latency_ns = m->points[m->peak_index].latency_ns;
	e->max_latency_ns = e->idle_latency_ns;
	for (i = 0; i < m->nr_points; i++)
		e->max_latency_ns = fmax(e->max_latency_ns,
					 m->points[i].latency_ns);
	e->bandwidth_gbps = invert(m, e->idle_latency_ns, latency_ns);
	e->utilization = e->peak_gbps > 0 ? e->bandwidth_gbps / e->peak_gbps : 0;
	e->stress = e->max_latency_ns > e->idle_latency_ns ?
		    (latency_ns - e->idle_latency_ns) /
		    (e->max_latency_ns - e->idle_latency_ns) : 0;
	e->stress = fmin(1, fmax(0, e->stress));
	if (latency_ns > e->peak_latency_ns &&
	    e->peak_latency_ns > e->idle_latency_ns)
		e->label = VERDICT_SATURATED;
	else if (e->utilization >= VERDICT_BOUND_UTIL)
		e->label = VERDICT_BANDWIDTH_BOUND;
	else if (e->stress >= VERDICT_RISING_STRESS)
		e->label = VERDICT_LATENCY_RISING;
	else if (e->utilization >= VERDICT_IDLE_UTIL)
		e->label = VERDICT_OK;
	else
		e->label = VERDICT_IDLE;
}
