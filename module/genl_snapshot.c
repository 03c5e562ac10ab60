// SPDX-License-Identifier: GPL-2.0
/*
 * genl_snapshot.c - counter snapshots over generic netlink: the snapshot
 * request (do and dump) and the monitor group's notifications, all built
 * from the session's shared sample.
 */
#include <linux/slab.h>
#include <net/genetlink.h>

#include "compat.h"
#include "memdiag.h"
#include "genl_gen.h"

/* Snapshot attributes that carry a core counter, and which. */
static const struct {
	u16 attr;
	u8 ctr;
} core_attrs[] = {
	{ MEMDIAG_A_SNAPSHOT_INSTRUCTIONS, MEMDIAG_FIX_INSTR },
	{ MEMDIAG_A_SNAPSHOT_CYCLES, MEMDIAG_FIX_CYCLES },
	{ MEMDIAG_A_SNAPSHOT_REF_CYCLES, MEMDIAG_FIX_REF },
	{ MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS, MEMDIAG_EV_PENDING },
	{ MEMDIAG_A_SNAPSHOT_L1_MISS, MEMDIAG_EV_L1_MISS },
	{ MEMDIAG_A_SNAPSHOT_LFB_HIT, MEMDIAG_EV_LFB_HIT },
	{ MEMDIAG_A_SNAPSHOT_L1_MISS_ANY, MEMDIAG_EV_L1_MISS_ANY },
	{ MEMDIAG_A_SNAPSHOT_OFFCORE_DRAM_READS, MEMDIAG_EV_OFFCORE },
	{ MEMDIAG_A_SNAPSHOT_MAB_OCCUPANCY, MEMDIAG_EV_MAB_OCC },
	{ MEMDIAG_A_SNAPSHOT_MAB_ALLOCATIONS, MEMDIAG_EV_MAB_ALLOC },
};

static int put_u64(struct sk_buff *msg, int attr, u64 v)
{
	return nla_put_u64_64bit(msg, attr, v, MEMDIAG_A_SNAPSHOT_PAD);
}

static int put_chan_rw(struct sk_buff *msg, const struct memdiag_snap *s,
		       unsigned int i)
{
	return nla_put_u64_64bit(msg, MEMDIAG_A_CHANNEL_READ_BYTES,
				 s->chan[i].rd_bytes, MEMDIAG_A_CHANNEL_PAD) ||
	       nla_put_u64_64bit(msg, MEMDIAG_A_CHANNEL_WRITE_BYTES,
				 s->chan[i].wr_bytes, MEMDIAG_A_CHANNEL_PAD);
}

/* AMD's DF: counted bytes, reads and writes together, and for how long */
static int put_chan_rdwr(struct sk_buff *msg, const struct memdiag_snap *s,
			 unsigned int i)
{
	return nla_put_u64_64bit(msg, MEMDIAG_A_CHANNEL_RDWR_BYTES,
				 s->chan[i].rdwr_bytes, MEMDIAG_A_CHANNEL_PAD) ||
	       nla_put_u64_64bit(msg, MEMDIAG_A_CHANNEL_COUNTED_NS,
				 s->chan[i].counted_ns, MEMDIAG_A_CHANNEL_PAD);
}

static int put_dram_bytes(struct sk_buff *msg, const struct memdiag_snap *s)
{
	if (s->imc_rdwr)
		return !s->no_total &&
		       put_u64(msg, MEMDIAG_A_SNAPSHOT_DRAM_RDWR_BYTES,
			       s->rdwr_bytes);
	return put_u64(msg, MEMDIAG_A_SNAPSHOT_DRAM_READ_BYTES, s->rd_bytes) ||
	       put_u64(msg, MEMDIAG_A_SNAPSHOT_DRAM_WRITE_BYTES, s->wr_bytes);
}

static int put_channels(struct sk_buff *msg, const struct memdiag_snap *s)
{
	struct nlattr *nest;
	unsigned int i;

	for (i = 0; i < s->nr_chan; i++) {
		nest = nla_nest_start(msg, MEMDIAG_A_SNAPSHOT_CHANNEL);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(msg, MEMDIAG_A_CHANNEL_ID, s->chan[i].id) ||
		    (s->imc_rdwr ? put_chan_rdwr(msg, s, i) :
		     put_chan_rw(msg, s, i))) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* AMD DF: each NUMA node's sum, or why there are none */
static int put_df_nodes(struct sk_buff *msg, const struct memdiag_snap *s)
{
	struct nlattr *nest;
	unsigned int i;

	if (s->nodes_why)
		return nla_put_string(msg, MEMDIAG_A_SNAPSHOT_DF_NODES_REASON,
				      s->nodes_why);
	for (i = 0; i < s->nr_node; i++) {
		nest = nla_nest_start(msg, MEMDIAG_A_SNAPSHOT_DF_NODE);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(msg, MEMDIAG_A_DF_NODE_ID, s->node[i].id) ||
		    nla_put_u32(msg, MEMDIAG_A_DF_NODE_CHANNELS,
				s->node[i].chans) ||
		    (s->node[i].measured &&
		     nla_put_u64_64bit(msg, MEMDIAG_A_DF_NODE_RDWR_BYTES,
				       s->node[i].rdwr_bytes,
				       MEMDIAG_A_DF_NODE_PAD))) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

static int put_snap(struct sk_buff *msg, const struct memdiag_snap *s,
		    bool channels)
{
	unsigned int i;

	if (nla_put_u32(msg, MEMDIAG_A_SNAPSHOT_SOCKET, s->socket) ||
	    put_u64(msg, MEMDIAG_A_SNAPSHOT_TIME_NS, s->time_ns))
		return -EMSGSIZE;
	if (s->has_imc &&
	    (nla_put_u32(msg, MEMDIAG_A_SNAPSHOT_IMC_EPOCH, s->imc_epoch) ||
	     put_dram_bytes(msg, s) || put_df_nodes(msg, s) ||
	     (channels && put_channels(msg, s))))
		return -EMSGSIZE;
	if (s->has_prefetch &&
	    (nla_put_u32(msg, MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED,
			 s->prefetch_off) ||
	     nla_put_u32(msg, MEMDIAG_A_SNAPSHOT_PREFETCH_MIXED,
			 s->prefetch_mixed) ||
	     nla_put_u8(msg, MEMDIAG_A_SNAPSHOT_PREFETCH_CHANGED,
			s->prefetch_changed)))
		return -EMSGSIZE;
	if (s->has_l3 &&
	    (nla_put_u32(msg, MEMDIAG_A_SNAPSHOT_L3_EPOCH, s->l3_epoch) ||
	     put_u64(msg, MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_LATENCY_CYCLES,
		     s->l3_lat_cycles) ||
	     put_u64(msg, MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_REQUESTS,
		     s->l3_requests)))
		return -EMSGSIZE;
	if (!s->has_core)
		return 0;
	if (nla_put_u32(msg, MEMDIAG_A_SNAPSHOT_CORE_EPOCH, s->core_epoch) ||
	    nla_put_u32(msg, MEMDIAG_A_SNAPSHOT_NR_CPUS, s->nr_cpus))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(core_attrs); i++)
		if (s->has[core_attrs[i].ctr] &&
		    put_u64(msg, core_attrs[i].attr, s->ctr[core_attrs[i].ctr]))
			return -EMSGSIZE;
	return 0;
}

static size_t snap_size(const struct memdiag_snap *s, bool channels)
{
	size_t sz = 8 * nla_total_size(sizeof(u32)) +
		    16 * nla_total_size_64bit(sizeof(u64));

	sz += s->nr_node * (nla_total_size(0) + 2 * nla_total_size(sizeof(u32)) +
			    nla_total_size_64bit(sizeof(u64)));
	if (s->nodes_why)
		sz += nla_total_size(strlen(s->nodes_why) + 1);
	if (channels)
		sz += s->nr_chan *
		      (nla_total_size(0) + nla_total_size(sizeof(u32)) +
		       2 * nla_total_size_64bit(sizeof(u64)));
	return sz;
}

/*
 * Every socket's counters for a snapshot request, NULL (with @err set) if
 * the counters are not running. Readers allowed only by unprivileged_read
 * get the shared sample if it is younger than MEMDIAG_UNPRIV_SAMPLE_MS, so
 * together they cost at most one sample per that period; the others get a
 * sample taken after their request arrived.
 */
static struct memdiag_snap *read_snaps(struct sk_buff *skb,
				       struct netlink_ext_ack *extack, int *err)
{
	struct memdiag_snap *snaps;

	snaps = kcalloc(memdiag_session_nr_snaps(), sizeof(*snaps), GFP_KERNEL);
	if (!snaps) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = memdiag_session_snapshot(snaps, memdiag_nl_perfmon(skb) ? 0 :
					MEMDIAG_UNPRIV_SAMPLE_MS * NSEC_PER_MSEC);
	if (*err) {
		NL_SET_ERR_MSG(extack,
			       "the counters run only during a session: start one with session-start first");
		kfree(snaps);
		return NULL;
	}
	return snaps;
}

static bool socket_exists(u32 socket)
{
	return socket < memdiag_max_sockets() &&
	       memdiag_socket_package(socket) != UINT_MAX;
}

int memdiag_nl_snapshot_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *sock = info->attrs[MEMDIAG_A_SNAPSHOT_SOCKET];
	bool channels = info->attrs[MEMDIAG_A_SNAPSHOT_CHANNELS];
	struct memdiag_snap *snaps;
	struct sk_buff *msg;
	u32 socket;
	void *hdr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MEMDIAG_A_SNAPSHOT_SOCKET)) {
		GENL_SET_ERR_MSG(info, "socket is required (a dump reads every socket)");
		return -EINVAL;
	}
	socket = nla_get_u32(sock);
	if (!socket_exists(socket)) {
		NL_SET_ERR_MSG_ATTR(info->extack, sock,
				    "no such socket (get-info lists them)");
		return -EINVAL;
	}
	snaps = read_snaps(skb, info->extack, &err);
	if (!snaps)
		return err;

	err = -EMSGSIZE;
	msg = genlmsg_new(snap_size(&snaps[socket], channels), GFP_KERNEL);
	if (!msg)
		goto free;
	hdr = genlmsg_put_reply(msg, info, &memdiag_nl_family, 0,
				MEMDIAG_CMD_SNAPSHOT);
	if (!hdr || put_snap(msg, &snaps[socket], channels)) {
		nlmsg_free(msg);
		GENL_SET_ERR_MSG(info, "snapshot reply could not be built");
		goto free;
	}
	genlmsg_end(msg, hdr);
	kfree(snaps);
	return genlmsg_reply(msg, info);
free:
	kfree(snaps);
	return err;
}

/* One message per socket; cb->args[0] is the next socket to send. */
int memdiag_nl_snapshot_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = memdiag_dump_attrs(cb);
	struct nlattr *sock = attrs[MEMDIAG_A_SNAPSHOT_SOCKET];
	bool channels = attrs[MEMDIAG_A_SNAPSHOT_CHANNELS];
	struct memdiag_snap *snaps;
	unsigned int n, s;
	int err = 0;
	void *hdr;

	/* no pre_doit for dumps: see memdiag_nl_pre_doit() */
	if (!memdiag_nl_allowed(cb->skb, cb->extack, MEMDIAG_CMD_SNAPSHOT))
		return -EPERM;
	if (sock && !socket_exists(nla_get_u32(sock))) {
		NL_SET_ERR_MSG_ATTR(cb->extack, sock,
				    "no such socket (get-info lists them)");
		return -EINVAL;
	}
	snaps = read_snaps(cb->skb, cb->extack, &err);
	if (!snaps)
		return err;
	n = memdiag_session_nr_snaps();
	for (s = cb->args[0]; s < n; s++) {
		if (!socket_exists(s) || (sock && nla_get_u32(sock) != s))
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &memdiag_nl_family,
				  NLM_F_MULTI, MEMDIAG_CMD_SNAPSHOT);
		if (!hdr || put_snap(skb, &snaps[s], channels)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = s;
	kfree(snaps);
	return skb->len;
}

/**
 * memdiag_genl_publish() - send one snapshot per socket to the monitor group
 * @snaps: indexed by socket
 * @n: number of entries
 *
 * Notifications always carry the channels: a listener cannot ask for them,
 * and the channel counts come from the same reading as the totals, so
 * they sum to them. At most MEMDIAG_MAX_CHANNELS nests (about 1.2 KiB)
 * bound the message. Process context only: builds messages with GFP_KERNEL.
 */
void memdiag_genl_publish(const struct memdiag_snap *snaps, unsigned int n)
{
	struct sk_buff *msg;
	unsigned int s;
	void *hdr;

	if (!genl_has_listeners(&memdiag_nl_family, &init_net,
				MEMDIAG_NLGRP_MONITOR))
		return;
	for (s = 0; s < n; s++) {
		if (!socket_exists(s))
			continue;
		msg = genlmsg_new(snap_size(&snaps[s], true), GFP_KERNEL);
		if (!msg)
			return;
		hdr = genlmsg_put(msg, 0, 0, &memdiag_nl_family, 0,
				  MEMDIAG_CMD_SNAPSHOT_NTF);
		if (!hdr || put_snap(msg, &snaps[s], true)) {
			nlmsg_free(msg);
			continue;
		}
		genlmsg_end(msg, hdr);
		genlmsg_multicast(&memdiag_nl_family, msg, 0,
				  MEMDIAG_NLGRP_MONITOR, GFP_KERNEL);
	}
}
