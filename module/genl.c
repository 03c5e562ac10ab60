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
#include <linux/xarray.h>
#include <net/sock.h>
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

static int memdiag_nl_pre_doit(const struct memdiag_genl_hook_ops *ops,
			       struct sk_buff *skb, struct genl_info *info);

struct genl_family memdiag_nl_family __ro_after_init = {
	.name		= MEMDIAG_FAMILY_NAME,
	.version	= MEMDIAG_FAMILY_VERSION,
	/* the counters are machine-wide: serve the initial netns only */
	.netnsok	= false,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= memdiag_nl_ops,
	.n_ops		= ARRAY_SIZE(memdiag_nl_ops),
	.pre_doit	= memdiag_nl_pre_doit,
	.mcgrps		= memdiag_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(memdiag_mcgrps),
#ifdef MEMDIAG_HAVE_RESV_START_OP
	/* every command is new: reserved header bits and flags are refused */
	.resv_start_op	= MEMDIAG_CMD_GET_INFO,
#endif
};

/*
 * What each request needs, one row per command: Documentation/memdiag.rst
 * "Privileges" is the table of these rows, and the privilege matrix test
 * walks that table. Genetlink's op flags can only demand CAP_NET_ADMIN,
 * which says nothing about reading performance counters, so the check is
 * memdiag_nl_allowed(), which the family's pre_doit hook runs before every
 * doit handler. netlink_capable() looks at the credentials of whoever
 * opened the socket.
 */
enum memdiag_need {
	NEED_ROW,	/* a command without a row: refused */
	NEED_NOTHING,	/* the handler checks ownership itself */
	NEED_READ,	/* CAP_PERFMON/CAP_SYS_ADMIN, or unprivileged_read */
	NEED_PERFMON,	/* CAP_PERFMON or CAP_SYS_ADMIN */
	NEED_ADMIN_RAWIO, /* CAP_SYS_ADMIN and CAP_SYS_RAWIO (MSR writes) */
};

#define READERS "needs CAP_PERFMON or CAP_SYS_ADMIN, or memdiag loaded with unprivileged_read=1"
#define PF_DENIED \
	"changing prefetchers needs CAP_SYS_ADMIN and CAP_SYS_RAWIO (run as root)"

static const struct {
	enum memdiag_need need;
	const char *denied;
} op_need[] = {
	[MEMDIAG_CMD_GET_INFO] = { NEED_READ, "get-info " READERS },
	[MEMDIAG_CMD_SNAPSHOT] = { NEED_READ, "snapshot " READERS },
	[MEMDIAG_CMD_SESSION_START] = {
		NEED_PERFMON,
		"session-start needs CAP_PERFMON or CAP_SYS_ADMIN: a session programs counters for everyone (unprivileged_read=1 allows get-info and snapshot only)",
	},
	[MEMDIAG_CMD_SESSION_STOP] = { NEED_NOTHING },
	[MEMDIAG_CMD_PREFETCH_GET] = { NEED_READ, "prefetch-get " READERS },
	[MEMDIAG_CMD_PREFETCH_SET] = { NEED_ADMIN_RAWIO, PF_DENIED },
	[MEMDIAG_CMD_PREFETCH_RESTORE] = { NEED_ADMIN_RAWIO, PF_DENIED },
	[MEMDIAG_CMD_GROUP_GET] = { NEED_READ, "group-get " READERS },
};

bool memdiag_nl_perfmon(struct sk_buff *skb)
{
	return netlink_capable(skb, CAP_PERFMON) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

/**
 * memdiag_nl_allowed() - may the sender of @skb run @cmd?
 * @skb: the request
 * @extack: gets the refusal, naming what is missing
 * @cmd: MEMDIAG_CMD_*
 *
 * Run by memdiag_nl_pre_doit() for every doit, and by the snapshot dump,
 * before anything else is looked at.
 */
bool memdiag_nl_allowed(struct sk_buff *skb, struct netlink_ext_ack *extack,
			u8 cmd)
{
	bool ok = false;

	if (cmd >= ARRAY_SIZE(op_need))
		return false;
	switch (op_need[cmd].need) {
	case NEED_ROW:
		NL_SET_ERR_MSG(extack, "memdiag has no privilege row for this command");
		return false;
	case NEED_NOTHING:
		return true;
	case NEED_READ:
		ok = READ_ONCE(memdiag_unprivileged_read) ||
		     memdiag_nl_perfmon(skb);
		break;
	case NEED_PERFMON:
		ok = memdiag_nl_perfmon(skb);
		break;
	case NEED_ADMIN_RAWIO:
		ok = netlink_capable(skb, CAP_SYS_ADMIN) &&
		     netlink_capable(skb, CAP_SYS_RAWIO);
		break;
	}
	if (!ok)
		memdiag_set_err_msg(extack, op_need[cmd].denied);
	return ok;
}

/*
 * Every doit handler runs after this hook. Dumps do not: genetlink runs no
 * family hook for them, and a per-op dump hook (start) is emitted by the
 * YNL generator only for split op tables, which 6.1 does not have, so the
 * one dump, snapshot's, calls memdiag_nl_allowed() itself.
 */
static int memdiag_nl_pre_doit(const struct memdiag_genl_hook_ops *ops,
			       struct sk_buff *skb, struct genl_info *info)
{
	if (!memdiag_nl_allowed(skb, info->extack, info->genlhdr->cmd))
		return -EPERM;
	return 0;
}

/*
 * The get-info reply at its largest, attribute by attribute as fill_info()
 * and the put_*() helpers below write them; a string at the size of the
 * buffer it comes from.
 */
#define ATTR_U32	nla_total_size(sizeof(u32))
#define ATTR_U8		nla_total_size(sizeof(u8))
#define ATTR_NEST	nla_total_size(0)
#define ATTR_STR(buf)	nla_total_size(sizeof(buf))

/* What get-info names the processor; set at load, never changed. */
static const char *uarch_name(void)
{
	return memdiag.uarch ? memdiag.uarch->name : "unsupported";
}

/* put_socket() but its CPUs, which info_reply_size() counts once each */
static size_t socket_size(void)
{
	size_t node = ATTR_NEST				/* SOCKET_DF_NODE */
		      + ATTR_U32			/* DF_NODE_ID */
		      + ATTR_U32;			/* DF_NODE_CHANNELS */

	return ATTR_NEST				/* INFO_SOCKET */
	       + ATTR_U32				/* SOCKET_ID */
	       + ATTR_U32				/* SOCKET_PACKAGE_ID */
	       + ATTR_U32				/* SOCKET_NUMA_NODES */
	       + nla_total_size(MEMDIAG_REASON_LEN)	/* SOCKET_DF_NODES_REASON */
	       + MEMDIAG_DF_MAX_NODES * node;
}

/* put_capability(): the reason, or (available) the smaller verified */
static size_t capability_size(void)
{
	return ATTR_NEST				/* INFO_CAPABILITY */
	       + ATTR_U32				/* CAPABILITY_ID */
	       + ATTR_U8				/* CAPABILITY_AVAILABLE */
	       + ATTR_STR(memdiag.caps[0].reason);	/* CAPABILITY_REASON */
}

static size_t info_reply_size(unsigned int sockets, unsigned int cpus)
{
	const struct memdiag_state *st = &memdiag;

	return ATTR_U32					/* INFO_PROTO_VERSION */
	       + ATTR_STR(st->ident.vendor)		/* INFO_VENDOR */
	       + ATTR_U32				/* INFO_FAMILY */
	       + ATTR_U32				/* INFO_MODEL */
	       + ATTR_U32				/* INFO_STEPPING */
	       + ATTR_STR(st->ident.model_name)		/* INFO_MODEL_NAME */
	       + nla_total_size(strlen(uarch_name()) + 1) /* INFO_UARCH */
	       + ATTR_STR(st->uarch_reason)		/* INFO_UARCH_REASON */
	       + ATTR_U32				/* INFO_PLATFORM */
	       + ATTR_U32				/* INFO_NR_SOCKETS */
	       + ATTR_U32				/* INFO_TSC_KHZ */
	       + ATTR_U32				/* INFO_CORE_MODE */
	       + ATTR_STR(st->core_mode_reason)		/* INFO_CORE_MODE_REASON */
	       + ATTR_U32			/* INFO_CORE_RESTORE_FAILED_CPUS */
	       + sockets * socket_size()
	       + cpus * ATTR_U32			/* SOCKET_CPU */
	       + ARRAY_SIZE(st->caps) * capability_size();
}

/* AMD DF: the socket's channel -> node table, or why there is none */
static int put_df_nodes(struct sk_buff *msg, unsigned int socket)
{
	u32 ids[MEMDIAG_DF_MAX_NODES], chans[MEMDIAG_DF_MAX_NODES];
	const char *why = memdiag_df_nodes_why(socket);
	unsigned int n = memdiag_df_nodes(socket, ids, chans), i;
	struct nlattr *nest;

	if (why)
		return nla_put_string(msg, MEMDIAG_A_SOCKET_DF_NODES_REASON,
				      why);
	for (i = 0; i < n; i++) {
		nest = nla_nest_start(msg, MEMDIAG_A_SOCKET_DF_NODE);
		if (!nest || nla_put_u32(msg, MEMDIAG_A_DF_NODE_ID, ids[i]) ||
		    nla_put_u32(msg, MEMDIAG_A_DF_NODE_CHANNELS, chans[i]))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
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
	if (nla_put_u32(msg, MEMDIAG_A_SOCKET_NUMA_NODES,
			memdiag_socket_nodes(socket)) ||
	    put_df_nodes(msg, socket))
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
	     nla_put_string(msg, MEMDIAG_A_CAPABILITY_REASON, cap->reason)) ||
	    (cap->available && id == MEMDIAG_CAPABILITY_PREFETCH_CONTROL &&
	     nla_put_u8(msg, MEMDIAG_A_CAPABILITY_VERIFIED,
			READ_ONCE(cap->verified)))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* Fill the get-info reply. */
static int fill_info(struct sk_buff *msg)
{
	const struct memdiag_cpu_ident *id = &memdiag.ident;
	const struct memdiag_uarch *u = memdiag.uarch;
	unsigned int s, pkg, i;

	/* the sockets' CPUs stay online; the core mode holds still */
	memdiag_lockdep_assert_cpus_held();
	lockdep_assert_held(&memdiag_lock);
	if (nla_put_u32(msg, MEMDIAG_A_INFO_PROTO_VERSION,
			MEMDIAG_FAMILY_VERSION) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_VENDOR, id->vendor) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_FAMILY, id->family) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_MODEL, id->model) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_STEPPING, id->stepping) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_MODEL_NAME, id->model_name) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_UARCH, uarch_name()) ||
	    (!u && nla_put_string(msg, MEMDIAG_A_INFO_UARCH_REASON,
				  memdiag.uarch_reason)) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_PLATFORM, memdiag.platform) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_NR_SOCKETS, memdiag_nr_sockets()) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_TSC_KHZ, id->tsc_khz) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_CORE_MODE, memdiag.core_mode) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_CORE_MODE_REASON,
			   memdiag.core_mode_reason) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_CORE_RESTORE_FAILED_CPUS,
			memdiag_core_restore_failed()))
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
	/* the core mode and its reason change at session start */
	mutex_lock(&memdiag_lock);
	err = fill_info(msg);
	mutex_unlock(&memdiag_lock);
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

/*
 * Messages built at run time: a refusal names the register and what to
 * do. Extack keeps only a pointer, read when netlink_rcv_skb() builds the
 * ack after the handler has returned and dropped its locks, so the text
 * must outlive the handler. 6.1 has no NL_SET_ERR_MSG_FMT and 6.12's cuts
 * at 80 bytes, too short for the advice; a ring of static buffers shared
 * by all clients let other clients' requests overwrite a slot before the
 * ack was built. So each netlink socket (port id) gets its own buffer with
 * its first such message, freed when the socket is released (which cannot
 * happen while a request of it is in flight) or at unload: no other client
 * can touch it. Threads sharing one socket share its buffer; its last byte
 * is never written but as 0, so any text read from it is terminated.
 */
static DEFINE_XARRAY(err_bufs);

/**
 * memdiag_nl_errf() - set a formatted extack message
 * @extack: the request's extack (may be NULL)
 * @portid: the port id of the socket that sent the request
 * @bad: the attribute at fault, or NULL
 * @fmt: printf format of the message
 */
void memdiag_nl_errf(struct netlink_ext_ack *extack, u32 portid,
		     const struct nlattr *bad, const char *fmt, ...)
{
	char *buf, *old;
	va_list args;

	if (!extack)
		return;
	extack->bad_attr = bad;
	buf = xa_load(&err_bufs, portid);
	if (!buf) {
		buf = kzalloc(MEMDIAG_REASON_LEN, GFP_KERNEL);
		old = buf ? xa_cmpxchg(&err_bufs, portid, NULL, buf, GFP_KERNEL) : NULL;
		if (old) {	/* a thread of the same socket won, or no memory */
			kfree(buf);
			buf = xa_is_err(old) ? NULL : old;
		}
	}
	if (!buf) {
		memdiag_set_err_msg(extack, "out of memory for this error's message");
		return;
	}
	va_start(args, fmt);
	vsnprintf(buf, MEMDIAG_REASON_LEN, fmt, args);
	va_end(args);
	memdiag_set_err_msg(extack, buf);
}

/* The socket @portid is released: its message buffer goes. */
void memdiag_nl_err_release(u32 portid)
{
	kfree(xa_erase(&err_bufs, portid));
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
	struct nlattr *dfch = info->attrs[MEMDIAG_A_SESSION_DF_CHANNELS];
	struct nlattr *groups = info->attrs[MEMDIAG_A_SESSION_GROUPS];
	const char *limit = NULL;
	struct sk_buff *msg;
	char why[MEMDIAG_REASON_LEN];
	u32 id, ms, mode, set = dfch ? nla_get_u32(dfch) : 0;
	void *hdr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MEMDIAG_A_SESSION_INTERVAL_MS)) {
		GENL_SET_ERR_MSG(info, "interval-ms is required");
		return -EINVAL;
	}
	ms = nla_get_u32(ival);
	if (ms < MEMDIAG_MIN_INTERVAL_MS || ms > MEMDIAG_MAX_INTERVAL_MS) {
		NL_SET_ERR_MSG_ATTR(info->extack, ival,
				    "interval-ms must be from " __stringify(MEMDIAG_MIN_INTERVAL_MS)
				    " to " __stringify(MEMDIAG_MAX_INTERVAL_MS));
		return -EINVAL;
	}
	err = set ? memdiag_imc_df_channels_check(set, why, sizeof(why)) : 0;
	if (err) {
		memdiag_nl_errf(info->extack, info->snd_portid, dfch, "%s", why);
		return err;
	}

	msg = genlmsg_new(3 * nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = memdiag_session_start(info->snd_portid,
				    sock_i_uid(NETLINK_CB(skb).sk), ms, set,
				    &id, &mode, &limit, why, sizeof(why));
	if (err) {
		if (limit)
			memdiag_set_err_msg(info->extack, limit);
		else
			memdiag_nl_errf(info->extack, info->snd_portid,
					err == -EXDEV ? dfch : NULL, "%s",
					why);
		if (err == -EXDEV)	/* another set runs: busy */
			err = -EBUSY;
		goto free;
	}
	if (groups && nla_get_u8(groups)) {
		err = memdiag_session_want_groups(info->snd_portid, id, why,
						  sizeof(why));
		if (err) {
			memdiag_session_stop(info->snd_portid, id);
			memdiag_nl_errf(info->extack, info->snd_portid, groups,
					"%s", why);
			goto free;
		}
	}
	hdr = genlmsg_put_reply(msg, info, &memdiag_nl_family, 0,
				MEMDIAG_CMD_SESSION_START);
	if (!hdr || nla_put_u32(msg, MEMDIAG_A_SESSION_ID, id) ||
	    nla_put_u32(msg, MEMDIAG_A_SESSION_INTERVAL_MS, ms) ||
	    nla_put_u32(msg, MEMDIAG_A_SESSION_CORE_MODE, mode)) {
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
	if (!nla_get_u32(id)) {
		NL_SET_ERR_MSG_ATTR(info->extack, id,
				    "id 0 names no session: give the id session-start returned");
		return -EINVAL;
	}
	if (memdiag_session_stop(info->snd_portid, nla_get_u32(id))) {
		NL_SET_ERR_MSG_ATTR(info->extack, id,
				    "no session with this id was started on this socket");
		return -ENOENT;
	}
	return 0;
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
	unsigned long portid;
	char *buf;

	genl_unregister_family(&memdiag_nl_family);
	/* no request is in flight any more */
	xa_for_each(&err_bufs, portid, buf)
		kfree(buf);
	xa_destroy(&err_bufs);
}
