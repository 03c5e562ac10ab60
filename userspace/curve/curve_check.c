// SPDX-License-Identifier: GPL-2.0
/*
 * curve_check.c - the value rules of a curve (Documentation/curves.rst),
 * applied to every file read and to every curve before it is written.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "curve.h"

/* every rule broken is EINVAL, reported in the caller's @why */
#define BAD(...) curve_fail(EINVAL, why, size, __VA_ARGS__)

static bool nonneg(double v)
{
	return isfinite(v) && v >= 0;
}

/*
 * The percentiles: all three (each > 0, in order) or none (all 0: not
 * known).
 */
static int check_pct(const char *at, const struct curve_point *p,
		     char *why, size_t size)
{
	double p50 = p->latency_p50_ns, p90 = p->latency_p90_ns;
	double p99 = p->latency_p99_ns;

	if (p50 == 0 && p90 == 0 && p99 == 0)
		return 0;
	if (!isfinite(p50) || p50 <= 0)
		return BAD("%s.latency_p50_ns: must be > 0 with p90 and p99", at);
	if (!isfinite(p90) || p90 < p50)
		return BAD("%s.latency_p90_ns: must be >= latency_p50_ns", at);
	if (!isfinite(p99) || p99 < p90)
		return BAD("%s.latency_p99_ns: must be >= latency_p90_ns", at);
	return 0;
}

static int check_point(const char *at, const struct curve_point *p,
		       char *why, size_t size)
{
	/* read + write = total, to 1 % (and a little for tiny values) */
	double slack = 0.01 * p->bandwidth_gbps + 1e-6;

	if (p->threads < 1)
		return BAD("%s.threads: must be at least 1", at);
	if (!nonneg(p->bandwidth_gbps))
		return BAD("%s.bandwidth_gbps: must be >= 0", at);
	if (!nonneg(p->read_gbps))
		return BAD("%s.read_gbps: must be >= 0", at);
	if (!nonneg(p->write_gbps))
		return BAD("%s.write_gbps: must be >= 0", at);
	if (fabs(p->read_gbps + p->write_gbps - p->bandwidth_gbps) > slack)
		return BAD("%s.bandwidth_gbps: %g is not read_gbps + write_gbps (%g)",
			   at, p->bandwidth_gbps, p->read_gbps + p->write_gbps);
	if (!isfinite(p->latency_ns) || p->latency_ns <= 0)
		return BAD("%s.latency_ns: must be > 0", at);
	if (check_pct(at, p, why, size))
		return -1;
	if (!nonneg(p->cov))
		return BAD("%s.cov: must be >= 0", at);
	if (p->repeats < 1)
		return BAD("%s.repeats: must be at least 1", at);
	return 0;
}

static int check_mix(const char *at, const struct curve_mix *m,
		     char *why, size_t size)
{
	char pat[160];
	size_t i;

	if (!isfinite(m->read_fraction) || m->read_fraction < 0 ||
	    m->read_fraction > 1)
		return BAD("%s.read_fraction: must be in 0..1", at);
	if (m->prefetch >= NR_CURVE_PF)
		return BAD("%s.prefetch: unknown state", at);
	if (m->nr_points < 2)
		return BAD("%s.points: needs at least 2 elements", at);
	for (i = 0; i < m->nr_points; i++) {
		snprintf(pat, sizeof(pat), "%s.points[%zu]", at, i);
		if (check_point(pat, &m->points[i], why, size))
			return -1;
	}
	if (m->peak_index >= m->nr_points)
		return BAD("%s.peak_index: %zu is past the last point",
			   at, m->peak_index);
	for (i = 0; i < m->nr_points; i++)
		if (m->points[i].bandwidth_gbps >
		    m->points[m->peak_index].bandwidth_gbps)
			return BAD("%s.peak_index: point %zu has more bandwidth than the peak %zu",
				   at, i, m->peak_index);
	if (m->points[m->peak_index].bandwidth_gbps <= 0)
		return BAD("%s.points: no point has any bandwidth", at);
	return 0;
}

static int check_socket(const char *at, const struct curve_socket *s,
			char *why, size_t size)
{
	const struct curve_mix *a, *b;
	char mat[96];
	size_t i, j;

	if (!s->cpus)
		return BAD("%s.cpus: missing", at);
	if (!isfinite(s->idle_latency_ns) || s->idle_latency_ns <= 0)
		return BAD("%s.idle_latency_ns: must be > 0", at);
	if (!s->nr_mixes)
		return BAD("%s.curves: needs at least 1 element", at);
	for (i = 0; i < s->nr_mixes; i++) {
		snprintf(mat, sizeof(mat), "%s.curves[%zu]", at, i);
		if (check_mix(mat, &s->mixes[i], why, size))
			return -1;
		a = &s->mixes[i];
		for (j = 0; j < i; j++) {
			b = &s->mixes[j];
			/* two curves for one mix: which would the verdict use? */
			if (b->prefetch == a->prefetch &&
			    fabs(b->read_fraction - a->read_fraction) < 1e-3)
				return BAD("%s.read_fraction: curves[%zu] has the same mix and prefetch state",
					   mat, j);
		}
	}
	return 0;
}

int curve_check(const struct curve *c, char *why, size_t size)
{
	char at[48];
	size_t i, j;

	if (c->version != CURVE_VERSION)
		return BAD("version: must be %d", CURVE_VERSION);
	if (c->source != CURVE_SRC_IMC && c->source != CURVE_SRC_KERNEL)
		return BAD("bandwidth_source: unknown");
	if (!c->created || !c->tool_version)
		return BAD("%s: missing",
			   c->created ? "tool_version" : "created");
	if (!c->nr_sockets)
		return BAD("sockets: needs at least 1 element");
	for (i = 0; i < c->nr_sockets; i++) {
		snprintf(at, sizeof(at), "sockets[%zu]", i);
		if (check_socket(at, &c->sockets[i], why, size))
			return -1;
		for (j = 0; j < i; j++)
			if (c->sockets[j].socket == c->sockets[i].socket)
				return BAD("%s.socket: %u is also sockets[%zu]",
					   at, c->sockets[i].socket, j);
	}
	return 0;
}
