// SPDX-License-Identifier: GPL-2.0
/*
 * top_socket.c - top's sockets: the memdiag module's snapshot of every
 * socket each interval, judged against the last one (bytes and the
 * verdict), as snapshot does over its window. Without the module, the
 * reason stays for the socket line.
 */

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "conn.h"
#include "parse.h"
#include "top.h"

void top_socket_open(struct top_socket_src *t, struct verdict_src *vs)
{
	struct info_summary sum;
	struct cli_error err;

	*t = (struct top_socket_src){ .vs = vs };
	md_open(&t->nl, &t->fam, &sum, &err);
	if (err.code != MDC_EXIT_OK) {
		cli_error_phrase(&err, t->why, sizeof(t->why));
		return;
	}
	t->connected = true;
	t->tsc_khz = sum.tsc_khz;
	for (t->nr_sock = 0; t->nr_sock < sum.nr_socket &&
	     t->nr_sock < RC_MAX_SOCKETS; t->nr_sock++)
		t->sock_id[t->nr_sock] = sum.socket[t->nr_sock];
	info_summary_free(&sum);
	/* the longest interval: never makes another session publish more */
	session_start(&t->nl, &t->fam, INTERVAL_MS_MAX, 0, &t->session, NULL,
		      &err);
	/* unprivileged_read: a reader is served while another session runs */
	t->own = err.code == MDC_EXIT_OK;
	t->on = true;
}

void top_socket_sample(struct top_socket_src *t)
{
	struct snapshot_collect now = { NULL, 0 };
	size_t i;

	if (!t->on)
		return;
	if (snapshot_request("top", &t->nl, &t->fam, true, 0, true, &now) !=
	    MDC_EXIT_OK) {
		snprintf(t->why, sizeof(t->why),
			 "the memdiag module's snapshot failed (said above)");
		t->on = false;
		snapshot_collect_free(&now);
		return;
	}
	free(t->j);
	t->j = calloc(now.nr ? now.nr : 1, sizeof(*t->j));
	t->nr_j = t->j ? now.nr : 0;
	for (i = 0; i < t->nr_j; i++)
		snapshot_judge((const struct nlmsghdr *const *)t->prev.msgs,
			       t->prev.nr, now.msgs[i], t->tsc_khz, t->vs,
			       &t->j[i]);
	snapshot_collect_free(&t->prev);
	t->prev = now;
}

const struct snap_judged *top_socket_get(const struct top_socket_src *t,
					 uint32_t id)
{
	size_t i;

	for (i = 0; t->on && i < t->nr_j; i++)
		if (t->j[i].socket == id && t->j[i].have)
			return &t->j[i];
	return NULL;
}

bool top_socket_bytes(const struct snap_judged *j, uint64_t *bytes)
{
	return j->have && interval_dram_bytes(&j->m, bytes);
}

void top_socket_close(struct top_socket_src *t)
{
	struct cli_error err;

	if (t->own)
		session_stop(&t->nl, &t->fam, t->session, &err);
	if (t->connected) {
		nl_family_free(&t->fam);
		nl_close(&t->nl);
	}
	snapshot_collect_free(&t->prev);
	free(t->j);
	t->j = NULL;
	t->on = t->connected = t->own = false;
}
