// SPDX-License-Identifier: GPL-2.0
/*
 * calib_test.c - calibrate's pieces on real memory and canned samples
 * (kselftest harness): the bytes the write-mixing traffic kernel moves,
 * the flushed chase's cycle, the plan's order, the statistics over
 * repeats, the sustainable peak and the probe's placement.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "calib/calib_plan.h"
#include "calib/probe.h"

/* The record of the slice: 64 bytes, the first 8 the value. */
static uint64_t *rec(const struct kern_rd_slice *s, unsigned int q, size_t i)
{
	size_t stagger = (s->bytes / KERN_LINE - 4 * s->per_quarter) / 3;

	return (uint64_t *)((char *)s->a +
			    (q * (s->per_quarter + stagger) + i) * KERN_LINE);
}

/*
 * Each mix over records 10..99: every record of the four quarters read
 * once (the sum of their known values proves it), and exactly the
 * records of the written quarters incremented; the byte counts equal
 * what memory shows.
 */
TEST(traffic_moves_the_bytes_it_counts)
{
	static const unsigned int wq[KERN_NR_MIXES] = { 0x0, 0x5, 0xf };
	struct kern_rd_slice s;
	struct kern_bytes b;
	unsigned int m, q, written;
	uint64_t want, sum, *before;
	size_t i, from = 10, to = 100;

	ASSERT_EQ(0, kern_rd_slice_init(&s, 256 * 1024, false));
	before = malloc(4 * s.per_quarter * sizeof(*before));
	ASSERT_NE(NULL, before);
	for (m = 0; m < KERN_NR_MIXES; m++) {
		want = 0;
		for (q = 0; q < 4; q++)
			for (i = 0; i < s.per_quarter; i++) {
				before[q * s.per_quarter + i] = *rec(&s, q, i);
				if (i >= from && i < to)
					want += *rec(&s, q, i);
			}
		memset(&b, 0, sizeof(b));
		sum = kern_rw_slice_run(&s, from, to, 3, (enum kern_mix)m, &b);
		EXPECT_EQ(want, sum);
		EXPECT_EQ(4 * (to - from) * KERN_LINE, b.read);
		written = 0;
		for (q = 0; q < 4; q++)
			for (i = 0; i < s.per_quarter; i++) {
				uint64_t was = before[q * s.per_quarter + i];
				bool in = i >= from && i < to && (wq[m] >> q & 1);

				EXPECT_EQ(was + in, *rec(&s, q, i));
				written += *rec(&s, q, i) != was;
			}
		EXPECT_EQ((uint64_t)written * KERN_LINE, b.write);
		EXPECT_EQ(kern_mix_writes[m] * (to - from) * KERN_LINE, b.write);
	}
	free(before);
	kern_rd_slice_free(&s);
}

TEST(mix_read_shares)
{
	EXPECT_EQ(1.0, kern_mix_read_share(KERN_MIX_READ));
	EXPECT_TRUE(fabs(kern_mix_read_share(KERN_MIX_2R1W) - 2.0 / 3) < 1e-12);
	EXPECT_EQ(0.5, kern_mix_read_share(KERN_MIX_1R1W));
}

/* The flushed chase visits every line once per lap, in one cycle. */
TEST(fchase_is_one_cycle)
{
	struct kern_fchase c;
	unsigned int done = 0;
	double ns[4], flush = 0;
	char *seen;
	void **p;
	size_t i;

	ASSERT_EQ(0, kern_fchase_init(&c, 1 << 20, 512, false, 7));
	seen = calloc(c.n, 1);
	ASSERT_NE(NULL, seen);
	p = (void **)((char *)c.lines + (size_t)c.order[0] * KERN_LINE);
	for (i = 0; i < c.n; i++) {
		size_t k = (size_t)((char *)p - (char *)c.lines) / KERN_LINE;

		ASSERT_LT(k, c.n);
		EXPECT_EQ(0, seen[k]);
		seen[k] = 1;
		p = *p;
	}
	EXPECT_EQ((char *)c.lines + (size_t)c.order[0] * KERN_LINE,
		  (char *)p);
	kern_fchase_run(&c, 4, NULL, &done, ns, &flush);
	EXPECT_EQ(4, done);
	EXPECT_EQ(4 * 512 % c.n, c.pos);
	for (i = 0; i < 4; i++)
		EXPECT_GT(ns[i], 0);
	free(seen);
	kern_fchase_free(&c);
	/* too small for two segments */
	EXPECT_EQ(-1, kern_fchase_init(&c, 512 * KERN_LINE, 512, false, 1));
}

/* A fake socket: @n CPUs 0..n-1, caches of @llc bytes shared by @share. */
struct fake_socket {
	struct calib_socket so;
	uint32_t cpu[256];
	unsigned int llc_of[256];
	uint64_t llc_size[256];
};

static void fake_socket(struct fake_socket *f, size_t n, uint64_t llc,
			size_t share)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->so.cpu = f->cpu;
	f->so.llc_of = f->llc_of;
	f->so.llc_size = f->llc_size;
	f->so.nr_cpu = n;
	for (i = 0; i < n; i++) {
		f->cpu[i] = (uint32_t)i;
		f->llc_of[i] = (unsigned int)(i / share);
	}
	f->so.nr_llc = llc ? (n + share - 1) / share : 0;
	for (i = 0; i < f->so.nr_llc; i++) {
		f->llc_size[i] = llc;
		f->so.llc_bytes += llc;
	}
}

/* Idle first, then each mix's points by rising offered load. */
TEST(plan_rises_in_intensity)
{
	struct calib_opts o = { false, 7, 5 };
	struct fake_socket f;
	struct calib_plan p;
	double prev = -1, off;
	unsigned int i;
	int mix = -1;

	fake_socket(&f, 40, 60ull << 20, 40);
	ASSERT_EQ(0, calib_plan_make(&p, &o, &f.so));
	EXPECT_EQ(0, p.pt[0].threads);
	/* 1, 20 and 39 threads x 10 delays x 3 mixes */
	EXPECT_EQ(1 + 3 * 3 * 10, p.npt);
	for (i = 1; i < p.npt; i++) {
		if ((int)p.pt[i].mix != mix) {
			mix = (int)p.pt[i].mix;
			prev = -1;
		}
		off = p.pt[i].threads / (p.pt[i].delay + 200.0);
		EXPECT_GE(off, prev);
		prev = off;
	}
	calib_plan_free(&p);
	o.quick = true;
	o.mixes = 1u << KERN_MIX_1R1W;
	fake_socket(&f, 2, 480ull << 20, 2);
	ASSERT_EQ(0, calib_plan_make(&p, &o, &f.so));
	EXPECT_EQ(1 + 5, p.npt);
	EXPECT_EQ(1, p.pt[5].threads);
	EXPECT_EQ(0, p.pt[5].delay);
	EXPECT_EQ(KERN_MIX_1R1W, p.pt[5].mix);
	calib_plan_free(&p);
}

/*
 * Every point of every plan sweeps at least 4 x the socket's last-level
 * cache, and 4 x each cache instance its threads share, before a line
 * comes back; the pool fits a budget of what it needs and not one byte
 * less. Machines: 16 CPUs with 32 MiB and 300 MiB, 64 CPUs in eight
 * 32 MiB CCXs, a 96-CPU socket with 1.5 GiB, and one with no cache
 * listed (8 MiB per CPU assumed).
 */
TEST(plan_sweeps_four_llcs_at_every_point)
{
	static const struct { size_t n; uint64_t llc; size_t share; } m[] = {
		{ 16, 32ull << 20, 16 }, { 16, 300ull << 20, 16 },
		{ 64, 32ull << 20, 8 }, { 96, 1536ull << 20, 96 },
		{ 16, 0, 16 },
	};
	struct calib_opts o = { false, 7, 5 };
	struct fake_socket f;
	struct calib_plan p;
	unsigned int i, k, q;
	uint64_t llc;
	char why[512];

	for (k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		for (q = 0; q < 2; q++) {
			o.quick = q;
			fake_socket(&f, m[k].n, m[k].llc, m[k].share);
			ASSERT_EQ(0, calib_plan_make(&p, &o, &f.so));
			llc = m[k].llc ? m[k].llc * ((m[k].n + m[k].share - 1) /
						     m[k].share) :
			      (8ull << 20) * m[k].n;
			EXPECT_EQ(llc, p.llc_bytes);
			EXPECT_EQ(!m[k].llc, p.llc_assumed);
			for (i = 1; i < p.npt; i++)
				EXPECT_GE(calib_plan_swept(&p, i), 4 * llc)
					TH_LOG("%zu CPUs: point %u (%u threads)",
					       m[k].n, i, p.pt[i].threads);
			EXPECT_GE(calib_plan_llc_ratio(&p, &f.so), 4.0);
			EXPECT_EQ(0, calib_plan_fits(&p, p.pool_bytes +
						     p.chase_bytes, "test",
						     why, sizeof(why)));
			EXPECT_EQ(-1, calib_plan_fits(&p, p.pool_bytes +
						      p.chase_bytes - 1,
						      "test", why,
						      sizeof(why)));
			EXPECT_NE(NULL, strstr(why, "4 x the socket's"));
			calib_plan_free(&p);
		}
	}
}

static void sample(struct calib_sample *s, double ns, double gb_rd,
		   double gb_wr)
{
	memset(s, 0, sizeof(*s));
	s->ns = ns;
	s->sec = 1;
	s->gen.read = (uint64_t)(gb_rd * 1e9);
	s->gen.write = (uint64_t)(gb_wr * 1e9);
}

/* A repeat far off in latency or bandwidth is dropped, CoV of the rest. */
TEST(summary_drops_outliers)
{
	struct calib_sample s[5];
	struct calib_summary r;

	sample(&s[0], 100, 6, 3);
	sample(&s[1], 102, 6, 3);
	sample(&s[2], 400, 6, 3);	/* the chase lost its CPU */
	calib_summarize(s, 3, 1, &r);
	EXPECT_EQ(2, r.repeats);
	EXPECT_EQ(101, r.latency_ns);
	EXPECT_TRUE(fabs(r.cov - sqrt(2) / 101) < 1e-9);
	EXPECT_TRUE(fabs(r.bandwidth_gbps - 9) < 1e-9);
	EXPECT_TRUE(fabs(r.read_gbps - 6) < 1e-9);
	EXPECT_TRUE(fabs(r.read_gbps + r.write_gbps - r.bandwidth_gbps) < 1e-9);
	/* within 5 %: all kept, however small the other two's spread */
	sample(&s[0], 100, 6, 3);
	sample(&s[1], 100.5, 6, 3);
	sample(&s[2], 103, 6, 3);
	calib_summarize(s, 3, 1, &r);
	EXPECT_EQ(3, r.repeats);
	/* 13 % off, and far beyond the others' spread: dropped */
	sample(&s[1], 102, 6, 3);
	sample(&s[2], 115, 6, 3);
	calib_summarize(s, 3, 1, &r);
	EXPECT_EQ(2, r.repeats);
	sample(&s[0], 100, 6, 3);
	/* bandwidth off: dropped too; stride skips other points */
	sample(&s[2], 101, 1, 0);
	sample(&s[3], 0, 0, 0);
	sample(&s[4], 101, 6, 3);
	calib_summarize(s, 3, 2, &r);	/* s[0], s[2], s[4] */
	EXPECT_EQ(2, r.repeats);
	EXPECT_TRUE(fabs(r.bandwidth_gbps - 9) < 1e-9);
}

/*
 * Nearest-rank percentiles of known data, given shuffled: 1..100 gives
 * 50, 90, 99; 1..8 (a probe sample's segments) 4, 8, 8, so that its p99
 * is its maximum; one value is every percentile; the input is untouched.
 */
TEST(percentiles_nearest_rank)
{
	double v[100], one = 7;
	struct kern_pct p;
	unsigned int i;

	for (i = 0; i < 100; i++)
		v[i] = (double)((i * 37) % 100 + 1);	/* 1..100, shuffled */
	kern_percentiles(v, 100, &p);
	EXPECT_EQ(50, p.p50);
	EXPECT_EQ(90, p.p90);
	EXPECT_EQ(99, p.p99);
	EXPECT_EQ(1, v[0]);
	EXPECT_EQ(38, v[1]);
	for (i = 0; i < 8; i++)
		v[i] = (double)(8 - i);
	kern_percentiles(v, 8, &p);
	EXPECT_EQ(4, p.p50);
	EXPECT_EQ(8, p.p90);
	EXPECT_EQ(8, p.p99);
	kern_percentiles(&one, 1, &p);
	EXPECT_EQ(7, p.p50);
	EXPECT_EQ(7, p.p99);
	kern_percentiles(v, 0, &p);
	EXPECT_EQ(0, p.p90);
}

/* The repeats' p90 and p99 are summarized as their median, outliers out. */
TEST(summary_has_the_percentiles)
{
	struct calib_sample s[3];
	struct calib_summary r;

	sample(&s[0], 100, 6, 3);
	s[0].p90 = 120;
	s[0].p99 = 300;
	sample(&s[1], 102, 6, 3);
	s[1].p90 = 130;
	s[1].p99 = 200;
	sample(&s[2], 400, 6, 3);	/* dropped: its p90 and p99 too */
	s[2].p90 = 900;
	s[2].p99 = 5000;
	calib_summarize(s, 3, 1, &r);
	EXPECT_EQ(2, r.repeats);
	EXPECT_EQ(125, r.latency_p90_ns);
	EXPECT_EQ(250, r.latency_p99_ns);
}

/* Peak at the highest bandwidth; the points past it are kept. */
TEST(curve_marks_the_peak)
{
	struct calib_point pt[5] = {
		{ 0, 0, KERN_MIX_READ }, { 4, 1000, KERN_MIX_READ },
		{ 4, 100, KERN_MIX_READ }, { 4, 0, KERN_MIX_READ },
		{ 8, 0, KERN_MIX_READ },
	};
	struct calib_summary sum[5] = {
#define SUM(lat, bw, p99) { .latency_ns = lat, .bandwidth_gbps = bw,	\
			    .read_gbps = bw, .repeats = 3,		\
			    .latency_p90_ns = lat + 1, .latency_p99_ns = p99 }
		SUM(90, 0.1, 91), SUM(95, 20, 300), SUM(140, 70, 400),
		SUM(250, 100, 500), SUM(400, 95, 600),
#undef SUM
	};
	struct calib_plan p = { .pt = pt, .npt = 5, .reps = 3, .seg = 512,
				.segs = 8 };
	struct curve_mix m;

	ASSERT_EQ(0, calib_curve(&p, sum, KERN_MIX_READ, CURVE_PF_UNCHANGED,
				 &m));
	EXPECT_EQ(4, m.nr_points);
	EXPECT_EQ(2, m.peak_index);
	EXPECT_EQ(400, m.points[3].latency_ns);
	/* the idle point is not on the curve: p50 of points[0] is 95's */
	EXPECT_EQ(95, m.points[0].latency_p50_ns);
	EXPECT_EQ(96, m.points[0].latency_p90_ns);
	EXPECT_EQ(300, m.points[0].latency_p99_ns);
	EXPECT_EQ(1.0, m.read_fraction);
	free(m.points);
	/* no points of that mix */
	EXPECT_EQ(-1, calib_curve(&p, sum, KERN_MIX_1R1W, CURVE_PF_UNCHANGED,
				  &m));
}

/* The curves.rst example, read only, placed from latency back to load. */
TEST(probe_places_latency)
{
	struct curve_point pt[4] = {
		{ .threads = 19, .delay = 2000, .bandwidth_gbps = 20, .read_gbps = 20,
		  .latency_ns = 95, .repeats = 3 },
		{ .threads = 19, .delay = 200, .bandwidth_gbps = 70, .read_gbps = 70,
		  .latency_ns = 140, .repeats = 3 },
		{ .threads = 19, .delay = 0, .bandwidth_gbps = 100, .read_gbps = 100,
		  .latency_ns = 250, .repeats = 3 },
		{ .threads = 38, .delay = 0, .bandwidth_gbps = 95, .read_gbps = 95,
		  .latency_ns = 400, .repeats = 3 },
	};
	struct curve_mix m = { 1.0, CURVE_PF_ON, 2, pt, 4 };
	struct curve_socket s = { .idle_latency_ns = 90, .mixes = &m,
				  .nr_mixes = 1 };
	struct probe_est e;

	probe_place(&s, CURVE_PF_ON, 80, &e);
	ASSERT_TRUE(e.valid);
	EXPECT_EQ(0, e.bandwidth_gbps);
	EXPECT_EQ(0, e.stress);
	EXPECT_EQ(VERDICT_IDLE, e.label);
	probe_place(&s, CURVE_PF_ON, 117.5, &e);
	EXPECT_TRUE(fabs(e.bandwidth_gbps - 45) < 1e-9);
	EXPECT_TRUE(fabs(e.utilization - 0.45) < 1e-9);
	EXPECT_EQ(VERDICT_OK, e.label);
	/* a quarter of the way from idle (90) to the maximum (400) */
	probe_place(&s, CURVE_PF_ON, 167.5, &e);
	EXPECT_TRUE(fabs(e.stress - 0.25) < 1e-9);
	EXPECT_TRUE(fabs(e.bandwidth_gbps - 77.5) < 1e-9);
	EXPECT_EQ(VERDICT_LATENCY_RISING, e.label);
	probe_place(&s, CURVE_PF_ON, 200, &e);
	EXPECT_TRUE(fabs(e.utilization - (70 + 30 * 60 / 110.0) / 100) < 1e-9);
	EXPECT_EQ(VERDICT_BANDWIDTH_BOUND, e.label);
	probe_place(&s, CURVE_PF_ON, 300, &e);
	EXPECT_EQ(1, e.utilization);
	EXPECT_EQ(VERDICT_SATURATED, e.label);
	/* no curve for prefetchers off; no socket */
	probe_place(&s, CURVE_PF_OFF, 100, &e);
	EXPECT_FALSE(e.valid);
	EXPECT_NE(NULL, strstr(e.reason, "calibrate"));
	probe_place(NULL, CURVE_PF_ON, 100, &e);
	EXPECT_FALSE(e.valid);
	/*
	 * A noisy branch: the second point measured below the first. The
	 * branch stays at 140 ns up to 70 GB/s, then climbs to the peak's
	 * 250: 140 ns is first reached at 20 GB/s, 195 halfway to the peak.
	 */
	pt[0].latency_ns = 140;
	pt[1].latency_ns = 120;
	probe_place(&s, CURVE_PF_ON, 140, &e);
	EXPECT_TRUE(fabs(e.bandwidth_gbps - 20) < 1e-9);
	probe_place(&s, CURVE_PF_ON, 195, &e);
	EXPECT_TRUE(fabs(e.bandwidth_gbps - 85) < 1e-9);
	EXPECT_EQ(250, e.peak_latency_ns);
	/* the peak measured below an earlier point: the top is that point */
	pt[2].latency_ns = 130;
	probe_place(&s, CURVE_PF_ON, 135, &e);
	EXPECT_EQ(140, e.peak_latency_ns);
	EXPECT_NE(VERDICT_SATURATED, e.label);
	probe_place(&s, CURVE_PF_ON, 141, &e);
	EXPECT_EQ(VERDICT_SATURATED, e.label);
}

/*
 * A label only on a curve judged reliable, and only from a sample whose
 * noise is under half the curve's rise (90 ns idle to 250 at the peak).
 */
TEST(probe_labels_only_what_it_can_tell)
{
	struct curve_point pt[3] = {
		{ .threads = 19, .delay = 2000, .bandwidth_gbps = 20,
		  .latency_ns = 95, .repeats = 3 },
		{ .threads = 19, .delay = 200, .bandwidth_gbps = 70,
		  .latency_ns = 140, .repeats = 3 },
		{ .threads = 19, .delay = 0, .bandwidth_gbps = 100,
		  .latency_ns = 250, .repeats = 3 },
	};
	struct curve_mix m = { .read_fraction = 1.0, .prefetch = CURVE_PF_ON,
			       .peak_index = 2, .points = pt, .nr_points = 3 };
	struct curve_socket s = { .idle_latency_ns = 90, .mixes = &m,
				  .nr_mixes = 1 };
	struct probe_est e;

	probe_place(&s, CURVE_PF_ON, 260, &e);
	EXPECT_EQ(VERDICT_SATURATED, e.label);
	/* never judged: a file of an older memdiagctl */
	probe_trust(&s, 260, 1, &e);
	EXPECT_FALSE(e.label_known);
	EXPECT_NE(NULL, strstr(e.label_reason, "not judged"));
	/* judged with a flaw */
	s.quality.judged = true;
	s.quality.flaws = 1u << CURVE_FLAW_RISE_IN_NOISE;
	snprintf(s.quality.why[CURVE_FLAW_RISE_IN_NOISE], CURVE_WHY_FLAW,
		 "rise 12.5 ns");
	probe_trust(&s, 260, 1, &e);
	EXPECT_FALSE(e.label_known);
	EXPECT_STREQ("unreliable curve: rise 12.5 ns", e.label_reason);
	/* reliable: noise 79 ns under half the 160 ns rise, 81 over */
	s.quality.flaws = 0;
	probe_trust(&s, 260, 79, &e);
	EXPECT_TRUE(e.label_known);
	probe_trust(&s, 260, 81, &e);
	EXPECT_FALSE(e.label_known);
	EXPECT_NE(NULL, strstr(e.label_reason, "sample noise 81.0 ns"));
	/* 84 ns, 6 ns below the 90 ns idle: within 5 % and noise, idle */
	probe_place(&s, CURVE_PF_ON, 86, &e);
	probe_trust(&s, 86, 2, &e);
	EXPECT_TRUE(e.label_known);
	EXPECT_EQ(VERDICT_IDLE, e.label);
	/* 80 ns: the machine got faster than its curve */
	probe_place(&s, CURVE_PF_ON, 80, &e);
	probe_trust(&s, 80, 2, &e);
	EXPECT_FALSE(e.label_known);
	EXPECT_NE(NULL, strstr(e.label_reason, "below the curve's idle"));
}

TEST_HARNESS_MAIN
