/* SPDX-License-Identifier: GPL-2.0 */
/*
 * repeat.h - between harness.c, which starts, pins and sets up the
 * threads, and repeat.c, whose loop they run the timed calls in.
 */

#ifndef MEMDIAG_KERNELS_REPEAT_H
#define MEMDIAG_KERNELS_REPEAT_H

#include "barrier.h"
#include "kernel.h"

/* One run's loop: set by kern_run_timed(), then thread 0's decisions. */
struct kern_loop {
	const struct kern_cfg *cfg;
	const struct kern_ops *ops;
	void *ctx;
	struct kern_times *times;
	struct kern_bar *bar;	/* every thread of the run */
	double *done_at;	/* [tid]: kern_now() when its part of a call ended */
	double *start_at;	/* [tid]: kern_now() when its part began */
	unsigned int phase, rep;	/* the next call */
	unsigned int parts;	/* body() calls per thread in it (1 or more) */
	bool whole;		/* cfg->timing is KERN_TIMING_WHOLE */
	bool sized;		/* whole: the phase's parts last min_time */
	bool marked;		/* cfg->mark was told this call begins */
	double wait_before;	/* the wait of the call lengthened last */
	double warmed;		/* seconds of calls thrown away (kern_ops.warm) */
	int end;		/* every measurement has enough */
	int stopped;		/* thread 0 saw cfg->stop */
	int oom;		/* a series could not grow */
};

/*
 * Every thread of the run calls this once its setup is done (and every
 * thread's was): the timed calls, until the loop ends or is stopped.
 */
void kern_loop_run(struct kern_loop *l, unsigned int tid);

#endif /* MEMDIAG_KERNELS_REPEAT_H */
