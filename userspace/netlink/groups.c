// SPDX-License-Identifier: GPL-2.0
/* groups.c - the core estimate's session and its group-get dump. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memdiag.h>

#include "groups.h"
#include "names.h"

int groups_session_start(struct nl *nl, const struct nl_family *fam,
			 uint32_t *id, struct cli_error *err)
{
	struct nlmsghdr *req, *reply;
	const struct nlattr *attr;
	struct nl_error e;

	cli_error_init(err);
	if (md_need_op(fam, MEMDIAG_CMD_GROUP_GET, "group-get", err) !=
	    MDC_EXIT_OK)
		return err->code;
	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_SESSION_START,
			   MEMDIAG_FAMILY_VERSION, 0);
	mnl_attr_put_u32(req, MEMDIAG_A_SESSION_INTERVAL_MS, INTERVAL_MS_MAX);
	mnl_attr_put_u8(req, MEMDIAG_A_SESSION_GROUPS, 1);
	if (nl_do(nl, req, &reply, &e) < 0) {
		if (e.kernel && (e.err == EOPNOTSUPP || e.err == ENOENT ||
				 e.err == ENODEV))
			return cli_error_set(err, MDC_EXIT_UNAVAILABLE,
					     "the memdiag module cannot count per cgroup here",
					     "%s", e.msg[0] ? e.msg : strerror(e.err));
		return cli_error_nl(err, "session-start with groups failed",
				    &e, name_session_attr);
	}
	*id = 0;
	if (reply)
		mnl_attr_for_each(attr, reply, sizeof(struct genlmsghdr))
			if (mnl_attr_get_type(attr) == MEMDIAG_A_SESSION_ID &&
			    mnl_attr_get_payload_len(attr) == sizeof(uint32_t))
				*id = mnl_attr_get_u32(attr);
	free(reply);
	if (!*id)
		return cli_error_set(err, MDC_EXIT_KERNEL,
				     "malformed session-start reply from the memdiag module",
				     "no session id");
	return MDC_EXIT_OK;
}

struct collect {
	struct group_bytes *g;
	size_t nr, cap;
};

static int one_entry(const struct nlmsghdr *nlh, void *data)
{
	struct collect *c = data;
	const struct nlattr *attr;
	struct group_bytes b = { 0 };

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		uint16_t t = mnl_attr_get_type(attr);

		if (t == MEMDIAG_A_GROUP_SOCKET &&
		    mnl_attr_get_payload_len(attr) == sizeof(uint32_t))
			b.socket = mnl_attr_get_u32(attr);
		else if (t == MEMDIAG_A_GROUP_CGROUP_ID &&
			 mnl_attr_get_payload_len(attr) == sizeof(uint64_t))
			b.cgroup_id = mnl_attr_get_u64(attr);
		else if (t == MEMDIAG_A_GROUP_DRAM_BYTES &&
			 mnl_attr_get_payload_len(attr) == sizeof(uint64_t))
			b.bytes = mnl_attr_get_u64(attr);
	}
	if (c->nr == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		struct group_bytes *g = realloc(c->g, cap * sizeof(*g));

		if (!g)
			return MNL_CB_ERROR;
		c->g = g;
		c->cap = cap;
	}
	c->g[c->nr++] = b;
	return MNL_CB_OK;
}

int groups_read(struct nl *nl, const struct nl_family *fam,
		struct group_bytes **g, size_t *n, struct cli_error *err)
{
	struct collect c = { NULL, 0, 0 };
	struct nlmsghdr *req;
	struct nl_error e;

	cli_error_init(err);
	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_GROUP_GET,
			   MEMDIAG_FAMILY_VERSION, NLM_F_DUMP);
	if (nl_exchange(nl, req, one_entry, &c, &e) < 0) {
		free(c.g);
		return cli_error_nl(err, "group-get failed", &e,
				    name_group_attr);
	}
	*g = c.g;
	*n = c.nr;
	return MDC_EXIT_OK;
}
