// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_send.c - nlfuzz's sending and checking: one message sent and
 * followed by a NOOP with ACK (the sync), every message the kernel sends
 * back read and checked until the sync's ack, the answer each request owes
 * accounted for, the liveness check and the dump games. The random
 * (nlfuzz.c), the KCOV-guided (nlfuzz_kcov.c) and the replayed
 * (nlfuzz_corpus.c) messages all go through send_one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/memdiag.h>

#include "nlfuzz.h"

void fail(struct fuzz *f, const char *fmt, ...)
{
	va_list ap;

	f->failures++;
	if (f->failures > 10)
		return;
	va_start(ap, fmt);
	printf("# FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

/*
 * An error or ack @e to @seq has arrived: the answer a request of this
 * send owes, or the sync's ack. Only an ack that echoes a NOOP ends the
 * wait: a dump left half read (dump_games, or a request that a mutation
 * made a dump) goes on in later sends, each part produced as the one
 * before it is read, and its NLMSG_DONE carries the dump's sequence
 * number, which a mutated one can make any later sync's: taken for the
 * sync's ack, it would end the wait with the request's answer still
 * queued.
 */
static void mark(struct fuzz *f, uint32_t seq, const struct nlmsgerr *e,
		 uint32_t want, bool *synced)
{
	int i;

	/* a mutation may have changed a request's sequence number */
	for (i = 0; i < f->n_need; i++)
		if (f->need[i] == seq)
			f->got[i] = true;
	if (seq == want && !e->error && e->msg.nlmsg_type == NLMSG_NOOP)
		*synced = true;
}

/* Check one message from the kernel; count what it is. */
static void inspect(struct fuzz *f, const struct nlmsghdr *h, uint32_t want,
		    bool *synced)
{
	const struct nlattr *a;
	size_t off;

	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

		if (h->nlmsg_len < NLMSG_HDRLEN + sizeof(*e)) {
			fail(f, "error message of %u bytes", h->nlmsg_len);
			return;
		}
		if (e->error > 0 || e->error < -4095)
			fail(f, "error value %d", e->error);
		else
			f->errors[-e->error]++;
		if (h->nlmsg_seq == f->watch_seq && f->outcome == OUTCOME_NONE)
			f->outcome = -e->error;
		mark(f, h->nlmsg_seq, e, want, synced);
		return;
	}
	/* the end of a dump: no request this fuzzer waits on is a dump */
	if (h->nlmsg_type == NLMSG_DONE)
		return;
	if (h->nlmsg_type != f->m.family_id) {
		fail(f, "message of type %u from the kernel", h->nlmsg_type);
		return;
	}
	if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		fail(f, "memdiag message of %u bytes", h->nlmsg_len);
		return;
	}
	off = GENL_HDRLEN;
	mnl_attr_for_each(a, h, off) {
		if (a->nla_len < sizeof(*a))
			break;
	}
	/* mnl_attr_for_each stops at the first attribute that does not fit:
	 * it must stop exactly at the end
	 */
	if ((const char *)a != (const char *)h + NLMSG_ALIGN(h->nlmsg_len) &&
	    (const char *)a != (const char *)h + h->nlmsg_len)
		fail(f, "reply attributes overrun their message (seq %u)",
		     h->nlmsg_seq);
	if (h->nlmsg_seq == 0) {
		f->ntf++;
		return;
	}
	f->replies++;
	if (h->nlmsg_seq == f->watch_seq && f->outcome == OUTCOME_NONE)
		f->outcome = OUTCOME_DATA;
	if (f->unpriv) {
		f->data_replies_unpriv++;
		fail(f, "unprivileged request answered with data (cmd %u)",
		     ((struct genlmsghdr *)mnl_nlmsg_get_payload(h))->cmd);
	}
}

/* Read until the sync of sequence @want is acked. */
static int wait_for(struct fuzz *f, uint32_t want)
{
	static char rx[65536];
	bool synced = false;

	while (!synced) {
		const struct nlmsghdr *h;
		ssize_t n;
		int left;

		n = recv(mnl_socket_get_fd(f->m.nl), rx, sizeof(rx), 0);
		if (n < 0 && errno == ENOBUFS) {
			f->enobufs++;	/* multicast overran the socket */
			continue;
		}
		if (n < 0) {
			fail(f, "no answer to seq %u: %s", want,
			     errno == EAGAIN ? "timeout" : strerror(errno));
			return -1;
		}
		left = n;
		for (h = (void *)rx; mnl_nlmsg_ok(h, left);
		     h = mnl_nlmsg_next(h, &left))
			inspect(f, h, want, &synced);
		if (left > 0 && left >= (int)sizeof(*h))
			fail(f, "%d trailing bytes in a datagram", left);
	}
	return 0;
}

/* A NOOP with ACK: the kernel acks it after everything sent before. */
static int sync_sock(struct fuzz *f)
{
	char buf[NLMSG_HDRLEN];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = NLMSG_NOOP;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++f->m.seq;
	if (mnl_socket_sendto(f->m.nl, buf, nlh->nlmsg_len) < 0) {
		fail(f, "send: %s", strerror(errno));
		return -1;
	}
	return wait_for(f, nlh->nlmsg_seq);
}

/* A new socket; it joins the monitor group if @join, at random if -1. */
int open_sock_join(struct fuzz *f, int join)
{
	struct timeval tv = { .tv_sec = f->timeout };
	int err, i;

	err = mdnl_open(&f->m, MEMDIAG_FAMILY_NAME);
	if (err) {
		fail(f, "cannot resolve the memdiag family: %s", strerror(-err));
		return err;
	}
	f->sock_gen++;
	f->joined = false;
	setsockopt(mnl_socket_get_fd(f->m.nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	for (i = 0; i < f->m.n_mcgrps; i++)
		if (!strcmp(f->m.mcgrp_name[i], MEMDIAG_MCGRP_MONITOR))
			f->monitor_id = f->m.mcgrp_id[i];
	/* the monitor group: joined by some sockets, refused or not */
	if (f->monitor_id && (join < 0 ? chance(30) : join)) {
		int id = f->monitor_id;

		setsockopt(mnl_socket_get_fd(f->m.nl), SOL_NETLINK,
			   NETLINK_ADD_MEMBERSHIP, &id, sizeof(id));
		f->joined = true;
	}
	return 0;
}

int open_sock(struct fuzz *f)
{
	return open_sock_join(f, -1);
}

/* A snapshot dump left unfinished: half read, resumed, or abandoned. */
int dump_games(struct fuzz *f)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], tiny[16];
	struct nlmsghdr *nlh;

	nlh = mdnl_req(&f->m, buf, MEMDIAG_CMD_SNAPSHOT, NLM_F_DUMP);
	if (mnl_socket_sendto(f->m.nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	f->sent++;
	switch (below(3)) {
	case 0:		/* abandoned: the socket goes with the dump running */
		mdnl_close(&f->m);
		return open_sock(f);
	case 1:		/* a truncated read loses a part, then a second dump */
		recv(mnl_socket_get_fd(f->m.nl), tiny, sizeof(tiny), MSG_TRUNC);
		nlh = mdnl_req(&f->m, buf, MEMDIAG_CMD_SNAPSHOT, NLM_F_DUMP);
		mnl_socket_sendto(f->m.nl, nlh, nlh->nlmsg_len);
		f->sent++;
		break;
	default:	/* resumed: read on after other requests */
		nlh = mdnl_req(&f->m, buf, MEMDIAG_CMD_GET_INFO, 0);
		mnl_socket_sendto(f->m.nl, nlh, nlh->nlmsg_len);
		f->sent++;
		break;
	}
	return sync_sock(f);
}

/* get-info must still work (root) or be refused with EPERM (unprivileged) */
void liveness(struct fuzz *f, const char *when)
{
	struct mdnl_reply *r = malloc(sizeof(*r));
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct mdnl m;
	int err;

	if (!r || mdnl_open(&m, MEMDIAG_FAMILY_NAME)) {
		f->dead++;
		fail(f, "%s: cannot open a netlink socket to memdiag", when);
		free(r);
		return;
	}
	nlh = mdnl_req(&m, buf, MEMDIAG_CMD_GET_INFO, 0);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PROTO_VERSION, 1);
	err = mdnl_call(&m, nlh, r);
	if (f->unpriv ? err != -EPERM : (err || !r->len))
		f->dead++, fail(f, "%s: get-info answered %d (%s), not %s", when, err,
		     r->extack, f->unpriv ? "EPERM" : "the info");
	mdnl_close(&m);
	free(r);
}

/*
 * Send the @len bytes of @buf, the message whose answer is owed if
 * @answer, sync, and check that the answer came. Its sequence number is
 * the one it carries. 0, or -1 when the socket is lost.
 */
int send_one(struct fuzz *f, const char *buf, size_t len, bool answer)
{
	const struct nlmsghdr *h = (const void *)buf;
	int b;

	f->n_need = 0;
	f->outcome = OUTCOME_NONE;
	f->watch_seq = len >= 12 ? h->nlmsg_seq : 0;
	if (answer) {
		const struct genlmsghdr *g = mnl_nlmsg_get_payload(h);

		snprintf(f->what[0], sizeof(f->what[0]),
			 "cmd %u flags %#x len %u",
			 len >= NLMSG_HDRLEN + 1 ? g->cmd : 0,
			 h->nlmsg_flags, h->nlmsg_len);
		f->got[0] = false;
		f->need[f->n_need++] = h->nlmsg_seq;
	}
	f->sent++;
	if (mnl_socket_sendto(f->m.nl, buf, len) < 0 &&
	    errno != EINVAL && errno != ENOBUFS && errno != ENODATA) {
		fail(f, "send of %zu bytes: %s", len, strerror(errno));
		return -1;
	}
	if (sync_sock(f))
		return -1;
	for (b = 0; b < f->n_need; b++) {
		if (!f->got[b]) {
			fail(f, "request seq %u (%s; %zu bytes sent) got no answer",
			     f->need[b], f->what[b], len);
			/* as fail() prints: the first ten */
			if (f->failures <= 10) {
				printf("# the message, as a line of a corpus for --replay:\n# ");
				corpus_put(stdout, "", buf, len);
			}
		}
		f->answered++;
	}
	f->n_need = 0;
	return 0;
}
