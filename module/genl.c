// SPDX-License-Identifier: GPL-2.0
/*
 * genl.c - the memdiag generic netlink family and its handlers.
 *
 * Policies and the op table are generated from the YNL spec into
 * genl_gen.c. For genetlink-legacy families the generator makes the
 * multicast group table static and leaves the family struct to the
 * driver, so the generated source is compiled as part of this file.
 */
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <net/genetlink.h>

#include "compat.h"
#include "memdiag.h"
#include "genl_gen.c"

/*
 * The generator does not emit multicast group flags, so the table is
 * copied at init with the flag added. The monitor group carries every
 * counter value of every socket; it is restricted by the genetlink core
 * (see MEMDIAG_MCGRP_PERM in compat.h), never by a .bind callback, whose
 * verdict genl_bind() ignores. unprivileged_read does not open the group:
 * a group flag is fixed at registration while the parameter can change at
 * any time, so readers without CAP_SYS_ADMIN poll the snapshot request,
 * which is served from the shared sample (see Documentation/memdiag.rst).
 */
static struct genl_multicast_group memdiag_mcgrps[ARRAY_SIZE(memdiag_nl_mcgrps)];

static struct genl_family memdiag_nl_family __ro_after_init = {
	.name		= MEMDIAG_FAMILY_NAME,
	.version	= MEMDIAG_FAMILY_VERSION,
	/* the counters are machine-wide: serve the initial netns only */
	.netnsok	= false,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= memdiag_nl_ops,
	.n_ops		= ARRAY_SIZE(memdiag_nl_ops),
	.mcgrps		= memdiag_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(memdiag_mcgrps),
#ifdef MEMDIAG_HAVE_RESV_START_OP
	/* every command is new: reserved header bits and flags are refused */
	.resv_start_op	= MEMDIAG_CMD_GET_INFO,
#endif
};

/*
 * Genetlink's op flags can only demand CAP_NET_ADMIN, which says nothing
 * about reading performance counters, so each handler checks here.
 * netlink_capable() looks at the credentials of whoever opened the socket.
 */
bool memdiag_may_read(struct sk_buff *skb)
{
	return READ_ONCE(memdiag_unprivileged_read) ||
	       netlink_capable(skb, CAP_PERFMON) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

#define MEMDIAG_READ_DENIED(op) \
	op " needs CAP_PERFMON or CAP_SYS_ADMIN, or memdiag loaded with unprivileged_read=1"

static size_t info_reply_size(unsigned int sockets, unsigned int cpus)
{
	size_t sz;

	sz = 8 * nla_total_size(sizeof(u32)) +
	     nla_total_size(sizeof(memdiag.ident.vendor)) +
	     nla_total_size(sizeof(memdiag.ident.model_name)) +
	     nla_total_size(32) + 2 * nla_total_size(MEMDIAG_REASON_LEN);
	sz += sockets * (nla_total_size(0) + 2 * nla_total_size(sizeof(u32)));
	sz += cpus * nla_total_size(sizeof(u32));
	sz += (MEMDIAG_CAPABILITY_MAX + 1) *
	      (nla_total_size(0) + nla_total_size(sizeof(u32)) +
	       nla_total_size(sizeof(u8)) +
	       nla_total_size(MEMDIAG_REASON_LEN));
	return sz;
}

static int put_socket(struct sk_buff *msg, unsigned int socket,
		      unsigned int package)
{
	struct nlattr *nest;
	unsigned int cpu;

	nest = nla_nest_start(msg, MEMDIAG_A_INFO_SOCKET);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, MEMDIAG_A_SOCKET_ID, socket) ||
	    nla_put_u32(msg, MEMDIAG_A_SOCKET_PACKAGE_ID, package))
		goto cancel;
	for_each_online_cpu(cpu)
		if (memdiag_socket_of(cpu) == socket &&
		    nla_put_u32(msg, MEMDIAG_A_SOCKET_CPU, cpu))
			goto cancel;
	nla_nest_end(msg, nest);
	return 0;
cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

static int put_capability(struct sk_buff *msg, unsigned int id,
			  const struct memdiag_cap *cap)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, MEMDIAG_A_INFO_CAPABILITY);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, MEMDIAG_A_CAPABILITY_ID, id) ||
	    nla_put_u8(msg, MEMDIAG_A_CAPABILITY_AVAILABLE, cap->available) ||
	    (!cap->available &&
	     nla_put_string(msg, MEMDIAG_A_CAPABILITY_REASON, cap->reason))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* Fill the get-info reply; the caller holds cpus_read_lock(). */
static int fill_info(struct sk_buff *msg)
{
	const struct memdiag_cpu_ident *id = &memdiag.ident;
	const struct memdiag_uarch *u = memdiag.uarch;
	unsigned int s, pkg, i;

	if (nla_put_u32(msg, MEMDIAG_A_INFO_PROTO_VERSION,
			MEMDIAG_FAMILY_VERSION) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_VENDOR, id->vendor) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_FAMILY, id->family) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_MODEL, id->model) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_STEPPING, id->stepping) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_MODEL_NAME, id->model_name) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_UARCH,
			   u ? u->name : "unsupported") ||
	    (!u && nla_put_string(msg, MEMDIAG_A_INFO_UARCH_REASON,
				  memdiag.uarch_reason)) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_PLATFORM, memdiag.platform) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_NR_SOCKETS, memdiag_nr_sockets()) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_TSC_KHZ, id->tsc_khz) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_CORE_MODE, memdiag.core_mode) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_CORE_MODE_REASON,
			   memdiag.core_mode_reason))
		return -EMSGSIZE;

	for (s = 0; s < memdiag_max_sockets(); s++) {
		pkg = memdiag_socket_package(s);
		if (pkg != UINT_MAX && put_socket(msg, s, pkg))
			return -EMSGSIZE;
	}
	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++)
		if (put_capability(msg, i, &memdiag.caps[i]))
			return -EMSGSIZE;
	return 0;
}

int memdiag_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *ver = info->attrs[MEMDIAG_A_INFO_PROTO_VERSION];
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!memdiag_may_read(skb)) {
		GENL_SET_ERR_MSG(info, MEMDIAG_READ_DENIED("get-info"));
		return -EPERM;
	}
	if (ver && nla_get_u32(ver) != MEMDIAG_FAMILY_VERSION) {
		NL_SET_ERR_MSG_ATTR(info->extack, ver,
				    "proto-version differs: this memdiag module speaks protocol version "
				    __stringify(MEMDIAG_FAMILY_VERSION));
		return -EPROTONOSUPPORT;
	}

	cpus_read_lock();
	msg = genlmsg_new(info_reply_size(memdiag_max_sockets(),
					  num_online_cpus()), GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto unlock;
	}
	hdr = genlmsg_put_reply(msg, info, &memdiag_nl_family, 0,
				MEMDIAG_CMD_GET_INFO);
	if (!hdr) {
		err = -EMSGSIZE;
		goto free;
	}
	err = fill_info(msg);
	if (err)
		goto free;
	cpus_read_unlock();

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

free:
	nlmsg_free(msg);
unlock:
	cpus_read_unlock();
	GENL_SET_ERR_MSG(info, "get-info reply could not be built");
	return err;
}

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
};

static int put_u64(struct sk_buff *msg, int attr, u64 v)
{
	return nla_put_u64_64bit(msg, attr, v, MEMDIAG_A_SNAPSHOT_PAD);
}

static int put_channels(struct sk_buff *msg, unsigned int socket)
{
	struct nlattr *nest;
	unsigned int i;
	u64 rd, wr;
	u32 id;

	for (i = 0; !memdiag_imc_channel(socket, i, &id, &rd, &wr); i++) {
		nest = nla_nest_start(msg, MEMDIAG_A_SNAPSHOT_CHANNEL);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(msg, MEMDIAG_A_CHANNEL_ID, id) ||
		    nla_put_u64_64bit(msg, MEMDIAG_A_CHANNEL_READ_BYTES, rd,
				      MEMDIAG_A_CHANNEL_PAD) ||
		    nla_put_u64_64bit(msg, MEMDIAG_A_CHANNEL_WRITE_BYTES, wr,
				      MEMDIAG_A_CHANNEL_PAD)) {
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
	     put_u64(msg, MEMDIAG_A_SNAPSHOT_DRAM_READ_BYTES, s->rd_bytes) ||
	     put_u64(msg, MEMDIAG_A_SNAPSHOT_DRAM_WRITE_BYTES, s->wr_bytes) ||
	     (channels && put_channels(msg, s->socket))))
		return -EMSGSIZE;
	if (s->has_prefetch &&
	    (nla_put_u32(msg, MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED,
			 s->prefetch_off) ||
	     nla_put_u32(msg, MEMDIAG_A_SNAPSHOT_PREFETCH_MIXED,
			 s->prefetch_mixed) ||
	     nla_put_u8(msg, MEMDIAG_A_SNAPSHOT_PREFETCH_CHANGED,
			s->prefetch_changed)))
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

static size_t snap_size(unsigned int socket, bool channels)
{
	size_t sz = 7 * nla_total_size(sizeof(u32)) +
		    12 * nla_total_size_64bit(sizeof(u64));

	if (channels)
		sz += memdiag_imc_channels(socket) *
		      (nla_total_size(0) + nla_total_size(sizeof(u32)) +
		       2 * nla_total_size_64bit(sizeof(u64)));
	return sz;
}

/* Sample every socket now; NULL (with @err set) if counters are not running. */
static struct memdiag_snap *sample_now(struct netlink_ext_ack *extack,
				       unsigned int *n, int *err)
{
	struct memdiag_snap *snaps;

	*n = memdiag_max_sockets();
	snaps = kcalloc(*n, sizeof(*snaps), GFP_KERNEL);
	if (!snaps) {
		*err = -ENOMEM;
		return NULL;
	}
	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	if (!memdiag_session_active()) {
		NL_SET_ERR_MSG(extack,
			       "the counters run only during a session: start one with session-start first");
		*err = -ENODATA;
	} else {
		memdiag_sample(snaps, *n);
		*err = 0;
	}
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	if (*err) {
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
	unsigned int n;
	u32 socket;
	void *hdr;
	int err;

	if (!memdiag_may_read(skb)) {
		GENL_SET_ERR_MSG(info, MEMDIAG_READ_DENIED("snapshot"));
		return -EPERM;
	}
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
	snaps = sample_now(info->extack, &n, &err);
	if (!snaps)
		return err;

	err = -EMSGSIZE;
	msg = genlmsg_new(snap_size(socket, channels), GFP_KERNEL);
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

	if (!memdiag_may_read(cb->skb)) {
		NL_SET_ERR_MSG(cb->extack, MEMDIAG_READ_DENIED("snapshot"));
		return -EPERM;
	}
	if (sock && !socket_exists(nla_get_u32(sock))) {
		NL_SET_ERR_MSG_ATTR(cb->extack, sock,
				    "no such socket (get-info lists them)");
		return -EINVAL;
	}
	snaps = sample_now(cb->extack, &n, &err);
	if (!snaps)
		return err;
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

/*
 * A refusal names the register and the agent that holds it, so its text is
 * built at run time. Extack keeps a pointer to the message until the ack
 * is sent after the handler returns, and 6.1 has no NL_SET_ERR_MSG_FMT
 * (later ones cut it at 80 bytes), so messages live in a ring of static
 * buffers that outlive the handler.
 */
#define REFUSALS 16
static char refusal[REFUSALS][MEMDIAG_REASON_LEN];
static atomic_t refusal_next;

char *memdiag_msg_buf(void)
{
	return refusal[(unsigned int)atomic_inc_return(&refusal_next) % REFUSALS];
}

/* The header of a reply to the request @info carries. */
void *memdiag_genl_reply_put(struct sk_buff *msg, struct genl_info *info)
{
	return genlmsg_put_reply(msg, info, &memdiag_nl_family, 0,
				 info->genlhdr->cmd);
}

int memdiag_nl_session_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *ival = info->attrs[MEMDIAG_A_SESSION_INTERVAL_MS];
	char *why = memdiag_msg_buf();
	struct sk_buff *msg;
	u32 id, ms;
	void *hdr;
	int err;

	if (!memdiag_may_read(skb)) {
		GENL_SET_ERR_MSG(info, MEMDIAG_READ_DENIED("session-start"));
		return -EPERM;
	}
	if (GENL_REQ_ATTR_CHECK(info, MEMDIAG_A_SESSION_INTERVAL_MS)) {
		GENL_SET_ERR_MSG(info, "interval-ms is required");
		return -EINVAL;
	}
	ms = nla_get_u32(ival);
	if (ms < 1 || ms > 60000) {
		NL_SET_ERR_MSG_ATTR(info->extack, ival,
				    "interval-ms must be from 1 to 60000");
		return -EINVAL;
	}

	msg = genlmsg_new(3 * nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = memdiag_session_start(info->snd_portid, ms, &id, why,
				    MEMDIAG_REASON_LEN);
	if (err) {
		if (info->extack)
			info->extack->_msg = why;
		goto free;
	}
	hdr = genlmsg_put_reply(msg, info, &memdiag_nl_family, 0,
				MEMDIAG_CMD_SESSION_START);
	if (!hdr || nla_put_u32(msg, MEMDIAG_A_SESSION_ID, id) ||
	    nla_put_u32(msg, MEMDIAG_A_SESSION_INTERVAL_MS, ms) ||
	    nla_put_u32(msg, MEMDIAG_A_SESSION_CORE_MODE, memdiag.core_mode)) {
		memdiag_session_stop(info->snd_portid, id);
		GENL_SET_ERR_MSG(info, "session-start reply could not be built");
		err = -EMSGSIZE;
		goto free;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
free:
	nlmsg_free(msg);
	return err;
}

int memdiag_nl_session_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *id = info->attrs[MEMDIAG_A_SESSION_ID];

	if (GENL_REQ_ATTR_CHECK(info, MEMDIAG_A_SESSION_ID)) {
		GENL_SET_ERR_MSG(info, "id is required: the id session-start returned");
		return -EINVAL;
	}
	if (memdiag_session_stop(info->snd_portid, nla_get_u32(id))) {
		NL_SET_ERR_MSG_ATTR(info->extack, id,
				    "no session with this id was started on this socket");
		return -ENOENT;
	}
	return 0;
}

/**
 * memdiag_genl_publish() - send one snapshot per socket to the monitor group
 * @snaps: indexed by socket
 * @n: number of entries
 *
 * Process context only: builds messages with GFP_KERNEL.
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
		msg = genlmsg_new(snap_size(s, false), GFP_KERNEL);
		if (!msg)
			return;
		hdr = genlmsg_put(msg, 0, 0, &memdiag_nl_family, 0,
				  MEMDIAG_CMD_SNAPSHOT_NTF);
		if (!hdr || put_snap(msg, &snaps[s], false)) {
			nlmsg_free(msg);
			continue;
		}
		genlmsg_end(msg, hdr);
		genlmsg_multicast(&memdiag_nl_family, msg, 0,
				  MEMDIAG_NLGRP_MONITOR, GFP_KERNEL);
	}
}

int memdiag_genl_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(memdiag_mcgrps); i++) {
		strscpy(memdiag_mcgrps[i].name, memdiag_nl_mcgrps[i].name,
			sizeof(memdiag_mcgrps[i].name));
		memdiag_mcgrps[i].flags = MEMDIAG_MCGRP_PERM;
	}
	return genl_register_family(&memdiag_nl_family);
}

void memdiag_genl_exit(void)
{
	genl_unregister_family(&memdiag_nl_family);
}
