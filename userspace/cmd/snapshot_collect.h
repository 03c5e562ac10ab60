/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot_collect.h - snapshot replies kept as they came
 * (snapshot_collect.c), for snapshot and top.
 */

#ifndef MEMDIAGCTL_SNAPSHOT_COLLECT_H
#define MEMDIAGCTL_SNAPSHOT_COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include "nl.h"

/* Snapshot replies, copied as they came (snapshot_collect.c). */
struct snapshot_collect {
	struct nlmsghdr **msgs;
	size_t nr;
};

void snapshot_collect_free(struct snapshot_collect *c);
/* Sleep @ms, whatever signals come (their flags are checked after). */
void snapshot_sleep_ms(uint32_t ms);
/* Read the counters into @c: do for one socket, dump for all. An exit code. */
int snapshot_request(const char *cmd, struct nl *nl,
		     const struct nl_family *fam, bool all, uint32_t socket,
		     bool channels, struct snapshot_collect *c);

#endif /* MEMDIAGCTL_SNAPSHOT_COLLECT_H */
