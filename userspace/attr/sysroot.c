// SPDX-License-Identifier: GPL-2.0
/*
 * sysroot.c - the prefix of every /proc and /sys path attribution reads
 * or writes, so that the tests run it over a fake tree.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysroot.h"

const char *sysroot(void)
{
	const char *root = getenv("MEMDIAG_TEST_HOST_ROOT");

	return root ? root : "";
}

int sysroot_path(char *buf, size_t size, const char *fmt, ...)
{
	const char *root = sysroot();
	size_t len = strlen(root);
	va_list ap;
	int n;

	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, root, len);
	va_start(ap, fmt);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - len)
		return -ENAMETOOLONG;
	return 0;
}

const char *sysroot_strip(const char *full)
{
	size_t len = strlen(sysroot());

	return strncmp(full, sysroot(), len) ? full : full + len;
}
