/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress_line.h - the one progress line of every long command (run's
 * kernels, calibrate's points): where it is shown and how it is drawn.
 */

#ifndef MEMDIAGCTL_PROGRESS_LINE_H
#define MEMDIAGCTL_PROGRESS_LINE_H

#include <stdbool.h>

/*
 * Whether to show one: only where standard error is a terminal. Standard
 * output may be a file (-j > out.json); the line is on standard error
 * and never in the data.
 */
bool progress_line_wanted(void);

/* Draw @text over the line drawn before (it is erased first). */
void progress_line_show(const char *text);

/* The end of the work: keep the last line (a newline), or erase it. */
void progress_line_end(bool keep);

#endif /* MEMDIAGCTL_PROGRESS_LINE_H */
