// SPDX-License-Identifier: GPL-2.0
/*
 * stat_child.c - the command "memdiagctl stat" measures: started with
 * fork and exec, waited for (with a tick for --interval), its exit status
 * turned into stat's own as a shell does (128 + N for signal N).
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stat.h"

static pid_t forward_to;

/* SIGTERM and SIGHUP to stat are meant for the command: pass them on. */
static void forward(int sig)
{
	if (forward_to > 0)
		kill(forward_to, sig);
}

static void set_handlers(bool parent)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/*
	 * Ctrl-C and Ctrl-\ reach the whole foreground process group: the
	 * command handles them, stat waits for it and reports, as time(1)
	 * and perf stat do.
	 */
	sa.sa_handler = parent ? SIG_IGN : SIG_DFL;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = parent ? forward : SIG_DFL;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int stat_child_start(struct stat_child *ch, char **argv,
		     int (*before_exec)(pid_t pid, void *arg), void *arg,
		     char *why, size_t size)
{
	int pfd[2], go[2], err = 0;
	ssize_t n;
	char c;

	memset(ch, 0, sizeof(*ch));
	ch->pidfd = -1;
	/* the exec's errno comes back through a pipe the exec closes */
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(why, size, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	/* and the child waits on this one until before_exec is done */
	if (pipe2(go, O_CLOEXEC) < 0) {
		snprintf(why, size, "cannot create a pipe: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ch->start);
	clock_gettime(CLOCK_REALTIME, &ch->start_real);
	ch->pid = fork();
	if (ch->pid < 0) {
		snprintf(why, size, "cannot fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		close(go[0]);
		close(go[1]);
		return -1;
	}
	if (ch->pid == 0) {
		close(pfd[0]);
		close(go[1]);
		set_handlers(false);
		/* stat's end closes the pipe: EOF, or the byte, both mean go */
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		execvp(argv[0], argv);
		err = errno;
		n = write(pfd[1], &err, sizeof(err));
		(void)n;
		_exit(err == ENOENT ? STAT_EXIT_NOT_FOUND : STAT_EXIT_NOT_EXEC);
	}
	forward_to = ch->pid;
	set_handlers(true);
	close(pfd[1]);
	close(go[0]);
	if (before_exec)
		before_exec(ch->pid, arg);
	c = 1;
	n = write(go[1], &c, 1);
	(void)n;
	close(go[1]);
	do {
		n = read(pfd[0], &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == sizeof(err)) {
		ch->exec_errno = err;
		snprintf(why, size, "cannot run '%s': %s", argv[0], strerror(err));
	}
	/* a pidfd lets poll() wait for the exit and the tick together */
	ch->pidfd = (int)syscall(SYS_pidfd_open, ch->pid, 0);
	return 0;
}

/* 0 while the command runs; 1 once it has exited (status kept). */
static int reap(struct stat_child *ch, int flags)
{
	int status;
	pid_t p;

	do {
		p = waitpid(ch->pid, &status, flags);
	} while (p < 0 && errno == EINTR);
	if (p == 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ch->end);
	forward_to = 0;
	if (p < 0) {
		/* cannot happen for our own child; say "unknown" not 0 */
		ch->exit_code = STAT_EXIT_NOT_EXEC;
		return 1;
	}
	if (WIFSIGNALED(status)) {
		ch->signal = WTERMSIG(status);
		ch->exit_code = 128 + ch->signal;
	} else {
		ch->exit_code = WEXITSTATUS(status);
	}
	ch->done = true;
	return 1;
}

int stat_child_wait(struct stat_child *ch, int timeout_ms)
{
	struct pollfd pfd = { .fd = ch->pidfd, .events = POLLIN };
	struct timespec ts;
	int ret;

	if (timeout_ms < 0)
		return reap(ch, 0);
	if (ch->pidfd >= 0) {
		ret = poll(&pfd, 1, timeout_ms);
		if (ret < 0 && errno != EINTR)
			return reap(ch, 0);
		return reap(ch, WNOHANG);
	}
	/* no pidfd (before Linux 5.3): look every 10 ms */
	while (timeout_ms > 0) {
		if (reap(ch, WNOHANG))
			return 1;
		ts.tv_sec = 0;
		ts.tv_nsec = (timeout_ms < 10 ? timeout_ms : 10) * 1000000L;
		nanosleep(&ts, NULL);
		timeout_ms -= 10;
	}
	return reap(ch, WNOHANG);
}

double stat_child_elapsed(const struct stat_child *ch)
{
	return (double)(ch->end.tv_sec - ch->start.tv_sec) +
	       (double)(ch->end.tv_nsec - ch->start.tv_nsec) * 1e-9;
}

void stat_child_close(struct stat_child *ch)
{
	if (ch->pidfd >= 0)
		close(ch->pidfd);
	ch->pidfd = -1;
}
