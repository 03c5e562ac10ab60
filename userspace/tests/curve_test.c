// SPDX-License-Identifier: GPL-2.0
/*
 * curve_test.c - the curve file, fingerprint, placement and verdict on
 * canned curves (kselftest harness): exact numbers at the boundaries
 * Documentation/curves.rst defines.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../curve.h"
#include "../validate.h"

/* Doubles computed by a few additions: equal to 1e-9, relative. */
#define EXPECT_DBL(want, got) do {					\
	double w_ = (want), g_ = (got);					\
	EXPECT_TRUE(fabs(w_ - g_) <= 1e-9 * fmax(1, fabs(w_)))		\
		TH_LOG("%s = %.12g, want %.12g", #got, g_, w_);		\
} while (0)

/* The example of curves.rst, plus a 1:1 curve and a prefetch-off one. */
static const char good[] =
"{\"format\": \"memdiag-curve\", \"version\": 1,\n"
" \"created\": \"2026-11-23T23:10:00Z\", \"tool_version\": \"0.1\",\n"
" \"bandwidth_source\": \"imc\",\n"
" \"fingerprint\": {\"cpu_vendor\": \"GenuineIntel\", \"cpu_model\": \"6/85/4\",\n"
"  \"cpu_model_name\": \"Xeon\", \"microcode\": \"0x2007006\", \"sockets\": \"2\",\n"
"  \"cores\": \"40\", \"cpus\": \"80\", \"memory_bytes\": \"201863462912\",\n"
"  \"dimms\": null, \"numa\": \"0:0-19;1:20-39\", \"kernel\": \"6.12.0\",\n"
"  \"thp\": \"madvise\", \"prefetch\": \"on\", \"uncore_khz\": null},\n"
" \"sockets\": [{\"socket\": 0, \"cpus\": \"0-19\", \"chase_cpu\": 0,\n"
"  \"idle_latency_ns\": 90.0, \"curves\": [\n"
"  {\"read_fraction\": 1.0, \"prefetch\": \"on\", \"peak_index\": 2, \"points\": [\n"
"   {\"threads\": 19, \"delay\": 2000, \"bandwidth_gbps\": 20.0, \"read_gbps\": 20.0,\n"
"    \"write_gbps\": 0.0, \"latency_ns\": 95.0, \"cov\": 0.01, \"repeats\": 3},\n"
"   {\"threads\": 19, \"delay\": 200, \"bandwidth_gbps\": 70.0, \"read_gbps\": 70.0,\n"
"    \"write_gbps\": 0.0, \"latency_ns\": 140.0, \"cov\": 0.02, \"repeats\": 3},\n"
"   {\"threads\": 19, \"delay\": 0, \"bandwidth_gbps\": 100.0, \"read_gbps\": 100.0,\n"
"    \"write_gbps\": 0.0, \"latency_ns\": 250.0, \"cov\": 0.03, \"repeats\": 3},\n"
"   {\"threads\": 38, \"delay\": 0, \"bandwidth_gbps\": 95.0, \"read_gbps\": 95.0,\n"
"    \"write_gbps\": 0.0, \"latency_ns\": 400.0, \"cov\": 0.05, \"repeats\": 3}]},\n"
"  {\"read_fraction\": 0.5, \"prefetch\": \"on\", \"peak_index\": 1, \"points\": [\n"
"   {\"threads\": 19, \"delay\": 200, \"bandwidth_gbps\": 30.0, \"read_gbps\": 15.0,\n"
"    \"write_gbps\": 15.0, \"latency_ns\": 110.0, \"cov\": 0.02, \"repeats\": 3},\n"
"   {\"threads\": 19, \"delay\": 0, \"bandwidth_gbps\": 60.0, \"read_gbps\": 30.0,\n"
"    \"write_gbps\": 30.0, \"latency_ns\": 190.0, \"cov\": 0.03, \"repeats\": 3}]},\n"
"  {\"read_fraction\": 1, \"prefetch\": \"off\", \"peak_index\": 1, \"points\": [\n"
"   {\"threads\": 19, \"delay\": 200, \"bandwidth_gbps\": 40.0, \"read_gbps\": 40.0,\n"
"    \"write_gbps\": 0, \"latency_ns\": 120.0, \"cov\": 0.02, \"repeats\": 3},\n"
"   {\"threads\": 19, \"delay\": 0, \"bandwidth_gbps\": 80.0, \"read_gbps\": 80.0,\n"
"    \"write_gbps\": 0, \"latency_ns\": 200.0, \"cov\": 0.03, \"repeats\": 3}]}\n"
"  ]}]}\n";

static char tmpdir[] = "/tmp/curve_test.XXXXXX";
static pid_t parent;

/* One directory for every test (each runs in a child of this process). */
static void __attribute__((constructor)) make_tmpdir(void)
{
	parent = getpid();
	if (!mkdtemp(tmpdir))
		tmpdir[0] = '\0';
}

static void __attribute__((destructor)) remove_tmpdir(void)
{
	char cmd[64];

	if (getpid() == parent && tmpdir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			fprintf(stderr, "curve_test: could not remove %s\n", tmpdir);
	}
}

/* Write @text (first @len bytes) to a file in tmpdir; its path. */
static const char *put(const char *text, size_t len)
{
	static char path[64];
	FILE *f;

	if (!tmpdir[0])
		return NULL;
	snprintf(path, sizeof(path), "%s/c.json", tmpdir);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fwrite(text, 1, len, f);
	fclose(f);
	return path;
}

/* @good with the first @from replaced by @to, malloc()ed. */
static char *edit(const char *from, const char *to)
{
	const char *at = strstr(good, from);
	char *s;

	if (!at)
		return NULL;
	s = malloc(sizeof(good) + strlen(to));
	sprintf(s, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	return s;
}

static int load_text(const char *text, struct curve *c, char *why)
{
	const char *path = put(text, strlen(text));

	return path ? curve_load(path, c, why, CURVE_WHY_SIZE) : -2;
}

TEST(load_good)
{
	char why[CURVE_WHY_SIZE] = "";
	const struct curve_socket *s;
	struct curve c;

	ASSERT_EQ(0, load_text(good, &c, why)) TH_LOG("%s", why);
	EXPECT_EQ(CURVE_SRC_IMC, c.source);
	EXPECT_STREQ("0x2007006", c.fp.v[CURVE_FP_MICROCODE]);
	EXPECT_EQ(NULL, c.fp.v[CURVE_FP_DIMMS]);
	s = curve_socket_find(&c, 0);
	ASSERT_NE(NULL, s);
	EXPECT_EQ(NULL, curve_socket_find(&c, 1));
	ASSERT_EQ(3, s->nr_mixes);
	EXPECT_EQ(4, s->mixes[0].nr_points);
	EXPECT_EQ(2, s->mixes[0].peak_index);
	EXPECT_EQ(CURVE_PF_OFF, s->mixes[2].prefetch);
	EXPECT_EQ(2000, s->mixes[0].points[0].delay);
	EXPECT_EQ(400.0, s->mixes[0].points[3].latency_ns);
	curve_free(&c);
}

TEST(save_roundtrip)
{
	char why[CURVE_WHY_SIZE] = "", path[96];
	struct curve a, b;
	size_t i;

	ASSERT_EQ(0, load_text(good, &a, why)) TH_LOG("%s", why);
	snprintf(path, sizeof(path), "%s/new/dir/curve.json", tmpdir);
	ASSERT_EQ(0, curve_save(path, &a, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0, curve_load(path, &b, why, sizeof(why))) TH_LOG("%s", why);
	for (i = 0; i < NR_CURVE_FP; i++) {
		if (!a.fp.v[i]) {
			EXPECT_EQ(NULL, b.fp.v[i]);
		} else {
			EXPECT_STREQ(a.fp.v[i], b.fp.v[i]);
		}
	}
	ASSERT_EQ(a.sockets[0].nr_mixes, b.sockets[0].nr_mixes);
	for (i = 0; i < a.sockets[0].nr_mixes; i++) {
		const struct curve_mix *x = &a.sockets[0].mixes[i];
		const struct curve_mix *y = &b.sockets[0].mixes[i];

		EXPECT_EQ(x->nr_points, y->nr_points);
		EXPECT_EQ(x->peak_index, y->peak_index);
		EXPECT_EQ(x->prefetch, y->prefetch);
		EXPECT_EQ(0, memcmp(x->points, y->points,
				    x->nr_points * sizeof(*x->points)));
	}
	/* the writer refuses what the reader would refuse */
	a.sockets[0].mixes[0].peak_index = 0;
	EXPECT_EQ(-1, curve_save(path, &a, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "peak_index"));
	curve_free(&a);
	curve_free(&b);
}

static const struct {
	const char *from, *to, *want;
} bad_edits[] = {
	{ "\"memdiag-curve\"", "\"other\"", "format: not \"memdiag-curve\"" },
	{ "\"version\": 1", "\"version\": 2", "version: 2 is not supported" },
	{ "\"version\": 1", "\"version\": \"1\"", "version: not a number" },
	{ "\"bandwidth_source\": \"imc\"", "\"bandwidth_source\": \"pcm\"",
	  "bandwidth_source: not one of the allowed values" },
	{ "\"microcode\": \"0x2007006\"", "\"microcode\": 7",
	  "fingerprint.microcode: not a string or null" },
	{ "\"thp\": \"madvise\", ", "", "fingerprint.thp: missing" },
	{ "\"idle_latency_ns\": 90.0", "\"idle_latency_ns\": 0",
	  "sockets[0].idle_latency_ns: must be > 0" },
	{ "\"latency_ns\": 140.0", "\"latency_ns\": null",
	  "sockets[0].curves[0].points[1].latency_ns: not a number" },
	{ "\"latency_ns\": 140.0, ", "",
	  "sockets[0].curves[0].points[1].latency_ns: missing" },
	{ "\"latency_ns\": 140.0", "\"latency_ns\": 0",
	  "sockets[0].curves[0].points[1].latency_ns: must be > 0" },
	{ "\"threads\": 19", "\"threads\": -1",
	  "sockets[0].curves[0].points[0].threads: out of range" },
	{ "\"threads\": 19", "\"threads\": 0",
	  "sockets[0].curves[0].points[0].threads: must be at least 1" },
	{ "\"bandwidth_gbps\": 70.0", "\"bandwidth_gbps\": 75.0",
	  "points[1].bandwidth_gbps: 75 is not read_gbps + write_gbps" },
	{ "\"peak_index\": 2", "\"peak_index\": 3",
	  "curves[0].peak_index: point 2 has more bandwidth than the peak 3" },
	{ "\"peak_index\": 2", "\"peak_index\": 9",
	  "curves[0].peak_index: 9 is past the last point" },
	{ "\"read_fraction\": 0.5", "\"read_fraction\": 1.5",
	  "curves[1].read_fraction: must be in 0..1" },
	{ "\"read_fraction\": 0.5", "\"read_fraction\": 1.0",
	  "curves[1].read_fraction: curves[0] has the same mix" },
	{ "\"prefetch\": \"off\"", "\"prefetch\": \"auto\"",
	  "curves[2].prefetch: not one of the allowed values" },
	{ "\"cov\": 0.01", "\"cov\": NaN", "points[0].cov: not a finite number" },
	{ "\"cov\": 0.01", "\"cov\": 1e999", "points[0].cov: not a finite number" },
	{ "\"cov\": 0.01", "\"cov\": 0.01,", "not valid JSON at byte" },
	{ "\"sockets\": [{", "\"sockets\": [7, {", "sockets[0]: not an object" },
	{ "\"curves\": [", "\"curves\": [], \"x\": [", "curves: needs at least 1 element" },
	{ "]}]}\n", "]}]} {}\n", "not valid JSON at byte" },
};

TEST(malformed_names_the_field)
{
	char why[CURVE_WHY_SIZE];
	struct curve c;
	size_t i;

	for (i = 0; i < sizeof(bad_edits) / sizeof(bad_edits[0]); i++) {
		char *text = edit(bad_edits[i].from, bad_edits[i].to);

		ASSERT_NE(NULL, text) TH_LOG("edit %zu does not apply", i);
		why[0] = '\0';
		EXPECT_EQ(-1, load_text(text, &c, why));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_NE(NULL, strstr(why, bad_edits[i].want))
			TH_LOG("edit %zu: got \"%s\", want \"%s\"", i, why,
			       bad_edits[i].want);
		curve_free(&c);
		free(text);
	}
	EXPECT_EQ(-1, load_text("null", &c, why));
	EXPECT_NE(NULL, strstr(why, "c.json: not a JSON object")) TH_LOG("%s", why);
	curve_free(&c);
	EXPECT_EQ(-1, load_text("[1, 2]", &c, why));
	EXPECT_NE(NULL, strstr(why, "c.json: not a JSON object")) TH_LOG("%s", why);
	curve_free(&c);
}

/* Every strict prefix of a good file is refused, none crashes. */
TEST(truncated_everywhere)
{
	char why[CURVE_WHY_SIZE];
	const char *path;
	struct curve c;
	size_t len, ends_early = 0;

	for (len = 0; len < strlen(good) - 1; len++) {
		path = put(good, len);
		ASSERT_NE(NULL, path);
		why[0] = '\0';
		ASSERT_EQ(-1, curve_load(path, &c, why, sizeof(why)))
			TH_LOG("prefix of %zu bytes accepted", len);
		ASSERT_NE('\0', why[0]);
		ends_early += !!strstr(why, "truncated");
		curve_free(&c);
	}
	/* most prefixes end inside a value or container: named as such */
	EXPECT_GT(ends_early, strlen(good) / 2);
	EXPECT_EQ(-1, curve_load("/nonexistent/curve.json", &c, why, sizeof(why)));
	EXPECT_EQ(ENOENT, errno);
	curve_free(&c);
}

TEST(find_load_without_file)
{
	char why[CURVE_WHY_SIZE], used[256];
	struct curve c;

	/* as root the system directory is the user's own: skip there */
	if (geteuid() == 0 && !access(CURVE_SYSTEM_DIR "/" CURVE_FILE, F_OK))
		SKIP(return, "a system curve file exists");
	setenv("XDG_STATE_HOME", tmpdir, 1);
	EXPECT_EQ(-1, curve_find_load(NULL, &c, used, sizeof(used), why,
				      sizeof(why)));
	EXPECT_STREQ("no curve: run memdiagctl calibrate", why);
	curve_free(&c);
}

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

TEST(fingerprint_kinds)
{
	struct curve_fp a, b, y, none = { 0 };
	char reason[CURVE_WHY_SIZE];
	unsigned int f;

	curve_fp_collect(&a, "on");
	/* this machine always has these */
	ASSERT_NE(NULL, a.v[CURVE_FP_CPU_VENDOR]);
	ASSERT_NE(NULL, a.v[CURVE_FP_KERNEL]);
	ASSERT_NE(NULL, a.v[CURVE_FP_CPUS]);
	ASSERT_NE(NULL, a.v[CURVE_FP_NUMA]);
	EXPECT_EQ(0, curve_fp_compare(&a, &a, reason, sizeof(reason)));
	for (f = 0; f < NR_CURVE_FP; f++) {
		const char *key = curve_fp_key(f);
		int want = f != CURVE_FP_CPU_MODEL_NAME && f != CURVE_FP_PREFETCH;

		memset(&b, 0, sizeof(b));
		b.v[f] = (char *)"x";
		/* the file knows the field and the machine does not: skipped */
		EXPECT_EQ(0, curve_fp_compare(&b, &none, reason, sizeof(reason)));
		reason[0] = '\0';
		/* x against y: stale unless the field is never compared */
		memset(&y, 0, sizeof(y));
		y.v[f] = (char *)"y";
		EXPECT_EQ(want, curve_fp_compare(&b, &y, reason, sizeof(reason)))
			TH_LOG("field %s", key);
		if (want) {
			EXPECT_NE(NULL, strstr(reason, "changed (x -> y)"))
				TH_LOG("%s: %s", key, reason);
		}
	}
	memset(&b, 0, sizeof(b));
	b.v[CURVE_FP_MICROCODE] = (char *)"0x1";
	EXPECT_EQ(1, curve_fp_compare(&b, &(struct curve_fp){
		.v[CURVE_FP_MICROCODE] = (char *)"0x2" }, reason, sizeof(reason)));
	EXPECT_STREQ("curve is stale: microcode changed (0x1 -> 0x2)", reason);
	curve_fp_free(&a);
}

/* A "run stream" document whose copy counted @rd and @wr bytes of 24e9/16e9. */
static json_object *stream_doc(const char *rd, const char *wr, const char *ocr)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"results\": [{\"op\": \"scale\", \"counters\": null},"
		 " {\"op\": \"copy\", \"counters\": {\"traffic_bytes\": 24e9,"
		 " \"traffic_read_bytes\": 16e9, \"read_bytes\": %s,"
		 " \"write_bytes\": %s, \"offcore_read_bytes\": %s},"
		 " \"counters_reason\": null}]}", rd, wr, ocr);
	return json_tokener_parse(text);
}

TEST(validate_rows)
{
	struct vcheck c[VALIDATE_NR_RULES];
	json_object *d;

	/* exact counts: every row passes at ratio 1 */
	d = stream_doc("16e9", "8e9", "16e9");
	validate_judge(d, "copy", false, c);
	EXPECT_STREQ("imc_bytes", c[0].counter);
	EXPECT_TRUE(c[0].pass && c[1].pass && c[2].pass);
	EXPECT_DBL(1, c[0].ratio);
	json_object_put(d);
	/* the boundaries: 0.90 and 1.15 pass, just outside fails */
	d = stream_doc("14.4e9", "7.2e9", "8e9");
	validate_judge(d, "copy", false, c);
	EXPECT_TRUE(c[0].pass && c[1].pass);
	EXPECT_TRUE(c[2].pass);		/* offcore: 0.5 is its bound */
	json_object_put(d);
	d = stream_doc("14.3e9", "7.2e9", "7.9e9");
	validate_judge(d, "copy", false, c);
	EXPECT_FALSE(c[0].pass);
	EXPECT_STREQ("the counters saw 90% of the traffic", c[0].why);
	EXPECT_FALSE(c[2].pass);
	json_object_put(d);
	d = stream_doc("18.5e9", "9.2e9", "16e9");
	validate_judge(d, "copy", false, c);
	EXPECT_FALSE(c[0].pass);
	EXPECT_NE(NULL, strstr(c[0].why, "saw 115% of the traffic (other traffic"));
	json_object_put(d);
	/* half, and nothing: said loudly */
	d = stream_doc("8e9", "4e9", "0");
	validate_judge(d, "copy", true, c);
	EXPECT_FALSE(c[0].pass);
	EXPECT_STREQ("the counters saw about half of the traffic (a channel or socket not counted?)",
		     c[0].why);
	EXPECT_NE(NULL, strstr(c[2].why, "saw almost none of the traffic"));
	EXPECT_TRUE(c[0].nt);
	json_object_put(d);
	/* no counters, no op, no document: failing rows with the reason */
	d = json_tokener_parse("{\"results\": [{\"op\": \"copy\", \"counters\": null,"
			       " \"counters_reason\": \"the module is not loaded\"}]}");
	validate_judge(d, "copy", false, c);
	EXPECT_FALSE(c[0].pass);
	EXPECT_STREQ("no counters: the module is not loaded", c[0].why);
	validate_judge(d, "triad", false, c);
	EXPECT_STREQ("no counters: the stream run printed no result for this op", c[1].why);
	json_object_put(d);
	validate_judge(NULL, "copy", false, c);
	EXPECT_FALSE(c[0].pass || c[1].pass || c[2].pass);
}

TEST_HARNESS_MAIN
