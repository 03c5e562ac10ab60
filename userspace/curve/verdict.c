// SPDX-License-Identifier: GPL-2.0
/*
 * verdict.c - from one socket's live sample and its curves to
 * utilization, stress score, label, latency disagreement and channel
 * imbalance. The formula and the reasons for it are in
 * Documentation/curves.rst ("The verdict"); the constants in curve.h.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "curve.h"
#include "metrics.h"

static const char *const label_names[] = {
	[VERDICT_IDLE] = "idle",
	[VERDICT_OK] = "ok",
	[VERDICT_LATENCY_RISING] = "latency-rising",
	[VERDICT_BANDWIDTH_BOUND] = "bandwidth-bound",
	[VERDICT_SATURATED] = "saturated",
};

const char *verdict_label_name(enum verdict_label l)
{
	return l <= VERDICT_SATURATED ? label_names[l] : NULL;
}

const char *verdict_disagree_name(enum verdict_disagree d)
{
	return d == VERDICT_MEASURED_HIGHER ? "higher" :
	       d == VERDICT_MEASURED_LOWER ? "lower" : NULL;
}

void verdict_none(struct verdict *v, const char *reason)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->reason, sizeof(v->reason), "%s", reason);
}

/*
 * Stress: how far latency has climbed from idle towards the curve's
 * maximum, 1 past the peak. The measured latency raises it once DRAM
 * carries half its peak: only it tells the bent-back branch (bandwidth
 * falling, queues growing) from the ascending one.
 */
static double stress(const struct curve_place *p, double measured)
{
	double l = p->expected_latency_ns, span;

	if (p->utilization > 1)
		return 1;
	if (isfinite(measured) && p->utilization >= VERDICT_MEASURED_UTIL)
		l = fmax(l, measured);
	span = p->max_latency_ns - p->idle_latency_ns;
	/* a curve whose latency never rose: only the peak can stress it */
	if (span <= 0)
		return 0;
	return fmin(1, fmax(0, (l - p->idle_latency_ns) / span));
}

static enum verdict_label label(const struct curve_place *p, double s,
				double measured)
{
	bool bent_back = isfinite(measured) &&
			 measured > p->peak_latency_ns &&
			 p->utilization >= p->bent_back_min_utilization;

	if (p->utilization > 1 || bent_back)
		return VERDICT_SATURATED;
	if (p->utilization >= VERDICT_BOUND_UTIL)
		return VERDICT_BANDWIDTH_BOUND;
	if (s >= VERDICT_RISING_STRESS)
		return VERDICT_LATENCY_RISING;
	if (p->utilization >= VERDICT_IDLE_UTIL)
		return VERDICT_OK;
	return VERDICT_IDLE;
}

static enum verdict_disagree disagree(const struct curve_place *p,
				      double measured)
{
	if (!isfinite(measured) || p->expected_latency_ns <= 0)
		return VERDICT_AGREE;
	if (measured > VERDICT_DISAGREE_RATIO * p->expected_latency_ns)
		return VERDICT_MEASURED_HIGHER;
	if (measured < p->expected_latency_ns / VERDICT_DISAGREE_RATIO &&
	    p->utilization >= VERDICT_MEASURED_UTIL)
		return VERDICT_MEASURED_LOWER;
	return VERDICT_AGREE;
}

/* The busiest channel, when it carries over 1.5x its fair share. */
static void imbalance(const struct verdict_in *in, struct verdict *v)
{
	uint64_t total = 0, most = 0;
	size_t i, busiest = 0;

	if (in->nr_channels < 2 ||
	    v->place.utilization < VERDICT_IDLE_UTIL)
		return;
	for (i = 0; i < in->nr_channels; i++) {
		total += in->channel_bytes[i];
		if (in->channel_bytes[i] > most) {
			most = in->channel_bytes[i];
			busiest = i;
		}
	}
	if (!total)
		return;
	v->imbalanced_share = (double)most / total;
	if (v->imbalanced_share * in->nr_channels > VERDICT_IMBALANCE_SHARE) {
		v->imbalanced = true;
		v->imbalanced_channel = in->channel_id ? in->channel_id[busiest]
						       : busiest;
	}
}

void verdict_compute(const struct curve_socket *s, enum curve_pf pf,
		     const struct verdict_in *in, struct verdict *v)
{
	double bw = in->read_gbps + in->write_gbps;
	/* no traffic has no mix: any curve gives the same (idle) answer */
	double rf = bw > 0 ? in->read_gbps / bw : 1;
	bool assumed = false;

	memset(v, 0, sizeof(*v));
	if (!s) {
		verdict_none(v, "no curve for this socket: run memdiagctl calibrate");
		return;
	}
	/* the total alone (AMD's DF): the mix of the lowest peak */
	if (!isfinite(bw) && isfinite(in->total_gbps)) {
		bw = in->total_gbps;
		rf = curve_lowest_peak_fraction(s, pf);
		assumed = isfinite(rf);
		if (!assumed)
			rf = 1;		/* curve_place() says there is none */
	}
	if (curve_place(s, pf, rf, bw, &v->place, v->reason, sizeof(v->reason)))
		return;
	v->valid = true;
	v->read_fraction_assumed = assumed;
	v->curve_judged = s->quality.judged;
	v->curve_reliable = curve_reliable(s);
	v->utilization_checked = s->check.measured && curve_peak_checked(s);
	v->stress = stress(&v->place, in->measured_latency_ns);
	v->label = label(&v->place, v->stress, in->measured_latency_ns);
	v->disagree = disagree(&v->place, in->measured_latency_ns);
	imbalance(in, v);
}

double verdict_measured_latency_ns(const struct interval *m)
{
	/* the L3's: the DRAM requests only, as the curve's chase measures */
	return isfinite(m->load_miss_real_latency_ns) ?
	       m->load_miss_real_latency_ns : m->l3_dram_latency_ns;
}

/*
 * Why there is no bandwidth to place, or NULL: a fixed Data Fabric
 * channel set has no socket total (its other channels unmeasured).
 */
const char *verdict_no_bandwidth(const struct interval *m)
{
	size_t i;

	if (isfinite(m->read_gbps) || m->have_rdwr_bytes)
		return NULL;
	for (i = 0; i < m->nr_chan; i++)
		if (m->chan[i].rdwr)
			return "unknown: a fixed Data Fabric channel set (df-channels) leaves channels unmeasured, so there is no socket total to place on the curve";
	return NULL;
}
