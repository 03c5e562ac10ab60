// SPDX-License-Identifier: GPL-2.0
/*
 * unit_watch_chan.c - unit tests: watch's per-channel imbalance and its
 * CSV verdict columns, fed canned notifications.
 */

#include "helpers.h"
#include "units.h"
#include "verdict_live.h"

/* the unit: "unit.bin -f watch_chan" runs its tests alone */
FIXTURE(watch_chan) {};
FIXTURE_SETUP(watch_chan) {}
FIXTURE_TEARDOWN(watch_chan) {}

/*
 * @s with @n channels whose counts add up to its DRAM totals, channel
 * @hot carrying @extra more bytes of reads than the others (ids 10, 11..).
 */
static void with_channels(struct snap *s, size_t n, size_t hot, uint64_t extra)
{
	uint64_t rd = s->v[SA(DRAM_READ_BYTES)] - extra;
	uint64_t wr = s->v[SA(DRAM_WRITE_BYTES)];
	size_t i;

	s->nr_chan = n;
	for (i = 0; i < n; i++) {
		s->chan[i].id = (uint32_t)(10 + i);
		s->chan[i].read_bytes = rd / n + (i == hot ? extra : 0);
		s->chan[i].write_bytes = wr / n;
	}
}

/* Per-channel imbalance: text columns, JSON keys, and when it is null. */
TEST_F(watch_chan, watch_channels)
{
	struct info_summary sum;
	struct snap a, b;
	struct wrun r;
	char *out, *err;
	int json;

	canned_summary(&sum);
	canned_pair(0, &a, &b);
	/* socket 0 moves 32 GB in the second: 8 GB on each of 4 channels */
	with_channels(&a, 4, 0, 0);
	with_channels(&b, 4, 2, 8000000000ull);
	for (json = 0; json <= 1; json++) {
		wrun_start(&r, json, &sum);
		r.w.all = false;
		r.w.socket = 0;
		wrun_feed(&r, &a);
		wrun_feed(&r, &b);
		wrun_end(&r, &out, &err);
		if (json)
			has_str(out, "\"saturated\":false,\"nr_channels\":4,\"unmeasured_channels\":null,\"channel_imbalance\":1.75,\"busiest_channel\":12,\"busiest_channel_gbps\":14,",
				"watch json: channel 12 carries 14 of 32 GB/s over 4 channels: imbalance 1.75");
		else
			has_str(out, "  no    1.75       12  -\n",
				"watch text: ch_imb 1.75, busy_ch 12");
		free(out);
		free(err);
	}

	/* a channel gone backwards: no per-channel values that interval */
	b.chan[1].read_bytes = 0;
	wrun_start(&r, true, &sum);
	r.w.all = false;
	r.w.socket = 0;
	wrun_feed(&r, &a);
	wrun_feed(&r, &b);
	wrun_end(&r, &out, &err);
	has_str(out, "\"nr_channels\":null,\"unmeasured_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,",
		"watch json: a channel that went backwards gives no imbalance");
	free(out);
	free(err);
}

/*
 * watch --csv with a curve: the verdict's keys flattened into the row
 * (verdict_*), the same columns in a row without a verdict, all empty.
 */
TEST_F(watch_chan, watch_csv_verdict)
{
	struct curve_point pts[] = {
		{ .bandwidth_gbps = 10, .read_gbps = 10, .latency_ns = 90 },
		{ .bandwidth_gbps = 40, .read_gbps = 40, .latency_ns = 150 },
		{ .bandwidth_gbps = 64, .read_gbps = 64, .latency_ns = 300 },
	};
	struct curve_mix mix = {
		.read_fraction = 1, .prefetch = CURVE_PF_UNCHANGED,
		.peak_index = 2, .points = pts, .nr_points = 3,
	};
	struct curve_socket cs = {
		.socket = 0, .idle_latency_ns = 80, .mixes = &mix, .nr_mixes = 1,
	};
	struct verdict_src vs = {
		.curve = { .sockets = &cs, .nr_sockets = 1 },
		.usable = true,
	};
	struct info_summary sum;
	struct snap a0, b0, a1, b1;
	struct wrun r;
	char *out, *err;

	canned_summary(&sum);
	canned_pair(0, &a0, &b0);
	canned_pair(1, &a1, &b1);
	wrun_start(&r, true, &sum);
	r.w.json = false;
	r.w.csv = true;
	r.w.vs = &vs;
	wrun_feed(&r, &a0);
	wrun_feed(&r, &a1);
	wrun_feed(&r, &b0);
	wrun_feed(&r, &b1);
	wrun_end(&r, &out, &err);
	has_str(out, ",prefetch_changed,verdict_utilization,verdict_peak_gbps,verdict_headroom_gbps,verdict_expected_latency_ns,verdict_stress,verdict_label,verdict_latency_disagreement,verdict_imbalanced_channel,verdict_imbalanced_channel_share,verdict_bandwidth_source,verdict_curve_reliable,verdict_utilization_checked,verdict_read_fraction_assumed,verdict_reason\n",
		"watch --csv with a curve: the verdict's columns in the header");
	has_str(out, ",0.5,64,32,",
		"watch --csv: socket 0 at 32 of 64 GB/s: utilization 0.5, headroom 32");
	/* a canned curve of no calibrate run: not judged, peak unchecked */
	has_str(out, ",imc,false,false,false,\n1,",
		"watch --csv: socket 0's row ends with its bandwidth source, the curve's trust, its mix measured, no reason");
	has_str(out, ",,,,,,,,,,,,no curve for this socket: run memdiagctl calibrate\n",
		"watch --csv: socket 1 without a curve: the same columns, empty, and the reason");
	free(out);
	free(err);
}
