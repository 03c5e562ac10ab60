/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch_group.h - "watch --group PATH": one cgroup subtree's DRAM bytes
 * (resctrl MBM, else the memdiag module's core estimate) beside each
 * socket's row (watch_group.c).
 */

#ifndef MEMDIAGCTL_WATCH_GROUP_H
#define MEMDIAGCTL_WATCH_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "attr.h"
#include "groups.h"
#include "info.h"
#include "metrics.h"
#include "print.h"

struct watch_group {
	const char *path;	/* the cgroup, as the hierarchy names it */
	struct attr a;
	bool open;
	uint64_t sampled_ns;	/* CLOCK_MONOTONIC of the last sample */
	double seconds;		/* between the last two samples */
	/* the core estimate: a connection of its own (watch's is subscribed) */
	struct groups_conn gc;
	uint64_t read_ns;	/* the middle of the last read of it */
};

#define WATCH_GROUP_HEADER "  grp_GB/s  grp%"

/*
 * resctrl and the cgroup hierarchy for @path (its threads attached as
 * top attaches, as root); without MBM, the module's core estimate for the
 * sockets of @sum. MDC_EXIT_OK, or an exit code with the reason said for
 * @cmd.
 */
int watch_group_open(struct watch_group *g, const char *cmd, const char *path,
		     const struct info_summary *sum);
/*
 * The row's group columns: the group's bytes on @m's socket since the
 * last sample (one per interval: the first row of an interval samples),
 * as GB/s and as a share of the socket's; '-' with the reason in the
 * JSON while there is none.
 */
void watch_group_row(struct printer *p, struct watch_group *g,
		     const struct interval *m);
void watch_group_close(struct watch_group *g);

#endif /* MEMDIAGCTL_WATCH_GROUP_H */
