// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_mutate.c - the guided fuzzer's mutations of one kept message:
 * bit flips outside the type and sequence fields, attributes inserted,
 * deleted or duplicated, lengths edited, attribute types and the command
 * swapped, request flags toggled. Used by nlfuzz_kcov.c.
 */
#define _GNU_SOURCE
#include <string.h>
#include <linux/memdiag.h>

#include "nlfuzz.h"

/* The top-level attributes of @buf that fit: their offsets, at most 32. */
static int attrs_of(const char *buf, size_t len, size_t *off)
{
	const struct nlmsghdr *h = (const void *)buf;
	size_t end = len < h->nlmsg_len ? len : h->nlmsg_len;
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;
	int n = 0;

	while (n < 32 && at + 4 <= end) {
		const struct nlattr *a = (const void *)(buf + at);

		if (a->nla_len < 4 || at + a->nla_len > end)
			break;
		off[n++] = at;
		at += NLA_ALIGN(a->nla_len);
	}
	return n;
}

/* Replace bytes [at, at + old) of the message by @new bytes of @src. */
static void replace_bytes(char *buf, size_t *len, size_t at, size_t old,
		   const char *src, size_t new)
{
	struct nlmsghdr *h = (void *)buf;
	bool whole = h->nlmsg_len == *len;

	if (*len - old + new > MSG_MAX)
		return;
	memmove(buf + at + new, buf + at + old, *len - at - old);
	if (src)
		memcpy(buf + at, src, new);
	*len = *len - old + new;
	if (whole)		/* a consistent header stays consistent */
		h->nlmsg_len = *len;
}

/* One mutation of the message in @buf (@len bytes, at least a header). */
void mutate_once(char *buf, size_t *len)
{
	static const uint16_t flag[] = {
		NLM_F_ACK, NLM_F_DUMP, NLM_F_REQUEST, NLM_F_ECHO,
	};
	struct nlmsghdr *h = (void *)buf;
	struct genlmsghdr *g = (void *)(buf + NLMSG_HDRLEN);
	bool has_genl = *len >= NLMSG_HDRLEN + GENL_HDRLEN;
	char copy[MSG_MAX];
	size_t off[32], at;
	struct nlattr *a;
	int n = has_genl ? attrs_of(buf, *len, off) : 0;

	switch (below(8)) {
	case 0:		/* a bit flip, never in the type or sequence */
		at = below(*len);
		if ((at >= 4 && at < 6) || (at >= 8 && at < 12))
			break;
		buf[at] ^= 1 << below(8);
		break;
	case 1:		/* an attribute inserted, at the end or the front */
		if (!has_genl || h->nlmsg_len != *len ||
		    *len > MSG_MAX - 2200)
			break;
		at = *len;
		put_attr_of(h, g->cmd);
		*len = h->nlmsg_len;
		if (n && chance(50)) {	/* rotated to the first's place */
			memcpy(copy, buf + at, *len - at);
			memmove(buf + off[0] + *len - at, buf + off[0],
				at - off[0]);
			memcpy(buf + off[0], copy, *len - at);
		}
		break;
	case 2:		/* an attribute deleted */
		if (!n)
			break;
		at = off[below(n)];
		a = (void *)(buf + at);
		replace_bytes(buf, len, at, NLA_ALIGN(a->nla_len) <= *len - at ?
		       NLA_ALIGN(a->nla_len) : a->nla_len, NULL, 0);
		break;
	case 3:		/* an attribute duplicated after itself */
		if (!n)
			break;
		at = off[below(n)];
		a = (void *)(buf + at);
		if (NLA_ALIGN(a->nla_len) > *len - at)
			break;
		memcpy(copy, a, NLA_ALIGN(a->nla_len));
		replace_bytes(buf, len, at, 0, copy, NLA_ALIGN(a->nla_len));
		break;
	case 4:		/* a length edited: an attribute's or the message's */
		if (n && chance(70)) {
			a = (void *)(buf + off[below(n)]);
			a->nla_len += chance(50) ? 1 + below(8) :
				      -(int)(1 + below(a->nla_len));
		} else {
			h->nlmsg_len += chance(50) ? 1 + below(64) :
					-(int)below(h->nlmsg_len + 1);
		}
		break;
	case 5:		/* an attribute's type swapped, its flags kept */
		if (!n)
			break;
		a = (void *)(buf + off[below(n)]);
		a->nla_type = (a->nla_type & ~NLA_TYPE_MASK) |
			      (chance(90) ? below(MEMDIAG_A_PREFETCH_MAX + 3) :
					    below(NLA_TYPE_MASK + 1));
		break;
	case 6:		/* the command swapped */
		if (has_genl)
			g->cmd = below(MEMDIAG_CMD_MAX + 3);
		break;
	default:	/* a request flag toggled */
		h->nlmsg_flags ^= flag[below(sizeof(flag) / sizeof(flag[0]))];
		break;
	}
}
