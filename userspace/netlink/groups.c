// SPDX-License-Identifier: GPL-2.0
/* groups.c - the core estimate's group-get dump. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memdiag.h>

#include "groups.h"
#include "names.h"

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

int groups_conn_open(struct groups_conn *gc, uint32_t interval_ms,
		     struct cli_error *err)
{
	int rc;

	*gc = (struct groups_conn){ 0 };
	rc = md_connect(&gc->nl, &gc->fam, err);
	if (rc != MDC_EXIT_OK)
		return rc;
	gc->connected = true;
	rc = session_start_groups(&gc->nl, &gc->fam, interval_ms,
				  &gc->session, err);
	if (rc != MDC_EXIT_OK) {
		groups_conn_close(gc);
		return rc;
	}
	gc->session_on = true;
	return MDC_EXIT_OK;
}

void groups_conn_close(struct groups_conn *gc)
{
	struct cli_error err;

	if (gc->session_on)
		session_stop(&gc->nl, &gc->fam, gc->session, &err);
	if (gc->connected) {
		nl_family_free(&gc->fam);
		nl_close(&gc->nl);
	}
	gc->session_on = gc->connected = false;
}
