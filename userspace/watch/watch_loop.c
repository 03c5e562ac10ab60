// SPDX-License-Identifier: GPL-2.0
/*
 * watch_loop.c - the loop of "memdiagctl watch": poll the monitor group
 * and the stop descriptor, feed the engine (watch.c), and say when the
 * module goes quiet or a socket lags behind --count.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cpulist.h"
#include "watch.h"

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Sockets that have not printed --count intervals, as "1,3". */
static void unfinished(const struct watch *w, char *buf, size_t size)
{
	uint32_t ids[64];
	size_t i, n = 0;

	for (i = 0; i < w->nr_sock && n < sizeof(ids) / sizeof(ids[0]); i++)
		if (w->sock[i].rows < w->count)
			ids[n++] = w->sock[i].id;
	cpulist_format(buf, size, ids, n);
}

/* When the loop has to look at the clock even if nothing arrives. */
struct loop_clock {
	uint64_t stall;		/* say so after this long without a snapshot */
	uint64_t grace;		/* wait this long for late sockets, --count */
	uint64_t last_rx;	/* when the last datagram came */
	uint64_t done_at;	/* when the first socket reached --count */
	bool stall_noted;
};

static int poll_timeout(const struct loop_clock *c, uint64_t now)
{
	uint64_t until = UINT64_MAX;

	if (!c->stall_noted)
		until = c->last_rx + c->stall;
	if (c->done_at && c->done_at + c->grace < until)
		until = c->done_at + c->grace;
	if (until == UINT64_MAX)
		return -1;
	return until > now ? (int)(until - now) : 0;
}

/*
 * Take what the netlink socket has, a bounded batch so that a flood cannot
 * starve the signals. MDC_EXIT_OK to go on; -1 when --count is reached.
 */
static int receive(struct watch *w, struct nl *nl, struct loop_clock *c,
		   bool *lost_noted)
{
	struct nl_error e;
	int n;

	for (n = 0; n < 256; n++) {
		int ret = nl_recv_msgs(nl, watch_msg, w, &e);

		if (ret == 0)
			break;
		if (ret < 0 && e.err == ENOBUFS) {
			if (!*lost_noted)
				cli_err(w->cmd, "note",
					"the receive buffer overflowed and snapshots were lost; the intervals around the gap are longer");
			*lost_noted = true;
			continue;
		}
		if (ret < 0) {
			cli_err(w->cmd, "cannot receive from the memdiag module",
				"%s", strerror(e.err));
			return MDC_EXIT_KERNEL;
		}
		c->last_rx = now_ms();
		c->stall_noted = false;
		if (w->rc != MDC_EXIT_OK)
			return w->rc;
		if (watch_done(w))
			return -1;
	}
	return MDC_EXIT_OK;
}

int watch_loop(struct watch *w, struct nl *nl, int sfd)
{
	struct loop_clock c = {
		.stall = w->interval_ms * 3 > 5000 ? w->interval_ms * 3 : 5000,
		.grace = 2 * (uint64_t)w->interval_ms + 1000,
		.last_rx = now_ms(),
	};
	struct pollfd pfd[2] = {
		{ .fd = nl_fd(nl), .events = POLLIN },
		{ .fd = sfd, .events = POLLIN },
	};
	bool lost_noted = false;

	for (;;) {
		uint64_t now;
		int ret = poll(pfd, 2, poll_timeout(&c, now_ms()));

		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0) {
			cli_err(w->cmd, "poll failed", "%s", strerror(errno));
			return MDC_EXIT_LOCAL;
		}
		if (pfd[1].revents) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) > 0 || errno != EAGAIN)
				return MDC_EXIT_OK;
		}
		if (pfd[0].revents) {
			ret = receive(w, nl, &c, &lost_noted);
			if (ret < 0)
				return MDC_EXIT_OK;	/* --count reached */
			if (ret != MDC_EXIT_OK)
				return ret;
		}
		now = now_ms();
		if (w->count && !c.done_at && watch_nr_done(w))
			c.done_at = now;
		if (!c.stall_noted && now - c.last_rx >= c.stall) {
			cli_err(w->cmd, "note",
				"no snapshot from the memdiag module for %" PRIu64 " s; still waiting",
				(now - c.last_rx) / 1000);
			c.stall_noted = true;
		}
		if (c.done_at && now >= c.done_at + c.grace) {
			char list[128];

			unfinished(w, list, sizeof(list));
			cli_err(w->cmd, "note",
				"stopping: socket %s sent too few snapshots for --count %" PRIu64
				" while the others were done", list, w->count);
			return MDC_EXIT_OK;
		}
	}
}
