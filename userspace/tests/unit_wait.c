// SPDX-License-Identifier: GPL-2.0
/*
 * unit_wait.c - each result's thread_wait_fraction (kernels/repeat.c):
 * the share of the threads' time in a repetition spent waiting for the
 * slowest one. Threads whose parts take known times (they sleep: no
 * CPU to share, so the shares hold on a busy machine too) give it: one
 * part 2 ms and one 10 ms is (10 - 2) / (2 x 10) = 0.4; equal parts
 * about 0; one thread none (NAN, printed as null).
 */

#include <math.h>
#include <time.h>

#include "../../kernels/kernel.h"
#include "units.h"

/* the unit: "unit.bin -f thread_wait" runs its tests alone */
FIXTURE(thread_wait) {};
FIXTURE_SETUP(thread_wait) {}
FIXTURE_TEARDOWN(thread_wait) {}

struct tw_ctx {
	double part_sec[2];	/* how long each thread's part takes */
};

static void tw_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct tw_ctx *ctx = vctx;
	double s = ctx->part_sec[tid];
	struct timespec ts = { 0, (long)(s * 1e9) };

	(void)phase;
	nanosleep(&ts, NULL);
}

static const struct kern_ops tw_ops = {
	.setup = unit_setup_nothing, .body = tw_body, .nphases = 1,
};

/* The median wait share of 5 repetitions of parts @a and @b s long. */
static double wait_of(unsigned int nthreads, double a, double b)
{
	static const int cpu[2] = { 0, 0 };	/* sleepers share a CPU */
	struct kern_cfg cfg = { .nthreads = nthreads, .cpu = cpu, .reps = 5 };
	struct tw_ctx ctx = { { a, b } };
	struct kern_times tm;
	struct kern_timed t;
	char err[128];

	if (kern_run_timed(&cfg, &tw_ops, &ctx, &tm, err, sizeof(err)))
		return -1;
	t = kern_timed_of(&tm.ph[0]);
	kern_times_free(&tm);
	return t.wait;
}

TEST_F(thread_wait, unequal_parts_give_their_share)
{
	double w = wait_of(2, 0.002, 0.010);

	/* 0.4 exactly; a late wake-up of either thread moves it a little */
	EXPECT_GT(w, 0.3);
	EXPECT_LT(w, 0.5);
}

TEST_F(thread_wait, equal_parts_wait_little)
{
	double w = wait_of(2, 0.010, 0.010);

	EXPECT_GE(w, 0);
	EXPECT_LT(w, 0.1);
}

TEST_F(thread_wait, one_thread_has_none)
{
	EXPECT_TRUE(isnan(wait_of(1, 0.002, 0)));
}
