// SPDX-License-Identifier: GPL-2.0
/*
 * export_conn.c - the exporter's side of the module: connect, describe the
 * machine, subscribe, one session; read snapshots until they stop coming
 * (rmmod, a stall), then report memdiag_up 0 and connect again.
 */

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "cli.h"
#include "export_daemon.h"
#include "names.h"
#include "prefetch.h"
#include "snapshot.h"

#define RETRY_MIN_MS 1000
#define RETRY_MAX_MS 30000

struct conn {
	struct nl nl;
	struct nl_family fam;
	uint32_t session;
	uint32_t group;
	bool open, subscribed, running;
};

static void read_file_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* memdiag_info's strings: from get-info, uname and sysfs. */
static void describe(struct export_state *st, const struct nlmsghdr *reply)
{
	const struct nlattr *attr;
	struct utsname u;

	snprintf(st->cpu_model, sizeof(st->cpu_model), "unknown");
	snprintf(st->uarch, sizeof(st->uarch), "unsupported");
	mnl_attr_for_each(attr, reply, sizeof(struct genlmsghdr)) {
		uint16_t t = mnl_attr_get_type(attr);

		if ((t != MEMDIAG_A_INFO_MODEL_NAME && t != MEMDIAG_A_INFO_UARCH) ||
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
			continue;
		if (t == MEMDIAG_A_INFO_MODEL_NAME)
			snprintf(st->cpu_model, sizeof(st->cpu_model), "%s",
				 mnl_attr_get_str(attr));
		else
			snprintf(st->uarch, sizeof(st->uarch), "%s",
				 mnl_attr_get_str(attr));
	}
	st->kernel[0] = '\0';
	if (uname(&u) == 0)
		snprintf(st->kernel, sizeof(st->kernel), "%s", u.release);
	/* an out-of-tree module always has a srcversion; a version if set */
	read_file_line("/sys/module/memdiag/version", st->module_version,
		       sizeof(st->module_version));
	if (!st->module_version[0])
		read_file_line("/sys/module/memdiag/srcversion",
			       st->module_version, sizeof(st->module_version));
}

static void summarize(struct export_state *st, const struct info_summary *sum)
{
	unsigned int i;

	st->tsc_khz = sum->tsc_khz;
	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++) {
		st->cap[i].listed = sum->cap[i].listed;
		st->cap[i].available = sum->cap[i].available;
		snprintf(st->cap[i].reason, sizeof(st->cap[i].reason), "%s",
			 sum->cap[i].reason);
	}
}

/* The prefetchers' names, for memdiag_prefetcher_disabled's label. */
static void prefetch_names(struct export_state *st, struct conn *c,
			   const struct info_summary *sum)
{
	struct nlmsghdr *req, *reply = NULL;
	struct pf_state pf;
	struct nl_error e;
	size_t i;

	st->nr_pf = 0;
	if (!sum->cap[MEMDIAG_CAPABILITY_PREFETCH_CONTROL].available ||
	    !nl_family_has_op(&c->fam, MEMDIAG_CMD_PREFETCH_GET))
		return;
	req = nl_msg_start(&c->nl, c->fam.id, MEMDIAG_CMD_PREFETCH_GET,
			   MEMDIAG_FAMILY_VERSION, 0);
	if (sum->nr_socket)
		mnl_attr_put_u32(req, MEMDIAG_A_PREFETCH_SOCKET, sum->socket[0]);
	if (nl_do(&c->nl, req, &reply, &e) == 0 && reply &&
	    pf_state_parse("export", reply, &pf) == MDC_EXIT_OK) {
		for (i = 0; i < pf.nr_pf && i < EXPORT_MAX_PF; i++)
			snprintf(st->pf_name[i], sizeof(st->pf_name[i]), "%s",
				 pf.pf[i].name);
		st->nr_pf = i;
		pf_state_free(&pf);
	}
	free(reply);
}

/*
 * Close the connection; @stop: end the session first (not when the module
 * went away: closing the socket ends a session anyway).
 */
static void disconnect(struct conn *c, bool stop)
{
	struct nl_error e;

	if (c->subscribed)
		nl_unsubscribe(&c->nl, c->group, &e);
	if (c->running && stop) {
		struct cli_error err;

		/* an empty queue, so the stop's ack cannot be lost */
		nl_drain(&c->nl);
		session_stop(&c->nl, &c->fam, c->session, &err);
	}
	if (c->open) {
		nl_family_free(&c->fam);
		nl_close(&c->nl);
	}
	memset(c, 0, sizeof(*c));
}

/* A failure as one note (said once while it repeats); -1. */
static int failed(struct exporter *x, const struct cli_error *err)
{
	char why[sizeof(x->last_note)];

	cli_error_phrase(err, why, sizeof(why));
	export_note(x, "%s", why);
	return -1;
}

/* Describe, subscribe, start the session: 0, or -1 (noted). */
static int setup(struct exporter *x, struct conn *c)
{
	struct info_summary sum = { 0 };
	const struct nl_mcgrp *grp;
	struct nlmsghdr *reply = NULL;
	struct cli_error err;
	struct nl_error e;

	if (info_fetch(&c->nl, &c->fam, &reply, &err) != MDC_EXIT_OK ||
	    info_summarize(reply, &sum, &err) != MDC_EXIT_OK) {
		free(reply);
		return failed(x, &err);
	}
	describe(&x->st, reply);
	free(reply);
	summarize(&x->st, &sum);
	prefetch_names(&x->st, c, &sum);
	export_groups_connect(&x->groups, &sum);
	info_summary_free(&sum);

	grp = nl_family_mcgrp(&c->fam, MEMDIAG_MCGRP_MONITOR);
	if (!grp) {
		export_note(x, "the loaded memdiag module has no '" MEMDIAG_MCGRP_MONITOR "' group: use the module built with this " PROG);
		return -1;
	}
	nl_set_rcvbuf(&c->nl, 1 << 20);
	if (nl_subscribe(&c->nl, grp->id, &e) < 0) {
		export_note(x, "cannot join the memdiag '" MEMDIAG_MCGRP_MONITOR "' group: %s%s",
			    strerror(e.err), e.err == EPERM ?
			    " (it needs CAP_SYS_ADMIN)" : "");
		return -1;
	}
	c->group = grp->id;
	c->subscribed = true;
	if (session_start(&c->nl, &c->fam, x->interval_ms, x->df_channels,
			  &c->session, NULL, &err) != MDC_EXIT_OK)
		return failed(x, &err);
	c->running = true;
	return 0;
}

static int try_connect(struct exporter *x, struct conn *c)
{
	struct cli_error err;

	/* quietly: the module may come later (or back after rmmod) */
	if (md_connect(&c->nl, &c->fam, &err) != MDC_EXIT_OK) {
		if (err.code == MDC_EXIT_NO_MODULE)
			export_note(x, "waiting for the memdiag module: %s",
				    err.detail);
		else
			failed(x, &err);
		return -1;
	}
	c->open = true;
	if (setup(x, c) < 0) {
		disconnect(c, true);
		export_groups_disconnect(&x->groups);
		return -1;
	}
	export_note(x, "reading the memdiag module (%s, %s), interval %u ms",
		    x->st.uarch, x->st.cpu_model, x->interval_ms);
	/* after the module: while it is missing a curve cannot help */
	if (!x->curve_noted && x->curve_note[0])
		export_note(x, "%s", x->curve_note);
	x->curve_noted = true;
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct feed_ctx {
	struct exporter *x;
	uint16_t family;
	unsigned int fed;
};

static void feed_msg(const struct nlmsghdr *nlh, void *data)
{
	struct feed_ctx *fc = data;
	const struct genlmsghdr *genl;
	struct snap s;
	char why[160];

	if (nlh->nlmsg_type != fc->family ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl))
		return;
	genl = mnl_nlmsg_get_payload(nlh);
	if (genl->cmd != MEMDIAG_CMD_SNAPSHOT_NTF)
		return;
	if (snap_parse(nlh, &s, why, sizeof(why)) < 0) {
		export_note(fc->x, "ignoring a malformed snapshot: %s", why);
		return;
	}
	if (export_feed(&fc->x->st, &s) < 0)
		export_note(fc->x, "more than %d sockets: ignoring the others",
			    EXPORT_MAX_SOCKETS);
	fc->fed++;
}

/* Read what the socket has; -1 when the connection is broken. */
static int receive(struct exporter *x, struct conn *c, uint64_t *last_rx)
{
	struct feed_ctx fc = { .x = x, .family = c->fam.id };
	struct nl_error e;
	int n, ret;

	for (n = 0; n < 256; n++) {
		ret = nl_recv_msgs(&c->nl, feed_msg, &fc, &e);
		if (ret == 0)
			break;
		if (ret < 0 && e.err == ENOBUFS) {
			/* lost snapshots only make one interval longer */
			export_note(x, "the receive buffer overflowed; snapshots were lost");
			continue;
		}
		if (ret < 0) {
			export_note(x, "cannot receive from the memdiag module: %s",
				    strerror(e.err));
			return -1;
		}
	}
	if (fc.fed) {
		*last_rx = now_ms();
		/* after the module's notes, as the curve's: once it is read */
		if (!x->groups.on && x->top && !x->groups_noted)
			export_note(x, "no per-group series: %s", x->groups.why);
		x->groups_noted = true;
		export_groups_sample(&x->groups, &x->st);
		export_publish(x);
	}
	return 0;
}

int export_run(struct exporter *x, int sfd)
{
	/* a session's snapshots stop when the module goes: notice in 3 */
	uint64_t stall = x->interval_ms * 3 > 3000 ? x->interval_ms * 3 : 3000;
	uint64_t retry = RETRY_MIN_MS, last_rx = 0;
	struct conn c = { 0 };

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = sfd, .events = POLLIN },
			{ .fd = c.open ? nl_fd(&c.nl) : -1, .events = POLLIN },
		};
		uint64_t now = now_ms();
		int timeout, ret;

		if (!c.open) {
			if (try_connect(x, &c) == 0) {
				retry = RETRY_MIN_MS;
				last_rx = now;
				export_set_up(&x->st, true);
				export_publish(x);
				continue;
			}
			timeout = (int)retry;
			retry = retry * 2 > RETRY_MAX_MS ? RETRY_MAX_MS : retry * 2;
		} else {
			timeout = last_rx + stall > now ? (int)(last_rx + stall - now) : 0;
		}
		ret = poll(pfd, 2, timeout);
		if (ret < 0 && errno != EINTR) {
			cli_err("export", "poll failed", "%s", strerror(errno));
			disconnect(&c, true);
			return MDC_EXIT_LOCAL;
		}
		if (ret > 0 && pfd[0].revents) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == sizeof(si) &&
			    si.ssi_signo != SIGPIPE) {
				disconnect(&c, true);
				return MDC_EXIT_OK;
			}
		}
		if (!c.open)
			continue;
		if (ret > 0 && pfd[1].revents && receive(x, &c, &last_rx) < 0)
			last_rx = 0;	/* broken: reconnect below */
		if (now_ms() - last_rx >= stall) {
			if (last_rx)
				export_note(x, "no snapshot from the memdiag module for %llu s: connecting again",
					    (unsigned long long)(now_ms() - last_rx) / 1000);
			disconnect(&c, false);
			export_groups_disconnect(&x->groups);
			export_set_up(&x->st, false);
			export_publish(x);
		}
	}
}
