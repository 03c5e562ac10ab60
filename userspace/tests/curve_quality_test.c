// SPDX-License-Identifier: GPL-2.0
/*
 * curve_quality_test.c - calibrate's judgement of its own curve
 * (curve_quality.c) on canned curves (kselftest harness): the peak
 * against the reference read (30 % off flagged, 5 % passed), the
 * 1-thread point, a rise within the noise, bandwidth that falls as load
 * rises, a peak on one repeat, starved generators; and the file's
 * "check" and "quality" objects kept by save and load, a hand-edited
 * "reliable" that disagrees with its flaws refused.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "curve/curve.h"

/* threads, delay, GB/s (all read), ns; spread 1 %, 5 repeats kept */
#define PT(t, d, bw, ns) { .threads = (t), .delay = (d), \
	.bandwidth_gbps = (bw), .read_gbps = (bw), .latency_ns = (ns), \
	.cov = 0.01, .repeats = 5 }

/* A read curve of 1 and 4 threads, idle 100 ns, peak 40 GB/s at 180 ns. */
static struct curve_point pts[] = {
	PT(1, 1000, 2, 102),
	PT(1, 0, 10, 110),
	PT(4, 1000, 8, 112),
	PT(4, 100, 25, 130),
	PT(4, 0, 40, 180),
};

static void canned(struct curve_socket *s, struct curve_mix *m,
		   struct curve_point *p, double read_gbps, double one_gbps)
{
	memset(s, 0, sizeof(*s));
	memset(m, 0, sizeof(*m));
	memcpy(p, pts, sizeof(pts));
	m->read_fraction = 1;
	m->prefetch = CURVE_PF_UNCHANGED;
	m->points = p;
	m->nr_points = sizeof(pts) / sizeof(pts[0]);
	m->peak_index = 4;
	s->idle_latency_ns = 100;
	s->mixes = m;
	s->nr_mixes = 1;
	s->check.measured = true;
	s->check.read_gbps = read_gbps;
	s->check.read_threads = 4;
	s->check.read_one_gbps = one_gbps;
	s->check.read_bytes = 1ull << 30;
	s->check.steal_share = 0;
	s->check.cpu_pressure_share = 0.01;
}

#define FLAW(f) (1u << (f))

TEST(peak_30_percent_above_its_read_is_flagged)
{
	struct curve_point p[5];
	struct curve_socket s;
	struct curve_mix m;
	char note[256];

	canned(&s, &m, p, 40 / 1.3, 10);
	curve_judge(&s);
	EXPECT_EQ(FLAW(CURVE_FLAW_PEAK_OFF), s.quality.flaws);
	EXPECT_FALSE(curve_reliable(&s));
	EXPECT_FALSE(curve_peak_checked(&s));
	EXPECT_NE(NULL, strstr(s.quality.why[CURVE_FLAW_PEAK_OFF],
			       "30 % above a 4-thread read"));
	curve_quality_note(&s, note, sizeof(note));
	EXPECT_EQ(0, strncmp(note, "unreliable curve: read peak 40.00 GB/s", 38));
	/* and 30 % below */
	canned(&s, &m, p, 40 / 0.7, 10);
	curve_judge(&s);
	EXPECT_EQ(FLAW(CURVE_FLAW_PEAK_OFF), s.quality.flaws);
}

TEST(peak_within_5_percent_passes)
{
	struct curve_point p[5];
	struct curve_socket s;
	struct curve_mix m;
	char note[256];

	canned(&s, &m, p, 40 / 1.05, 10.4);
	curve_judge(&s);
	EXPECT_EQ(0, s.quality.flaws);
	EXPECT_TRUE(curve_reliable(&s));
	EXPECT_TRUE(curve_peak_checked(&s));
	EXPECT_STREQ("", curve_quality_note(&s, note, sizeof(note)));
	canned(&s, &m, p, 40 / 0.95, 9.6);
	curve_judge(&s);
	EXPECT_EQ(0, s.quality.flaws);
}

TEST(one_thread_point_and_one_thread_floor)
{
	struct curve_point p[5];
	struct curve_socket s;
	struct curve_mix m;

	/* the 1-thread point reads 10; a 1-thread read 13: 23 % below */
	canned(&s, &m, p, 40, 13);
	curve_judge(&s);
	EXPECT_EQ(FLAW(CURVE_FLAW_ONE_OFF), s.quality.flaws);
	/* a peak below what one thread moves */
	canned(&s, &m, p, 40, 50);
	p[4].bandwidth_gbps = 40;
	curve_judge(&s);
	EXPECT_TRUE(s.quality.flaws & FLAW(CURVE_FLAW_BELOW_ONE_THREAD));
}

TEST(rise_within_noise_is_flagged)
{
	struct curve_point p[5];
	struct curve_socket s;
	struct curve_mix m;
	unsigned int i;

	/* peak 12.5 ns above idle, each point's repeats spread ~9 ns */
	canned(&s, &m, p, 40, 10);
	for (i = 0; i < 5; i++) {
		p[i].latency_ns = 100 + 2.5 * i + 2.5;
		p[i].cov = 0.08;
	}
	curve_judge(&s);
	EXPECT_EQ(FLAW(CURVE_FLAW_RISE_IN_NOISE), s.quality.flaws);
}

TEST(bandwidth_falling_as_load_rises_is_flagged)
{
	struct curve_point p[5];
	struct curve_socket s;
	struct curve_mix m;

	/* 4 threads: 25 GB/s at delay 100 after ... 8 at 1000, fine; then
	 * make delay 100 fall to 6: under 90 % of 8 before the top at 0 */
	canned(&s, &m, p, 40, 10);
	p[3].bandwidth_gbps = 6;
	curve_judge(&s);
	EXPECT_EQ(FLAW(CURVE_FLAW_NOT_RISING), s.quality.flaws);
	EXPECT_NE(NULL, strstr(s.quality.why[CURVE_FLAW_NOT_RISING],
			       "4 threads: 6.00 GB/s at delay 100 after 8.00 GB/s at delay 1000"));
	/* past the count's top it may fall: the bent-back branch */
	canned(&s, &m, p, 40, 10);
	p[3].bandwidth_gbps = 45;
	curve_judge(&s);
	EXPECT_FALSE(s.quality.flaws & FLAW(CURVE_FLAW_NOT_RISING));
}

TEST(peak_on_one_repeat_and_starved)
{
	struct curve_point p[5];
	struct curve_socket s;
	struct curve_mix m;

	canned(&s, &m, p, 40, 10);
	p[4].repeats = 1;
	s.check.steal_share = 0.2;
	curve_judge(&s);
	EXPECT_EQ(FLAW(CURVE_FLAW_PEAK_ONE_REPEAT) | FLAW(CURVE_FLAW_STARVED),
		  s.quality.flaws);
	canned(&s, &m, p, 40, 10);
	s.check.cpu_pressure_share = 0.3;
	curve_judge(&s);
	EXPECT_EQ(FLAW(CURVE_FLAW_STARVED), s.quality.flaws);
	/* unknown shares judge nothing */
	canned(&s, &m, p, 40, 10);
	s.check.steal_share = NAN;
	s.check.cpu_pressure_share = NAN;
	curve_judge(&s);
	EXPECT_EQ(0, s.quality.flaws);
}

/* a minimal valid file around the canned socket, saved and loaded */
static int round_trip(struct curve_socket *s, struct curve *back, char *why)
{
	char path[] = "/tmp/memdiag-quality-XXXXXX";
	struct curve c = { 0 };
	unsigned int f;
	int fd = mkstemp(path), rc;

	if (fd < 0)
		return -2;
	close(fd);
	c.version = CURVE_VERSION;
	c.created = strdup("2026-11-26T00:00:00Z");
	c.tool_version = strdup("test");
	c.source = CURVE_SRC_KERNEL;
	for (f = 0; f < NR_CURVE_FP; f++)
		c.fp.v[f] = NULL;
	s->cpus = strdup("0-4");
	c.sockets = s;
	c.nr_sockets = 1;
	rc = curve_save(path, &c, why, CURVE_WHY_SIZE);
	if (!rc)
		rc = curve_load(path, back, why, CURVE_WHY_SIZE);
	unlink(path);
	free(c.created);
	free(c.tool_version);
	free(s->cpus);
	s->cpus = NULL;
	return rc;
}

TEST(check_and_quality_survive_the_file)
{
	struct curve_point p[5];
	struct curve_socket s;
	struct curve_mix m;
	struct curve back;
	char why[CURVE_WHY_SIZE];

	canned(&s, &m, p, 40 / 1.3, 10);
	s.check.steal_share = NAN;
	curve_judge(&s);
	ASSERT_EQ(0, round_trip(&s, &back, why)) TH_LOG("%s", why);
	ASSERT_EQ(1, back.nr_sockets);
	EXPECT_TRUE(back.sockets[0].check.measured);
	EXPECT_EQ(4, back.sockets[0].check.read_threads);
	EXPECT_TRUE(isnan(back.sockets[0].check.steal_share));
	EXPECT_TRUE(back.sockets[0].quality.judged);
	EXPECT_EQ(FLAW(CURVE_FLAW_PEAK_OFF), back.sockets[0].quality.flaws);
	EXPECT_STREQ(s.quality.why[CURVE_FLAW_PEAK_OFF],
		     back.sockets[0].quality.why[CURVE_FLAW_PEAK_OFF]);
	curve_free(&back);
	/* an older file: neither object, not judged, not reliable */
	memset(&s.check, 0, sizeof(s.check));
	memset(&s.quality, 0, sizeof(s.quality));
	ASSERT_EQ(0, round_trip(&s, &back, why)) TH_LOG("%s", why);
	EXPECT_FALSE(back.sockets[0].quality.judged);
	EXPECT_FALSE(curve_reliable(&back.sockets[0]));
	curve_free(&back);
}

TEST_HARNESS_MAIN
