/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - the progress line of "memdiagctl run" on a terminal: which
 * kernel, size or cell, phase and repetition is running, and about how
 * long the run has left.
 */

#ifndef MEMDIAGCTL_RUN_PROGRESS_H
#define MEMDIAGCTL_RUN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "../../kernels/kernel.h"

/* The most runs a plan lists the work of one by one (run_progress_plan()). */
#define RUN_PROGRESS_MAX_RUNS 32

/* What the progress callback does: a line on a terminal, the test hook. */
struct run_progress {
	const char *name;	/* the kernel's */
	char what[48];		/* the size or cell running, "" for none */
	bool tty;
	unsigned int sigint_after;	/* 0: no hook */
	unsigned int done;	/* measurements complete so far */
	/*
	 * The plan: the kernel's runs (kern_run_timed() calls, each a
	 * measurement of all its phases), @nruns of them, 0 when the kernel
	 * did not say; @work their relative work per repetition (a latency
	 * size's loads), all equal when @equal. @runs_done of them are over.
	 */
	unsigned int nruns, runs_done;
	bool equal;
	double work[RUN_PROGRESS_MAX_RUNS];
	unsigned int reps;	/* cfg->reps and cfg->min_time of the runs */
	double min_time;
};

/*
 * Seconds the whole run has left after @pr: the running run's own
 * (pr->left_sec), and each later run of the plan as long as --min-time or
 * --reps of it take, at pr's pace scaled by its work; *@whole true. No
 * plan (or the runs beyond it): the running run's own, *@whole false.
 * Negative: not known yet (nothing timed).
 */
double run_progress_left(const struct run_progress *rp,
			 const struct kern_progress *pr, bool *whole);

/*
 * The line for @pr into @buf: "stream 1G: phase 4/4 triad, repetition
 * 3 of ~12, ~2 s left" (@rp's what and the phase's name left out when
 * there are none, the time when nothing is timed yet; "~2 s left in this
 * measurement" when only the running one is known).
 */
void run_progress_text(char *buf, size_t size, const struct run_progress *rp,
		       const struct kern_progress *pr);

/* The kern_cfg.progress callback: its argument a struct run_progress. */
void run_progress(void *arg, const struct kern_progress *pr);

/* @rp from the terminal and the environment (MEMDIAG_TEST_SIGINT_AFTER). */
void run_progress_init(struct run_progress *rp, const char *name);

/*
 * Name the size or cell @cfg measures next on its progress line (a
 * kernel that loops over sizes); nothing when @cfg shows no progress.
 */
void run_progress_what(const struct kern_cfg *cfg, const char *what);

/*
 * Before its first run: the kernel makes @nruns runs on @cfg (a size,
 * variant or cell each), the i-th doing @work[i] per repetition in any
 * unit (NULL: all the same), so the line can say the whole run's time
 * left. Nothing when @cfg shows no progress.
 */
void run_progress_plan(const struct kern_cfg *cfg, unsigned int nruns,
		       const double *work);

#endif /* MEMDIAGCTL_RUN_PROGRESS_H */
