// SPDX-License-Identifier: GPL-2.0
/*
 * nothp.c - run a command with transparent hugepages disabled for it
 * (prctl PR_SET_THP_DISABLE, inherited across fork and exec): the one way
 * to make a huge-page request fail for a test without touching the
 * machine's /sys/kernel/mm/transparent_hugepage settings.
 *
 * usage: nothp.bin COMMAND [ARG...]
 */

#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: nothp.bin COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) < 0) {
		fprintf(stderr, "nothp: prctl(PR_SET_THP_DISABLE): %s\n",
			strerror(errno));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nothp: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
