// SPDX-License-Identifier: GPL-2.0
/*
 * export_unit.c - the exporter's state and text format from canned
 * snapshots: totals across an epoch change and a reconnect, values that
 * must be absent rather than 0, label escaping, one HELP/TYPE per family
 * with its samples together (kselftest harness).
 *
 * The stages build on each other (connect, epoch change, reconnect, no
 * core counters, verdict, L3) while the harness runs each test in a fresh
 * child, so a test first feeds what the stages before it fed, then
 * checks its own.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "export.h"
#include "export_estimate.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x

/* EXPECT with the description the failure prints */
#define CHECK(cond, what) EXPECT_TRUE(cond) TH_LOG("%s", what)

/* fresh in each test's child */
static struct export_state st;

/* socket 0 at @t_s seconds: @rd bytes read, latency 200 cycles at 2 GHz */
static struct snap snap_at(uint32_t socket, double t_s, uint64_t rd,
			   uint32_t imc_epoch)
{
	struct snap s = { 0 };
	uint64_t cyc = (uint64_t)(t_s * 2e9);

	snap_set(&s, A(SOCKET), socket);
	snap_set(&s, A(TIME_NS), (uint64_t)(t_s * 1e9));
	snap_set(&s, A(IMC_EPOCH), imc_epoch);
	snap_set(&s, A(DRAM_READ_BYTES), rd);
	snap_set(&s, A(DRAM_WRITE_BYTES), rd / 2);
	snap_set(&s, A(CORE_EPOCH), 1);
	snap_set(&s, A(CYCLES), cyc);
	snap_set(&s, A(REF_CYCLES), cyc);	/* core = TSC = 2 GHz */
	snap_set(&s, A(L1D_PEND_MISS), (uint64_t)(t_s * 2e9));
	snap_set(&s, A(L1_MISS), (uint64_t)(t_s * 1e7));
	snap_set(&s, A(LFB_HIT), 0);
	snap_set(&s, A(PREFETCH_DISABLED), 0x2);
	snap_set(&s, A(PREFETCH_MIXED), 0);
	snap_set(&s, A(PREFETCH_CHANGED), 1);
	/* channel 0 carries a quarter, channel 3 the rest */
	s.nr_chan = 2;
	s.chan[0] = (struct snap_chan){ .id = 0, .read_bytes = rd / 4,
					.write_bytes = rd / 8 };
	s.chan[1] = (struct snap_chan){ .id = 3, .read_bytes = rd - rd / 4,
					.write_bytes = rd / 2 - rd / 8 };
	return s;
}

static char *render(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || export_render(&st, f) < 0)
		abort();
	fclose(f);
	return buf;
}

/* The value of the sample line starting with @series, or NAN. */
static double value(const char *text, const char *series)
{
	const char *p = text;
	size_t l = strlen(series);

	while ((p = strstr(p, series))) {
		if ((p == text || p[-1] == '\n') && p[l] == ' ')
			return strtod(p + l + 1, NULL);
		p += l;
	}
	return NAN;
}

/* Each family's HELP and TYPE once, its samples right after them. */
static int well_grouped(const char *text)
{
	char seen[64][80], cur[80] = "";
	int nseen = 0, i;
	const char *line;

	for (line = text; *line; line = strchr(line, '\n') + 1) {
		char name[80];

		if (sscanf(line, "# TYPE %79s", name) == 1) {
			for (i = 0; i < nseen; i++)
				if (!strcmp(seen[i], name))
					return 0;	/* a second TYPE */
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", name);
			snprintf(cur, sizeof(cur), "%s", name);
		} else if (line[0] != '#') {
			size_t l = strcspn(line, "{ ");

			if (l != strlen(cur) || strncmp(line, cur, l))
				return 0;	/* a sample away from its family */
		}
		if (!strchr(line, '\n'))
			break;
	}
	return 1;
}

/* The state main() started with before any connection */
static void start(void)
{
	export_init(&st, 1000000000ull, 300);
}

/* Connected: a Skylake-SP, 10 GB/s for 2 s from the first snapshot */
static void feed_connect(void)
{
	struct snap s;

	st.tsc_khz = 2000000;
	snprintf(st.uarch, sizeof(st.uarch), "Skylake-SP");
	snprintf(st.cpu_model, sizeof(st.cpu_model), "Xeon \"Gold\" 6148 \\ x");
	st.cap[MEMDIAG_CAPABILITY_IMC_BANDWIDTH].listed = true;
	st.cap[MEMDIAG_CAPABILITY_IMC_BANDWIDTH].available = true;
	st.cap[MEMDIAG_CAPABILITY_CORE_LATENCY].listed = true;
	snprintf(st.cap[MEMDIAG_CAPABILITY_CORE_LATENCY].reason,
		 sizeof(st.cap[0].reason), "no PMU\nhere");
	st.nr_pf = 2;
	snprintf(st.pf_name[0], sizeof(st.pf_name[0]), "l2-stream");
	snprintf(st.pf_name[1], sizeof(st.pf_name[1]), "l2-adjacent");
	export_set_up(&st, true);

	s = snap_at(0, 1, 100e9, 1);
	export_feed(&st, &s);
	s = snap_at(0, 2, 110e9, 1);
	export_feed(&st, &s);
	s = snap_at(0, 3, 120e9, 1);
	export_feed(&st, &s);
}

/* The counters restart (epoch 1 -> 2): 5e9 since, then 10e9 more */
static void feed_epoch(void)
{
	struct snap s;

	s = snap_at(0, 4, 5e9, 2);
	export_feed(&st, &s);
	s = snap_at(0, 5, 15e9, 2);
	export_feed(&st, &s);
}

/* The module comes back with fresh counters: 10e9 more */
static void feed_reconnect(void)
{
	struct snap s;

	export_set_up(&st, true);
	s = snap_at(0, 10, 1e9, 1);
	export_feed(&st, &s);
	s = snap_at(0, 11, 11e9, 1);
	export_feed(&st, &s);
}

/* Two snapshots without the latency counters */
static void feed_no_core(void)
{
	struct snap s;

	s = snap_at(0, 12, 21e9, 1);
	s.have &= ~(1u << A(L1D_PEND_MISS));
	export_feed(&st, &s);
	s = snap_at(0, 13, 31e9, 1);
	s.have &= ~(1u << A(L1D_PEND_MISS));
	export_feed(&st, &s);
}

/*
 * A read-only curve (idle 90 ns; 20, 70, 100 GB/s at 95, 140, 250 ns):
 * 15 GB/s is 15 % of the peak, 93.75 ns expected.
 */
static struct curve_point verdict_pts[] = {
	{ .bandwidth_gbps = 20, .read_gbps = 20, .latency_ns = 95, .repeats = 1, .threads = 1 },
	{ .bandwidth_gbps = 70, .read_gbps = 70, .latency_ns = 140, .repeats = 1, .threads = 1 },
	{ .bandwidth_gbps = 100, .read_gbps = 100, .latency_ns = 250, .repeats = 1, .threads = 1 },
};
static struct curve_mix verdict_mix = {
	.read_fraction = 1, .prefetch = CURVE_PF_ON, .peak_index = 2,
	.points = verdict_pts, .nr_points = 3,
};
static struct curve_socket verdict_sock = {
	.socket = 0, .idle_latency_ns = 90, .mixes = &verdict_mix, .nr_mixes = 1,
};
static struct curve verdict_curve = { .sockets = &verdict_sock, .nr_sockets = 1 };

/* With the curve, 10 GB/s more with the prefetchers on */
static void feed_verdict_on(void)
{
	struct snap s;

	st.curve = &verdict_curve;
	s = snap_at(0, 14, 41e9, 1);
	s.v[A(PREFETCH_DISABLED)] = 0;
	export_feed(&st, &s);
	s = snap_at(0, 15, 51e9, 1);
	s.v[A(PREFETCH_DISABLED)] = 0;
	export_feed(&st, &s);
}

/* l2-adjacent off again */
static void feed_verdict_partly_off(void)
{
	struct snap s = snap_at(0, 16, 61e9, 1);

	export_feed(&st, &s);
}

/* Every stage before the L3 one, as the one sequence it was */
static void feed_up_to_l3(void)
{
	start();
	feed_connect();
	feed_epoch();
	export_set_up(&st, false);
	feed_reconnect();
	feed_no_core();
	feed_verdict_on();
	feed_verdict_partly_off();
	st.curve = NULL;
}

TEST(before_connect)
{
	char *t;

	start();
	t = render();
	CHECK(value(t, "memdiag_up") == 0, "before any connection memdiag_up is 0");
	CHECK(!strstr(t, "memdiag_dram_read_bytes_total"),
	      "and no counter is exported (absent, not 0)");
	free(t);
}

/* Connected: the totals, latency, labels and prefetchers */
TEST(connect)
{
	char *t;

	start();
	feed_connect();
	t = render();
	CHECK(value(t, "memdiag_up") == 1, "connected: memdiag_up 1");
	CHECK(value(t, "memdiag_dram_read_bytes_total{socket=\"0\"}") == 20e9,
	      "the read total counts the deltas since the first snapshot (20e9)");
	CHECK(value(t, "memdiag_dram_write_bytes_total{socket=\"0\"}") == 10e9,
	      "the write total too (10e9)");
	CHECK(fabs(value(t, "memdiag_load_miss_real_latency_seconds{socket=\"0\"}") - 100e-9) < 1e-12,
	      "200 cycles at 2 GHz are 100e-9 s");
	CHECK(value(t, "memdiag_saturated{socket=\"0\"}") == 0,
	      "below the threshold: not saturated");
	CHECK(strstr(t, "memdiag_info{cpu_model=\"Xeon \\\"Gold\\\" 6148 \\\\ x\",uarch=\"Skylake-SP\"") != NULL,
	      "memdiag_info escapes quotes and backslashes");
	CHECK(strstr(t, "memdiag_capability_available{capability=\"core-latency\",reason=\"no PMU\\nhere\"} 0") != NULL,
	      "an unavailable capability: 0 with its reason, newline escaped");
	CHECK(value(t, "memdiag_prefetcher_disabled{socket=\"0\",prefetcher=\"l2-adjacent\"}") == 1 &&
	      value(t, "memdiag_prefetcher_disabled{socket=\"0\",prefetcher=\"l2-stream\"}") == 0,
	      "prefetchers by name, 1 for the one off");
	CHECK(well_grouped(t), "one HELP/TYPE per family, samples together");
	CHECK(value(t, "memdiag_dram_channel_read_bytes_total{socket=\"0\",channel=\"0\"}") == 5e9 &&
	      value(t, "memdiag_dram_channel_read_bytes_total{socket=\"0\",channel=\"3\"}") == 15e9 &&
	      value(t, "memdiag_dram_channel_write_bytes_total{socket=\"0\",channel=\"0\"}") == 2.5e9 &&
	      value(t, "memdiag_dram_channel_write_bytes_total{socket=\"0\",channel=\"3\"}") == 7.5e9,
	      "per channel: the deltas of each, adding up to the socket's totals");
	CHECK(!strstr(t, "memdiag_dram_read_bytes_total{socket=\"0\",channel"),
	      "the socket series has no channel label (sum() counts each byte once)");
	free(t);
}

/* The counters restart (epoch 1 -> 2): the totals go on */
TEST(epoch_change)
{
	char *t;

	start();
	feed_connect();
	feed_epoch();
	t = render();
	CHECK(value(t, "memdiag_dram_read_bytes_total{socket=\"0\"}") == 30e9,
	      "across an epoch change the total neither drops nor jumps (30e9)");
	CHECK(value(t, "memdiag_intervals_skipped_total{socket=\"0\",group=\"imc\"}") == 1,
	      "the broken interval is counted as skipped");
	CHECK(value(t, "memdiag_dram_channel_read_bytes_total{socket=\"0\",channel=\"0\"}") == 7.5e9 &&
	      value(t, "memdiag_dram_channel_read_bytes_total{socket=\"0\",channel=\"3\"}") == 22.5e9,
	      "per channel across the epoch change: the broken interval left out too");
	free(t);
}

/* The module goes away and comes back with fresh counters */
TEST(reconnect)
{
	char *t;

	start();
	feed_connect();
	feed_epoch();
	export_set_up(&st, false);
	t = render();
	CHECK(value(t, "memdiag_up") == 0 && !strstr(t, "memdiag_dram_read"),
	      "module gone: memdiag_up 0, counters absent");
	free(t);
	feed_reconnect();
	t = render();
	CHECK(value(t, "memdiag_dram_read_bytes_total{socket=\"0\"}") == 40e9,
	      "after a reconnect the total goes on (40e9), no reset");
	CHECK(value(t, "memdiag_exporter_reconnects_total") == 1,
	      "the reconnect is counted");
	free(t);
}

/* A snapshot without core counters: latency absent, not 0 */
TEST(no_core)
{
	char *t;

	start();
	feed_connect();
	feed_epoch();
	export_set_up(&st, false);
	feed_reconnect();
	feed_no_core();
	t = render();
	CHECK(isnan(value(t, "memdiag_load_miss_real_latency_seconds{socket=\"0\"}")) &&
	      isnan(value(t, "memdiag_saturated{socket=\"0\"}")),
	      "without the latency counters the latency and saturation are absent");
	free(t);
}

/* The verdict, on verdict_curve */
TEST(verdict)
{
	char *t;

	start();
	feed_connect();
	feed_epoch();
	export_set_up(&st, false);
	feed_reconnect();
	feed_no_core();
	t = render();
	CHECK(!strstr(t, "memdiag_verdict_available{socket=\"0\",reason=\"\"} 1") &&
	      strstr(t, "memdiag_verdict_available{socket=\"0\",reason=\"no curve") == NULL,
	      "without a curve: no verdict");
	free(t);
	feed_verdict_on();
	t = render();
	CHECK(value(t, "memdiag_verdict_available{socket=\"0\",reason=\"\"}") == 1 &&
	      value(t, "memdiag_verdict{socket=\"0\",verdict=\"ok\"}") == 1 &&
	      value(t, "memdiag_verdict{socket=\"0\",verdict=\"saturated\"}") == 0,
	      "with a curve and the prefetchers on: verdict ok");
	CHECK(fabs(value(t, "memdiag_dram_utilization_ratio{socket=\"0\"}") - 0.15) < 1e-9,
	      "utilization 15 GB/s of 100: 0.15");
	CHECK(fabs(value(t, "memdiag_dram_headroom_bytes_per_second{socket=\"0\"}") - 85e9) < 1,
	      "headroom 85e9 bytes/s");
	CHECK(fabs(value(t, "memdiag_expected_latency_seconds{socket=\"0\"}") - 93.75e-9) < 1e-15,
	      "expected latency 93.75e-9 s");
	CHECK(well_grouped(t), "still one HELP/TYPE per family");
	free(t);
	feed_verdict_partly_off();
	t = render();
	CHECK(strstr(t, "memdiag_verdict_available{socket=\"0\",reason=\"the prefetchers are partly off") &&
	      isnan(value(t, "memdiag_dram_utilization_ratio{socket=\"0\"}")),
	      "prefetchers partly off: no verdict, the reason given");
	free(t);
}

/* AMD's L3-sampled DRAM latency: gauges only where the module sends it */
TEST(l3)
{
	struct snap s;
	char *t;

	feed_up_to_l3();
	t = render();
	CHECK(!strstr(t, "memdiag_l3_dram_latency"),
	      "no L3 counters (Intel): no L3 latency gauge, not 0");
	free(t);
	s = snap_at(0, 20, 200e9, 1);
	snap_set(&s, A(L3_SAMPLED_DRAM_LATENCY_CYCLES), 1000);
	snap_set(&s, A(L3_SAMPLED_DRAM_REQUESTS), 10);
	export_feed(&st, &s);
	s = snap_at(0, 21, 210e9, 1);
	snap_set(&s, A(L3_SAMPLED_DRAM_LATENCY_CYCLES), 1000 + 2400000);
	snap_set(&s, A(L3_SAMPLED_DRAM_REQUESTS), 10 + 6000);
	export_feed(&st, &s);
	t = render();
	CHECK(fabs(value(t, "memdiag_l3_dram_latency_cycles{socket=\"0\"}") - 400) < 1e-9,
	      "L3: 2.4e6 cycles over 6000 sampled requests: 400 cycles");
	CHECK(fabs(value(t, "memdiag_l3_dram_latency_seconds{socket=\"0\"}") - 200e-9) < 1e-15,
	      "L3: 400 cycles at the 2 GHz TSC: 200e-9 s");
	CHECK(well_grouped(t), "L3: one HELP/TYPE per family, samples together");
	free(t);
}

/*
 * AMD Zen 2/3: socket 0's Data Fabric total, 10 GB/s of reads and writes
 * together, 8 channels counted half the time; then a fixed channel set.
 */
static struct snap snap_df(double t_s, uint64_t rdwr, bool total)
{
	struct snap s = { 0 };
	uint32_t i;

	snap_set(&s, A(SOCKET), 0);
	snap_set(&s, A(TIME_NS), (uint64_t)(t_s * 1e9));
	snap_set(&s, A(IMC_EPOCH), 1);
	if (total)
		snap_set(&s, A(DRAM_RDWR_BYTES), rdwr);
	snap_set(&s, A(PREFETCH_DISABLED), 0);	/* on: verdict_curve's */
	snap_set(&s, A(PREFETCH_MIXED), 0);
	s.nr_chan = 8;
	for (i = 0; i < 8; i++)
		s.chan[i] = (struct snap_chan){ .id = i, .rdwr = true,
			.rdwr_bytes = rdwr / 16, .counted_ns = (uint64_t)(t_s * 5e8) };
	return s;
}

TEST(df)
{
	struct snap s;
	char *t;

	start();
	export_set_up(&st, true);
	st.curve = &verdict_curve;
	s = snap_df(1, 10e9, true);
	export_feed(&st, &s);
	s = snap_df(2, 20e9, true);
	export_feed(&st, &s);
	t = render();
	CHECK(value(t, "memdiag_dram_rdwr_bytes_total{socket=\"0\"}") == 10e9,
	      "DF: the socket total, 10e9 bytes");
	CHECK(value(t, "memdiag_dram_channel_counted_seconds_total{socket=\"0\",channel=\"7\"}") == 0.5,
	      "DF: each channel's counted seconds (0.5 of 1 s)");
	CHECK(!strstr(t, "memdiag_dram_read_bytes_total"),
	      "DF: no read total, not 0");
	CHECK(fabs(value(t, "memdiag_dram_utilization_ratio{socket=\"0\"}") - 0.1) < 1e-9 &&
	      value(t, "memdiag_verdict_read_fraction_assumed{socket=\"0\"}") == 1,
	      "DF: 10 GB/s on the lowest peak (100): utilization 0.1, read fraction assumed");
	CHECK(well_grouped(t), "DF: one HELP/TYPE per family");
	free(t);
	s = snap_df(3, 25e9, false);
	export_feed(&st, &s);
	s = snap_df(4, 30e9, false);
	export_feed(&st, &s);
	t = render();
	CHECK(strstr(t, "memdiag_verdict_available{socket=\"0\",reason=\"unknown: a fixed Data Fabric channel set") &&
	      isnan(value(t, "memdiag_dram_utilization_ratio{socket=\"0\"}")) &&
	      isnan(value(t, "memdiag_verdict_read_fraction_assumed{socket=\"0\"}")),
	      "DF, a fixed channel set: no verdict, and why");
	free(t);
}

/* AMD Zen 2/3 per NUMA node: totals of the measured intervals only */
TEST(df_nodes)
{
	struct snap s;
	char *t;
	int i;

	feed_up_to_l3();
	/* node 2 (channels 0-3) 1e9 a second; node 3 unmeasured at 32 */
	for (i = 0; i < 3; i++) {
		s = snap_at(0, 30 + i, 300e9 + i * 10e9, 1);
		s.df.n = 2;
		s.df.node[0] = (struct df_node){ 2, 0x0f, true, 7 + i * 1000000000ull };
		s.df.node[1] = (struct df_node){ 3, 0xf0, i < 2, 5 + i * 3000000000ull };
		export_feed(&st, &s);
	}
	t = render();
	CHECK(value(t, "memdiag_dram_node_rdwr_bytes_total{socket=\"0\",node=\"2\"}") == 2e9,
	      "node 2: 1e9 in each of the two intervals");
	CHECK(value(t, "memdiag_dram_node_rdwr_bytes_total{socket=\"0\",node=\"3\"}") == 3e9,
	      "node 3: 3e9 in the first interval, the unmeasured second adds nothing");
	CHECK(well_grouped(t), "nodes: one HELP/TYPE per family, samples together");
	free(t);
}

/* No --threshold (the default): no fixed-threshold series at all. */
TEST(no_threshold)
{
	struct snap s;
	char *t;

	export_init(&st, 1000000000ull, 0);
	export_set_up(&st, true);
	s = snap_at(0, 1, 100e9, 1);
	export_feed(&st, &s);
	s = snap_at(0, 2, 110e9, 1);
	export_feed(&st, &s);
	t = render();
	CHECK(value(t, "memdiag_load_miss_real_latency_cycles{socket=\"0\"}") > 0,
	      "no threshold: the latency is still served");
	CHECK(!strstr(t, "memdiag_saturated") &&
	      !strstr(t, "memdiag_saturation_threshold_cycles"),
	      "no threshold: neither memdiag_saturated nor the threshold is served");
	free(t);
}

/* @e rendered at @now: the text, the caller's to free */
static char *render_estimate(const struct export_estimate *e, double now)
{
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);

	if (!f || export_estimate_render(e, now, f) < 0)
		abort();
	fclose(f);
	return t;
}

/* export --probe: the estimates, named as such, and the curve's age. */
TEST(estimate)
{
	static struct export_estimate e;
	char *t;

	e.socket = 1;
	CHECK(export_estimate_curve_time(&e, "2026-11-23T23:40:00Z") == 0 &&
	      e.curve_created_unix == 1795477200.0,
	      "estimate: the curve's created time parsed as UTC");
	CHECK(export_estimate_curve_time(&e, "2026-11-23 23:40") < 0 &&
	      !e.have_curve_time, "estimate: a created time not in UTC is refused");
	export_estimate_curve_time(&e, "2026-11-23T23:40:00Z");
	e.have = true;
	e.latency_ns = 200;
	e.noise_ns = 5;
	e.samples = 7;
	e.cpu_sec = 0.25;
	e.est.valid = true;
	e.est.bandwidth_gbps = 32.5;
	e.est.utilization = 0.8125;
	e.est.label = VERDICT_BANDWIDTH_BOUND;
	e.est.label_known = true;
	t = render_estimate(&e, 1795477200.0 + 3600);
	CHECK(value(t, "memdiag_probe_mode") == 1 && isnan(value(t, "memdiag_up")),
	      "estimate: memdiag_probe_mode 1, no memdiag_up");
	CHECK(fabs(value(t, "memdiag_probe_latency_seconds{socket=\"1\"}") - 200e-9) < 1e-15,
	      "estimate: the measured latency in seconds");
	CHECK(value(t, "memdiag_estimated_dram_bandwidth_bytes_per_second{socket=\"1\"}") == 32.5e9 &&
	      value(t, "memdiag_estimated_dram_utilization_ratio{socket=\"1\"}") == 0.8125,
	      "estimate: bandwidth and utilization as memdiag_estimated_*");
	CHECK(value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"bandwidth-bound\"}") == 1 &&
	      value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"unknown\"}") == 0 &&
	      value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"idle\"}") == 0,
	      "estimate: the label's series 1, the others 0");
	CHECK(value(t, "memdiag_estimate_curve_age_seconds{socket=\"1\"}") == 3600,
	      "estimate: the curve's age at render time");
	CHECK(value(t, "memdiag_probe_samples_total") == 7 &&
	      value(t, "memdiag_probe_cpu_seconds_total") == 0.25,
	      "estimate: samples and the probe's CPU time (its cost)");
	CHECK(well_grouped(t), "estimate: one HELP/TYPE per family");
	free(t);

	e.est.label_known = false;
	t = render_estimate(&e, 0);
	CHECK(value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"unknown\"}") == 1 &&
	      value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"bandwidth-bound\"}") == 0,
	      "estimate: a label that cannot be trusted is 'unknown'");
	free(t);

	e.est.valid = false;
	snprintf(e.est.reason, sizeof(e.est.reason), "no curve: run memdiagctl calibrate");
	t = render_estimate(&e, 0);
	CHECK(strstr(t, "memdiag_estimate_available{socket=\"1\",reason=\"no curve: run memdiagctl calibrate\"} 0") &&
	      !strstr(t, "memdiag_estimated_") &&
	      !isnan(value(t, "memdiag_probe_latency_seconds{socket=\"1\"}")),
	      "estimate: without a curve the reason and the latency, no estimate");
	free(t);
}

TEST_HARNESS_MAIN
