// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - deltas, rates and latencies of Helm and Taura's
 * "Measurement of Main Memory Bandwidth and Memory Access Latency in Intel
 * Processors" (sections 5 and 6) from pairs of cumulative snapshots.
 */

#include <math.h>
#include <string.h>

#include "metrics.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x

/* A metric that cannot be computed (NAN itself is a float). */
#define NONE ((double)NAN)

static const unsigned int imc_counters[] = {
	A(DRAM_READ_BYTES), A(DRAM_WRITE_BYTES), A(DRAM_RDWR_BYTES),
};

static const unsigned int core_counters[] = {
	A(INSTRUCTIONS), A(CYCLES), A(REF_CYCLES), A(L1D_PEND_MISS),
	A(L1_MISS), A(LFB_HIT), A(L1_MISS_ANY), A(OFFCORE_DRAM_READS),
	A(MAB_OCCUPANCY), A(MAB_ALLOCATIONS),
};

static const struct {
	unsigned int epoch;
	const unsigned int *counters;
	unsigned int nr;
} groups[NR_GROUPS] = {
	[GROUP_IMC] = { A(IMC_EPOCH), imc_counters,
			sizeof(imc_counters) / sizeof(imc_counters[0]) },
	[GROUP_CORE] = { A(CORE_EPOCH), core_counters,
			 sizeof(core_counters) / sizeof(core_counters[0]) },
};

static bool both(const struct snap *a, const struct snap *b, unsigned int attr)
{
	return snap_has(a, attr) && snap_has(b, attr);
}

/*
 * Counters are 64-bit and cumulative: unsigned subtraction gives the right
 * delta even across a wrap of the 64-bit value. No real interval counts
 * 2^63 events, so a larger delta means the counter went backwards.
 */
static uint64_t delta(const struct snap *a, const struct snap *b,
		      unsigned int attr)
{
	return b->v[attr] - a->v[attr];
}

static bool backwards(const struct snap *a, const struct snap *b,
		      unsigned int attr)
{
	return delta(a, b, attr) > (uint64_t)INT64_MAX;
}

/* Whether @a -> @b is a valid interval for group @g, and if not why. */
static struct group_state check_group(const struct snap *a,
				      const struct snap *b, enum metric_group g)
{
	struct group_state st = { .why = BREAK_NONE };
	unsigned int ep = groups[g].epoch, i;

	if (both(a, b, ep) && a->v[ep] != b->v[ep]) {
		st.why = BREAK_EPOCH;
		st.from = a->v[ep];
		st.to = b->v[ep];
		return st;
	}
	for (i = 0; i < groups[g].nr; i++) {
		unsigned int c = groups[g].counters[i];

		if (both(a, b, c) && backwards(a, b, c)) {
			st.why = BREAK_BACKWARDS;
			st.attr = c;
			return st;
		}
	}
	return st;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NONE;
}

/*
 * The L3-sampled DRAM latency (AMD): its own epoch, checked here rather
 * than as a group, so that a processor without it keeps its intervals and
 * its outputs as they were. Epochs only grow, so the ends of an interval
 * tell whether one changed in between.
 */
static void compute_l3(const struct snap *a, const struct snap *b,
		       uint32_t tsc_khz, struct interval *m)
{
	const unsigned int lat = A(L3_SAMPLED_DRAM_LATENCY_CYCLES);
	const unsigned int req = A(L3_SAMPLED_DRAM_REQUESTS);

	m->l3_dram_latency_cycles = m->l3_dram_latency_ns = NONE;
	if (!both(a, b, lat) || !both(a, b, req) ||
	    (both(a, b, A(L3_EPOCH)) && a->v[A(L3_EPOCH)] != b->v[A(L3_EPOCH)]) ||
	    delta(a, b, lat) > (uint64_t)INT64_MAX ||
	    delta(a, b, req) > (uint64_t)INT64_MAX)
		return;
	m->l3_dram_latency_cycles = ratio((double)delta(a, b, lat),
					  (double)delta(a, b, req));
	/*
	 * perf's metric is in core clocks; AMD has no reference-cycles event
	 * to measure the core clock with, so ns are at the TSC's rate (the
	 * P0 base frequency): a core boosting above it makes them too high.
	 */
	if (tsc_khz)
		m->l3_dram_latency_ns = m->l3_dram_latency_cycles /
					((double)tsc_khz / 1e6);
}

/* The core side: offcore bandwidth, latencies, frequency, saturation. */
static void compute_core(const struct snap *a, const struct snap *b,
			 uint32_t tsc_khz, double threshold, double ns,
			 struct interval *m)
{
	double pend = NONE, den = NONE;

	m->offcore_read_gbps = NONE;
	if (both(a, b, A(OFFCORE_DRAM_READS))) {
		uint64_t reads = delta(a, b, A(OFFCORE_DRAM_READS));

		/* each read is one 64-byte line */
		m->offcore_read_gbps = (double)reads * 64 / ns;
		if (reads <= UINT64_MAX / 64) {
			m->have_offcore_bytes = true;
			m->offcore_bytes = reads * 64;
		}
	}

	if (both(a, b, A(L1D_PEND_MISS)))
		pend = (double)delta(a, b, A(L1D_PEND_MISS));
	if (both(a, b, A(L1_MISS)))
		m->l1_miss_latency = ratio(pend, (double)delta(a, b, A(L1_MISS)));
	/*
	 * Sapphire, Emerald and Granite Rapids count L1_MISS_ANY, the denominator
	 * perf's load_miss_real_latency uses there; elsewhere the paper's
	 * L1 misses plus fill-buffer hits.
	 */
	if (both(a, b, A(L1_MISS_ANY)))
		den = (double)delta(a, b, A(L1_MISS_ANY));
	else if (both(a, b, A(L1_MISS)) && both(a, b, A(LFB_HIT)))
		den = (double)delta(a, b, A(L1_MISS)) +
		      (double)delta(a, b, A(LFB_HIT));
	m->load_miss_real_latency = ratio(pend, den);
	/*
	 * AMD Zen 4/5: Miss Address Buffer occupancy over allocations, the
	 * average L1D miss latency; there is no fill-buffer-hit split, so
	 * no load_miss_real_latency.
	 */
	if (both(a, b, A(MAB_OCCUPANCY)) && both(a, b, A(MAB_ALLOCATIONS)))
		m->l1_miss_latency =
			ratio((double)delta(a, b, A(MAB_OCCUPANCY)),
			      (double)delta(a, b, A(MAB_ALLOCATIONS)));

	/* TSC frequency x unhalted core cycles per unhalted reference cycle */
	if (tsc_khz && both(a, b, A(CYCLES)) && both(a, b, A(REF_CYCLES)))
		m->core_ghz = (double)tsc_khz / 1e6 *
			      ratio((double)delta(a, b, A(CYCLES)),
				    (double)delta(a, b, A(REF_CYCLES)));
	m->load_miss_real_latency_ns = ratio(m->load_miss_real_latency,
					     m->core_ghz);
	/* no threshold (0): the user did not ask for the fixed one */
	if (!isnan(m->load_miss_real_latency) && threshold > 0)
		m->saturated = m->load_miss_real_latency > threshold;
}

static const struct snap_chan *find_chan(const struct snap *s, uint32_t id)
{
	size_t i;

	for (i = 0; i < s->nr_chan; i++)
		if (s->chan[i].id == id)
			return &s->chan[i];
	return NULL;
}

/*
 * Per-channel deltas and the imbalance: channels are counted with the
 * totals, so an IMC break breaks them too; a channel that went backwards
 * without an epoch change makes every channel unknown rather than one.
 */
double snap_chan_gbps(const struct snap_chan *c, double ns)
{
	if (!c->rdwr)
		return (double)(c->read_bytes + c->write_bytes) / ns;
	return c->counted_ns ? (double)c->rdwr_bytes / (double)c->counted_ns :
			       NONE;
}

/* @b's channel minus @a's into @d; false if a count went backwards. */
static bool chan_delta(const struct snap_chan *a, const struct snap_chan *b,
		       struct snap_chan *d)
{
	*d = *b;
	d->read_bytes -= a->read_bytes;
	d->write_bytes -= a->write_bytes;
	d->rdwr_bytes -= a->rdwr_bytes;
	d->counted_ns -= a->counted_ns;
	return d->read_bytes <= (uint64_t)INT64_MAX &&
	       d->write_bytes <= (uint64_t)INT64_MAX &&
	       d->rdwr_bytes <= (uint64_t)INT64_MAX &&
	       d->counted_ns <= (uint64_t)INT64_MAX && a->rdwr == b->rdwr;
}

/*
 * Per channel deltas; the imbalance over the channels measured in the
 * interval (on AMD's DF, those counted in it), by rate.
 */
static void compute_channels(const struct snap *a, const struct snap *b,
			     double ns, struct interval *m)
{
	double most = 0, sum = 0, gbps;
	const struct snap_chan *ca;
	size_t i, n = 0, measured = 0;

	m->channel_imbalance = m->busiest_channel_gbps = NONE;
	for (i = 0; i < b->nr_chan; i++) {
		ca = find_chan(a, b->chan[i].id);
		if (!ca)
			continue;
		if (!chan_delta(ca, &b->chan[i], &m->chan[n])) {
			m->nr_unmeasured = 0;
			return;		/* nr_chan stays 0 */
		}
		gbps = snap_chan_gbps(&m->chan[n++], ns);
		if (isnan(gbps)) {
			m->nr_unmeasured++;
			continue;
		}
		sum += gbps;
		if (!measured++ || gbps > most) {
			most = gbps;
			m->busiest_channel = m->chan[n - 1].id;
		}
	}
	m->nr_chan = n;
	if (!measured || !sum)
		return;
	m->channel_imbalance = most * (double)measured / sum;
	m->busiest_channel_gbps = most;
}

static void compute(const struct snap *a, const struct snap *b,
		    uint32_t tsc_khz, double threshold,
		    const struct group_state *seen, struct interval *m)
{
	double ns, rd = NONE, wr = NONE;
	unsigned int g;

	memset(m, 0, sizeof(*m));
	m->socket = (uint32_t)b->v[A(SOCKET)];
	m->valid = true;
	for (g = 0; g < NR_GROUPS; g++) {
		m->brk[g] = check_group(a, b, (enum metric_group)g);
		/* a break between intermediate snapshots counts too */
		if (m->brk[g].why == BREAK_NONE && seen)
			m->brk[g] = seen[g];
		if (m->brk[g].why != BREAK_NONE)
			m->valid = false;
	}

	if (snap_has(b, A(TIME_NS)))
		m->t_ns = b->v[A(TIME_NS)];
	if (both(a, b, A(TIME_NS)) && b->v[A(TIME_NS)] > a->v[A(TIME_NS)])
		m->interval_ns = delta(a, b, A(TIME_NS));
	/* bytes per nanosecond are 10^9 bytes per second */
	ns = m->interval_ns ? (double)m->interval_ns : NONE;

	if (m->brk[GROUP_IMC].why == BREAK_NONE) {
		if (both(a, b, A(DRAM_READ_BYTES))) {
			m->have_read_bytes = true;
			m->read_bytes = delta(a, b, A(DRAM_READ_BYTES));
			rd = (double)m->read_bytes;
		}
		if (both(a, b, A(DRAM_WRITE_BYTES))) {
			m->have_write_bytes = true;
			m->write_bytes = delta(a, b, A(DRAM_WRITE_BYTES));
			wr = (double)m->write_bytes;
		}
	}
	m->read_gbps = rd / ns;
	m->write_gbps = wr / ns;
	m->total_gbps = (rd + wr) / ns;
	if (m->brk[GROUP_IMC].why == BREAK_NONE &&
	    both(a, b, A(DRAM_RDWR_BYTES))) {
		m->have_rdwr_bytes = true;
		m->rdwr_bytes = delta(a, b, A(DRAM_RDWR_BYTES));
		m->total_gbps = (double)m->rdwr_bytes / ns;
	}
	m->channel_imbalance = m->busiest_channel_gbps = NONE;
	if (m->brk[GROUP_IMC].why == BREAK_NONE)
		compute_channels(a, b, ns, m);
	df_nodes_delta(&a->df, &b->df, m->brk[GROUP_IMC].why == BREAK_NONE,
		       &m->df);

	m->offcore_read_gbps = m->l1_miss_latency = NONE;
	m->load_miss_real_latency = m->core_ghz = NONE;
	m->load_miss_real_latency_ns = NONE;
	m->saturated = -1;
	if (m->brk[GROUP_CORE].why == BREAK_NONE)
		compute_core(a, b, tsc_khz, threshold, ns, m);
	compute_l3(a, b, tsc_khz, m);
}

bool interval_dram_bytes(const struct interval *m, uint64_t *bytes)
{
	if (!m->valid)
		return false;
	if (m->have_read_bytes && m->have_write_bytes) {
		*bytes = m->read_bytes + m->write_bytes;
		return true;
	}
	if (m->have_rdwr_bytes) {
		*bytes = m->rdwr_bytes;
		return true;
	}
	return false;
}

void metrics_compute(const struct snap *a, const struct snap *b,
		     uint32_t tsc_khz, double threshold, struct interval *m)
{
	compute(a, b, tsc_khz, threshold, NULL, m);
}

void agg_init(struct aggregator *g, uint64_t interval_ns, uint32_t tsc_khz,
	      double threshold)
{
	memset(g, 0, sizeof(*g));
	g->interval_ns = interval_ns;
	g->tsc_khz = tsc_khz;
	g->threshold = threshold;
}

int agg_feed(struct aggregator *g, const struct snap *s, struct interval *m)
{
	const unsigned int t = A(TIME_NS);
	uint64_t gap;
	bool timed;
	unsigned int i;

	if (!g->have_base) {
		g->have_base = true;
		g->base = g->last = *s;
		memset(g->brk, 0, sizeof(g->brk));
		return 0;
	}
	timed = both(&g->last, s, t);
	if (timed && s->v[t] <= g->last.v[t])
		return -1;
	for (i = 0; i < NR_GROUPS; i++)
		if (g->brk[i].why == BREAK_NONE)
			g->brk[i] = check_group(&g->last, s,
						(enum metric_group)i);
	gap = timed ? s->v[t] - g->last.v[t] : 0;
	g->last = *s;
	/*
	 * Without timestamps every snapshot ends an interval. With them, end
	 * it at the snapshot nearest to interval_ns, assuming the next one
	 * comes as far after this one as this one did after the previous.
	 */
	if (timed && both(&g->base, s, t)) {
		uint64_t elapsed = s->v[t] - g->base.v[t];

		if (elapsed < g->interval_ns &&
		    2 * (g->interval_ns - elapsed) > gap)
			return 0;
	}
	compute(&g->base, s, g->tsc_khz, g->threshold, g->brk, m);
	g->base = *s;
	memset(g->brk, 0, sizeof(g->brk));
	return 1;
}
