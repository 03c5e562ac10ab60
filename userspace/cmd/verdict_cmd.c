// SPDX-License-Identifier: GPL-2.0
/*
 * verdict_cmd.c - a command's --curve: the file opened as curve/ opens
 * it, and an unreadable one reported as the command's error, so that
 * curve/ itself prints nothing.
 */

#include "cli.h"
#include "verdict_cmd.h"

int verdict_src_open_cmd(struct verdict_src *vs, const char *cmd,
			 const char *path)
{
	verdict_src_open(vs, path);
	if (!path || !vs->unreadable)
		return MDC_EXIT_OK;
	/* vs->reason names the file and what is wrong with it */
	cli_err(cmd, "cannot read the curves", "%s", vs->reason);
	verdict_src_close(vs);
	return MDC_EXIT_LOCAL;
}
