/* SPDX-License-Identifier: GPL-2.0 */
/*
 * groups.h - the memdiag module's core estimate: its group-get dump, each
 * cgroup's DRAM bytes per socket (a session asks for it with
 * session_start_groups()).
 */

#ifndef MEMDIAGCTL_GROUPS_H
#define MEMDIAGCTL_GROUPS_H

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

#endif /* MEMDIAGCTL_GROUPS_H */
