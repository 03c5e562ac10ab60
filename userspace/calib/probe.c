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

/*
 * The ascending branch of @m: from the idle latency at 0 GB/s to the
 * peak, the points whose bandwidth rises, with latency made the running
 * maximum (a point measured lower than one before it is noise: the
 * branch stays flat there). Its top is *@top. Returns the bandwidth at
 * latency @lat on it: the lowest one that reaches @lat, interpolated
 * linearly; the peak's bandwidth above the top.
 */
static double invert(const struct curve_mix *m, double idle, double lat,
		     double *top)
{
	double x0 = 0, y0 = idle, x1, y1, bw = -1;
	size_t i;

	for (i = 0; i <= m->peak_index; i++) {
		x1 = m->points[i].bandwidth_gbps;
		y1 = fmax(m->points[i].latency_ns, y0);
		if (x1 <= x0)
			continue;
		if (bw < 0 && lat <= y1)
			bw = y1 > y0 && lat > y0 ?
			     x0 + (x1 - x0) * (lat - y0) / (y1 - y0) : x0;
		x0 = x1;
		y0 = y1;
	}
	*top = y0;
	return bw >= 0 ? bw : m->points[m->peak_index].bandwidth_gbps;
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
	e->max_latency_ns = e->idle_latency_ns;
	for (i = 0; i < m->nr_points; i++)
		e->max_latency_ns = fmax(e->max_latency_ns,
					 m->points[i].latency_ns);
	e->bandwidth_gbps = latency_ns <= e->idle_latency_ns ? 0 :
			    invert(m, e->idle_latency_ns, latency_ns,
				   &e->peak_latency_ns);
	if (latency_ns <= e->idle_latency_ns)
		invert(m, e->idle_latency_ns, latency_ns, &e->peak_latency_ns);
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

void probe_trust(const struct curve_socket *s, double latency_ns,
		 double noise_ns, struct probe_est *e)
{
	double rise = e->peak_latency_ns - e->idle_latency_ns;

	e->label_known = false;
	e->label_reason[0] = 0;
	if (!e->valid || !s)
		return;
	if (!curve_reliable(s)) {
		curve_quality_note(s, e->label_reason, sizeof(e->label_reason));
		return;
	}
	/*
	 * Well below the curve's idle latency no load explains the sample:
	 * the machine's idle latency has moved since calibrating (a shared
	 * host's drifts by 10 % and more within minutes), and every
	 * estimate would read 0.
	 */
	if (e->idle_latency_ns - latency_ns >
	    fmax(2 * noise_ns, PROBE_BELOW_IDLE * e->idle_latency_ns)) {
		snprintf(e->label_reason, sizeof(e->label_reason),
			 "latency %.1f ns is below the curve's idle %.1f ns: the machine changed since calibrating (run memdiagctl calibrate again)",
			 latency_ns, e->idle_latency_ns);
		return;
	}
	if (!(noise_ns <= rise / 2)) {
		snprintf(e->label_reason, sizeof(e->label_reason),
			 "sample noise %.1f ns is over half the curve's rise (%.1f ns from idle to peak)",
			 noise_ns, rise);
		return;
	}
	e->label_known = true;
	/*
	 * An idle machine's latency wanders from sample to sample by more
	 * than one sample's segments spread: only a sample further above
	 * the curve's idle than PROBE_IDLE_NOISES x its noise is busier
	 * than idle.
	 */
	if (latency_ns - e->idle_latency_ns < PROBE_IDLE_NOISES * noise_ns)
		e->label = VERDICT_IDLE;
}
