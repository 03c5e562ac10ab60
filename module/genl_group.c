// SPDX-License-Identifier: GPL-2.0
/*
 * genl_group.c - the group-get handlers: each cgroup's DRAM bytes per
 * socket, the core estimate group_acct.c keeps while a session asks for
 * groups.
 *
 * A dump may take several messages. Its first part folds in what every
 * CPU's running cgroup counted; later parts read the tables as they are,
 * and resume after the last (socket, cgroup) sent, so a cgroup that
 * appears between parts is neither sent twice nor shifts the others.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <net/genetlink.h>

#include "memdiag.h"
#include "group_acct.h"
#include "compat.h"
#include "genl_gen.h"

static int put_entry(struct sk_buff *msg, const struct memdiag_group_bytes *e)
{
	return nla_put_u32(msg, MEMDIAG_A_GROUP_SOCKET, e->socket) ||
	       nla_put_u64_64bit(msg, MEMDIAG_A_GROUP_CGROUP_ID, e->cgroup_id,
				 MEMDIAG_A_GROUP_PAD) ||
	       nla_put_u64_64bit(msg, MEMDIAG_A_GROUP_DRAM_BYTES, e->bytes,
				 MEMDIAG_A_GROUP_PAD);
}

static int read_err(struct netlink_ext_ack *extack, int err)
{
	if (err == -ENODATA)
		NL_SET_ERR_MSG(extack,
			       "no session asked for groups (session-start with groups=1)");
	else
		NL_SET_ERR_MSG(extack, "out of memory for the cgroup tables");
	return err;
}

int memdiag_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *sock = info->attrs[MEMDIAG_A_GROUP_SOCKET];
	struct nlattr *cg = info->attrs[MEMDIAG_A_GROUP_CGROUP_ID];
	struct memdiag_group_bytes *e, want = {};
	struct sk_buff *msg;
	size_t n, i;
	void *hdr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MEMDIAG_A_GROUP_SOCKET) ||
	    GENL_REQ_ATTR_CHECK(info, MEMDIAG_A_GROUP_CGROUP_ID))
		return -EINVAL;
	want.socket = nla_get_u32(sock);
	want.cgroup_id = nla_get_u64(cg);
	err = memdiag_groups_read(true, &e, &n);
	if (err)
		return read_err(info->extack, err);
	for (i = 0; i < n; i++)
		if (e[i].socket == want.socket && e[i].cgroup_id == want.cgroup_id)
			break;
	if (i == n) {
		NL_SET_ERR_MSG_ATTR(info->extack, cg,
				    "no task of this cgroup ran on this socket's CPUs");
		err = -ENOENT;
		goto free;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto free;
	}
	hdr = memdiag_genl_reply_put(msg, info);
	if (!hdr || put_entry(msg, &e[i])) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto free;
	}
	genlmsg_end(msg, hdr);
	kvfree(e);
	return genlmsg_reply(msg, info);
free:
	kvfree(e);
	return err;
}

/* Whether @e comes after the last entry sent: (args[1], args[2]). */
static bool after_cursor(const struct netlink_callback *cb,
			 const struct memdiag_group_bytes *e)
{
	if (!cb->args[0])
		return true;
	return e->socket > cb->args[1] ||
	       (e->socket == cb->args[1] && e->cgroup_id > cb->args[2]);
}

int memdiag_nl_group_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = memdiag_dump_attrs(cb);
	struct nlattr *sock = attrs[MEMDIAG_A_GROUP_SOCKET];
	struct nlattr *cg = attrs[MEMDIAG_A_GROUP_CGROUP_ID];
	struct memdiag_group_bytes *e;
	size_t n, i;
	void *hdr;
	int err;

	/* no pre_doit for dumps: see memdiag_nl_pre_doit() */
	if (!memdiag_nl_allowed(cb->skb, cb->extack, MEMDIAG_CMD_GROUP_GET))
		return -EPERM;
	err = memdiag_groups_read(!cb->args[0], &e, &n);
	if (err)
		return read_err(cb->extack, err);
	for (i = 0; i < n; i++) {
		if (!after_cursor(cb, &e[i]) ||
		    (sock && nla_get_u32(sock) != e[i].socket) ||
		    (cg && nla_get_u64(cg) != e[i].cgroup_id))
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &memdiag_nl_family,
				  NLM_F_MULTI, MEMDIAG_CMD_GROUP_GET);
		if (!hdr || put_entry(skb, &e[i])) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = 1;
		cb->args[1] = e[i].socket;
		cb->args[2] = e[i].cgroup_id;
	}
	kvfree(e);
	return skb->len;
}
