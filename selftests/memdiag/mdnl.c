// SPDX-License-Identifier: GPL-2.0
/*
 * mdnl.c - minimal generic netlink client for memdiag's selftests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
#include <sys/wait.h>
#include <linux/netlink.h>

#include "mdnl.h"

static int ctrl_grp_cb(const struct nlattr *grp, struct mdnl *m)
{
	const struct nlattr *a;
	const char *name = NULL;
	uint32_t id = 0;

	mnl_attr_for_each_nested(a, grp) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME)
			name = mnl_attr_get_str(a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID)
			id = mnl_attr_get_u32(a);
	}
	if (name && m->n_mcgrps < 8) {
		snprintf(m->mcgrp_name[m->n_mcgrps], sizeof(m->mcgrp_name[0]),
			 "%s", name);
		m->mcgrp_id[m->n_mcgrps++] = id;
	}
	return 0;
}

static int ctrl_cb(const struct nlmsghdr *nlh, void *data)
{
	struct mdnl *m = data;
	const struct nlattr *a, *b, *c;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(a)) {
		case CTRL_ATTR_FAMILY_ID:
			m->family_id = mnl_attr_get_u16(a);
			break;
		case CTRL_ATTR_VERSION:
			m->family_version = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_OPS:
			mnl_attr_for_each_nested(b, a)
				mnl_attr_for_each_nested(c, b)
					if (mnl_attr_get_type(c) == CTRL_ATTR_OP_ID &&
					    mnl_attr_get_u32(c) < 64)
						m->has_op[mnl_attr_get_u32(c)] = true;
			break;
		case CTRL_ATTR_MCAST_GROUPS:
			mnl_attr_for_each_nested(b, a)
				ctrl_grp_cb(b, m);
			break;
		}
	}
	return MNL_CB_OK;
}

static int parse_err(const struct nlmsghdr *nlh, struct mdnl_reply *r)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	size_t off = sizeof(*e);

	r->error = e->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return r->error;
	/* with NETLINK_CAP_ACK the request is not echoed back */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	mnl_attr_for_each(a, nlh, off) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(r->extack, sizeof(r->extack), "%s",
				 mnl_attr_get_str(a));
		else if (mnl_attr_get_type(a) == NLMSGERR_ATTR_OFFS)
			r->bad_attr_offs = mnl_attr_get_u32(a);
	}
	return r->error;
}

int mdnl_call(struct mdnl *m, struct nlmsghdr *nlh, struct mdnl_reply *r)
{
	return mdnl_dump(m, nlh, r, NULL, NULL);
}

int mdnl_dump(struct mdnl *m, struct nlmsghdr *nlh, struct mdnl_reply *r,
	      mdnl_msg_fn each, void *arg)
{
	char rx[sizeof(r->buf)];
	ssize_t n;

	memset(r, 0, sizeof(*r));
	if (mnl_socket_sendto(m->nl, nlh, nlh->nlmsg_len) < 0)
		return r->error = -errno;
	for (;;) {
		const struct nlmsghdr *h;
		int left;

		n = mnl_socket_recvfrom(m->nl, rx, sizeof(rx));
		if (n < 0)
			return r->error = -errno;
		left = n;
		for (h = (void *)rx; mnl_nlmsg_ok(h, left);
		     h = mnl_nlmsg_next(h, &left)) {
			if (h->nlmsg_seq != nlh->nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR)
				return parse_err(h, r);
			/* a dump that failed says so in its DONE: an int */
			if (h->nlmsg_type == NLMSG_DONE)
				return r->error =
					mnl_nlmsg_get_payload_len(h) >= (int)sizeof(int) ?
					*(int *)mnl_nlmsg_get_payload(h) : 0;
			if (each) {
				each(h, arg);
				continue;
			}
			memcpy(r->buf, h, h->nlmsg_len);
			r->len = h->nlmsg_len;
		}
	}
}

struct nlmsghdr *mdnl_req(struct mdnl *m, char *buf, uint8_t cmd,
			  uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = m->family_id;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++m->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

struct nlattr *mdnl_reply_attrs(struct mdnl_reply *r, size_t *len)
{
	struct nlmsghdr *nlh = (void *)r->buf;

	*len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	return (void *)((char *)mnl_nlmsg_get_payload(nlh) + GENL_HDRLEN);
}

uint64_t mdnl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int mdnl_open(struct mdnl *m, const char *family)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mdnl_reply *r;
	struct nlmsghdr *nlh;
	int one = 1, err;

	memset(m, 0, sizeof(*m));
	m->seq = time(NULL);
	m->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!m->nl)
		return -errno;
	mnl_socket_setsockopt(m->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(m->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(m->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;

	m->family_id = GENL_ID_CTRL;
	nlh = mdnl_req(m, buf, CTRL_CMD_GETFAMILY, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, family);
	m->family_id = 0;
	r = malloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	err = mdnl_call(m, nlh, r);
	if (!err)
		ctrl_cb((void *)r->buf, m);
	free(r);
	if (!err && !m->family_id)
		err = -ENOENT;
	return err;
}

void mdnl_close(struct mdnl *m)
{
	if (m->nl)
		mnl_socket_close(m->nl);
	m->nl = NULL;
}

int mdnl_as_nobody(mdnl_nobody_fn fn, void *arg, char *extack, size_t len)
{
	int pipefd[2], status, err;
	pid_t pid;

	if (pipe(pipefd))
		return -errno;
	pid = fork();
	if (!pid) {
		struct mdnl m;
		struct mdnl_reply *r = calloc(1, sizeof(*r));

		close(pipefd[0]);
		if (!r || setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(100);
		err = mdnl_open(&m, "memdiag");
		if (!err)
			err = fn(&m, r, arg);
		if (write(pipefd[1], r->extack, sizeof(r->extack)) < 0)
			_exit(101);
		_exit(-err);
	}
	close(pipefd[1]);
	memset(extack, 0, len);
	if (read(pipefd[0], extack, len - 1) < 0)
		extack[0] = 0;
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? -WEXITSTATUS(status) : -EFAULT;
}

int mdnl_set_unprivileged_read(const char *val)
{
	FILE *f = fopen("/sys/module/memdiag/parameters/unprivileged_read", "w");
	int err;

	if (!f)
		return -errno;
	err = fputs(val, f) < 0 ? -EIO : 0;
	return fclose(f) ? -errno : err;
}
