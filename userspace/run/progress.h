/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - the progress line of "memdiagctl run" on a terminal: which
 * kernel, size or cell, phase and repetition is running, and about how
 * long the measurement has left.
 */

#ifndef MEMDIAGCTL_RUN_PROGRESS_H
#define MEMDIAGCTL_RUN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "../../kernels/kernel.h"

/* What the progress callback does: a line on a terminal, the test hook. */
struct run_progress {
	const char *name;	/* the kernel's */
	char what[48];		/* the size or cell running, "" for none */
	bool tty;
	unsigned int sigint_after;	/* 0: no hook */
	unsigned int done;	/* measurements complete so far */
};

/*
 * The line for @pr into @buf: "stream 1G: phase 4/4 triad, repetition
 * 3 of ~12, ~2 s left" (@what and the phase's name left out when there
 * are none, the time when nothing is timed yet).
 */
void run_progress_text(char *buf, size_t size, const char *kernel,
		       const char *what, const struct kern_progress *pr);

/* The kern_cfg.progress callback: its argument a struct run_progress. */
void run_progress(void *arg, const struct kern_progress *pr);

/* @rp from the terminal and the environment (MEMDIAG_TEST_SIGINT_AFTER). */
void run_progress_init(struct run_progress *rp, const char *name);

/*
 * Name the size or cell @cfg measures next on its progress line (a
 * kernel that loops over sizes); nothing when @cfg shows no progress.
 */
void run_progress_what(const struct kern_cfg *cfg, const char *what);

#endif /* MEMDIAGCTL_RUN_PROGRESS_H */
