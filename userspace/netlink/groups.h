/* SPDX-License-Identifier: GPL-2.0 */
/*
 * groups.h - the memdiag module's core estimate: a session that asks for
 * it, and its group-get dump, each cgroup's DRAM bytes per socket.
 */

#ifndef MEMDIAGCTL_GROUPS_H
#define MEMDIAGCTL_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "conn.h"
#include "parse.h"

struct group_bytes {
	uint32_t socket;
	uint64_t cgroup_id;	/* cgroup2 id; 0: cgroups without a slot */
	uint64_t bytes;
};

/*
 * Start a session (the longest interval) that asks the module to count
 * per cgroup; its id in *@id. Refused where the core estimate cannot run
 * (EOPNOTSUPP: MDC_EXIT_UNAVAILABLE, the module's reason said).
 */
int groups_session_start(struct nl *nl, const struct nl_family *fam,
			 uint32_t *id, struct cli_error *err);

/* Every entry of group-get: a malloc()ed array in *@g. An exit code. */
int groups_read(struct nl *nl, const struct nl_family *fam,
		struct group_bytes **g, size_t *n, struct cli_error *err);

#endif /* MEMDIAGCTL_GROUPS_H */
