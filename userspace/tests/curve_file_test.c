// SPDX-License-Identifier: GPL-2.0
/*
 * curve_file_test.c - the curve file on canned curves: loaded, saved, refused with the
 * field named, and the machine fingerprint that makes it stale (kselftest harness).
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "curve_lib.h"

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
	/* percentiles are optional: absent (an older file) they are 0 */
	EXPECT_EQ(0, s->mixes[0].points[0].latency_p50_ns);
	EXPECT_EQ(0, s->mixes[0].points[0].latency_p99_ns);
	EXPECT_EQ(110.0, s->mixes[1].points[0].latency_p50_ns);
	EXPECT_EQ(130.0, s->mixes[1].points[0].latency_p90_ns);
	EXPECT_EQ(180.0, s->mixes[1].points[0].latency_p99_ns);
	curve_free(&c);
}

TEST(save_roundtrip)
{
	char why[CURVE_WHY_SIZE] = "", path[96];
	struct curve a, b;
	size_t i;

	ASSERT_EQ(0, load_text(good, &a, why)) TH_LOG("%s", why);
	/* no directory is made: a mistyped path must leave none behind */
	snprintf(path, sizeof(path), "%s/new/dir/curve.json", tmpdir);
	EXPECT_EQ(-1, curve_save(path, &a, why, sizeof(why)));
	snprintf(path, sizeof(path), "%s/new", tmpdir);
	EXPECT_NE(0, access(path, F_OK));
	snprintf(path, sizeof(path), "%s/saved.json", tmpdir);
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
	{ "\"latency_p90_ns\": 130.0", "\"latency_p90_ns\": 100.0",
	  "curves[1].points[0].latency_p90_ns: must be >= latency_p50_ns" },
	{ "\"latency_p99_ns\": 180.0, ", "",
	  "curves[1].points[0].latency_p99_ns: must be >= latency_p90_ns" },
	{ "\"latency_p50_ns\": 110.0", "\"latency_p50_ns\": \"110\"",
	  "curves[1].points[0].latency_p50_ns: not a number" },
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
	/* where it looked, once, without "no curve" twice in a message */
	EXPECT_NE(NULL, strstr(why, "no curve in "));
	if (geteuid())	/* root's own file is the system one */
		EXPECT_NE(NULL, strstr(why, tmpdir));
	EXPECT_NE(NULL, strstr(why, CURVE_SYSTEM_DIR "/" CURVE_FILE));
	EXPECT_NE(NULL, strstr(why, ": run memdiagctl calibrate"));
	EXPECT_EQ(ENOENT, errno);
	curve_free(&c);
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

TEST_HARNESS_MAIN
