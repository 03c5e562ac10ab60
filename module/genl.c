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
#include <linux/stringify.h>
#include <net/genetlink.h>
#include <asm/processor.h>

#include "compat.h"
#include "memdiag.h"
#include "genl_gen.c"

static struct genl_family memdiag_nl_family __ro_after_init = {
	.name		= MEMDIAG_FAMILY_NAME,
	.version	= MEMDIAG_FAMILY_VERSION,
	/* the counters are machine-wide: serve the initial netns only */
	.netnsok	= false,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= memdiag_nl_ops,
	.n_ops		= ARRAY_SIZE(memdiag_nl_ops),
	.mcgrps		= memdiag_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(memdiag_nl_mcgrps),
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
static bool memdiag_may_read(struct sk_buff *skb)
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

	sz = 6 * nla_total_size(sizeof(u32)) +
	     nla_total_size(sizeof(boot_cpu_data.x86_vendor_id)) +
	     nla_total_size(sizeof(boot_cpu_data.x86_model_id)) +
	     nla_total_size(32) + nla_total_size(MEMDIAG_REASON_LEN);
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
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	const struct memdiag_uarch *u = memdiag.uarch;
	unsigned int s, pkg, i;

	if (nla_put_u32(msg, MEMDIAG_A_INFO_PROTO_VERSION,
			MEMDIAG_FAMILY_VERSION) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_VENDOR, c->x86_vendor_id) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_FAMILY, c->x86) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_MODEL, c->x86_model) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_STEPPING, c->x86_stepping) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_MODEL_NAME, c->x86_model_id) ||
	    nla_put_string(msg, MEMDIAG_A_INFO_UARCH,
			   u ? u->name : "unsupported") ||
	    (!u && nla_put_string(msg, MEMDIAG_A_INFO_UARCH_REASON,
				  memdiag.uarch_reason)) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_PLATFORM, memdiag.platform) ||
	    nla_put_u32(msg, MEMDIAG_A_INFO_NR_SOCKETS, memdiag_nr_sockets()))
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

int memdiag_genl_init(void)
{
	return genl_register_family(&memdiag_nl_family);
}

void memdiag_genl_exit(void)
{
	genl_unregister_family(&memdiag_nl_family);
}
