// SPDX-License-Identifier: GPL-2.0
/* nl.c - generic netlink plumbing: socket, family lookup, requests, acks. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/netlink.h>

#include "nl.h"

static void error_reset(struct nl_error *e)
{
	memset(e, 0, sizeof(*e));
	e->bad_offs = -1;
	e->bad_type = -1;
	e->miss_type = -1;
}

static int local_error(struct nl_error *e, int err)
{
	error_reset(e);
	e->err = err ? err : EIO;
	return -1;
}

int nl_open(struct nl *nl, struct nl_error *e)
{
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock)
		return local_error(e, errno);
	/*
	 * Best effort: a kernel without these (before 4.3 and 4.12) still
	 * reports errors, only without their text. CAP_ACK keeps our request
	 * from being echoed back in every error.
	 */
	(void)mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	(void)mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = errno;

		mnl_socket_close(nl->sock);
		nl->sock = NULL;
		return local_error(e, err);
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (uint32_t)time(NULL);
	return 0;
}

void nl_close(struct nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
	free(nl->rx);
	nl->rx = NULL;
	nl->rx_size = 0;
}

struct nlmsghdr *nl_msg_start(struct nl *nl, uint16_t family, uint8_t cmd,
			      uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->tx);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	if (!(flags & NLM_F_DUMP))
		nlh->nlmsg_flags |= NLM_F_ACK;
	/* 0 is the notifications' sequence number: never a request's */
	if (++nl->seq == 0)
		nl->seq = 1;
	nlh->nlmsg_seq = nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

/*
 * Receive one datagram into a buffer big enough for it: a reply listing
 * every CPU of a large machine outgrows MNL_SOCKET_BUFFER_SIZE, and netlink
 * drops what doesn't fit. @flags: 0 or MSG_DONTWAIT.
 */
static ssize_t nl_recv(struct nl *nl, int flags)
{
	int fd = mnl_socket_get_fd(nl->sock);
	ssize_t need, n;
	void *rx;

	do
		need = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC | flags);
	while (need < 0 && errno == EINTR);
	if (need < 0)
		return -1;
	if (!nl->rx || (size_t)need > nl->rx_size) {
		rx = realloc(nl->rx, need > 0 ? (size_t)need : 1);
		if (!rx)
			return -1;
		nl->rx = rx;
		nl->rx_size = need > 0 ? (size_t)need : 1;
	}
	do
		n = recv(fd, nl->rx, nl->rx_size, flags);
	while (n < 0 && errno == EINTR);
	return n;
}

struct exchange {
	mnl_cb_t cb;
	void *data;
	struct nl_error *e;
	uint32_t seq;
};

static int ext_ack_attr(const struct nlattr *attr, void *data)
{
	struct nl_error *e = data;

	switch (mnl_attr_get_type(attr)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			snprintf(e->msg, sizeof(e->msg), "%s",
				 mnl_attr_get_str(attr));
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			e->bad_offs = mnl_attr_get_u32(attr);
		break;
	case NLMSGERR_ATTR_MISS_TYPE:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			e->miss_type = mnl_attr_get_u32(attr);
		break;
	case NLMSGERR_ATTR_MISS_NEST:
		e->miss_nested = true;
		break;
	}
	return MNL_CB_OK;
}

/* The extended ack TLVs start @offset bytes into the payload of @nlh. */
static void parse_ext_ack(const struct nlmsghdr *nlh, size_t offset,
			  struct nl_error *e)
{
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (MNL_ALIGN(offset) >= mnl_nlmsg_get_payload_len(nlh))
		return;
	mnl_attr_parse(nlh, offset, ext_ack_attr, e);
}

/*
 * A socket subscribed to a multicast group gets notifications (sequence
 * number 0) between the replies: they are not the answer, and are
 * dropped. Their counters are cumulative, so the next one makes up.
 */
static int exchange_data(const struct nlmsghdr *nlh, void *data)
{
	struct exchange *x = data;

	if (nlh->nlmsg_seq != x->seq)
		return MNL_CB_OK;
	return x->cb ? x->cb(nlh, x->data) : MNL_CB_OK;
}

static int kernel_error(struct nl_error *e, int err)
{
	e->err = err < 0 ? -err : err;
	e->kernel = true;
	errno = e->err;
	return MNL_CB_ERROR;
}

static int exchange_error(const struct nlmsghdr *nlh, void *data)
{
	struct exchange *x = data;
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t offset = sizeof(*err);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*err)) {
		x->e->err = EBADMSG;
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	/* an uncapped error echoes our request between header and TLVs */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    err->msg.nlmsg_len > sizeof(struct nlmsghdr))
		offset += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	parse_ext_ack(nlh, offset, x->e);
	if (err->error == 0)
		return MNL_CB_STOP;
	return kernel_error(x->e, err->error);
}

/* A dump ends with NLMSG_DONE, whose payload is an error code too. */
static int exchange_done(const struct nlmsghdr *nlh, void *data)
{
	struct exchange *x = data;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(err))
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	parse_ext_ack(nlh, sizeof(err), x->e);
	if (err == 0)
		return MNL_CB_STOP;
	return kernel_error(x->e, err);
}

/* Name the top-level attribute of @req that the kernel's offset points into. */
static void locate_bad_attr(const struct nlmsghdr *req, struct nl_error *e)
{
	const struct nlattr *attr;

	if (e->bad_offs < 0)
		return;
	mnl_attr_for_each(attr, req, sizeof(struct genlmsghdr)) {
		size_t start = (size_t)((const char *)attr - (const char *)req);
		if ((size_t)e->bad_offs >= start &&
		    (size_t)e->bad_offs < start + attr->nla_len) {
			e->bad_type = mnl_attr_get_type(attr);
			e->bad_inside = (size_t)e->bad_offs != start;
			return;
		}
	}
}

int nl_exchange(struct nl *nl, const struct nlmsghdr *req, mnl_cb_t cb,
		void *data, struct nl_error *e)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = exchange_error,
		[NLMSG_DONE] = exchange_done,
	};
	struct exchange x = {
		.cb = cb, .data = data, .e = e, .seq = req->nlmsg_seq,
	};
	int ret;

	error_reset(e);
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		return local_error(e, errno);
	do {
		ssize_t n = nl_recv(nl, 0);

		if (n < 0)
			return local_error(e, errno);
		errno = 0;
		ret = mnl_cb_run2(nl->rx, (size_t)n, req->nlmsg_seq, nl->portid,
				  exchange_data, &x, ctl, MNL_ARRAY_SIZE(ctl));
	} while (ret == MNL_CB_OK);
	if (ret == MNL_CB_ERROR) {
		/* not from the kernel: a callback, or a stray message */
		if (!e->err)
			e->err = errno ? errno : EIO;
		locate_bad_attr(req, e);
		return -1;
	}
	return 0;
}

static int do_reply(const struct nlmsghdr *nlh, void *data)
{
	struct nlmsghdr **reply = data;

	if (*reply)
		return MNL_CB_OK;	/* a do op answers once; ignore more */
	*reply = malloc(nlh->nlmsg_len);
	if (!*reply)
		return MNL_CB_ERROR;
	memcpy(*reply, nlh, nlh->nlmsg_len);
	return MNL_CB_OK;
}

int nl_do(struct nl *nl, const struct nlmsghdr *req, struct nlmsghdr **reply,
	  struct nl_error *e)
{
	*reply = NULL;
	if (nl_exchange(nl, req, do_reply, reply, e) < 0) {
		free(*reply);
		*reply = NULL;
		return -1;
	}
	return 0;
}

static int family_ops(const struct nlattr *nest, struct nl_family *fam)
{
	const struct nlattr *op, *attr;
	struct nl_op *ops;

	mnl_attr_for_each_nested(op, nest) {
		struct nl_op *o;

		if (mnl_attr_validate(op, MNL_TYPE_NESTED) < 0)
			return -1;
		ops = realloc(fam->ops, (fam->nr_ops + 1) * sizeof(*ops));
		if (!ops)
			return -1;
		fam->ops = ops;
		o = &ops[fam->nr_ops++];
		memset(o, 0, sizeof(*o));
		mnl_attr_for_each_nested(attr, op) {
			if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
				return -1;
			if (mnl_attr_get_type(attr) == CTRL_ATTR_OP_ID)
				o->id = mnl_attr_get_u32(attr);
			else if (mnl_attr_get_type(attr) == CTRL_ATTR_OP_FLAGS)
				o->flags = mnl_attr_get_u32(attr);
		}
	}
	return 0;
}

static int family_mcgrps(const struct nlattr *nest, struct nl_family *fam)
{
	const struct nlattr *grp, *attr;
	struct nl_mcgrp *grps;

	mnl_attr_for_each_nested(grp, nest) {
		struct nl_mcgrp *g;

		if (mnl_attr_validate(grp, MNL_TYPE_NESTED) < 0)
			return -1;
		grps = realloc(fam->mcgrps,
			       (fam->nr_mcgrps + 1) * sizeof(*grps));
		if (!grps)
			return -1;
		fam->mcgrps = grps;
		g = &grps[fam->nr_mcgrps++];
		memset(g, 0, sizeof(*g));
		mnl_attr_for_each_nested(attr, grp) {
			switch (mnl_attr_get_type(attr)) {
			case CTRL_ATTR_MCAST_GRP_NAME:
				if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
					return -1;
				snprintf(g->name, sizeof(g->name), "%s",
					 mnl_attr_get_str(attr));
				break;
			case CTRL_ATTR_MCAST_GRP_ID:
				if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
					return -1;
				g->id = mnl_attr_get_u32(attr);
				break;
			}
		}
	}
	return 0;
}

static int family_u32(const struct nlattr *attr, uint32_t *v)
{
	if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
		return -1;
	*v = mnl_attr_get_u32(attr);
	return 0;
}

static int family_parse(const struct nlmsghdr *nlh, struct nl_family *fam)
{
	const struct nlattr *attr;
	bool have_id = false;
	int ret = 0;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr)) {
		errno = EBADMSG;
		return -1;
	}
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(attr)) {
		case CTRL_ATTR_FAMILY_ID:
			ret = mnl_attr_validate(attr, MNL_TYPE_U16);
			if (!ret)
				fam->id = mnl_attr_get_u16(attr);
			have_id = !ret;
			break;
		case CTRL_ATTR_FAMILY_NAME:
			ret = mnl_attr_validate(attr, MNL_TYPE_NUL_STRING);
			if (!ret)
				snprintf(fam->name, sizeof(fam->name), "%s",
					 mnl_attr_get_str(attr));
			break;
		case CTRL_ATTR_VERSION:
			ret = family_u32(attr, &fam->version);
			break;
		case CTRL_ATTR_HDRSIZE:
			ret = family_u32(attr, &fam->hdrsize);
			break;
		case CTRL_ATTR_MAXATTR:
			ret = family_u32(attr, &fam->maxattr);
			break;
		case CTRL_ATTR_OPS:
			ret = family_ops(attr, fam);
			break;
		case CTRL_ATTR_MCAST_GROUPS:
			ret = family_mcgrps(attr, fam);
			break;
		}
		if (ret < 0)
			break;
	}
	if (ret < 0 || !have_id) {
		/* ENOMEM stays ENOMEM; anything else was a malformed reply */
		if (errno != ENOMEM)
			errno = EBADMSG;
		return -1;
	}
	return 0;
}

int nl_family_get(struct nl *nl, const char *name, struct nl_family *fam,
		  struct nl_error *e)
{
	struct nlmsghdr *req, *reply;
	int err;

	memset(fam, 0, sizeof(*fam));
	req = nl_msg_start(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	if (!mnl_attr_put_strz_check(req, NL_TX_SIZE, CTRL_ATTR_FAMILY_NAME,
				     name))
		return local_error(e, ENAMETOOLONG);
	if (nl_do(nl, req, &reply, e) < 0)
		return -1;
	if (!reply)
		return local_error(e, EBADMSG);
	errno = 0;
	err = family_parse(reply, fam) < 0 ? errno : 0;
	free(reply);
	if (err) {
		nl_family_free(fam);
		return local_error(e, err);
	}
	return 0;
}

void nl_family_free(struct nl_family *fam)
{
	free(fam->ops);
	free(fam->mcgrps);
	fam->ops = NULL;
	fam->mcgrps = NULL;
	fam->nr_ops = 0;
	fam->nr_mcgrps = 0;
}

bool nl_family_has_op(const struct nl_family *fam, uint32_t cmd)
{
	size_t i;

	for (i = 0; i < fam->nr_ops; i++)
		if (fam->ops[i].id == cmd)
			return true;
	return false;
}

const struct nl_mcgrp *nl_family_mcgrp(const struct nl_family *fam,
				       const char *name)
{
	size_t i;

	for (i = 0; i < fam->nr_mcgrps; i++)
		if (!strcmp(fam->mcgrps[i].name, name))
			return &fam->mcgrps[i];
	return NULL;
}

int nl_subscribe(struct nl *nl, uint32_t group, struct nl_error *e)
{
	error_reset(e);
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP, &group,
				  sizeof(group)) < 0)
		return local_error(e, errno);
	return 0;
}

int nl_unsubscribe(struct nl *nl, uint32_t group, struct nl_error *e)
{
	error_reset(e);
	if (mnl_socket_setsockopt(nl->sock, NETLINK_DROP_MEMBERSHIP, &group,
				  sizeof(group)) < 0)
		return local_error(e, errno);
	return 0;
}

int nl_fd(const struct nl *nl)
{
	return mnl_socket_get_fd(nl->sock);
}

void nl_set_rcvbuf(struct nl *nl, int bytes)
{
	(void)setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_RCVBUF,
			 &bytes, sizeof(bytes));
}

int nl_recv_msgs(struct nl *nl, nl_msg_fn fn, void *data, struct nl_error *e)
{
	const struct nlmsghdr *nlh;
	ssize_t n;
	int len;

	error_reset(e);
	n = nl_recv(nl, MSG_DONTWAIT);
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		return local_error(e, errno);
	}
	len = (int)n;
	for (nlh = nl->rx; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len))
		if (fn)
			fn(nlh, data);
	return 1;
}

void nl_drain(struct nl *nl)
{
	struct nl_error e;
	int ret;

	do
		ret = nl_recv_msgs(nl, NULL, NULL, &e);
	while (ret > 0 || (ret < 0 && e.err == ENOBUFS));
}
