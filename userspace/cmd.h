/* SPDX-License-Identifier: GPL-2.0 */
/* cmd.h - the memdiagctl commands the command table in memdiagctl.c runs. */

#ifndef MEMDIAGCTL_CMD_H
#define MEMDIAGCTL_CMD_H

#include <stdio.h>

#include <libmnl/libmnl.h>

#include "cli.h"
#include "print.h"

/*
 * A command gets the global options and its own argv (argv[0] is its
 * name) and returns an exit code from enum mdc_exit, having reported any
 * failure itself.
 */
int cmd_info(const struct opts *o, int argc, char **argv);
void cmd_info_usage(FILE *f);

/*
 * Print a get-info reply. Returns an exit code: the reply is checked
 * before anything is printed. Separate from cmd_info() so the tests can
 * feed it canned replies.
 */
int info_show(const char *cmd, struct printer *p, const struct nlmsghdr *nlh);

#endif /* MEMDIAGCTL_CMD_H */
