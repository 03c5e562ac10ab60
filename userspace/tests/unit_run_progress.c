// SPDX-License-Identifier: GPL-2.0
/*
 * unit_run_progress.c - unit tests: the progress line of "run"
 * (run/progress.c) and what kernels/repeat.c tells it: the phase's name,
 * the seconds the measurement has left and its pace, and the whole run's
 * time left from the kernel's plan of runs.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "helpers.h"
#include "run/progress.h"
#include "units.h"

/* the unit: "unit.bin -f run_progress" runs its tests alone */
FIXTURE(run_progress) {};
FIXTURE_SETUP(run_progress) {}
FIXTURE_TEARDOWN(run_progress) {}

TEST_F(run_progress, progress_text)
{
	struct kern_progress pr = { .phase = 3, .nphases = 4, .rep = 3,
				    .reps = 12, .by_phase = true,
				    .name = "triad", .left_sec = 2.4,
				    .pace_sec = 0.1 };
	struct run_progress rp = { .name = "stream", .nruns = 1 };
	char s[192];

	run_progress_text(s, sizeof(s), &rp, &pr);
	is_str(s, "stream: phase 4/4 triad, repetition 3 of ~12, ~2 s left",
	       "run progress: stream's phase, op, repetition and time left");
	pr.by_phase = false;
	pr.nphases = 1;
	pr.phase = 0;
	pr.name = "avx-prefetch";
	pr.left_sec = 0.3;
	rp.name = "transpose";
	run_progress_text(s, sizeof(s), &rp, &pr);
	is_str(s, "transpose: avx-prefetch, repetition 3 of ~12, <1 s left",
	       "run progress: a one-phase kernel's variant, under a second left");
	pr.name = NULL;
	pr.left_sec = 75;
	rp.name = "latency";
	snprintf(rp.what, sizeof(rp.what), "256M");
	run_progress_text(s, sizeof(s), &rp, &pr);
	is_str(s, "latency 256M: repetition 3 of ~12, ~75 s left",
	       "run progress: the size measured");
	pr.left_sec = -1;
	snprintf(rp.what, sizeof(rp.what), "0->1");
	run_progress_text(s, sizeof(s), &rp, &pr);
	is_str(s, "latency 0->1: repetition 3 of ~12",
	       "run progress: no time left said before anything is timed");
	run_progress_text(s, 12, &rp, &pr);
	is_str(s, "latency 0->", "run progress: a short buffer is cut, ended");
	/* a kernel without a plan: the running measurement's, said so */
	pr.left_sec = 3.2;
	rp.nruns = 0;
	run_progress_text(s, sizeof(s), &rp, &pr);
	is_str(s, "latency 0->1: repetition 3 of ~12, ~3 s left in this measurement",
	       "run progress: no plan -> the time left of this measurement, worded so");
}

/* The whole run's time left from a plan of sizes of unequal work. */
TEST_F(run_progress, whole)
{
	struct kern_progress pr = { .nphases = 1, .rep = 2, .reps = 5,
				    .left_sec = 0.3, .pace_sec = 0.1 };
	struct run_progress rp = { .name = "latency" };
	const double work[3] = { 1, 2, 4 };
	const struct kern_cfg cfg = { .reps = 5, .min_time = 0.2,
				      .progress = run_progress,
				      .progress_arg = &rp };
	bool whole;
	double left;

	run_progress_plan(&cfg, 3, work);
	/* later: max(0.2, 5 x 0.1 x 2) + max(0.2, 5 x 0.1 x 4) */
	left = run_progress_left(&rp, &pr, &whole);
	ok(whole && fabs(left - 3.3) < 1e-9,
	   "run progress plan: the first size's 0.3 s and the later ones' 3 s (%.3f)",
	   left);
	pr.pace_sec = 0.01;	/* --min-time bound: 0.2 s for each */
	left = run_progress_left(&rp, &pr, &whole);
	ok(whole && fabs(left - 0.7) < 1e-9,
	   "run progress plan: --min-time per later size when reps are quick (%.3f)",
	   left);
	pr.nphases = 3;		/* every phase of each: three times as long */
	left = run_progress_left(&rp, &pr, &whole);
	ok(fabs(left - 1.5) < 1e-9, "run progress plan: each phase of a later size (%.3f)",
	   left);
	/* the first run ends: the second's time, scaled from its own pace */
	pr.nphases = 1;
	pr.done = true;
	pr.left_sec = 0;
	run_progress(&rp, &pr);
	ok(rp.runs_done == 1, "run progress plan: a run's last call ends it (%u)",
	   rp.runs_done);
	pr.done = false;
	pr.left_sec = 0.5;
	pr.pace_sec = 0.2;
	left = run_progress_left(&rp, &pr, &whole);
	ok(whole && fabs(left - 0.5 - 5 * 0.2 * 2) < 1e-9,
	   "run progress plan: the second size's own and the last one's at twice the work (%.3f)",
	   left);
	pr.pace_sec = -1;
	left = run_progress_left(&rp, &pr, &whole);
	ok(left < 0, "run progress plan: no pace, later runs -> unknown (%.3f)", left);
	rp.runs_done = 2;
	pr.left_sec = 0.4;
	left = run_progress_left(&rp, &pr, &whole);
	ok(whole && fabs(left - 0.4) < 1e-9,
	   "run progress plan: the last size's own time is all that is left (%.3f)",
	   left);
	rp.runs_done = 3;	/* past the plan: the running one only */
	left = run_progress_left(&rp, &pr, &whole);
	ok(!whole && fabs(left - 0.4) < 1e-9,
	   "run progress plan: past the plan -> this measurement's, not the whole (%.3f)",
	   left);
	run_progress_plan(&cfg, RUN_PROGRESS_MAX_RUNS + 1, work);
	left = run_progress_left(&rp, &pr, &whole);
	ok(!whole, "run progress plan: too many runs to list -> this measurement's only");
}

/* ---- repeat.c's side: a kernel whose calls take about 2 ms ---- */

#define CALLS_MAX 32

struct seen {
	unsigned int n;
	struct kern_progress pr[CALLS_MAX];
};

static void nap_body(void *ctx, unsigned int tid, unsigned int phase)
{
	struct timespec ts = { 0, 2000000 };

	(void)ctx;
	(void)tid;
	(void)phase;
	nanosleep(&ts, NULL);
}

static int nap_setup(void *ctx, unsigned int tid)
{
	(void)ctx;
	(void)tid;
	return 0;
}

static const char *nap_name(void *ctx, unsigned int phase)
{
	(void)ctx;
	return phase ? "second" : "first";
}

static void record(void *arg, const struct kern_progress *pr)
{
	struct seen *s = arg;

	if (s->n < CALLS_MAX)
		s->pr[s->n++] = *pr;
}

static void left_case(struct __test_metadata *_metadata, bool by_phase)
{
	struct kern_ops ops = { .setup = nap_setup, .body = nap_body,
				.nphases = 2, .by_phase = by_phase,
				.phase_name = nap_name };
	int cpu = 0;
	struct kern_cfg cfg = { .nthreads = 1, .cpu = &cpu, .reps = 3,
				.progress = record };
	const char *how = by_phase ? "by phase" : "phases in turn";
	struct kern_times t;
	struct seen s = { 0 };
	double pace, want;
	char err[128];
	int rc;

	cfg.progress_arg = &s;
	rc = kern_run_timed(&cfg, &ops, NULL, &t, err, sizeof(err));
	ok(rc == 0, "run progress %s: the run ends (%s)", how,
	   rc ? err : "ok");
	if (rc || !s.n) {
		kern_times_free(&t);
		return;
	}
	if (by_phase) {
		/* after phase 0's first call: 2 more of it, 3 of phase 1 */
		pace = t.ph[0].sec[0];
		want = 5 * pace;
		is_str(s.pr[0].name, "first", "run progress by phase: the phase's name");
		is_str(s.pr[3].name, "second", "run progress by phase: the next phase's name");
	} else {
		/* after the first repetition: 2 more of both phases */
		pace = t.ph[0].sec[0] + t.ph[1].sec[0];
		want = 2 * pace;
		ok(!s.pr[0].name, "run progress phases in turn: no single phase's name");
	}
	ok(fabs(s.pr[0].pace_sec - (by_phase ? pace : pace / 2)) <
	   1e-9 * (1 + pace),
	   "run progress %s: the pace per repetition of a phase %.6f s", how,
	   s.pr[0].pace_sec);
	ok(fabs(s.pr[0].left_sec - want) < 1e-9 * (1 + want),
	   "run progress %s: left after the first call %.6f s, want %.6f", how,
	   s.pr[0].left_sec, want);
	ok(s.pr[s.n - 1].left_sec == 0 && s.pr[s.n - 1].done,
	   "run progress %s: nothing left at the end (%.6f)", how,
	   s.pr[s.n - 1].left_sec);
	kern_times_free(&t);
}

TEST_F(run_progress, left_by_phase)
{
	left_case(_metadata, true);
}

TEST_F(run_progress, left_in_turn)
{
	left_case(_metadata, false);
}
