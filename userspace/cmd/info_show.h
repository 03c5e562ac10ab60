/* SPDX-License-Identifier: GPL-2.0 */
/* info_show.h - what cmd_info.c shares: info's printer and --socket's check. */

#ifndef MEMDIAGCTL_INFO_SHOW_H
#define MEMDIAGCTL_INFO_SHOW_H

#include <stdint.h>

#include <libmnl/libmnl.h>

#include "info.h"
#include "print.h"

/*
 * Print a get-info reply. Returns an exit code: the reply is checked
 * before anything is printed. Separate from cmd_info() so the tests can
 * feed it canned replies.
 */
int info_show(const char *cmd, struct printer *p, const struct nlmsghdr *nlh);

/*
 * Whether --socket @socket names a socket of @sum; when not, report it as
 * a usage error of @cmd (exit code returned) listing the ones there are.
 */
int info_check_socket(const char *cmd, const struct info_summary *sum,
		      uint32_t socket);

#endif /* MEMDIAGCTL_INFO_SHOW_H */
