// SPDX-License-Identifier: GPL-2.0
/*
 * genl_session.c - the limits of sessions and snapshots (Documentation/
 * memdiag.rst "Limits"), on a platform with counters (the simulated one):
 * sessions per socket and per user, the interval range, session ids, the
 * shared sample and per-channel counts taken with the totals.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <linux/memdiag.h>

#include "kselftest_harness.h"
#include "mdnl.h"

/* the module's limits, as documented */
#define PER_SOCKET	4
#define PER_USER	16
#define MIN_MS		10
#define UNPRIV_MS	100

static int start(struct mdnl *m, struct mdnl_reply *r, uint32_t ms,
		 uint32_t *id)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(m, buf, MEMDIAG_CMD_SESSION_START, 0);
	struct nlattr *a;
	int err;

	mnl_attr_put_u32(nlh, MEMDIAG_A_SESSION_INTERVAL_MS, ms);
	err = mdnl_call(m, nlh, r);
	if (err || !id)
		return err;
	*id = 0;
	mnl_attr_for_each(a, (struct nlmsghdr *)r->buf, GENL_HDRLEN)
		if (mnl_attr_get_type(a) == MEMDIAG_A_SESSION_ID)
			*id = mnl_attr_get_u32(a);
	return 0;
}

static int stop(struct mdnl *m, struct mdnl_reply *r, uint32_t id)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(m, buf, MEMDIAG_CMD_SESSION_STOP, 0);

	mnl_attr_put_u32(nlh, MEMDIAG_A_SESSION_ID, id);
	return mdnl_call(m, nlh, r);
}

struct snap {
	uint32_t socket;
	uint64_t time_ns, rd, wr, chan_rd, chan_wr;
	int n_chan;
};

/* Totals and channel sums of a snapshot reply or notification. */
static void parse_snap(const struct nlmsghdr *msg, struct snap *s)
{
	struct nlattr *a, *c;

	memset(s, 0, sizeof(*s));
	mnl_attr_for_each(a, msg, GENL_HDRLEN) {
		switch (mnl_attr_get_type(a)) {
		case MEMDIAG_A_SNAPSHOT_SOCKET:
			s->socket = mnl_attr_get_u32(a);
			break;
		case MEMDIAG_A_SNAPSHOT_TIME_NS:
			s->time_ns = mnl_attr_get_u64(a);
			break;
		case MEMDIAG_A_SNAPSHOT_DRAM_READ_BYTES:
			s->rd = mnl_attr_get_u64(a);
			break;
		case MEMDIAG_A_SNAPSHOT_DRAM_WRITE_BYTES:
			s->wr = mnl_attr_get_u64(a);
			break;
		case MEMDIAG_A_SNAPSHOT_CHANNEL:
			s->n_chan++;
			mnl_attr_for_each_nested(c, a) {
				if (mnl_attr_get_type(c) == MEMDIAG_A_CHANNEL_READ_BYTES)
					s->chan_rd += mnl_attr_get_u64(c);
				if (mnl_attr_get_type(c) == MEMDIAG_A_CHANNEL_WRITE_BYTES)
					s->chan_wr += mnl_attr_get_u64(c);
			}
			break;
		}
	}
}

static int snapshot(struct mdnl *m, struct mdnl_reply *r, struct snap *s)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(m, buf, MEMDIAG_CMD_SNAPSHOT, 0);
	int err;

	mnl_attr_put_u32(nlh, MEMDIAG_A_SNAPSHOT_SOCKET, 0);
	mnl_attr_put(nlh, MEMDIAG_A_SNAPSHOT_CHANNELS, 0, NULL);
	err = mdnl_call(m, nlh, r);
	if (err)
		return err;
	parse_snap((struct nlmsghdr *)r->buf, s);
	return 0;
}

FIXTURE(s) {
	struct mdnl m;
	struct mdnl_reply *r;
};

FIXTURE_SETUP(s)
{
	ASSERT_EQ(0, mdnl_open(&self->m, MEMDIAG_FAMILY_NAME));
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
}

FIXTURE_TEARDOWN(s)
{
	free(self->r);
	mdnl_close(&self->m);	/* ends the socket's sessions */
}

TEST_F(s, interval_below_the_minimum_is_einval)
{
	EXPECT_EQ(-EINVAL, start(&self->m, self->r, MIN_MS - 1, NULL));
	EXPECT_NE(NULL, strstr(self->r->extack, "interval-ms must be from 10"))
		TH_LOG("'%s'", self->r->extack);
	EXPECT_EQ(0, start(&self->m, self->r, MIN_MS, NULL))
		TH_LOG("'%s'", self->r->extack);
}

TEST_F(s, sessions_per_socket_are_limited)
{
	uint32_t id[PER_SOCKET];
	int i;

	for (i = 0; i < PER_SOCKET; i++)
		ASSERT_EQ(0, start(&self->m, self->r, 1000, &id[i]))
			TH_LOG("session %d: '%s'", i, self->r->extack);
	EXPECT_EQ(-EMFILE, start(&self->m, self->r, 1000, NULL));
	EXPECT_NE(NULL, strstr(self->r->extack, "this socket already has 4 sessions"))
		TH_LOG("'%s'", self->r->extack);
	EXPECT_EQ(0, stop(&self->m, self->r, id[0]));
	EXPECT_EQ(0, start(&self->m, self->r, 1000, NULL))
		TH_LOG("'%s'", self->r->extack);
}

TEST_F(s, sessions_per_user_are_limited)
{
	struct mdnl more[PER_USER / PER_SOCKET];
	int i, k;

	for (k = 0; k < PER_USER / PER_SOCKET; k++) {
		ASSERT_EQ(0, mdnl_open(&more[k], MEMDIAG_FAMILY_NAME));
		for (i = 0; i < PER_SOCKET; i++)
			ASSERT_EQ(0, start(&more[k], self->r, 1000, NULL))
				TH_LOG("socket %d session %d: '%s'", k, i,
				       self->r->extack);
	}
	EXPECT_EQ(-EMFILE, start(&self->m, self->r, 1000, NULL));
	EXPECT_NE(NULL, strstr(self->r->extack, "this user already has 16 sessions"))
		TH_LOG("'%s'", self->r->extack);
	mdnl_close(&more[0]);
	EXPECT_EQ(0, start(&self->m, self->r, 1000, NULL))
		TH_LOG("'%s'", self->r->extack);
	for (k = 1; k < PER_USER / PER_SOCKET; k++)
		mdnl_close(&more[k]);
}

TEST_F(s, stop_of_id_0_is_einval_and_stops_nothing)
{
	uint32_t a, b;

	ASSERT_EQ(0, start(&self->m, self->r, 1000, &a));
	ASSERT_EQ(0, start(&self->m, self->r, 1000, &b));
	EXPECT_NE(0, a);
	EXPECT_NE(0, b);
	EXPECT_NE(a, b);
	EXPECT_EQ(-EINVAL, stop(&self->m, self->r, 0));
	EXPECT_NE(NULL, strstr(self->r->extack, "id 0")) TH_LOG("'%s'", self->r->extack);
	EXPECT_EQ(0, stop(&self->m, self->r, a));
	EXPECT_EQ(0, stop(&self->m, self->r, b));
	EXPECT_EQ(-ENOENT, stop(&self->m, self->r, a));
}

/* A privileged snapshot is sampled after the request arrived. */
TEST_F(s, privileged_snapshot_is_sampled_after_the_request)
{
	struct snap a;
	uint64_t asked;
	int i;

	ASSERT_EQ(0, start(&self->m, self->r, 60000, NULL));
	for (i = 0; i < 20; i++) {
		asked = mdnl_now_ns();
		ASSERT_EQ(0, snapshot(&self->m, self->r, &a));
		EXPECT_LE(asked, a.time_ns);
	}
}

struct two { struct snap a, b; };

static int two_snapshots(struct mdnl *m, struct mdnl_reply *r, void *arg)
{
	struct two *t = arg;
	int err = snapshot(m, r, &t->a);

	return err ? err : snapshot(m, r, &t->b);
}

/*
 * Readers allowed only by unprivileged_read share one sample per
 * UNPRIV_MS: back-to-back snapshots give the same sample.
 */
TEST_F(s, unprivileged_snapshots_share_one_sample)
{
	struct two *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char extack[256];
	uint64_t asked;
	int tries;

	ASSERT_NE(MAP_FAILED, t);
	ASSERT_EQ(0, start(&self->m, self->r, 60000, NULL));
	ASSERT_EQ(0, mdnl_set_unprivileged_read("Y"));
	/* the pair may straddle the end of a period once; not twice */
	for (tries = 0; tries < 2; tries++) {
		ASSERT_EQ(0, mdnl_as_nobody(two_snapshots, t, extack,
					    sizeof(extack))) TH_LOG("'%s'", extack);
		if (t->a.time_ns == t->b.time_ns)
			break;
	}
	EXPECT_EQ(t->a.time_ns, t->b.time_ns);
	EXPECT_NE(0, t->a.time_ns);
	/* once the shared sample is older than the period, a new one */
	usleep((UNPRIV_MS + 20) * 1000);
	asked = mdnl_now_ns();
	ASSERT_EQ(0, mdnl_as_nobody(two_snapshots, t, extack, sizeof(extack)));
	EXPECT_LE(asked, t->a.time_ns);
	ASSERT_EQ(0, mdnl_set_unprivileged_read("N"));
	munmap(t, sizeof(*t));
}

/*
 * Per-channel counts come from the same sample as the totals, also while
 * the sampler runs every 10 ms and traffic flows.
 */
TEST_F(s, channel_counts_add_up_to_the_totals)
{
	struct snap a;
	int i, bad = 0;

	ASSERT_EQ(0, start(&self->m, self->r, MIN_MS, NULL));
	for (i = 0; i < 300; i++) {
		ASSERT_EQ(0, snapshot(&self->m, self->r, &a));
		ASSERT_NE(0, a.n_chan);
		bad += a.chan_rd != a.rd || a.chan_wr != a.wr;
	}
	EXPECT_EQ(0, bad) TH_LOG("%d of 300 snapshots disagree", bad);
	EXPECT_NE(0, a.rd) TH_LOG("no traffic: set the sim's rates first");
}

/* The monitor group's id, or -1. */
static int monitor_group(const struct mdnl *m)
{
	int i;

	for (i = 0; i < m->n_mcgrps; i++)
		if (!strcmp(m->mcgrp_name[i], MEMDIAG_MCGRP_MONITOR))
			return (int)m->mcgrp_id[i];
	return -1;
}

/*
 * Notifications carry every channel, read with the totals: the channel
 * sums equal the socket totals in each one, for every socket, while the
 * sampler runs every 10 ms and traffic flows.
 */
TEST_F(s, notifications_carry_channels_that_add_up)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct pollfd p = { .events = POLLIN };
	int group = monitor_group(&self->m), i, n = 0, bad = 0;
	unsigned int sockets = 0;
	uint64_t rd0 = 0;
	struct snap a;
	ssize_t len;

	ASSERT_LE(0, group);
	ASSERT_EQ(0, start(&self->m, self->r, MIN_MS, NULL));
	ASSERT_EQ(0, mnl_socket_setsockopt(self->m.nl, NETLINK_ADD_MEMBERSHIP,
					   &group, sizeof(group)));
	p.fd = mnl_socket_get_fd(self->m.nl);
	for (i = 0; i < 2000 && n < 200 && poll(&p, 1, 3000) == 1; i++) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		len = recv(p.fd, buf, sizeof(buf), 0);
		if (len < (ssize_t)(NLMSG_HDRLEN + GENL_HDRLEN) ||
		    !mnl_nlmsg_ok(nlh, (int)len) ||
		    nlh->nlmsg_type != self->m.family_id ||
		    ((struct genlmsghdr *)NLMSG_DATA(nlh))->cmd !=
		    MEMDIAG_CMD_SNAPSHOT_NTF)
			continue;
		parse_snap(nlh, &a);
		n++;
		sockets |= 1u << (a.socket & 31);
		if (a.socket == 0)
			rd0 = a.rd;
		bad += !a.n_chan || a.chan_rd != a.rd || a.chan_wr != a.wr;
	}
	EXPECT_EQ(200, n) TH_LOG("only %d notifications arrived", n);
	EXPECT_EQ(0, bad) TH_LOG("%d of %d notifications lack channels or disagree",
				 bad, n);
	EXPECT_NE(0, rd0) TH_LOG("no traffic on socket 0: set the sim's rates first");
	EXPECT_EQ(3, sockets) TH_LOG("sockets seen: mask %#x", sockets);
}

/* FIXTURE_SETUP fails every test when the family is absent */
TEST_HARNESS_MAIN
