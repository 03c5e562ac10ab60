// SPDX-License-Identifier: GPL-2.0
/* unit_metrics.c - unit tests: metrics from pairs of snapshots and their aggregation (metrics.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f metrics" runs its tests alone */
FIXTURE(metrics) {};
FIXTURE_SETUP(metrics) {}
FIXTURE_TEARDOWN(metrics) {}

static bool near(double got, double want)
{
	return fabs(got - want) <= 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);
}

TEST_F(metrics, metrics_exact)
{
	struct snap a, b;
	struct interval m;

	canned_pair(0, &a, &b);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && m.socket == 0 && m.t_ns == T0 + SEC && m.interval_ns == SEC,
	   "metrics: socket, end time and interval of the canned pair");
	ok(m.have_read_bytes && m.read_bytes == 25600000000 &&
	   m.have_write_bytes && m.write_bytes == 6400000000,
	   "metrics: DRAM byte deltas");
	ok(near(m.read_gbps, 25.6) && near(m.write_gbps, 6.4) &&
	   near(m.total_gbps, 32.0),
	   "metrics: 25.6 + 6.4 = 32.0 GB/s (got %.9f %.9f %.9f)",
	   m.read_gbps, m.write_gbps, m.total_gbps);
	ok(m.have_offcore_bytes && m.offcore_bytes == 19200000000 &&
	   near(m.offcore_read_gbps, 19.2),
	   "metrics: 300 M offcore reads x 64 B = 19.2 GB/s (got %.9f)",
	   m.offcore_read_gbps);
	ok(near(m.l1_miss_latency, 300.0),
	   "metrics: L1 miss latency 9e9 / 30e6 = 300 cycles (got %.9f)",
	   m.l1_miss_latency);
	ok(near(m.load_miss_real_latency, 200.0),
	   "metrics: load miss real latency 9e9 / (30e6 + 15e6) = 200 cycles (got %.9f)",
	   m.load_miss_real_latency);
	ok(near(m.core_ghz, 2.0),
	   "metrics: core GHz = 2.5 x 56e9 / 70e9 = 2.0 (got %.9f)", m.core_ghz);
	ok(near(m.load_miss_real_latency_ns, 100.0),
	   "metrics: 200 cycles at 2.0 GHz = 100 ns (got %.9f)",
	   m.load_miss_real_latency_ns);
	ok(m.saturated == 0, "metrics: 200 cycles is not above 300: not saturated");

	canned_pair(1, &a, &b);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.read_gbps, 80) && near(m.write_gbps, 20) &&
	   near(m.total_gbps, 100) && near(m.offcore_read_gbps, 32) &&
	   near(m.l1_miss_latency, 500) && near(m.load_miss_real_latency, 400) &&
	   near(m.core_ghz, 2.0) && near(m.load_miss_real_latency_ns, 200) &&
	   m.saturated == 1,
	   "metrics: socket 1: 80 + 20 GB/s, 500 and 400 cycles, 200 ns, saturated");
	metrics_compute(&a, &b, TSC_KHZ, 400, &m);
	ok(m.saturated == 0, "metrics: saturated means above the threshold, not at it");
	metrics_compute(&a, &b, TSC_KHZ, 399.5, &m);
	ok(m.saturated == 1, "metrics: a fractional threshold");
}

TEST_F(metrics, metrics_null)
{
	struct snap a, b;
	struct interval m;

	/* no L1 misses, no fill buffer hits, no traffic */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + SEC);
	snap_imc(&a, 1, 5000, 7000);
	snap_imc(&b, 1, 5000, 7000);
	snap_core(&a, 1, (struct core_counts){ 100, 100, 50, 10, 10, 10 });
	snap_core(&b, 1, (struct core_counts){ 100, 100, 50, 10, 10, 10 });
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && m.read_gbps == 0 && m.write_gbps == 0 &&
	   m.total_gbps == 0 && m.offcore_read_gbps == 0 &&
	   m.have_read_bytes && m.read_bytes == 0,
	   "metrics: no traffic is 0 GB/s, not null");
	ok(isnan(m.l1_miss_latency) && isnan(m.load_miss_real_latency) &&
	   isnan(m.load_miss_real_latency_ns) && isnan(m.core_ghz) &&
	   m.saturated == -1,
	   "metrics: no misses and no unhalted cycles: latencies, GHz, ns and saturation null");

	/* misses but no cycles counted: latency in cycles, but no ns */
	snap_core(&b, 1, (struct core_counts){ 100, 100, 1050, 15, 15, 10 });
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.l1_miss_latency, 200) && near(m.load_miss_real_latency, 100) &&
	   isnan(m.core_ghz) && isnan(m.load_miss_real_latency_ns),
	   "metrics: zero ref-cycles delta: cycles known, ns null");
	metrics_compute(&a, &b, 0, 300, &m);
	ok(near(m.load_miss_real_latency, 100) && isnan(m.core_ghz) &&
	   isnan(m.load_miss_real_latency_ns),
	   "metrics: tsc-khz unknown (0): ns null");

	/* an absent group: no IMC on this machine, core counters only */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + SEC);
	snap_core(&a, 1, (struct core_counts){ 0, 0, 0, 0, 0, 0 });
	snap_core(&b, 1, (struct core_counts){ 2000, 1000, 4000, 10, 10, 1 });
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && !m.have_read_bytes && !m.have_write_bytes &&
	   isnan(m.read_gbps) && isnan(m.write_gbps) && isnan(m.total_gbps),
	   "metrics: no IMC attributes: DRAM bandwidth null, interval valid");
	ok(near(m.load_miss_real_latency, 200) && near(m.core_ghz, 5.0) &&
	   near(m.load_miss_real_latency_ns, 40) && near(m.offcore_read_gbps, 64e-9),
	   "metrics: the core metrics without the IMC ones");

	/* no core PMU: only the IMC */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + 2 * SEC);
	snap_imc(&a, 3, 0, 0);
	snap_imc(&b, 3, 3000000000, 1000000000);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && near(m.read_gbps, 1.5) && near(m.write_gbps, 0.5) &&
	   near(m.total_gbps, 2.0) && isnan(m.offcore_read_gbps) &&
	   !m.have_offcore_bytes && isnan(m.l1_miss_latency) &&
	   isnan(m.load_miss_real_latency) && isnan(m.core_ghz) &&
	   isnan(m.load_miss_real_latency_ns) && m.saturated == -1,
	   "metrics: no core attributes: core metrics null, GB/s over 2 s");

	/* a counter the later snapshot lacks */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + SEC);
	snap_imc(&a, 1, 0, 0);
	snap_set(&b, SA(IMC_EPOCH), 1);
	snap_set(&b, SA(DRAM_READ_BYTES), 1000);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.read_gbps, 1e-6) && isnan(m.write_gbps) && isnan(m.total_gbps),
	   "metrics: one side missing write bytes: write and total null");

	/* no timestamps: counts, but no rates */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	snap_set(&a, SA(SOCKET), 2);
	snap_set(&b, SA(SOCKET), 2);
	snap_imc(&a, 1, 0, 0);
	snap_imc(&b, 1, 640, 64);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.socket == 2 && m.interval_ns == 0 && m.t_ns == 0 &&
	   m.read_bytes == 640 && isnan(m.read_gbps),
	   "metrics: without time-ns: byte counts, rates null");
}

TEST_F(metrics, metrics_spr)
{
	struct snap a, b;
	struct interval m;

	canned_pair(0, &a, &b);
	/* 9e9 pending cycles over 60e6 L1_MISS_ANY: 150, not 200 */
	snap_set(&a, SA(L1_MISS_ANY), 7000000000);
	snap_set(&b, SA(L1_MISS_ANY), 7000000000 + 60000000);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.load_miss_real_latency, 150) && near(m.l1_miss_latency, 300) &&
	   near(m.load_miss_real_latency_ns, 75),
	   "metrics: Sapphire Rapids: load miss real latency over l1-miss-any (got %.9f)",
	   m.load_miss_real_latency);

	/* l1-miss-any without lfb-hit, as SPR may send it */
	b.have &= ~(1u << SA(LFB_HIT));
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.load_miss_real_latency, 150),
	   "metrics: Sapphire Rapids: no lfb-hit needed");

	/* neither: no load miss real latency, L1 miss latency still there */
	b.have &= ~(1u << SA(L1_MISS_ANY));
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(isnan(m.load_miss_real_latency) && near(m.l1_miss_latency, 300) &&
	   m.saturated == -1,
	   "metrics: without lfb-hit and l1-miss-any: load miss real latency null");
}

TEST_F(metrics, metrics_epochs)
{
	struct snap a, b;
	struct interval m;

	canned_pair(0, &a, &b);
	snap_set(&b, SA(IMC_EPOCH), 2);
	snap_set(&b, SA(DRAM_READ_BYTES), 64);	/* restarted: far below */
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(!m.valid && m.brk[GROUP_IMC].why == BREAK_EPOCH &&
	   m.brk[GROUP_IMC].from == 1 && m.brk[GROUP_IMC].to == 2 &&
	   m.brk[GROUP_CORE].why == BREAK_NONE,
	   "metrics: imc-epoch 1 -> 2 invalidates the IMC group only");
	ok(!m.have_read_bytes && !m.have_write_bytes && isnan(m.read_gbps) &&
	   isnan(m.write_gbps) && isnan(m.total_gbps),
	   "metrics: no DRAM rate from a restarted IMC, never a negative one");
	ok(near(m.load_miss_real_latency, 200) && near(m.offcore_read_gbps, 19.2),
	   "metrics: the core metrics of that interval stand");

	canned_pair(0, &a, &b);
	snap_set(&b, SA(CORE_EPOCH), 5);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(!m.valid && m.brk[GROUP_CORE].why == BREAK_EPOCH &&
	   m.brk[GROUP_IMC].why == BREAK_NONE && near(m.read_gbps, 25.6) &&
	   isnan(m.offcore_read_gbps) && !m.have_offcore_bytes &&
	   isnan(m.l1_miss_latency) && isnan(m.load_miss_real_latency) &&
	   isnan(m.core_ghz) && isnan(m.load_miss_real_latency_ns) &&
	   m.saturated == -1,
	   "metrics: core-epoch change: offcore and latencies null, DRAM stands");

	/* the module extends counters to 64 bits: a wrap of those still works */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + SEC);
	snap_imc(&a, 1, UINT64_MAX - 99, UINT64_MAX);
	snap_imc(&b, 1, 100, 63);
	snap_core(&a, 1, (struct core_counts){ UINT64_MAX - 999, UINT64_MAX,
		UINT64_MAX - 1999, UINT64_MAX - 9, 0, UINT64_MAX });
	snap_core(&b, 1, (struct core_counts){ 1000, 999, 2000, 10, 0, 0 });
	snap_set(&a, SA(INSTRUCTIONS), UINT64_MAX - 4);
	snap_set(&b, SA(INSTRUCTIONS), 5);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && m.read_bytes == 200 && m.write_bytes == 64 &&
	   near(m.read_gbps, 200e-9) && near(m.l1_miss_latency, 4000.0 / 20) &&
	   near(m.core_ghz, 2.5 * 2000 / 1000) && m.offcore_bytes == 64,
	   "metrics: counters wrapping past 2^64 give the right deltas");

	/* a counter that goes back without an epoch change is not trusted */
	canned_pair(0, &a, &b);
	snap_set(&b, SA(DRAM_WRITE_BYTES), 1000);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(!m.valid && m.brk[GROUP_IMC].why == BREAK_BACKWARDS &&
	   m.brk[GROUP_IMC].attr == SA(DRAM_WRITE_BYTES) &&
	   isnan(m.read_gbps) && isnan(m.write_gbps),
	   "metrics: a counter going backwards invalidates its group");
	canned_pair(0, &a, &b);
	snap_set(&b, SA(L1_MISS), 5);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(!m.valid && m.brk[GROUP_CORE].why == BREAK_BACKWARDS &&
	   m.brk[GROUP_CORE].attr == SA(L1_MISS) && near(m.read_gbps, 25.6),
	   "metrics: a core counter going backwards invalidates the core group");
}

/* Long: one scenario, its checks in the order the behaviour unfolds. */
TEST_F(metrics, aggregation)
{
	struct aggregator g;
	struct interval m;
	struct snap s;
	int rc, i, rows = 0;

	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	ok(agg_feed(&g, &s, &m) == 0, "aggregate: the first snapshot is the baseline");
	for (i = 1; i <= 3; i++) {
		s = steady(T0 + (uint64_t)i * 250000000, 1, 0);
		rows += agg_feed(&g, &s, &m) == 1;
	}
	ok(rows == 0, "aggregate: 250, 500, 750 ms into a 1 s interval: absorbed");
	s = steady(T0 + SEC, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == SEC && near(m.read_gbps, 1.0) &&
	   m.valid && m.t_ns == T0 + SEC,
	   "aggregate: four 250 ms notifications make one 1 s interval at 1 GB/s");
	ok(agg_feed(&g, &s, &m) == -1,
	   "aggregate: a snapshot no newer than the last is ignored");

	/* the module's own period: 999.9 ms (timer jitter) still ends it */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + SEC - 100000, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == SEC - 100000,
	   "aggregate: a notification 0.1 ms early ends the interval");
	s = steady(T0 + 2 * SEC + 100000, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == SEC + 200000,
	   "aggregate: and the next one, 0.1 ms late, ends the next");

	/* 300 ms notifications, 1 s wanted: 900 ms is nearer than 1200 */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	agg_feed(&g, &s, &m);
	for (i = 1, rc = 0; i <= 3 && rc != 1; i++) {
		s = steady(T0 + (uint64_t)i * 300000000, 1, 0);
		rc = agg_feed(&g, &s, &m);
	}
	ok(rc == 1 && i == 4 && m.interval_ns == 900000000 &&
	   near(m.read_gbps, 1.0),
	   "aggregate: with 300 ms notifications the interval ends at the nearest, 900 ms");

	/* 600 ms notifications, 1 s wanted: 1200 ms is nearer than 600 */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + 600000000, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 0, "aggregate: 600 ms into 1 s with 600 ms steps: wait");
	s = steady(T0 + 1200000000, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == 1200000000,
	   "aggregate: ... and end at 1200 ms");

	/* an epoch change in the middle of an aggregated interval */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + 500000000, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + 750000000, 2, 0);	/* restarted at 750 ms */
	agg_feed(&g, &s, &m);
	s = steady(T0 + SEC, 2, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && !m.valid && m.brk[GROUP_IMC].why == BREAK_EPOCH &&
	   m.brk[GROUP_IMC].from == 1 && m.brk[GROUP_IMC].to == 2 &&
	   isnan(m.read_gbps) && near(m.l1_miss_latency, 100),
	   "aggregate: an epoch change inside the interval invalidates it");
	s = steady(T0 + 2 * SEC, 2, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.valid && near(m.read_gbps, 1.0),
	   "aggregate: the next interval counts from the new baseline");

	/*
	 * A counter that went backwards at an intermediate snapshot and
	 * forward again by the end: base -> end alone would look fine.
	 */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 1000000000);
	agg_feed(&g, &s, &m);
	s = steady(T0 + 500000000, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + SEC, 1, 1000000000);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && !m.valid && m.brk[GROUP_IMC].why == BREAK_BACKWARDS,
	   "aggregate: a step backwards inside the interval invalidates it");

	/* without timestamps, every snapshot ends an interval */
	agg_init(&g, SEC, TSC_KHZ, 300);
	memset(&s, 0, sizeof(s));
	snap_set(&s, SA(SOCKET), 0);
	snap_imc(&s, 1, 0, 0);
	agg_feed(&g, &s, &m);
	snap_imc(&s, 1, 64, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == 0 && m.read_bytes == 64 &&
	   isnan(m.read_gbps),
	   "aggregate: snapshots without time-ns: one interval each, no rates");
}

/* AMD's L3-sampled DRAM latency: its own epoch, ns at the TSC rate */
TEST_F(metrics, metrics_l3)
{
	const unsigned int lat = MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_LATENCY_CYCLES;
	const unsigned int req = MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_REQUESTS;
	const unsigned int ep = MEMDIAG_A_SNAPSHOT_L3_EPOCH;
	struct snap a, b;
	struct interval m;

	canned_pair(0, &a, &b);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(isnan(m.l3_dram_latency_cycles) && isnan(m.l3_dram_latency_ns),
	   "metrics: no L3 counters (Intel): no L3 DRAM latency");
	snap_set(&a, ep, 1);
	snap_set(&b, ep, 1);
	snap_set(&a, lat, 1000);
	snap_set(&b, lat, 1000 + 3000000);
	snap_set(&a, req, 50);
	snap_set(&b, req, 50 + 10000);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.l3_dram_latency_cycles, 300.0) &&
	   near(m.l3_dram_latency_ns, 300.0 / (TSC_KHZ / 1e6)) && m.valid,
	   "metrics: L3 3e6 cycles / 1e4 requests = 300 cycles, ns at the TSC rate (got %.9f, %.9f)",
	   m.l3_dram_latency_cycles, m.l3_dram_latency_ns);
	metrics_compute(&a, &b, 0, 300, &m);
	ok(near(m.l3_dram_latency_cycles, 300.0) && isnan(m.l3_dram_latency_ns),
	   "metrics: L3 latency without tsc-khz: cycles, no ns");
	snap_set(&b, ep, 2);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(isnan(m.l3_dram_latency_cycles) && m.valid &&
	   near(m.read_gbps, 25.6),
	   "metrics: an l3-epoch change voids the L3 latency only");
	snap_set(&b, ep, 1);
	snap_set(&b, req, 49);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(isnan(m.l3_dram_latency_cycles),
	   "metrics: L3 requests going backwards: no L3 latency");
	snap_set(&b, req, 50);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(isnan(m.l3_dram_latency_cycles),
	   "metrics: no sampled request in the interval: no L3 latency, not 0");
}

/* A DF channel of @s: @bytes counted in @ns, reads and writes together. */
static void df_chan(struct snap *s, uint32_t id, uint64_t bytes, uint64_t ns)
{
	struct snap_chan *c = &s->chan[s->nr_chan++];

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->rdwr = true;
	c->rdwr_bytes = bytes;
	c->counted_ns = ns;
}

/*
 * AMD's DF: the socket's total from dram-rdwr-bytes (no read or write
 * split), each channel's rate over the time it was counted, a channel
 * not counted in the interval unmeasured and left out of the imbalance.
 */
TEST_F(metrics, metrics_df)
{
	const unsigned int rdwr = MEMDIAG_A_SNAPSHOT_DRAM_RDWR_BYTES;
	struct snap a, b;
	struct interval m;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	snap_set(&a, SA(SOCKET), 0);
	snap_set(&b, SA(SOCKET), 0);
	snap_set(&a, SA(TIME_NS), T0);
	snap_set(&b, SA(TIME_NS), T0 + SEC);
	snap_set(&a, SA(IMC_EPOCH), 1);
	snap_set(&b, SA(IMC_EPOCH), 1);
	snap_set(&a, rdwr, 1000);
	snap_set(&b, rdwr, 1000 + 36000000000);
	/* channel 0: 2 GB/s over half the second; 1: 6 GB/s; 2: not counted */
	df_chan(&a, 0, 500, 100);
	df_chan(&b, 0, 500 + 1000000000, 100 + SEC / 2);
	df_chan(&a, 1, 0, 0);
	df_chan(&b, 1, 3000000000, SEC / 2);
	df_chan(&a, 2, 7, 9);
	df_chan(&b, 2, 7, 9);
	/* NPS2: node 0 moved 20e9 bytes, node 1 unmeasured in b */
	a.df.n = b.df.n = 2;
	a.df.node[0] = (struct df_node){ 0, 0x0f, true, 5 };
	b.df.node[0] = (struct df_node){ 0, 0x0f, true, 5 + 20000000000 };
	a.df.node[1] = (struct df_node){ 1, 0xf0, true, 7 };
	b.df.node[1] = (struct df_node){ 1, 0xf0, false, 0 };
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.df.n == 2 && m.df.node[0].have_bytes &&
	   m.df.node[0].rdwr_bytes == 20000000000 && m.df.node[0].chans == 0x0f &&
	   !m.df.node[1].have_bytes,
	   "metrics: DF node 0 moved 20e9 bytes, node 1 unmeasured (got %d %llu %d)",
	   m.df.node[0].have_bytes, (unsigned long long)m.df.node[0].rdwr_bytes,
	   m.df.node[1].have_bytes);
	ok(m.valid && m.have_rdwr_bytes && m.rdwr_bytes == 36000000000 &&
	   near(m.total_gbps, 36.0) && isnan(m.read_gbps) &&
	   isnan(m.write_gbps) && !m.have_read_bytes,
	   "metrics: DF total 36 GB/s from dram-rdwr-bytes, reads and writes unknown (got %.9f)",
	   m.total_gbps);
	ok(m.nr_chan == 3 && m.nr_unmeasured == 1 &&
	   near(snap_chan_gbps(&m.chan[0], (double)SEC), 2.0) &&
	   near(snap_chan_gbps(&m.chan[1], (double)SEC), 6.0) &&
	   isnan(snap_chan_gbps(&m.chan[2], (double)SEC)),
	   "metrics: DF channels at bytes over counted time (2, 6 GB/s), one unmeasured");
	ok(m.busiest_channel == 1 && near(m.busiest_channel_gbps, 6.0) &&
	   near(m.channel_imbalance, 1.5),
	   "metrics: DF imbalance over the measured channels: 6 / mean(2, 6) = 1.5 (got %.9f)",
	   m.channel_imbalance);
	snap_set(&b, rdwr, 999);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(!m.valid && isnan(m.total_gbps) && !m.df.node[0].have_bytes,
	   "metrics: dram-rdwr-bytes going backwards voids the interval, nodes too");
}
