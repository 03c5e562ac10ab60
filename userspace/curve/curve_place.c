// SPDX-License-Identifier: GPL-2.0
/*
 * curve_place.c - place a (bandwidth, read fraction) sample on one
 * socket's curves: interpolation in bandwidth along a curve's ascending
 * branch and between the two mixes that bracket the read fraction, at
 * equal utilization (Documentation/curves.rst, "The verdict").
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "curve.h"

static double lerp(double a, double b, double t)
{
	return a + (b - a) * t;
}

static double peak_gbps(const struct curve_mix *m)
{
	return m->points[m->peak_index].bandwidth_gbps;
}

/*
 * Latency at @bw on the ascending branch: from (0, idle) through the
 * points up to the peak, each one that does not add bandwidth over the
 * previous one kept being skipped (a repeat's noise must not make
 * latency a two-valued function here). At and past the peak: the peak's.
 */
static double ascending_latency(const struct curve_mix *m, double idle,
				double bw)
{
	double x0 = 0, y0 = idle;
	const struct curve_point *p;
	size_t i;

	for (i = 0; i <= m->peak_index; i++) {
		p = &m->points[i];
		if (p->bandwidth_gbps <= x0)
			continue;
		if (bw <= p->bandwidth_gbps)
			return lerp(y0, p->latency_ns,
				    (bw - x0) / (p->bandwidth_gbps - x0));
		x0 = p->bandwidth_gbps;
		y0 = p->latency_ns;
	}
	return y0;
}

static double max_latency(const struct curve_mix *m)
{
	double l = 0;
	size_t i;

	for (i = 0; i < m->nr_points; i++)
		l = fmax(l, m->points[i].latency_ns);
	return l;
}

/* Lowest bw/peak among the bent-back points; INFINITY when none. */
static double bent_back_min(const struct curve_mix *m)
{
	double u = INFINITY;
	size_t i;

	for (i = m->peak_index + 1; i < m->nr_points; i++)
		u = fmin(u, m->points[i].bandwidth_gbps / peak_gbps(m));
	return u;
}

/*
 * The curves of state @pf whose read fractions bracket @rf: *@lo the
 * highest at or below, *@hi the lowest at or above; one of them NULL
 * beyond the measured range.
 */
static void bracket(const struct curve_socket *s, enum curve_pf pf,
		    double rf, const struct curve_mix **lo,
		    const struct curve_mix **hi)
{
	const struct curve_mix *m;
	size_t i;

	*lo = *hi = NULL;
	for (i = 0; i < s->nr_mixes; i++) {
		m = &s->mixes[i];
		if (m->prefetch != pf)
			continue;
		if (m->read_fraction <= rf &&
		    (!*lo || m->read_fraction > (*lo)->read_fraction))
			*lo = m;
		if (m->read_fraction >= rf &&
		    (!*hi || m->read_fraction < (*hi)->read_fraction))
			*hi = m;
	}
}

double curve_lowest_peak_fraction(const struct curve_socket *s,
				  enum curve_pf pf)
{
	const struct curve_mix *low = NULL;
	size_t i;

	for (i = 0; i < s->nr_mixes; i++)
		if (s->mixes[i].prefetch == pf &&
		    (!low || peak_gbps(&s->mixes[i]) < peak_gbps(low)))
			low = &s->mixes[i];
	return low ? low->read_fraction : NAN;
}

int curve_place(const struct curve_socket *s, enum curve_pf pf,
		double read_fraction, double bw_gbps, struct curve_place *out,
		char *why, size_t size)
{
	const struct curve_mix *lo, *hi;
	double t = 0, idle = s->idle_latency_ns, blo, bhi;

	if (!isfinite(bw_gbps) || bw_gbps < 0 || !isfinite(read_fraction) ||
	    read_fraction < 0) {
		snprintf(why, size, "no verdict: the bandwidth or read fraction is unknown");
		return errno = EINVAL, -1;
	}
	bracket(s, pf, fmin(read_fraction, 1), &lo, &hi);
	if (!lo && !hi) {
		snprintf(why, size,
			 "no curve for prefetchers %s: run memdiagctl calibrate%s",
			 curve_pf_name(pf),
			 pf == CURVE_PF_UNCHANGED ? "" : " --prefetch on,off");
		return errno = ENOENT, -1;
	}
	/* beyond the measured mixes: the nearest one, clamped */
	if (!lo)
		lo = hi;
	if (!hi)
		hi = lo;
	if (hi->read_fraction > lo->read_fraction)
		t = (read_fraction - lo->read_fraction) /
		    (hi->read_fraction - lo->read_fraction);

	out->peak_gbps = lerp(peak_gbps(lo), peak_gbps(hi), t);
	out->utilization = bw_gbps / out->peak_gbps;
	out->expected_latency_ns =
		lerp(ascending_latency(lo, idle, out->utilization * peak_gbps(lo)),
		     ascending_latency(hi, idle, out->utilization * peak_gbps(hi)),
		     t);
	out->idle_latency_ns = idle;
	out->peak_latency_ns = lerp(lo->points[lo->peak_index].latency_ns,
				    hi->points[hi->peak_index].latency_ns, t);
	out->max_latency_ns = lerp(max_latency(lo), max_latency(hi), t);
	blo = bent_back_min(lo);
	bhi = bent_back_min(hi);
	/* a bent-back region seen on only one of the two curves still counts */
	if (isfinite(blo) && isfinite(bhi))
		out->bent_back_min_utilization = lerp(blo, bhi, t);
	else
		out->bent_back_min_utilization = fmin(blo, bhi);
	out->headroom_gbps = fmax(0, out->peak_gbps - bw_gbps);
	return 0;
}
