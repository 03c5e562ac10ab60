// SPDX-License-Identifier: GPL-2.0
/*
 * probe_idle_test.c - the probe's labels on an idle machine, from samples
 * recorded there (kselftest harness): each recording is a curve,
 * tests/data/probe-idle-NAME.curve.json, and the `memdiagctl -j probe`
 * lines taken on the same idle machine right after it,
 * tests/data/probe-idle-NAME.jsonl. Every sample is placed again with
 * probe_place() and judged with probe_trust(), as probe_sample_take()
 * does, so the test holds the label rule to its rate, not this host's
 * timing: under 1 % of an idle machine's samples may get a label other
 * than idle or unknown (Documentation/calibrate.rst, "The labels").
 */

#include <glob.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include "calib/probe.h"
#include "curve/curve.h"

struct tally {
	unsigned int n, busy, unknown;
};

/* One recording's samples through the rule; false if unreadable. */
static bool replay(const struct curve_socket *s, const char *path,
		   struct tally *t)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		struct json_object *o = json_tokener_parse(line), *lv, *nv;
		double lat, noise;
		struct probe_est e;

		if (!o)
			continue;
		if (!json_object_object_get_ex(o, "latency_ns", &lv) ||
		    !json_object_object_get_ex(o, "noise_ns", &nv)) {
			json_object_put(o);
			fclose(f);
			return false;
		}
		lat = json_object_get_double(lv);
		noise = json_object_get_double(nv);
		json_object_put(o);
		probe_place(s, CURVE_PF_UNCHANGED, lat, &e);
		if (!e.valid)
			probe_place(s, CURVE_PF_ON, lat, &e);
		probe_trust(s, lat, noise, &e);
		t->n++;
		if (!e.label_known)
			t->unknown++;
		else if (e.label != VERDICT_IDLE)
			t->busy++;
	}
	fclose(f);
	return true;
}

TEST(idle_samples_are_labelled_idle)
{
	glob_t g;
	size_t i;

	ASSERT_EQ(0, glob("tests/data/probe-idle-*.jsonl", 0, NULL, &g));
	for (i = 0; i < g.gl_pathc; i++) {
		char curve_path[512], why[256];
		const struct curve_socket *s;
		struct tally t = { 0 };
		struct curve c;
		size_t len = strlen(g.gl_pathv[i]) - strlen(".jsonl");

		snprintf(curve_path, sizeof(curve_path), "%.*s.curve.json",
			 (int)len, g.gl_pathv[i]);
		ASSERT_EQ(0, curve_load(curve_path, &c, why, sizeof(why)))
			TH_LOG("%s: %s", curve_path, why);
		s = curve_socket_find(&c, 0);
		ASSERT_NE(NULL, s);
		/* an unreliable curve labels every sample unknown: no test */
		ASSERT_TRUE(curve_reliable(s)) TH_LOG("%s is not reliable",
						      curve_path);
		ASSERT_TRUE(replay(s, g.gl_pathv[i], &t))
			TH_LOG("%s: unreadable", g.gl_pathv[i]);
		ASSERT_GE(t.n, 200) TH_LOG("%s: %u samples", g.gl_pathv[i], t.n);
		/* the rule must still label: a fifth or more known */
		EXPECT_GE(5 * (t.n - t.unknown), t.n);
		EXPECT_LT(100 * t.busy, t.n)
			TH_LOG("%s: %u of %u idle samples labelled busier than idle",
			       g.gl_pathv[i], t.busy, t.n);
		printf("# %s: %u samples, %u labelled busier than idle, %u unknown\n",
		       g.gl_pathv[i], t.n, t.busy, t.unknown);
		curve_free(&c);
	}
	globfree(&g);
}

TEST_HARNESS_MAIN
