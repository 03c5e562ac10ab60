// SPDX-License-Identifier: GPL-2.0
/*
 * curve_quality.c - whether a calibrated curve can be trusted, judged
 * from its own points and from reads it did not make (the "check": the
 * same pool read by read-delay on all generator CPUs and on one), and the
 * curve file's "check" and "quality" objects. A curve that fails a test
 * is kept, flagged with the numbers that failed it: probe then gives no
 * label, the verdict says its utilization is unsure, --show says why.
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve.h"

/* the limits of Documentation/calibrate.rst, "Judging a curve" */
#define CQ_OFF 0.10		/* peak or 1-thread point vs its read */
#define CQ_NOISE_TIMES 3.0	/* the rise over the points' noise */
#define CQ_RISE_MIN 0.05	/* ... and over the idle latency */
#define CQ_DROP 0.90		/* a lighter load's bandwidth, at least */
#define CQ_STEAL 0.05
#define CQ_PRESSURE 0.10

static const char *const flaw_names[NR_CURVE_FLAWS] = {
	[CURVE_FLAW_PEAK_OFF] = "peak_off_reference",
	[CURVE_FLAW_ONE_OFF] = "one_thread_off_reference",
	[CURVE_FLAW_BELOW_ONE_THREAD] = "peak_below_one_thread",
	[CURVE_FLAW_RISE_IN_NOISE] = "rise_within_noise",
	[CURVE_FLAW_NOT_RISING] = "bandwidth_not_rising",
	[CURVE_FLAW_PEAK_ONE_REPEAT] = "peak_on_one_repeat",
	[CURVE_FLAW_STARVED] = "generators_starved",
};

const char *curve_flaw_name(enum curve_flaw f)
{
	return (unsigned int)f < NR_CURVE_FLAWS ? flaw_names[f] : "?";
}

static void flaw(struct curve_quality *q, enum curve_flaw f, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));

static void flaw(struct curve_quality *q, enum curve_flaw f, const char *fmt,
		 ...)
{
	va_list ap;

	if (q->flaws & (1u << f))
		return;		/* the first numbers found are enough */
	q->flaws |= 1u << f;
	va_start(ap, fmt);
	vsnprintf(q->why[f], sizeof(q->why[f]), fmt, ap);
	va_end(ap);
}

const struct curve_mix *curve_read_mix(const struct curve_socket *s)
{
	const struct curve_mix *best = NULL;
	size_t i;

	for (i = 0; i < s->nr_mixes; i++)
		if (!best || s->mixes[i].read_fraction > best->read_fraction)
			best = &s->mixes[i];
	return best;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The reads of the check against the read curve's peak and 1T point. */
static void judge_check(struct curve_socket *s, const struct curve_mix *m)
{
	const struct curve_check *c = &s->check;
	struct curve_quality *q = &s->quality;
	double peak = m->points[m->peak_index].bandwidth_gbps, r;
	size_t i;

	if (!c->measured)
		return;
	r = c->read_gbps > 0 ? peak / c->read_gbps : INFINITY;
	if (fabs(r - 1) > CQ_OFF)
		flaw(q, CURVE_FLAW_PEAK_OFF,
		     "read peak %.2f GB/s is %.0f %% %s a %u-thread read of the same %.0f MiB (%.2f GB/s)",
		     peak, fabs(r - 1) * 100, r > 1 ? "above" : "below",
		     c->read_threads, (double)c->read_bytes / 1048576.0,
		     c->read_gbps);
	if (peak < CQ_DROP * c->read_one_gbps)
		flaw(q, CURVE_FLAW_BELOW_ONE_THREAD,
		     "read peak %.2f GB/s is below what one read-delay thread moves (%.2f GB/s)",
		     peak, c->read_one_gbps);
	for (i = 0; i < m->nr_points; i++) {
		if (m->points[i].threads != 1 || m->points[i].delay)
			continue;
		r = c->read_one_gbps > 0 ?
		    m->points[i].bandwidth_gbps / c->read_one_gbps : INFINITY;
		if (fabs(r - 1) > CQ_OFF)
			flaw(q, CURVE_FLAW_ONE_OFF,
			     "1-thread point %.2f GB/s is %.0f %% %s a 1-thread read (%.2f GB/s)",
			     m->points[i].bandwidth_gbps, fabs(r - 1) * 100,
			     r > 1 ? "above" : "below", c->read_one_gbps);
	}
}

/*
 * The rise from idle to the peak's latency against the noise: the median
 * spread (latency x CoV over the repeats) of the points up to the peak.
 */
static void judge_rise(struct curve_socket *s, const struct curve_mix *m)
{
	double sd[256], rise, noise;
	size_t i, n = 0;

	for (i = 0; i <= m->peak_index && n < 256; i++)
		sd[n++] = m->points[i].latency_ns * m->points[i].cov;
	qsort(sd, n, sizeof(*sd), cmp_double);
	noise = n % 2 ? sd[n / 2] : (sd[n / 2 - 1] + sd[n / 2]) / 2;
	rise = m->points[m->peak_index].latency_ns - s->idle_latency_ns;
	if (rise < CQ_NOISE_TIMES * noise || rise < CQ_RISE_MIN * s->idle_latency_ns)
		flaw(&s->quality, CURVE_FLAW_RISE_IN_NOISE,
		     "latency rises %.1f ns from idle (%.1f ns) to the read peak, within %.0f x its noise (%.1f ns) or under %.0f %% of idle",
		     rise, s->idle_latency_ns, CQ_NOISE_TIMES, noise,
		     CQ_RISE_MIN * 100);
}

/*
 * Within one thread count, the points come by falling delay: until that
 * count's highest bandwidth, each must keep CQ_DROP of the best so far.
 */
static void judge_rising(struct curve_socket *s, const struct curve_mix *m)
{
	const struct curve_point *p = m->points, *best;
	size_t i, j, top;

	for (i = 0; i < m->nr_points; i++) {
		/* each count once: at its first point */
		for (j = 0; j < i && p[j].threads != p[i].threads; j++)
			;
		if (j < i)
			continue;
		for (j = i, top = i; j < m->nr_points; j++)
			if (p[j].threads == p[i].threads &&
			    p[j].bandwidth_gbps > p[top].bandwidth_gbps)
				top = j;
		for (j = i, best = &p[i]; j < top; j++) {
			if (p[j].threads != p[i].threads)
				continue;
			if (p[j].bandwidth_gbps < CQ_DROP * best->bandwidth_gbps) {
				flaw(&s->quality, CURVE_FLAW_NOT_RISING,
				     "%u threads: %.2f GB/s at delay %lu after %.2f GB/s at delay %lu (read fraction %.2f)",
				     p[j].threads, p[j].bandwidth_gbps,
				     (unsigned long)p[j].delay, best->bandwidth_gbps,
				     (unsigned long)best->delay, m->read_fraction);
				return;
			}
			if (p[j].bandwidth_gbps > best->bandwidth_gbps)
				best = &p[j];
		}
	}
}

void curve_judge(struct curve_socket *s)
{
	const struct curve_mix *m = curve_read_mix(s);
	const struct curve_check *c = &s->check;
	const struct curve_point *pk;
	size_t i;

	memset(&s->quality, 0, sizeof(s->quality));
	s->quality.judged = true;
	if (!m || !m->nr_points)
		return;
	pk = &m->points[m->peak_index];
	judge_check(s, m);
	judge_rise(s, m);
	for (i = 0; i < s->nr_mixes; i++)
		judge_rising(s, &s->mixes[i]);
	if (pk->repeats <= 1)
		flaw(&s->quality, CURVE_FLAW_PEAK_ONE_REPEAT,
		     "the read peak (%u threads, delay %lu) rests on %u repeat",
		     pk->threads, (unsigned long)pk->delay, pk->repeats);
	if (c->measured && (c->steal_share > CQ_STEAL ||
			    c->cpu_pressure_share > CQ_PRESSURE))
		flaw(&s->quality, CURVE_FLAW_STARVED,
		     "the generators waited for CPUs: steal %.1f %% of CPU time, CPU pressure %.1f %% of the time (limits %.0f %%, %.0f %%)",
		     c->steal_share * 100, c->cpu_pressure_share * 100,
		     CQ_STEAL * 100, CQ_PRESSURE * 100);
}

bool curve_reliable(const struct curve_socket *s)
{
	return s->quality.judged && !s->quality.flaws;
}

bool curve_peak_checked(const struct curve_socket *s)
{
	return !(s->quality.flaws & (1u << CURVE_FLAW_PEAK_OFF));
}

const char *curve_quality_note(const struct curve_socket *s, char *buf,
			       size_t size)
{
	unsigned int f, n = 0, first = NR_CURVE_FLAWS;

	buf[0] = 0;
	if (!s->quality.judged) {
		snprintf(buf, size, "curve not judged (made by an older memdiagctl: run memdiagctl calibrate)");
		return buf;
	}
	for (f = 0; f < NR_CURVE_FLAWS; f++)
		if (s->quality.flaws & (1u << f)) {
			if (first == NR_CURVE_FLAWS)
				first = f;
			n++;
		}
	if (n)
		snprintf(buf, size, "unreliable curve: %s%s", s->quality.why[first],
			 n > 1 ? " (and more: calibrate --show)" : "");
	return buf;
}
