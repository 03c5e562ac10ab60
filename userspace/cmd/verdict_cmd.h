/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict_cmd.h - what the commands that show a verdict (snapshot, watch,
 * top) share: opening the curve file they were given (verdict_cmd.c).
 */

#ifndef MEMDIAGCTL_VERDICT_CMD_H
#define MEMDIAGCTL_VERDICT_CMD_H

#include "verdict_live.h"

/*
 * verdict_src_open() with the rule of every command that reads a curve
 * (Documentation/curves.rst): a @path given that cannot be read (missing,
 * truncated, not a curve file) is an error naming it, said on stderr for
 * @cmd; MDC_EXIT_LOCAL, with @vs closed. Otherwise MDC_EXIT_OK, and an
 * unusable curve only means no verdict.
 */
int verdict_src_open_cmd(struct verdict_src *vs, const char *cmd,
			 const char *path);

#endif /* MEMDIAGCTL_VERDICT_CMD_H */
