// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_policy.c - the guided fuzzer's policy-aware mutations.
 *
 * The attribute policy of each memdiag command is read from the kernel
 * (the generic netlink controller's CTRL_CMD_GETPOLICY dump of the loaded
 * family: the module's nla_policy tables as registered), not from a table
 * of the fuzzer's own, so an attribute the random generator does not know
 * (a flag, a ranged channel set) is reached as soon as the module has it.
 * A mutation then puts one attribute of the message's command: of the
 * policy's type and length, with a value at an edge of the policy's range
 * (the bounds, one past each) or inside it, replacing an attribute of the
 * same type or added. Splicing copies one attribute of another kept
 * message into this one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>

#include "kselftest.h"

#include "nlfuzz.h"

static int attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_get_payload_len(a) < sizeof(*v))
		return -1;
	*v = mnl_attr_get_u32(a);
	return 0;
}

static uint64_t attr_uint(const struct nlattr *a)
{
	return mnl_attr_get_payload_len(a) >= 8 ? mnl_attr_get_u64(a) :
	       mnl_attr_get_u32(a);
}

/* One attribute's policy: NL_POLICY_TYPE_ATTR_* of a nest. */
static void parse_attr_policy(struct nl_attr_pol *p, const struct nlattr *nest)
{
	const struct nlattr *a;
	uint32_t v;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case NL_POLICY_TYPE_ATTR_TYPE:
			if (!attr_u32(a, &v))
				p->nl_type = v;
			break;
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
			p->min = attr_uint(a);
			p->has_range = true;
			break;
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
			p->max = attr_uint(a);
			p->has_range = true;
			break;
		case NL_POLICY_TYPE_ATTR_MIN_LENGTH:
			if (!attr_u32(a, &v))
				p->min_len = v;
			break;
		case NL_POLICY_TYPE_ATTR_MAX_LENGTH:
			if (!attr_u32(a, &v))
				p->max_len = v;
			break;
		}
	}
}

/* CTRL_ATTR_POLICY: { policy index: { attribute type: { ... } } } */
static void parse_policies(struct nl_policy *np, const struct nlattr *nest)
{
	const struct nlattr *idx, *at;
	struct nl_attr_pol *p;
	unsigned int i, t;

	mnl_attr_for_each_nested(idx, nest) {
		i = mnl_attr_get_type(idx);
		if (i >= POLICY_SETS)
			continue;
		mnl_attr_for_each_nested(at, idx) {
			t = mnl_attr_get_type(at);
			if (t >= POLICY_ATTRS)
				continue;
			p = &np->set[i][t];
			memset(p, 0, sizeof(*p));
			parse_attr_policy(p, at);
			if (p->nl_type && t > np->set_max[i])
				np->set_max[i] = t;
		}
	}
}

/* CTRL_ATTR_OP_POLICY: { command: { CTRL_ATTR_POLICY_DO: index } } */
static void parse_op_policies(struct nl_policy *np, const struct nlattr *nest)
{
	const struct nlattr *op, *a;
	unsigned int cmd;
	uint32_t v;

	mnl_attr_for_each_nested(op, nest) {
		cmd = mnl_attr_get_type(op);
		if (cmd >= POLICY_CMDS)
			continue;
		mnl_attr_for_each_nested(a, op)
			if (mnl_attr_get_type(a) == CTRL_ATTR_POLICY_DO &&
			    !attr_u32(a, &v) && v < POLICY_SETS)
				np->op_set[cmd] = v + 1;
	}
}

static int policy_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_POLICY)
			parse_policies(data, a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_OP_POLICY)
			parse_op_policies(data, a);
	}
	return MNL_CB_OK;
}

/* The policies of @family's commands, dumped by the controller; -errno. */
int policy_load(struct nl_policy *np, uint16_t family)
{
	static char buf[65536];		/* a dump part: up to 32K on 6.12 */
	struct nlmsghdr *nlh;
	struct mdnl m;
	int err, n, cmd;

	memset(np, 0, sizeof(*np));
	err = mdnl_open(&m, "nlctrl");
	if (err)
		return err;
	nlh = mdnl_req(&m, buf, CTRL_CMD_GETPOLICY, NLM_F_DUMP);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags &= ~NLM_F_ACK;		/* the dump's DONE ends it */
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, family);
	err = -EIO;
	if (mnl_socket_sendto(m.nl, nlh, nlh->nlmsg_len) < 0)
		goto out;
	do {
		n = mnl_socket_recvfrom(m.nl, buf, sizeof(buf));
		if (n <= 0)
			goto out;
		n = mnl_cb_run(buf, n, 0, 0, policy_cb, np);
	} while (n > 0);
	err = n < 0 ? -errno : 0;
	for (cmd = 0; cmd < POLICY_CMDS; cmd++)
		np->n_cmds += np->op_set[cmd] != 0;
	if (!err && !np->n_cmds)
		err = -ENOENT;
out:
	mdnl_close(&m);
	return err;
}

/* A value for @p: an edge of its range or of its type, or inside. */
static uint64_t policy_value(const struct nl_attr_pol *p, uint64_t type_max)
{
	uint64_t lo = p->has_range ? p->min : 0;
	uint64_t hi = p->has_range ? p->max : type_max;

	switch (below(6)) {
	case 0: return lo;
	case 1: return hi;
	case 2: return lo - 1;			/* wraps to the type's top */
	case 3: return hi + 1;
	case 4:		/* inside */
		if (hi - lo < 0xffffffffULL)
			return lo + below(hi - lo + 1);
		return hi - lo == ~0ULL ? rnd() : lo + rnd() % (hi - lo + 1);
	default:
		return rnd();
	}
}

/* The payload of an attribute of policy @p into @out; its length. */
static int policy_payload(const struct nl_attr_pol *p, char *out, int room)
{
	static const struct { int type, len; uint64_t max; } ints[] = {
		{ NL_ATTR_TYPE_U8, 1, 0xff }, { NL_ATTR_TYPE_U16, 2, 0xffff },
		{ NL_ATTR_TYPE_U32, 4, 0xffffffff }, { NL_ATTR_TYPE_U64, 8, ~0ULL },
		{ NL_ATTR_TYPE_S8, 1, 0x7f }, { NL_ATTR_TYPE_S16, 2, 0x7fff },
		{ NL_ATTR_TYPE_S32, 4, 0x7fffffff },
		{ NL_ATTR_TYPE_S64, 8, 0x7fffffffffffffffULL },
	};
	unsigned int i;
	uint64_t v;
	int len;

	if (p->nl_type == NL_ATTR_TYPE_FLAG)
		return 0;
	for (i = 0; i < ARRAY_SIZE(ints); i++) {
		if (ints[i].type != p->nl_type)
			continue;
		v = policy_value(p, ints[i].max);
		memcpy(out, &v, ints[i].len);	/* little endian */
		return ints[i].len;
	}
	/* strings and binary: a length at the policy's edges or inside */
	len = p->max_len ? (int)p->max_len + (int)below(3) - 1 :
			   (int)below(64);
	if (chance(30))
		len = p->min_len;
	if (len < 0 || len > room)
		len = room;
	for (i = 0; i < (unsigned int)len; i++)
		out[i] = 'a' + below(26);
	if (len && p->nl_type == NL_ATTR_TYPE_NUL_STRING)
		out[len - 1] = 0;
	return len;
}

/* The top-level attribute of @type in @buf, or -1; its offset. */
static long find_attr(const char *buf, size_t len, uint16_t type)
{
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;
	const struct nlattr *a;

	while (at + 4 <= len) {
		a = (const void *)(buf + at);
		if (a->nla_len < 4 || at + a->nla_len > len)
			return -1;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return at;
		at += NLA_ALIGN(a->nla_len);
	}
	return -1;
}

/*
 * Put attribute @a (@alen bytes, aligned) into the well-formed message in
 * @buf: in place of the first one of its type, else at the end.
 */
static void put_whole_attr(char *buf, size_t *len, const struct nlattr *a)
{
	struct nlmsghdr *h = (void *)buf;
	size_t alen = NLA_ALIGN(a->nla_len), old = 0;
	long at = find_attr(buf, *len, a->nla_type & NLA_TYPE_MASK);
	char copy[MSG_MAX];

	if (at >= 0)
		old = NLA_ALIGN(((const struct nlattr *)(buf + at))->nla_len);
	else
		at = *len;
	if (*len - old + alen > MSG_MAX || at + old > *len)
		return;
	memcpy(copy, a, alen);
	memmove(buf + at + alen, buf + at + old, *len - at - old);
	memcpy(buf + at, copy, alen);
	*len = *len - old + alen;
	h->nlmsg_len = *len;
}

static bool well_formed(const char *buf, size_t len)
{
	const struct nlmsghdr *h = (const void *)buf;

	return len >= NLMSG_HDRLEN + GENL_HDRLEN && h->nlmsg_len == len;
}

/* One attribute of the message's command, by the policy; false if none. */
bool policy_mutate(const struct nl_policy *np, char *buf, size_t *len)
{
	const struct genlmsghdr *g = (const void *)(buf + NLMSG_HDRLEN);
	char attr[NLA_HDRLEN + 512] __attribute__((aligned(4)));
	struct nlattr *a = (void *)attr;
	const struct nl_attr_pol *p;
	unsigned int set, t, tries;
	int plen;

	if (!well_formed(buf, *len) || g->cmd >= POLICY_CMDS ||
	    !np->op_set[g->cmd])
		return false;
	set = np->op_set[g->cmd] - 1;
	for (tries = 0; tries < 8; tries++) {
		t = 1 + below(np->set_max[set]);
		p = &np->set[set][t];
		if (p->nl_type)
			break;
	}
	if (!p->nl_type)
		return false;
	memset(attr, 0, sizeof(attr));
	plen = policy_payload(p, attr + NLA_HDRLEN, 512);
	a->nla_type = t;
	a->nla_len = NLA_HDRLEN + plen;
	put_whole_attr(buf, len, a);
	return true;
}

/* One attribute of @donor copied into @buf (same type replaced). */
bool splice_attr(char *buf, size_t *len, const char *donor, size_t dlen)
{
	size_t off[32], at = NLMSG_HDRLEN + GENL_HDRLEN;
	const struct nlattr *a;
	int n = 0;

	if (!well_formed(buf, *len))
		return false;
	while (n < 32 && at + 4 <= dlen) {
		a = (const void *)(donor + at);
		if (a->nla_len < 4 || at + a->nla_len > dlen ||
		    NLA_ALIGN(a->nla_len) > dlen - at)
			break;
		off[n++] = at;
		at += NLA_ALIGN(a->nla_len);
	}
	if (!n)
		return false;
	put_whole_attr(buf, len, (const void *)(donor + off[below(n)]));
	return true;
}
