// SPDX-License-Identifier: GPL-2.0
/*
 * unit_whole.c - whole timing (kern_cfg.timing, run --timing whole,
 * kernels/repeat.c): each thread runs its whole iteration count between
 * two barriers and the time is the slowest thread's own. Thread 0's
 * calls return at once, thread 1's sleep 2 ms each (sleeps: the
 * properties hold on a busy machine too):
 *
 *  - whole: thread 0 runs ahead of thread 1 by more than one call, as no
 *    barrier stands between the calls of a repetition; there are
 *    exactly cfg.reps repetitions of the calls that last min_time (2 or
 *    more here), and one call's time is thread 1's, 2 ms or more.
 *  - repetition: never more than one call apart, one call a repetition.
 *  - a kernel whose ops do not take it is refused.
 */

#include <stdatomic.h>
#include <time.h>

#include "../../kernels/kernel.h"
#include "units.h"

/* the unit: "unit.bin -f whole" runs its tests alone */
FIXTURE(whole) {};
FIXTURE_SETUP(whole) {}
FIXTURE_TEARDOWN(whole) {}

struct wh_ctx {
	_Atomic unsigned int calls[2];	/* body() calls so far, per thread */
	_Atomic int ahead;	/* most calls thread 0 was ahead of thread 1 */
};

static void wh_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct wh_ctx *ctx = vctx;
	struct timespec ts = { 0, 2000000 };
	int d;

	(void)phase;
	if (tid) {
		nanosleep(&ts, NULL);
		d = (int)ctx->calls[0] - (int)ctx->calls[1] - 1;
		if (d > ctx->ahead)
			ctx->ahead = d;
	}
	ctx->calls[tid]++;
}

/* 3 repetitions on two threads: their timing, or reps 0 on failure */
static struct kern_timed wh_run(struct wh_ctx *ctx, enum kern_timing timing,
				bool whole_ok, char *err, size_t errsz)
{
	static const int cpu[2] = { 0, 0 };	/* a sleeper shares a CPU */
	struct kern_ops ops = { .setup = unit_setup_nothing, .body = wh_body,
				.nphases = 1, .whole = whole_ok };
	struct kern_cfg cfg = { .nthreads = 2, .cpu = cpu, .reps = 3,
				.min_time = 0.02, .timing = timing };
	struct kern_timed t = { 0 };
	struct kern_times tm;

	if (!kern_run_timed(&cfg, &ops, ctx, &tm, err, errsz))
		t = kern_timed_of(&tm.ph[0]);
	kern_times_free(&tm);
	return t;
}

TEST_F(whole, no_barrier_between_the_calls_of_a_run)
{
	struct wh_ctx ctx = { 0 };
	char err[128] = "";
	struct kern_timed t = wh_run(&ctx, KERN_TIMING_WHOLE, true, err,
				     sizeof(err));

	ASSERT_EQ(t.reps, 3) TH_LOG("%s", err);
	/* 20 ms of 2 ms calls: 11 with the margin, fewer if sleeps run long */
	EXPECT_GE(t.parts, 2);
	EXPECT_GE(ctx.ahead, 1);
	/* one call's time is thread 1's: a 2 ms sleep at least */
	EXPECT_GE(t.sec / t.reps / t.parts, 0.002);
	EXPECT_GE(t.wait, 0.0);
	EXPECT_LT(t.wait, 1.0);
}

TEST_F(whole, each_repetition_ends_at_a_barrier_by_default)
{
	struct wh_ctx ctx = { 0 };
	char err[128] = "";
	struct kern_timed t = wh_run(&ctx, KERN_TIMING_REPETITION, true, err,
				     sizeof(err));

	ASSERT_GE(t.reps, 3) TH_LOG("%s", err);
	EXPECT_EQ(t.parts, 1);
	EXPECT_LE(ctx.ahead, 0);
}

TEST_F(whole, refused_where_the_kernel_does_not_take_it)
{
	struct wh_ctx ctx = { 0 };
	char err[128] = "";
	struct kern_timed t = wh_run(&ctx, KERN_TIMING_WHOLE, false, err,
				     sizeof(err));

	EXPECT_EQ(t.reps, 0);
	EXPECT_NE(NULL, strstr(err, "cannot be timed whole"));
}
