// SPDX-License-Identifier: GPL-2.0
/*
 * marker_nl.c - libmemdiag-marker's snapshots: the module's snapshot dump
 * over the process's one netlink socket (nl.c, snapshot.c).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/memdiag.h>

#include "marker_int.h"
#include "snapshot.h"

struct mk_dump {
	struct snap *out;
	bool *have;
	bool listing;		/* the first dump: it lists the sockets */
	bool bad;
	char why[160];
};

static int dump_msg(const struct nlmsghdr *nlh, void *data)
{
	struct mk_dump *d = data;
	struct snap s;
	size_t i;

	if (snap_parse(nlh, &s, d->why, sizeof(d->why)) < 0) {
		d->bad = true;
		return MNL_CB_OK;
	}
	if (d->listing && mk.nr_sock < MK_MAX_SOCK)
		mk.sock_id[mk.nr_sock++] =
			(uint32_t)s.v[MEMDIAG_A_SNAPSHOT_SOCKET];
	for (i = 0; i < mk.nr_sock; i++) {
		if (mk.sock_id[i] == s.v[MEMDIAG_A_SNAPSHOT_SOCKET]) {
			d->out[i] = s;
			d->have[i] = true;
		}
	}
	return MNL_CB_OK;
}

/* What a failed request means to someone who wanted counters. */
static void say_nl(char *why, size_t size, const char *what,
		   const struct nl_error *e)
{
	if (e->err == EPERM || e->err == EACCES)
		snprintf(why, size, "%s: permission denied (the counters need CAP_PERFMON, or the module's unprivileged_read)%s%s",
			 what, e->msg[0] ? ": " : "", e->msg);
	else
		snprintf(why, size, "%s: %s%s%s", what, strerror(e->err),
			 e->msg[0] ? ": " : "", e->msg);
}

static int dump(struct mk_dump *d, char *why, size_t size)
{
	struct nlmsghdr *req;
	struct nl_error e;

	req = nl_msg_start(&mk.nl, mk.fam.id, MEMDIAG_CMD_SNAPSHOT,
			   MEMDIAG_FAMILY_VERSION, NLM_F_DUMP);
	if (nl_exchange(&mk.nl, req, dump_msg, d, &e) < 0) {
		say_nl(why, size, "the snapshot request failed", &e);
		return -1;
	}
	if (d->bad) {
		snprintf(why, size, "a malformed snapshot from the memdiag module: %s",
			 d->why);
		return -1;
	}
	return 0;
}

int mk_snapshot(struct snap *out, bool *have, char *why, size_t size)
{
	struct mk_dump d = { .out = out, .have = have };

	if (!mk.connected) {
		snprintf(why, size, "%s", mk.reason);
		return -1;
	}
	memset(have, 0, mk.nr_sock * sizeof(*have));
	return dump(&d, why, size);
}

void mk_connect(void)
{
	struct snap s[MK_MAX_SOCK];
	bool have[MK_MAX_SOCK];
	struct mk_dump d = { .out = s, .have = have, .listing = true };
	struct nl_error e;

	if (nl_open(&mk.nl, &e) < 0) {
		say_nl(mk.reason, sizeof(mk.reason),
		       "cannot open a netlink socket", &e);
		return;
	}
	if (nl_family_get(&mk.nl, MEMDIAG_FAMILY_NAME, &mk.fam, &e) < 0) {
		if (e.kernel && e.err == ENOENT)
			snprintf(mk.reason, sizeof(mk.reason),
				 "the memdiag module is not loaded");
		else
			say_nl(mk.reason, sizeof(mk.reason),
			       "cannot resolve the memdiag family", &e);
		nl_close(&mk.nl);
		return;
	}
	mk.connected = true;
	mk.nr_sock = 0;
	if (dump(&d, mk.reason, sizeof(mk.reason)) < 0 || !mk.nr_sock) {
		if (!mk.reason[0])
			snprintf(mk.reason, sizeof(mk.reason),
				 "the memdiag module listed no socket");
		mk_disconnect();
		return;
	}
	mk.reason[0] = '\0';
}

void mk_disconnect(void)
{
	if (!mk.connected)
		return;
	nl_family_free(&mk.fam);
	nl_close(&mk.nl);
	mk.connected = false;
}
