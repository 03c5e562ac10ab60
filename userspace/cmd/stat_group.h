/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat_group.h - the command's own DRAM bytes for "memdiagctl stat":
 * a resctrl monitoring group the command starts in (its children
 * inherit it), read when it exits (stat_group.c); where resctrl has no
 * MBM, a cgroup of its own and the memdiag module's core estimate
 * (stat_core.h).
 */

#ifndef MEMDIAGCTL_STAT_GROUP_H
#define MEMDIAGCTL_STAT_GROUP_H

#include <stdbool.h>
#include <sys/types.h>

#include "attr.h"
#include "print.h"
#include "stat_core.h"

struct counters;

struct stat_group {
	bool on;		/* a group is made for the command */
	char why[ATTR_WHY];	/* why not */
	enum attr_source source;
	struct stat_core core;	/* ATTR_SOURCE_CORE_ESTIMATE's */
	struct resctrl rc;
	struct rc_groups gs;
	bool open;
	int g;			/* the group, in gs */
	bool read;		/* its bytes were read at the end */
	uint64_t bytes[RC_MAX_SOCKETS];
	uint64_t last[RC_MAX_SOCKETS];	/* the core estimate's last read */
	struct rc_read_stats rs;
};

/*
 * resctrl with MBM, as root: ready to make the group; else the core
 * estimate over @c's connection when the module runs a session there
 * (@c NULL: MBM only); else why not.
 */
void stat_group_open(struct stat_group *sg, struct counters *c);
/*
 * Only the core estimate, over @nl (a session of its own), for the
 * sockets @id; false with sg->why (which says why no MBM beforehand).
 */
bool stat_group_open_core(struct stat_group *sg, struct nl *nl,
			  const struct nl_family *fam, const uint32_t *id,
			  size_t n);
/*
 * The group's bytes per socket (sg->rc.socket_id's) since the last call,
 * the first since it was made: 0, or -errno (sg->why says why for the
 * core estimate).
 */
int stat_group_delta(struct stat_group *sg, uint64_t *bytes);
/*
 * stat_child_start()'s hook, between the fork and the exec: make the
 * group under stat's own control group and put @pid in it. Never fails
 * the command: sg->why says why there are no own bytes.
 */
int stat_group_attach(pid_t pid, void *sg);
/* After the command exited: its bytes; the group removed. */
void stat_group_end(struct stat_group *sg);
/* JSON "own" (source, bytes per socket, or the reason), and text lines. */
void stat_group_print(struct printer *p, const struct stat_group *sg,
		      double elapsed_s);
void stat_group_close(struct stat_group *sg);

#endif /* MEMDIAGCTL_STAT_GROUP_H */
