/* SPDX-License-Identifier: GPL-2.0 */
/* stat.h - the command "memdiagctl stat" runs and measures (stat_child.c). */

#ifndef MEMDIAGCTL_STAT_H
#define MEMDIAGCTL_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* As the shell and env(1): the command could not be started. */
#define STAT_EXIT_NOT_EXEC 126
#define STAT_EXIT_NOT_FOUND 127

struct stat_child {
	pid_t pid;
	int pidfd;		/* -1 without pidfd_open() */
	int exec_errno;		/* the exec failed with it; 0: it ran */
	struct timespec start, end;	/* CLOCK_MONOTONIC: fork, exit */
	struct timespec start_real;	/* the wall clock at the fork */
	bool done;
	int exit_code;		/* its exit status, or 128 + signal */
	int signal;		/* the signal that killed it, or 0 */
};

/*
 * Fork and exec @argv (looked up in PATH). From here stat ignores SIGINT
 * and SIGQUIT (the command gets them from the terminal) and forwards
 * SIGTERM and SIGHUP to it. Returns -1 with @why when no child could be
 * forked; a failed exec is a child that exits 126 or 127 with
 * ch->exec_errno and @why set. @before_exec (NULL: none) runs in stat
 * with the child's pid while the child waits to exec: what it sets up
 * (a monitoring group) holds from the command's first instruction.
 */
int stat_child_start(struct stat_child *ch, char **argv,
		     int (*before_exec)(pid_t pid, void *arg), void *arg,
		     char *why, size_t size);

/*
 * Wait up to @timeout_ms (-1: until it exits). Returns 1 once the
 * command has exited (exit_code, signal, end filled in), 0 when it still
 * runs.
 */
int stat_child_wait(struct stat_child *ch, int timeout_ms);

/* Seconds from the fork to the exit. */
double stat_child_elapsed(const struct stat_child *ch);

void stat_child_close(struct stat_child *ch);

#endif /* MEMDIAGCTL_STAT_H */
