/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat_core.h - "stat -- CMD"'s own bytes from the memdiag module's core
 * estimate, where resctrl has no MBM: CMD starts in a cgroup2 cgroup of
 * its own, made under stat's, and its bytes are what the module charged
 * that cgroup and those below it over CMD's lifetime (stat_core.c).
 */

#ifndef MEMDIAGCTL_STAT_CORE_H
#define MEMDIAGCTL_STAT_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "conn.h"
#include "cgscan.h"

#define STAT_CORE_PREFIX "memdiag-stat-"

struct stat_core {
	struct nl *nl;		/* the counters' connection (not owned) */
	const struct nl_family *fam;
	uint32_t session;	/* the session that asked for groups */
	bool session_on;
	struct cg_hier h;
	char parent[4096];	/* stat's own cgroup, sysroot included */
	char dir[4200];		/* the command's, below it */
	bool made;
	size_t swept;		/* a killed stat's cgroups removed at start */
};

/*
 * Ask the module to count per cgroup and make the command's cgroup (a
 * killed stat's leftovers beside it swept first). 0, or a negative errno
 * with @why saying what is missing and what to do on this host.
 */
int stat_core_open(struct stat_core *c, struct nl *nl,
		   const struct nl_family *fam, char *why, size_t size);
/* Put @pid in the command's cgroup: 0, or -errno with @why. */
int stat_core_attach(struct stat_core *c, pid_t pid, char *why, size_t size);
/*
 * After the command exited: the bytes the module charged its cgroup and
 * every cgroup below it, per socket of @sock_id (@bytes[i] for
 * @sock_id[i]). 0, or -errno with @why.
 */
int stat_core_read(struct stat_core *c, const uint32_t *sock_id,
		   size_t nr_sock, uint64_t *bytes, char *why, size_t size);
/*
 * Remove the command's cgroups (what CMD left running in them moves up
 * to stat's cgroup first) and end the session.
 */
void stat_core_close(struct stat_core *c);

#endif /* MEMDIAGCTL_STAT_CORE_H */
