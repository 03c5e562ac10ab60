/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - the TAP lines of the C host tests (df_rotate_test, df_map_test):
 * check() numbers each check and prints why a failed one failed, and
 * tap_end() prints the plan and gives the exit status.
 */
#ifndef MEMDIAG_SELFTESTS_HOST_TAP_H
#define MEMDIAG_SELFTESTS_HOST_TAP_H

#include <stdio.h>

static int n_test, n_fail;

static inline void check(int ok, const char *name, const char *why)
{
	printf("%s %d - %s\n", ok ? "ok" : "not ok", ++n_test, name);
	if (!ok) {
		printf("#   %s\n", why);
		n_fail++;
	}
}

static inline int tap_end(void)
{
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}

#endif
