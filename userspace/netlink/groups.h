/* SPDX-License-Identifier: GPL-2.0 */
/*
 * groups.h - the memdiag module's core estimate: its group-get dump, each
 * cgroup's DRAM bytes per socket (a session asks for it with
 * session_start_groups()).
 */

#ifndef MEMDIAGCTL_GROUPS_H
#define MEMDIAGCTL_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conn.h"

struct group_bytes {
	uint32_t socket;
	uint64_t cgroup_id;	/* cgroup2 id; 0: cgroups without a slot */
	uint64_t bytes;
};

/* Every entry of group-get: a malloc()ed array in *@g. An exit code. */
int groups_read(struct nl *nl, const struct nl_family *fam,
		struct group_bytes **g, size_t *n, struct cli_error *err);

/*
 * A connection of its own with a session that asks for groups: for a
 * reader whose other connection is subscribed to snapshots, which would
 * interleave with a dump's replies (export --top, watch --group).
 */
struct groups_conn {
	struct nl nl;
	struct nl_family fam;
	uint32_t session;
	bool connected, session_on;
};

/*
 * Connect and start the groups session at @interval_ms (the longest,
 * INTERVAL_MS_MAX, never makes another session publish more). An exit
 * code; on failure nothing is left open.
 */
int groups_conn_open(struct groups_conn *gc, uint32_t interval_ms,
		     struct cli_error *err);
/* Stop the session and close; nothing when not open. */
void groups_conn_close(struct groups_conn *gc);

#endif /* MEMDIAGCTL_GROUPS_H */
