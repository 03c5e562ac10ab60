// SPDX-License-Identifier: GPL-2.0
/*
 * export_unit.c - the exporter's state and text format from canned
 * snapshots: totals across an epoch change and a reconnect, values that
 * must be absent rather than 0, label escaping, one HELP/TYPE per family
 * with its samples together. TAP.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "export_estimate.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x

static int n, failed;

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failed += !cond;
}

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
	s.chan[0] = (struct snap_chan){ 0, rd / 4, rd / 8 };
	s.chan[1] = (struct snap_chan){ 3, rd - rd / 4, rd / 2 - rd / 8 };
	return s;
}

static char *render(const struct export_state *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || export_render(st, f) < 0)
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

/* Connected: the totals, latency, labels and prefetchers */
static void test_connect(struct export_state *st)
{
	struct snap s;
	char *t;

	st->tsc_khz = 2000000;
	snprintf(st->uarch, sizeof(st->uarch), "Skylake-SP");
	snprintf(st->cpu_model, sizeof(st->cpu_model), "Xeon \"Gold\" 6148 \\ x");
	st->cap[MEMDIAG_CAPABILITY_IMC_BANDWIDTH].listed = true;
	st->cap[MEMDIAG_CAPABILITY_IMC_BANDWIDTH].available = true;
	st->cap[MEMDIAG_CAPABILITY_CORE_LATENCY].listed = true;
	snprintf(st->cap[MEMDIAG_CAPABILITY_CORE_LATENCY].reason,
		 sizeof(st->cap[0].reason), "no PMU\nhere");
	st->nr_pf = 2;
	snprintf(st->pf_name[0], sizeof(st->pf_name[0]), "l2-stream");
	snprintf(st->pf_name[1], sizeof(st->pf_name[1]), "l2-adjacent");
	export_set_up(st, true);

	/* 10 GB/s for 3 s, then the counters restart (epoch 1 -> 2) */
	s = snap_at(0, 1, 100e9, 1);
	export_feed(st, &s);
	s = snap_at(0, 2, 110e9, 1);
	export_feed(st, &s);
	s = snap_at(0, 3, 120e9, 1);
	export_feed(st, &s);
	t = render(st);
	ok(value(t, "memdiag_up") == 1, "connected: memdiag_up 1");
	ok(value(t, "memdiag_dram_read_bytes_total{socket=\"0\"}") == 20e9,
	   "the read total counts the deltas since the first snapshot (20e9)");
	ok(value(t, "memdiag_dram_write_bytes_total{socket=\"0\"}") == 10e9,
	   "the write total too (10e9)");
	ok(fabs(value(t, "memdiag_load_miss_real_latency_seconds{socket=\"0\"}") - 100e-9) < 1e-12,
	   "200 cycles at 2 GHz are 100e-9 s");
	ok(value(t, "memdiag_saturated{socket=\"0\"}") == 0,
	   "below the threshold: not saturated");
	ok(strstr(t, "memdiag_info{cpu_model=\"Xeon \\\"Gold\\\" 6148 \\\\ x\",uarch=\"Skylake-SP\"") != NULL,
	   "memdiag_info escapes quotes and backslashes");
	ok(strstr(t, "memdiag_capability_available{capability=\"core-latency\",reason=\"no PMU\\nhere\"} 0") != NULL,
	   "an unavailable capability: 0 with its reason, newline escaped");
	ok(value(t, "memdiag_prefetcher_disabled{socket=\"0\",prefetcher=\"l2-adjacent\"}") == 1 &&
	   value(t, "memdiag_prefetcher_disabled{socket=\"0\",prefetcher=\"l2-stream\"}") == 0,
	   "prefetchers by name, 1 for the one off");
	ok(well_grouped(t), "one HELP/TYPE per family, samples together");
	ok(value(t, "memdiag_dram_channel_read_bytes_total{socket=\"0\",channel=\"0\"}") == 5e9 &&
	   value(t, "memdiag_dram_channel_read_bytes_total{socket=\"0\",channel=\"3\"}") == 15e9 &&
	   value(t, "memdiag_dram_channel_write_bytes_total{socket=\"0\",channel=\"0\"}") == 2.5e9 &&
	   value(t, "memdiag_dram_channel_write_bytes_total{socket=\"0\",channel=\"3\"}") == 7.5e9,
	   "per channel: the deltas of each, adding up to the socket's totals");
	ok(!strstr(t, "memdiag_dram_read_bytes_total{socket=\"0\",channel"),
	   "the socket series has no channel label (sum() counts each byte once)");
	free(t);
}

/* The counters restart (epoch 1 -> 2): the totals go on */
static void test_epoch(struct export_state *st)
{
	struct snap s;
	char *t;

	s = snap_at(0, 4, 5e9, 2);	/* restarted: 5e9 since */
	export_feed(st, &s);
	s = snap_at(0, 5, 15e9, 2);
	export_feed(st, &s);
	t = render(st);
	ok(value(t, "memdiag_dram_read_bytes_total{socket=\"0\"}") == 30e9,
	   "across an epoch change the total neither drops nor jumps (30e9)");
	ok(value(t, "memdiag_intervals_skipped_total{socket=\"0\",group=\"imc\"}") == 1,
	   "the broken interval is counted as skipped");
	ok(value(t, "memdiag_dram_channel_read_bytes_total{socket=\"0\",channel=\"0\"}") == 7.5e9 &&
	   value(t, "memdiag_dram_channel_read_bytes_total{socket=\"0\",channel=\"3\"}") == 22.5e9,
	   "per channel across the epoch change: the broken interval left out too");
	free(t);
}

/* The module goes away and comes back with fresh counters */
static void test_reconnect(struct export_state *st)
{
	struct snap s;
	char *t;

	export_set_up(st, false);
	t = render(st);
	ok(value(t, "memdiag_up") == 0 && !strstr(t, "memdiag_dram_read"),
	   "module gone: memdiag_up 0, counters absent");
	free(t);
	export_set_up(st, true);
	s = snap_at(0, 10, 1e9, 1);
	export_feed(st, &s);
	s = snap_at(0, 11, 11e9, 1);
	export_feed(st, &s);
	t = render(st);
	ok(value(t, "memdiag_dram_read_bytes_total{socket=\"0\"}") == 40e9,
	   "after a reconnect the total goes on (40e9), no reset");
	ok(value(t, "memdiag_exporter_reconnects_total") == 1,
	   "the reconnect is counted");
	free(t);
}

/* A snapshot without core counters: latency absent, not 0 */
static void test_no_core(struct export_state *st)
{
	struct snap s;
	char *t;

	s = snap_at(0, 12, 21e9, 1);
	s.have &= ~(1u << A(L1D_PEND_MISS));
	export_feed(st, &s);
	s = snap_at(0, 13, 31e9, 1);
	s.have &= ~(1u << A(L1D_PEND_MISS));
	export_feed(st, &s);
	t = render(st);
	ok(isnan(value(t, "memdiag_load_miss_real_latency_seconds{socket=\"0\"}")) &&
	   isnan(value(t, "memdiag_saturated{socket=\"0\"}")),
	   "without the latency counters the latency and saturation are absent");
	free(t);
}

/*
 * The verdict, on a read-only curve (idle 90 ns; 20, 70, 100 GB/s at 95,
 * 140, 250 ns): 15 GB/s is 15 % of the peak, 93.75 ns expected.
 */
static void test_verdict(struct export_state *st)
{
	struct curve_point pts[] = {
		{ .bandwidth_gbps = 20, .read_gbps = 20, .latency_ns = 95, .repeats = 1, .threads = 1 },
		{ .bandwidth_gbps = 70, .read_gbps = 70, .latency_ns = 140, .repeats = 1, .threads = 1 },
		{ .bandwidth_gbps = 100, .read_gbps = 100, .latency_ns = 250, .repeats = 1, .threads = 1 },
	};
	struct curve_mix mix = { .read_fraction = 1, .prefetch = CURVE_PF_ON,
				 .peak_index = 2, .points = pts, .nr_points = 3 };
	struct curve_socket cs = { .socket = 0, .idle_latency_ns = 90,
				   .mixes = &mix, .nr_mixes = 1 };
	struct curve c = { .sockets = &cs, .nr_sockets = 1 };
	struct snap s;
	char *t;

	t = render(st);
	ok(!strstr(t, "memdiag_verdict_available{socket=\"0\",reason=\"\"} 1") &&
	   strstr(t, "memdiag_verdict_available{socket=\"0\",reason=\"no curve") == NULL,
	   "without a curve: no verdict");
	free(t);
	st->curve = &c;
	s = snap_at(0, 14, 41e9, 1);
	s.v[A(PREFETCH_DISABLED)] = 0;
	export_feed(st, &s);
	s = snap_at(0, 15, 51e9, 1);
	s.v[A(PREFETCH_DISABLED)] = 0;
	export_feed(st, &s);
	t = render(st);
	ok(value(t, "memdiag_verdict_available{socket=\"0\",reason=\"\"}") == 1 &&
	   value(t, "memdiag_verdict{socket=\"0\",verdict=\"ok\"}") == 1 &&
	   value(t, "memdiag_verdict{socket=\"0\",verdict=\"saturated\"}") == 0,
	   "with a curve and the prefetchers on: verdict ok");
	ok(fabs(value(t, "memdiag_dram_utilization_ratio{socket=\"0\"}") - 0.15) < 1e-9,
	   "utilization 15 GB/s of 100: 0.15");
	ok(fabs(value(t, "memdiag_dram_headroom_bytes_per_second{socket=\"0\"}") - 85e9) < 1,
	   "headroom 85e9 bytes/s");
	ok(fabs(value(t, "memdiag_expected_latency_seconds{socket=\"0\"}") - 93.75e-9) < 1e-15,
	   "expected latency 93.75e-9 s");
	ok(well_grouped(t), "still one HELP/TYPE per family");
	free(t);
	s = snap_at(0, 16, 61e9, 1);	/* l2-adjacent off again */
	export_feed(st, &s);
	t = render(st);
	ok(strstr(t, "memdiag_verdict_available{socket=\"0\",reason=\"the prefetchers are partly off") &&
	   isnan(value(t, "memdiag_dram_utilization_ratio{socket=\"0\"}")),
	   "prefetchers partly off: no verdict, the reason given");
	free(t);
	st->curve = NULL;	/* @c ends here */
}

/* AMD's L3-sampled DRAM latency: gauges only where the module sends it */
static void test_l3(struct export_state *st)
{
	struct snap s;
	char *t;

	t = render(st);
	ok(!strstr(t, "memdiag_l3_dram_latency"),
	   "no L3 counters (Intel): no L3 latency gauge, not 0");
	free(t);
	s = snap_at(0, 20, 200e9, 1);
	snap_set(&s, A(L3_SAMPLED_DRAM_LATENCY_CYCLES), 1000);
	snap_set(&s, A(L3_SAMPLED_DRAM_REQUESTS), 10);
	export_feed(st, &s);
	s = snap_at(0, 21, 210e9, 1);
	snap_set(&s, A(L3_SAMPLED_DRAM_LATENCY_CYCLES), 1000 + 2400000);
	snap_set(&s, A(L3_SAMPLED_DRAM_REQUESTS), 10 + 6000);
	export_feed(st, &s);
	t = render(st);
	ok(fabs(value(t, "memdiag_l3_dram_latency_cycles{socket=\"0\"}") - 400) < 1e-9,
	   "L3: 2.4e6 cycles over 6000 sampled requests: 400 cycles");
	ok(fabs(value(t, "memdiag_l3_dram_latency_seconds{socket=\"0\"}") - 200e-9) < 1e-15,
	   "L3: 400 cycles at the 2 GHz TSC: 200e-9 s");
	ok(well_grouped(t), "L3: one HELP/TYPE per family, samples together");
	free(t);
}

/* No --threshold (the default): no fixed-threshold series at all. */
static void test_no_threshold(void)
{
	static struct export_state st;
	struct snap s;
	char *t;

	export_init(&st, 1000000000ull, 0);
	export_set_up(&st, true);
	s = snap_at(0, 1, 100e9, 1);
	export_feed(&st, &s);
	s = snap_at(0, 2, 110e9, 1);
	export_feed(&st, &s);
	t = render(&st);
	ok(value(t, "memdiag_load_miss_real_latency_cycles{socket=\"0\"}") > 0,
	   "no threshold: the latency is still served");
	ok(!strstr(t, "memdiag_saturated") &&
	   !strstr(t, "memdiag_saturation_threshold_cycles"),
	   "no threshold: neither memdiag_saturated nor the threshold is served");
	free(t);
}

/* export --probe: the estimates, named as such, and the curve's age. */
static void test_estimate(void)
{
	static struct export_estimate e;
	char *t = NULL;
	size_t len = 0;
	FILE *f;

	e.socket = 1;
	ok(export_estimate_curve_time(&e, "2026-11-23T23:40:00Z") == 0 &&
	   e.curve_created_unix == 1795477200.0,
	   "estimate: the curve's created time parsed as UTC");
	ok(export_estimate_curve_time(&e, "2026-11-23 23:40") < 0 &&
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
	f = open_memstream(&t, &len);
	export_estimate_render(&e, 1795477200.0 + 3600, f);
	fclose(f);
	ok(value(t, "memdiag_probe_mode") == 1 && isnan(value(t, "memdiag_up")),
	   "estimate: memdiag_probe_mode 1, no memdiag_up");
	ok(fabs(value(t, "memdiag_probe_latency_seconds{socket=\"1\"}") - 200e-9) < 1e-15,
	   "estimate: the measured latency in seconds");
	ok(value(t, "memdiag_estimated_dram_bandwidth_bytes_per_second{socket=\"1\"}") == 32.5e9 &&
	   value(t, "memdiag_estimated_dram_utilization_ratio{socket=\"1\"}") == 0.8125,
	   "estimate: bandwidth and utilization as memdiag_estimated_*");
	ok(value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"bandwidth-bound\"}") == 1 &&
	   value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"unknown\"}") == 0 &&
	   value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"idle\"}") == 0,
	   "estimate: the label's series 1, the others 0");
	ok(value(t, "memdiag_estimate_curve_age_seconds{socket=\"1\"}") == 3600,
	   "estimate: the curve's age at render time");
	ok(value(t, "memdiag_probe_samples_total") == 7 &&
	   value(t, "memdiag_probe_cpu_seconds_total") == 0.25,
	   "estimate: samples and the probe's CPU time (its cost)");
	ok(well_grouped(t), "estimate: one HELP/TYPE per family");
	free(t);

	e.est.label_known = false;
	t = NULL;
	f = open_memstream(&t, &len);
	export_estimate_render(&e, 0, f);
	fclose(f);
	ok(value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"unknown\"}") == 1 &&
	   value(t, "memdiag_estimated_verdict{socket=\"1\",verdict=\"bandwidth-bound\"}") == 0,
	   "estimate: a label that cannot be trusted is 'unknown'");
	free(t);

	e.est.valid = false;
	snprintf(e.est.reason, sizeof(e.est.reason), "no curve: run memdiagctl calibrate");
	t = NULL;
	f = open_memstream(&t, &len);
	export_estimate_render(&e, 0, f);
	fclose(f);
	ok(strstr(t, "memdiag_estimate_available{socket=\"1\",reason=\"no curve: run memdiagctl calibrate\"} 0") &&
	   !strstr(t, "memdiag_estimated_") &&
	   !isnan(value(t, "memdiag_probe_latency_seconds{socket=\"1\"}")),
	   "estimate: without a curve the reason and the latency, no estimate");
	free(t);
}

int main(void)
{
	static struct export_state st;
	char *t;

	export_init(&st, 1000000000ull, 300);
	t = render(&st);
	ok(value(t, "memdiag_up") == 0, "before any connection memdiag_up is 0");
	ok(!strstr(t, "memdiag_dram_read_bytes_total"),
	   "and no counter is exported (absent, not 0)");
	free(t);

	test_connect(&st);
	test_epoch(&st);
	test_reconnect(&st);
	test_no_core(&st);
	test_verdict(&st);
	test_l3(&st);
	test_no_threshold();
	test_estimate();
	printf("1..%d\n", n);
	return failed != 0;
}
