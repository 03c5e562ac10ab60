// SPDX-License-Identifier: GPL-2.0
/*
 * genl_batch.c - several memdiag requests in one send each get their ack.
 *
 * The fuzzer sends one message per send because with several, about 1 in
 * 10^4 acks never arrived (6.12). The kernel answers a batch while the
 * send runs, into the receive buffer, and an answer that does not fit is
 * dropped with ENOBUFS left on the socket for the next recv. So a missing
 * ack is either that (the client's buffer) or a loss in memdiag; these
 * tests tell them apart:
 *  - with a receive buffer that holds every answer of a batch, every
 *    request of up to 10^4 batched ones is acked, once, and no ENOBUFS is
 *    seen;
 *  - with the smallest receive buffer, answers are dropped, and every batch
 *    that lost an ack also saw ENOBUFS, and lost only a tail: once netlink
 *    drops an answer for a full buffer it marks the socket congested and
 *    drops every later one until the reader drains it, so an ack missing
 *    before one that arrived was lost some other way.
 *
 * Each batch alternates prefetch-get for a CPU that is not online (an
 * error ack) with get-info (a data reply, then the ack), so that both
 * kinds of answer are counted and the first request's ack always fits. genetlink handles a batch inside the sender's
 * sendmsg(), so when the send returns every answer is queued or dropped:
 * the reads after it need not wait.
 *
 * A debug kernel under TCG answers slowly: each test stops at a deadline
 * well inside the harness's 30 s and asks for at least MIN_BATCHES.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/memdiag.h>

#include "kselftest_harness.h"
#include "mdnl.h"

#define PER_BATCH	8
#define BATCHES		1250	/* 10^4 requests */
#define MIN_BATCHES	100
#define DEADLINE_S	20
#define OFFLINE_CPU	100000000u	/* far above any nr_cpu_ids */

struct batch_tally {
	unsigned long sent, acked, data, enobufs, dup_or_late;
	unsigned long lost_with_enobufs, lost_silently;
};

/* Append request @i of a batch at @buf; its length. */
static size_t put_request(struct mdnl *m, char *buf, int i)
{
	struct nlmsghdr *nlh;

	if (i % 2)
		return mdnl_req(m, buf, MEMDIAG_CMD_GET_INFO, 0)->nlmsg_len;
	nlh = mdnl_req(m, buf, MEMDIAG_CMD_PREFETCH_GET, 0);
	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_CPU, OFFLINE_CPU);
	return nlh->nlmsg_len;
}

/*
 * Read the answers to sequence numbers @first..@first+PER_BATCH-1 until all
 * are acked or none is left to read; count into @t.
 */
static void read_batch(struct mdnl *m, uint32_t first, struct batch_tally *t)
{
	static char rx[1 << 17];
	bool acked[PER_BATCH] = { false };
	int n_acked = 0, last_acked = -1, i;
	bool enobufs = false;

	while (n_acked < PER_BATCH) {
		const struct nlmsghdr *h;
		ssize_t n = recv(mnl_socket_get_fd(m->nl), rx, sizeof(rx),
				 MSG_DONTWAIT);
		int left;

		if (n < 0 && errno == ENOBUFS) {
			enobufs = true;
			t->enobufs++;
			continue;
		}
		if (n < 0)
			break;	/* EAGAIN: nothing more was queued */
		left = n;
		for (h = (void *)rx; mnl_nlmsg_ok(h, left);
		     h = mnl_nlmsg_next(h, &left)) {
			i = h->nlmsg_seq - first;
			if (i < 0 || i >= PER_BATCH) {
				t->dup_or_late++;
				continue;
			}
			if (h->nlmsg_type != NLMSG_ERROR) {
				t->data++;
				continue;
			}
			if (acked[i]) {
				t->dup_or_late++;
				continue;
			}
			acked[i] = true;
			n_acked++;
			if (i > last_acked)
				last_acked = i;
			t->acked++;
		}
	}
	for (i = 0; i < PER_BATCH; i++) {
		if (acked[i])
			continue;
		if (enobufs && i > last_acked)
			t->lost_with_enobufs++;
		else
			t->lost_silently++;
	}
}

/* Send BATCHES batches on a socket with receive buffer @rcvbuf bytes. */
static int run_batches(int rcvbuf, struct batch_tally *t)
{
	static char buf[PER_BATCH * 256];
	uint64_t deadline = mdnl_now_ns() + DEADLINE_S * 1000000000ull;
	struct mdnl m;
	int b, i, err;

	err = mdnl_open(&m, MEMDIAG_FAMILY_NAME);
	if (err)
		return err;
	/* FORCE: below the minimum and above rmem_max alike (root) */
	if (setsockopt(mnl_socket_get_fd(m.nl), SOL_SOCKET, SO_RCVBUFFORCE,
		       &rcvbuf, sizeof(rcvbuf))) {
		err = -errno;
		mdnl_close(&m);
		return err;
	}
	for (b = 0; b < BATCHES && mdnl_now_ns() < deadline; b++) {
		uint32_t first = m.seq + 1;
		size_t len = 0;

		for (i = 0; i < PER_BATCH; i++)
			len += put_request(&m, buf + len, i);
		if (mnl_socket_sendto(m.nl, buf, len) < 0) {
			err = -errno;
			break;
		}
		t->sent += PER_BATCH;
		read_batch(&m, first, t);
	}
	mdnl_close(&m);
	return err;
}

static void show(struct __test_metadata *_metadata, const char *what,
		 const struct batch_tally *t)
{
	TH_LOG("%s: %lu sent, %lu acked, %lu data replies, %lu ENOBUFS, "
	       "%lu lost with ENOBUFS, %lu lost silently, %lu duplicate or late",
	       what, t->sent, t->acked, t->data, t->enobufs,
	       t->lost_with_enobufs, t->lost_silently, t->dup_or_late);
}

TEST(batched_requests_all_acked_with_room)
{
	struct batch_tally t = { 0 };

	ASSERT_EQ(0, run_batches(4 << 20, &t));
	show(_metadata, "4 MiB receive buffer", &t);
	EXPECT_LE(PER_BATCH * MIN_BATCHES, t.sent);
	EXPECT_EQ(t.sent, t.acked);
	EXPECT_EQ(t.sent / 2, t.data);	/* one reply per get-info */
	EXPECT_EQ(0, t.enobufs);
	EXPECT_EQ(0, t.dup_or_late);
}

TEST(no_ack_lost_without_enobufs)
{
	struct batch_tally t = { 0 };

	/* the kernel raises this to its minimum, a few KiB */
	ASSERT_EQ(0, run_batches(1, &t));
	show(_metadata, "smallest receive buffer", &t);
	EXPECT_LE(PER_BATCH * MIN_BATCHES, t.sent);
	/* the buffer is too small for a batch's answers: drops happen */
	EXPECT_LT(0, t.enobufs);
	EXPECT_EQ(0, t.lost_silently);
	EXPECT_EQ(t.sent, t.acked + t.lost_with_enobufs);
	EXPECT_EQ(0, t.dup_or_late);
}

TEST_HARNESS_MAIN
