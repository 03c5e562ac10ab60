/* SPDX-License-Identifier: GPL-2.0 */
/* mountinfo.h - sysroot's /proc/self/mountinfo, one mount at a time. */

#ifndef MEMDIAGCTL_MOUNTINFO_H
#define MEMDIAGCTL_MOUNTINFO_H

#include <stddef.h>

struct mountinfo_entry {
	const char *mount;	/* the mount point, octal escapes undone */
	const char *fstype;
	const char *options;	/* the super options (v1 cgroup controllers) */
};

/*
 * Call @fn for each mount of sysroot's mountinfo, in order, until it
 * returns non-zero (returned). 0 at the end, -errno when the file cannot
 * be read, -EINVAL for a line without its " - " separator.
 */
int mountinfo_each(int (*fn)(const struct mountinfo_entry *m, void *arg),
		   void *arg);

#endif /* MEMDIAGCTL_MOUNTINFO_H */
