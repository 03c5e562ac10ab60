// SPDX-License-Identifier: GPL-2.0
/*
 * curve_verdict_test.c - the placement on the curves and the verdict on canned curves:
 * exact numbers at the boundaries Documentation/curves.rst defines (kselftest harness).
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "curve_lib.h"
#include "metrics.h"

FIXTURE(placed) {
	struct curve c;
	const struct curve_socket *s;
};

FIXTURE_SETUP(placed)
{
	char why[CURVE_WHY_SIZE] = "";

	ASSERT_EQ(0, load_text(good, &self->c, why)) TH_LOG("%s", why);
	self->s = curve_socket_find(&self->c, 0);
}

FIXTURE_TEARDOWN(placed)
{
	curve_free(&self->c);
}

static struct curve_place at(const struct curve_socket *s, double rf,
			     double bw)
{
	struct curve_place p = { 0 };
	char why[CURVE_WHY_SIZE];

	if (curve_place(s, CURVE_PF_ON, rf, bw, &p, why, sizeof(why)))
		p.peak_gbps = NAN;
	return p;
}

TEST_F(placed, interpolation_in_bandwidth)
{
	/* between (0, idle 90) and (20, 95) */
	EXPECT_DBL(92.5, at(self->s, 1, 10).expected_latency_ns);
	/* between (20, 95) and (70, 140) */
	EXPECT_DBL(117.5, at(self->s, 1, 45).expected_latency_ns);
	EXPECT_DBL(140, at(self->s, 1, 70).expected_latency_ns);
	EXPECT_DBL(90, at(self->s, 1, 0).expected_latency_ns);
	EXPECT_DBL(100, at(self->s, 1, 45).peak_gbps);
	EXPECT_DBL(0.45, at(self->s, 1, 45).utilization);
	EXPECT_DBL(55, at(self->s, 1, 45).headroom_gbps);
	/* a point that adds no bandwidth (repeat noise) is skipped */
	self->c.sockets[0].mixes[0].points[1].bandwidth_gbps = 15;
	EXPECT_DBL(95 + 155 * 25 / 80.0, at(self->s, 1, 45).expected_latency_ns);
}

TEST_F(placed, bent_back_and_peak)
{
	struct curve_place p = at(self->s, 1, 97);

	/* the bent-back point (95 GB/s, 400 ns) is not on the lookup */
	EXPECT_DBL(250 - 110 * 3.0 / 30, p.expected_latency_ns);
	EXPECT_DBL(250, p.peak_latency_ns);
	EXPECT_DBL(400, p.max_latency_ns);
	EXPECT_DBL(0.95, p.bent_back_min_utilization);
	/* past the peak: the peak's latency, no headroom */
	p = at(self->s, 1, 120);
	EXPECT_DBL(250, p.expected_latency_ns);
	EXPECT_DBL(0, p.headroom_gbps);
	EXPECT_DBL(1.2, p.utilization);
	/* a curve without bent-back points */
	EXPECT_TRUE(isinf(at(self->s, 0.5, 10).bent_back_min_utilization));
}

TEST_F(placed, interpolation_between_mixes)
{
	/* read fraction 0.75: halfway between the 0.5 and the 1.0 curve */
	struct curve_place p = at(self->s, 0.75, 40);

	EXPECT_DBL(80, p.peak_gbps);
	EXPECT_DBL(0.5, p.utilization);
	/*
	 * at u = 0.5: 1.0 curve at 50 GB/s = 95 + 45 * 30/50 = 122;
	 * 0.5 curve at 30 GB/s = 110; halfway: 116
	 */
	EXPECT_DBL(116, p.expected_latency_ns);
	EXPECT_DBL((250 + 190) / 2.0, p.peak_latency_ns);
	EXPECT_DBL((400 + 190) / 2.0, p.max_latency_ns);
	/* one curve's bent-back region counts alone */
	EXPECT_DBL(0.95, p.bent_back_min_utilization);
	/* beyond the measured mixes: clamped to the nearest */
	EXPECT_DBL(60, at(self->s, 0.2, 10).peak_gbps);
	EXPECT_DBL(100, at(self->s, 1.3, 10).peak_gbps);
}

TEST_F(placed, no_curve_for_state)
{
	char why[CURVE_WHY_SIZE];
	struct curve_place p;

	EXPECT_EQ(-1, curve_place(self->s, CURVE_PF_UNCHANGED, 1, 10, &p, why,
				  sizeof(why)));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_STREQ("no curve for prefetchers unchanged: run memdiagctl calibrate",
		     why);
	EXPECT_EQ(0, curve_place(self->s, CURVE_PF_OFF, 1, 40, &p, why,
				 sizeof(why)));
	EXPECT_DBL(80, p.peak_gbps);
	EXPECT_EQ(-1, curve_place(self->s, CURVE_PF_ON, 1, NAN, &p, why,
				  sizeof(why)));
}

static struct verdict judge(const struct curve_socket *s, double rd,
			    double wr, double meas)
{
	struct verdict_in in = {
		.read_gbps = rd, .write_gbps = wr, .measured_latency_ns = meas,
	};
	struct verdict v;

	verdict_compute(s, CURVE_PF_ON, &in, &v);
	return v;
}

TEST_F(placed, labels_at_boundaries)
{
	/* read-only, measured latency unknown */
	EXPECT_EQ(VERDICT_IDLE, judge(self->s, 4.99, 0, NAN).label);
	EXPECT_EQ(VERDICT_OK, judge(self->s, 5, 0, NAN).label);
	/*
	 * stress = (L - 90) / (400 - 90) >= 0.25 from L = 167.5 on, i.e.
	 * 70 + (167.5 - 140) / 110 * 30 = 77.5 GB/s
	 */
	EXPECT_EQ(VERDICT_OK, judge(self->s, 77.4, 0, NAN).label);
	EXPECT_EQ(VERDICT_LATENCY_RISING, judge(self->s, 77.5, 0, NAN).label);
	EXPECT_DBL(0.25, judge(self->s, 77.5, 0, NAN).stress);
	EXPECT_EQ(VERDICT_LATENCY_RISING, judge(self->s, 84.9, 0, NAN).label);
	EXPECT_EQ(VERDICT_BANDWIDTH_BOUND, judge(self->s, 85, 0, NAN).label);
	EXPECT_EQ(VERDICT_BANDWIDTH_BOUND, judge(self->s, 100, 0, NAN).label);
	EXPECT_EQ(VERDICT_SATURATED, judge(self->s, 100.01, 0, NAN).label);
	EXPECT_DBL(1, judge(self->s, 100.01, 0, NAN).stress);
	/* 1:1 mix: the 0.5 curve's peak is 60 GB/s */
	EXPECT_EQ(VERDICT_BANDWIDTH_BOUND, judge(self->s, 28.5, 28.5, NAN).label);
	EXPECT_EQ(VERDICT_SATURATED, judge(self->s, 33, 33, NAN).label);
	EXPECT_STREQ("latency-rising", verdict_label_name(VERDICT_LATENCY_RISING));
}

TEST_F(placed, measured_latency)
{
	struct verdict v;

	/* on the bent-back branch: bandwidth below the peak, latency above */
	v = judge(self->s, 96, 0, 300);
	EXPECT_EQ(VERDICT_SATURATED, v.label);
	EXPECT_DBL((300 - 90) / 310.0, v.stress);
	/* same bandwidth, latency at the ascending branch's: not saturated */
	EXPECT_EQ(VERDICT_BANDWIDTH_BOUND, judge(self->s, 96, 0, 200).label);
	/* below the bent-back region's bandwidth a high latency is not it */
	EXPECT_EQ(VERDICT_BANDWIDTH_BOUND, judge(self->s, 94, 0, 300).label);
	/* under half the peak the measured latency does not raise stress */
	v = judge(self->s, 45, 0, 300);
	EXPECT_DBL((117.5 - 90) / 310, v.stress);
	EXPECT_EQ(VERDICT_MEASURED_HIGHER, v.disagree);
	EXPECT_STREQ("higher", verdict_disagree_name(v.disagree));
	/* from half the peak on it does */
	v = judge(self->s, 50, 0, 300);
	EXPECT_DBL((300 - 90) / 310.0, v.stress);
	EXPECT_EQ(VERDICT_LATENCY_RISING, v.label);
	/* the boundaries of the disagreement flag */
	EXPECT_EQ(VERDICT_AGREE, judge(self->s, 45, 0, 235).disagree);
	EXPECT_EQ(VERDICT_MEASURED_HIGHER, judge(self->s, 45, 0, 235.01).disagree);
	EXPECT_EQ(VERDICT_AGREE, judge(self->s, 45, 0, 20).disagree);
	EXPECT_EQ(VERDICT_MEASURED_LOWER, judge(self->s, 70, 0, 69.9).disagree);
	EXPECT_EQ(VERDICT_AGREE, judge(self->s, 70, 0, 70).disagree);
	EXPECT_EQ(NULL, verdict_disagree_name(VERDICT_AGREE));
}

TEST_F(placed, channel_imbalance)
{
	uint64_t bytes[4] = { 100, 100, 100, 300 };
	uint32_t ids[4] = { 0, 1, 2, 5 };
	struct verdict_in in = {
		.read_gbps = 50, .measured_latency_ns = NAN,
		.channel_bytes = bytes, .channel_id = ids, .nr_channels = 4,
	};
	struct verdict v;

	/* 300/600 = 0.5 = 2x the fair share */
	verdict_compute(self->s, CURVE_PF_ON, &in, &v);
	EXPECT_TRUE(v.imbalanced);
	EXPECT_EQ(5, v.imbalanced_channel);
	EXPECT_DBL(0.5, v.imbalanced_share);
	/* 1.5x exactly is not over it: 150/400 * 4 = 1.5 */
	bytes[3] = 100;
	bytes[1] = 150;
	bytes[0] = 50;
	verdict_compute(self->s, CURVE_PF_ON, &in, &v);
	EXPECT_FALSE(v.imbalanced);
	bytes[1] = 151;
	verdict_compute(self->s, CURVE_PF_ON, &in, &v);
	EXPECT_TRUE(v.imbalanced);
	EXPECT_EQ(1, v.imbalanced_channel);
	/* an idle socket's channels are not judged */
	in.read_gbps = 1;
	verdict_compute(self->s, CURVE_PF_ON, &in, &v);
	EXPECT_FALSE(v.imbalanced);
}

/*
 * AMD Zen 2/3's Data Fabric: a socket total, no read/write split. Placed
 * on the curve with the lowest peak (0.5 mix, 60 GB/s), said so.
 */
TEST_F(placed, total_without_split)
{
	struct verdict_in in = {
		.read_gbps = NAN, .write_gbps = NAN, .total_gbps = 30,
		.measured_latency_ns = NAN,
	};
	struct verdict v;

	EXPECT_DBL(0.5, curve_lowest_peak_fraction(self->s, CURVE_PF_ON));
	EXPECT_TRUE(isnan(curve_lowest_peak_fraction(self->s,
						     CURVE_PF_UNCHANGED)));
	verdict_compute(self->s, CURVE_PF_ON, &in, &v);
	EXPECT_TRUE(v.valid && v.read_fraction_assumed);
	EXPECT_DBL(0.5, v.place.utilization);
	EXPECT_DBL(60, v.place.peak_gbps);
	/* with the split the mix is measured: the read-only curve, 100 */
	in.read_gbps = 30;
	in.write_gbps = 0;
	verdict_compute(self->s, CURVE_PF_ON, &in, &v);
	EXPECT_FALSE(v.read_fraction_assumed);
	EXPECT_DBL(0.3, v.place.utilization);
	/* neither: no verdict */
	in.read_gbps = in.write_gbps = in.total_gbps = NAN;
	verdict_compute(self->s, CURVE_PF_ON, &in, &v);
	EXPECT_FALSE(v.valid);
}

/* The measured latency and the missing bandwidth, from an interval. */
TEST(verdict_from_interval)
{
	struct interval m;

	memset(&m, 0, sizeof(m));
	m.load_miss_real_latency_ns = NAN;
	m.l3_dram_latency_ns = 120;
	EXPECT_DBL(120, verdict_measured_latency_ns(&m));
	m.load_miss_real_latency_ns = 80;
	EXPECT_DBL(80, verdict_measured_latency_ns(&m));
	/* a fixed DF set: channels, no socket total */
	m.read_gbps = NAN;
	m.nr_chan = 1;
	m.chan[0].rdwr = true;
	EXPECT_NE(NULL, verdict_no_bandwidth(&m));
	EXPECT_NE(NULL, strstr(verdict_no_bandwidth(&m),
			       "unknown: a fixed Data Fabric channel set"));
	m.have_rdwr_bytes = true;
	EXPECT_EQ(NULL, verdict_no_bandwidth(&m));
	m.have_rdwr_bytes = false;
	m.chan[0].rdwr = false;
	EXPECT_EQ(NULL, verdict_no_bandwidth(&m));
}

TEST(verdict_without_curve)
{
	struct verdict_in in = { .read_gbps = 10, .measured_latency_ns = NAN };
	struct verdict v;

	verdict_compute(NULL, CURVE_PF_ON, &in, &v);
	EXPECT_FALSE(v.valid);
	EXPECT_STREQ("no curve for this socket: run memdiagctl calibrate", v.reason);
	verdict_none(&v, "curve is stale: kernel changed (a -> b)");
	EXPECT_FALSE(v.valid);
	EXPECT_STREQ("curve is stale: kernel changed (a -> b)", v.reason);
}

TEST_HARNESS_MAIN
