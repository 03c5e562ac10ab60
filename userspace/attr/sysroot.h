/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysroot.h - where attribution finds /proc and /sys: the real ones, or
 * a fake tree under $MEMDIAG_TEST_HOST_ROOT (the tests' resctrl and cgroup
 * trees, with their own mountinfo).
 */

#ifndef MEMDIAGCTL_SYSROOT_H
#define MEMDIAGCTL_SYSROOT_H

#include <stddef.h>

/* The prefix: "" on a real host, the fake tree's directory in tests. */
const char *sysroot(void);

/*
 * @buf = the prefix + the path @fmt formats (which starts with '/').
 * 0, or -ENAMETOOLONG when it does not fit in @size.
 */
int sysroot_path(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The path @full without the prefix (a pointer into @full). */
const char *sysroot_strip(const char *full);

#endif /* MEMDIAGCTL_SYSROOT_H */
