/* SPDX-License-Identifier: GPL-2.0 */
/* snapshot_show.h - snapshot's printer (snapshot_show.c), for it and the tests. */

#ifndef MEMDIAGCTL_SNAPSHOT_SHOW_H
#define MEMDIAGCTL_SNAPSHOT_SHOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include "print.h"
#include "verdict_live.h"

/* The snapshot printer, separate from cmd_snapshot() for the tests. */
int snapshot_show(const char *cmd, struct printer *p,
		  const struct nlmsghdr *const *msgs, size_t nr, bool channels);

/* What snapshot_show_judged() needs for the verdict over a window. */
struct snapshot_window {
	const struct nlmsghdr *const *before;	/* the first reading */
	size_t nr_before;
	uint32_t tsc_khz;
	const struct verdict_src *vs;
};

/* snapshot_show(), then each socket's rates and verdict over @w. */
int snapshot_show_judged(const char *cmd, struct printer *p,
			 const struct nlmsghdr *const *msgs, size_t nr,
			 bool channels, const struct snapshot_window *w);

#endif /* MEMDIAGCTL_SNAPSHOT_SHOW_H */
