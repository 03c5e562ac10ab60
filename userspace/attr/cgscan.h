/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgscan.h - the cgroup hierarchy of this host (v2, or v1 where it has
 * only that), walked into the groups of "top --by", and the threads of
 * each group. Paths go through sysroot.h.
 */

#ifndef MEMDIAGCTL_CGSCAN_H
#define MEMDIAGCTL_CGSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cgpath.h"

#define CG_MAX_DEPTH 64		/* deeper cgroups are counted, not walked */

struct cg_hier {
	char mount[4096];	/* where it is mounted, sysroot included */
	bool v2;		/* cgroup2; else a v1 hierarchy */
	char v1_name[64];	/* v1: "name=systemd", "cpu,cpuacct", ... */
};

/*
 * Find the hierarchy to follow from sysroot's /proc/self/mountinfo: the
 * cgroup2 one (also on a hybrid host, where systemd keeps it), else v1's
 * name=systemd, else the first v1 one with the cpu controller. 0, or
 * -ENOENT when there is none, or the error reading mountinfo (@why says
 * which).
 */
int cg_hier_find(struct cg_hier *h, char *why, size_t size);

/*
 * One group of the walk: the topmost cgroup of its key. A key with two
 * or more topmost cgroups (cgpath.h's exceptions) has their nearest
 * common ancestor as @path instead, and no container in @id.
 */
struct cg_group {
	char *key;		/* cg_key()'s, malloc()ed */
	char *path;		/* relative to the mount, starts with '/' */
	struct cg_ident id;	/* cg_key()'s of the topmost cgroup */
	size_t nr_cgroups;	/* cgroups with the key, the topmost included */
};

struct cg_scan {
	struct cg_group *g;
	size_t nr;
	size_t nr_cgroups;	/* every cgroup seen */
	size_t over_max;	/* groups beyond @max not kept */
	size_t too_deep;	/* cgroups just below CG_MAX_DEPTH: not walked */
	size_t unreadable;	/* directories that failed, or too long */
};

/*
 * Walk @h into @s: one group per distinct key of @by, at most @max of
 * them (each topmost cgroup of the rest counts in @s->over_max), @s->g
 * sorted by key. Memory grows with the groups kept, not the cgroups.
 * Cgroups that vanish mid-walk (ENOENT, ENODEV) are skipped as if never
 * there, not counted as unreadable: cgroups come and go all the time.
 * 0, or a negative errno when the root cannot be read or memory runs out
 * (@s is freed then).
 */
int cg_scan(const struct cg_hier *h, enum cg_by by, size_t max,
	    struct cg_scan *s);
void cg_scan_free(struct cg_scan *s);
/* The group of @key in @s, or NULL (a binary search). */
const struct cg_group *cg_scan_find(const struct cg_scan *s, const char *key);

/*
 * Call @fn for every thread in @g's cgroup and in those below it with
 * the same key (cgroup.threads, or v1's tasks; a cgroup below one of
 * another key is not looked into, its key cannot come back). A cgroup
 * that vanished meanwhile, or that has no such file, is skipped. Stops at
 * @fn's first non-zero return and returns it; 0 when done; a negative
 * errno when @g's own cgroup cannot be opened, or another cgroup or file
 * fails other than by vanishing (-EINVAL: a line that is no thread id).
 */
int cg_group_tids(const struct cg_hier *h, enum cg_by by,
		  const struct cg_group *g,
		  int (*fn)(pid_t tid, void *arg), void *arg);

/*
 * The cgroup of thread @tid in @h, as /proc/TID/cgroup has it, into @path:
 * v2's "0::" record, or the v1 one with a controller or name of
 * @h->v1_name. The kernel writes names unescaped: a record ends where a
 * line starts "<digits>:<list>:", so a newline in a name is kept unless
 * that follows it. A v2 zombie whose cgroup was removed keeps the
 * kernel's " (deleted)" (no group has that key). 0, -ESRCH when the
 * thread is gone, -ENOENT when no record is @h's, -ENAMETOOLONG when
 * @path is too small.
 */
int cg_of_tid(const struct cg_hier *h, pid_t tid, char *path, size_t size);

#endif /* MEMDIAGCTL_CGSCAN_H */
