// SPDX-License-Identifier: GPL-2.0
/*
 * unit_lengthen.c - lengthened repetitions (kern_ops.lengthen,
 * kernels/repeat.c). Two threads whose parts take known times (they
 * sleep, so the shares hold on a busy machine too):
 *
 *  - taking turns: in odd calls thread 0 sleeps 6 ms and thread 1 2 ms,
 *    in even calls the other way round. One call a repetition waits
 *    (6 - 2) / (2 x 6) = a third; two calls, 8 ms each, about nothing.
 *    The loop must double (once, unless wake-ups are late) and keep it.
 *  - steady: thread 1 always 3 times thread 0. More calls do not help:
 *    one doubling shows it, and the loop stops there.
 *  - the series keeps one call's time: the repetition's over its parts.
 */

#include <math.h>
#include <time.h>

#include "../../kernels/kernel.h"
#include "units.h"

/* the unit: "unit.bin -f lengthen" runs its tests alone */
FIXTURE(lengthen) {};
FIXTURE_SETUP(lengthen) {}
FIXTURE_TEARDOWN(lengthen) {}

struct ln_ctx {
	bool steady;
	unsigned int calls[2];	/* body() calls so far, per thread */
};

static void ln_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct ln_ctx *ctx = vctx;
	unsigned int k = ctx->calls[tid]++;
	double s;
	struct timespec ts;

	(void)phase;
	if (ctx->steady)
		s = tid ? 0.006 : 0.002;
	else
		s = (k + tid) % 2 ? 0.006 : 0.002;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)(s * 1e9);
	nanosleep(&ts, NULL);
}

/* 5 repetitions of @ctx's parts: their timing, or reps 0 on failure */
static struct kern_timed run(struct ln_ctx *ctx, bool lengthen,
			     unsigned int nthreads)
{
	static const int cpu[2] = { 0, 0 };	/* sleepers share a CPU */
	struct kern_ops ops = { .setup = unit_setup_nothing, .body = ln_body,
				.nphases = 1, .lengthen = lengthen };
	struct kern_cfg cfg = { .nthreads = nthreads, .cpu = cpu, .reps = 5 };
	struct kern_timed t = { 0 };
	struct kern_times tm;
	char err[128];

	if (!kern_run_timed(&cfg, &ops, ctx, &tm, err, sizeof(err)))
		t = kern_timed_of(&tm.ph[0]);
	kern_times_free(&tm);
	return t;
}

TEST_F(lengthen, turns_average_out_in_more_parts)
{
	struct ln_ctx ctx = { .steady = false };
	struct kern_timed t = run(&ctx, true, 2);

	ASSERT_EQ(t.reps, 5);
	/* 2; a late wake-up of 2 % may double it once more */
	EXPECT_GE(t.parts, 2);
	EXPECT_LE(t.parts, 4);
	EXPECT_LT(t.wait, 0.1);
	/* one call kept: 8 ms a repetition over 2 parts, plus wake-ups */
	EXPECT_GT(t.sec / t.reps / t.parts, 0.0035);
	EXPECT_LT(t.sec / t.reps / t.parts, 0.0060);
}

TEST_F(lengthen, without_it_each_repetition_waits)
{
	struct ln_ctx ctx = { .steady = false };
	struct kern_timed t = run(&ctx, false, 2);

	ASSERT_EQ(t.reps, 5);
	EXPECT_EQ(t.parts, 1);
	EXPECT_GT(t.wait, 0.25);
}

TEST_F(lengthen, a_steady_spread_stops_the_doubling)
{
	struct ln_ctx ctx = { .steady = true };
	struct kern_timed t = run(&ctx, true, 2);

	ASSERT_EQ(t.reps, 5);
	/* 1 call waits a third, so do 2: doubled once, then kept */
	EXPECT_EQ(t.parts, 2);
	EXPECT_GT(t.wait, 0.25);
}

TEST_F(lengthen, one_thread_never_lengthens)
{
	struct ln_ctx ctx = { .steady = false };
	struct kern_timed t = run(&ctx, true, 1);

	ASSERT_EQ(t.reps, 5);
	EXPECT_EQ(t.parts, 1);
}
