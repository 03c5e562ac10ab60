// SPDX-License-Identifier: GPL-2.0
/*
 * unit_warm.c - the warm-up (kern_ops.warm, kernels/repeat.c): the calls
 * of a run's first half second are timed and not kept. One thread whose
 * body() sleeps 8 ms for the first 0.3 s of the run and 1 ms after (it
 * sleeps, so the times hold on a busy machine too):
 *
 *  - with the warm-up, no 8 ms call is kept: every repetition is about
 *    1 ms, and the run lasts the warm-up's half second and more;
 *  - without it, the first repetitions are the slow ones;
 *  - with counters marking the calls (kern_cfg.mark), none is thrown
 *    away: every call marked is a repetition kept.
 */

#include <time.h>

#include "../../kernels/kernel.h"
#include "units.h"

/* the unit: "unit.bin -f warm" runs its tests alone */
FIXTURE(warm) {};
FIXTURE_SETUP(warm) {}
FIXTURE_TEARDOWN(warm) {}

struct wm_ctx {
	double start;		/* kern_now() at the first body() call */
	unsigned int marks;	/* KERN_MARK_BEGIN calls */
};

static void wm_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct wm_ctx *ctx = vctx;
	struct timespec ts = { 0 };
	double now = kern_now();

	(void)tid;
	(void)phase;
	if (!ctx->start)
		ctx->start = now;
	ts.tv_nsec = now - ctx->start < 0.3 ? 8000000 : 1000000;
	nanosleep(&ts, NULL);
}

static void wm_mark(void *arg, enum kern_mark m, unsigned int rep,
		    unsigned int phase)
{
	struct wm_ctx *ctx = arg;

	(void)rep;
	(void)phase;
	if (m == KERN_MARK_BEGIN)
		ctx->marks++;
}

/* 5 repetitions (no --min-time); @slow: how many took 5 ms or more */
static struct kern_timed wm_run(struct wm_ctx *ctx, bool warm, bool mark,
				unsigned int *slow)
{
	static const int cpu[1] = { 0 };
	struct kern_ops ops = { .setup = unit_setup_nothing, .body = wm_body,
				.nphases = 1, .warm = warm };
	struct kern_cfg cfg = { .nthreads = 1, .cpu = cpu, .reps = 5,
				.mark = mark ? wm_mark : NULL, .mark_arg = ctx };
	struct kern_timed t = { 0 };
	struct kern_times tm;
	char err[128];
	unsigned int i;

	*slow = 0;
	if (!kern_run_timed(&cfg, &ops, ctx, &tm, err, sizeof(err))) {
		t = kern_timed_of(&tm.ph[0]);
		for (i = 0; i < tm.ph[0].reps; i++)
			*slow += tm.ph[0].sec[i] >= 0.005;
	}
	kern_times_free(&tm);
	return t;
}

TEST_F(warm, the_first_half_second_is_not_kept)
{
	struct wm_ctx ctx = { 0 };
	unsigned int slow;
	struct kern_timed t = wm_run(&ctx, true, false, &slow);

	ASSERT_EQ(t.reps, 5);
	EXPECT_EQ(slow, 0);
	/* five calls of about 1 ms kept, after half a second thrown away */
	EXPECT_LT(t.sec, 0.020);
	EXPECT_GE(kern_now() - ctx.start, 0.5);
}

TEST_F(warm, without_it_the_slow_start_is_kept)
{
	struct wm_ctx ctx = { 0 };
	unsigned int slow;
	struct kern_timed t = wm_run(&ctx, false, false, &slow);

	ASSERT_EQ(t.reps, 5);
	EXPECT_EQ(slow, 5);
}

TEST_F(warm, counters_mark_only_calls_kept)
{
	struct wm_ctx ctx = { 0 };
	unsigned int slow;
	struct kern_timed t = wm_run(&ctx, true, true, &slow);

	ASSERT_EQ(t.reps, 5);
	EXPECT_EQ(ctx.marks, 5);
	EXPECT_EQ(slow, 5);
}
