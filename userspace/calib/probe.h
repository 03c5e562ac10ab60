/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe.h - the counter-free estimate: a latency measured by the flushed
 * chase, placed on the socket's curve (probe.c).
 */

#ifndef MEMDIAGCTL_PROBE_H
#define MEMDIAGCTL_PROBE_H

#include <stdbool.h>

#include "curve.h"

struct probe_est {
	bool valid;		/* false: @reason says why not */
	char reason[CURVE_WHY_SIZE];
	double read_fraction;	/* of the curve used */
	double idle_latency_ns, peak_latency_ns, max_latency_ns;
	double peak_gbps;
	double bandwidth_gbps;	/* the load that explains the latency */
	double utilization;	/* bandwidth_gbps / peak_gbps */
	double stress;		/* as the verdict's, from the latency */
	enum verdict_label label;
	/*
	 * false: the label is not to be trusted (probe_trust()), printed
	 * as "unknown" with @label_reason; the numbers stay, for what they
	 * are worth.
	 */
	bool label_known;
	char label_reason[CURVE_WHY_SIZE];
};

/*
 * Place @latency_ns on @s's curve for prefetcher state @pf with the
 * highest read fraction (a latency says nothing about the mix; reads
 * dominate most loads): the bandwidth at which the ascending branch
 * (idle, then the points up to the peak, latency as their running
 * maximum; peak_latency_ns is its top) first has that latency, by
 * linear interpolation; the stress
 * (L - idle) / (max - idle) in [0, 1]; and the verdict's labels:
 * saturated above the peak's latency, bandwidth-bound from 85 % of the
 * peak, latency-rising from stress 0.25, ok from 5 %, idle below.
 * @s NULL or without a curve for @pf: !valid with the reason.
 */
void probe_place(const struct curve_socket *s, enum curve_pf pf,
		 double latency_ns, struct probe_est *e);

/* A sample this far below the curve's idle latency has no estimate. */
#define PROBE_BELOW_IDLE 0.05
/*
 * A sample less than this many times its noise above the curve's idle
 * latency is labelled idle. From 400 samples on an idle 2-vCPU Zen 3 VM
 * (userspace/tests/data/probe-idle-zen3-vm.*): the latency wandered
 * between samples with a spread of about 18 ns against a median noise of
 * 8 ns, and the excess over idle reached 6.4 x the sample's noise; with
 * no such band, 48 of the 400 were labelled latency-rising, ok or
 * saturated. probe_idle_test.c holds the rule to under 1 % of them.
 */
#define PROBE_IDLE_NOISES 8
/*
 * Whether @e's label can be trusted: not on a curve judged unreliable
 * (or never judged: curve_quality_note()); not when the sample's
 * latency @latency_ns is below the curve's idle by more than
 * PROBE_BELOW_IDLE of it and twice its noise (the machine's idle
 * latency moved since calibrating); not when the sample's own noise
 * (@noise_ns, the robust spread of its segments) is more than half the
 * curve's rise from idle to its peak latency, where one sample cannot
 * tell idle from busy. Sets e->label_known and the reason; a known label
 * becomes idle within PROBE_IDLE_NOISES x @noise_ns above idle.
 */
void probe_trust(const struct curve_socket *s, double latency_ns,
		 double noise_ns, struct probe_est *e);

#endif /* MEMDIAGCTL_PROBE_H */
