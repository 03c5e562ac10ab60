// SPDX-License-Identifier: GPL-2.0
/*
 * genl_prefetch.c - the prefetch-get, prefetch-set and prefetch-restore
 * handlers: scope checking, privilege, and the replies.
 *
 * Reading the state is allowed to whoever may read snapshots. Changing it
 * writes a model-specific register on other users' cores, the same power
 * the msr driver grants with CAP_SYS_RAWIO, so it takes CAP_SYS_ADMIN and
 * CAP_SYS_RAWIO; genetlink's own op flags only know CAP_NET_ADMIN, so the
 * handlers check.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "compat.h"
#include "genl_gen.h"
#include "memdiag.h"

static bool pf_available(struct genl_info *info)
{
	const struct memdiag_cap *cap =
		&memdiag.caps[MEMDIAG_CAPABILITY_PREFETCH_CONTROL];

	if (cap->available)
		return true;
	memdiag_set_err_msg(info->extack, cap->reason);
	return false;
}

/*
 * The CPUs a request names: socket, a list of cpu attributes, or (with
 * neither) all. *@socket is the socket, MEMDIAG_PF_ALL_SOCKETS or MEMDIAG_PF_CPU_LIST.
 * The caller's hotplug read lock keeps "online" true until it unlocks.
 */
static int pf_scope(struct genl_info *info, struct cpumask *scope, int *socket)
{
	struct nlattr *sock = info->attrs[MEMDIAG_A_PREFETCH_SOCKET];
	struct nlattr *attr;
	int rem;
	u32 cpu;

	memdiag_lockdep_assert_cpus_held();
	cpumask_clear(scope);
	*socket = MEMDIAG_PF_ALL_SOCKETS;
	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(attr) != MEMDIAG_A_PREFETCH_CPU)
			continue;
		if (sock) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "cpu and socket exclude each other: give one");
			return -EINVAL;
		}
		cpu = nla_get_u32(attr);
		if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
			memdiag_nl_errf(info->extack, info->snd_portid, attr,
					"cpu: CPU %u is not online", cpu);
			return -EINVAL;
		}
		__cpumask_set_cpu(cpu, scope);
		*socket = MEMDIAG_PF_CPU_LIST;
	}
	if (*socket == MEMDIAG_PF_CPU_LIST)
		return 0;
	if (!sock) {
		cpumask_copy(scope, cpu_online_mask);
		return 0;
	}
	*socket = nla_get_u32(sock);
	if (*socket < 0 || *socket >= MEMDIAG_MAX_SOCKETS ||
	    memdiag_socket_package(*socket) == UINT_MAX) {
		memdiag_nl_errf(info->extack, info->snd_portid, sock,
				"socket: there is no socket %u with an online CPU (there are %u)",
				nla_get_u32(sock), memdiag_nr_sockets());
		return -EINVAL;
	}
	for_each_online_cpu(cpu)
		if (memdiag_socket_of(cpu) == *socket)
			__cpumask_set_cpu(cpu, scope);
	return 0;
}

static size_t pf_reply_size(unsigned int cpus)
{
	const struct memdiag_pf_desc *d = memdiag.prefetch;
	size_t sz;

	sz = nla_total_size(strlen(d->name) + 1) + nla_total_size(sizeof(u32));
	sz += d->n_bits * (nla_total_size(0) + 2 * nla_total_size(sizeof(u32)) +
			   2 * nla_total_size(64));
	sz += cpus * (nla_total_size(0) + 4 * nla_total_size(sizeof(u32)) +
		      2 * nla_total_size_64bit(sizeof(u64)) +
		      2 * nla_total_size(sizeof(u8)));
	return sz;
}

static int put_prefetchers(struct sk_buff *msg)
{
	const struct memdiag_pf_desc *d = memdiag.prefetch;
	struct nlattr *nest;
	unsigned int i;

	if (nla_put_string(msg, MEMDIAG_A_PREFETCH_CONTROL, d->name) ||
	    nla_put_u32(msg, MEMDIAG_A_PREFETCH_MSR, d->msr))
		return -EMSGSIZE;
	for (i = 0; i < d->n_bits; i++) {
		nest = nla_nest_start(msg, MEMDIAG_A_PREFETCH_PREFETCHER);
		if (!nest ||
		    nla_put_u32(msg, MEMDIAG_A_PREFETCHER_INDEX, i) ||
		    nla_put_string(msg, MEMDIAG_A_PREFETCHER_NAME,
				   d->bits[i].name) ||
		    nla_put_u32(msg, MEMDIAG_A_PREFETCHER_BIT, d->bits[i].bit) ||
		    nla_put_string(msg, MEMDIAG_A_PREFETCHER_DESCRIPTION,
				   d->bits[i].what))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* One cpu-state per CPU of @cpus, each core's register read once. */
static int put_cpu_states(struct sk_buff *msg, const struct cpumask *cpus,
			  struct genl_info *info)
{
	struct memdiag_pf_state st = {};
	unsigned int last = UINT_MAX;
	unsigned int cpu, core;
	struct nlattr *nest;

	for_each_cpu(cpu, cpus) {
		core = cpumask_first_and(topology_sibling_cpumask(cpu),
					 cpu_online_mask);
		if (core != last && memdiag_prefetch_read(core, &st)) {
			memdiag_nl_errf(info->extack, info->snd_portid, NULL,
					"reading MSR 0x%x on CPU %u faulted",
					memdiag.prefetch->msr, core);
			return -EIO;
		}
		last = core;
		nest = nla_nest_start(msg, MEMDIAG_A_PREFETCH_CPU_STATE);
		if (!nest ||
		    nla_put_u32(msg, MEMDIAG_A_PREFETCH_CPU_CPU, cpu) ||
		    nla_put_u32(msg, MEMDIAG_A_PREFETCH_CPU_SOCKET,
				memdiag_socket_of(cpu)) ||
		    nla_put_u32(msg, MEMDIAG_A_PREFETCH_CPU_CORE, core) ||
		    nla_put_u64_64bit(msg, MEMDIAG_A_PREFETCH_CPU_VALUE, st.val,
				      MEMDIAG_A_PREFETCH_CPU_PAD) ||
		    nla_put_u32(msg, MEMDIAG_A_PREFETCH_CPU_DISABLED,
				memdiag_prefetch_off(st.val)) ||
		    (st.saved &&
		     nla_put_u64_64bit(msg, MEMDIAG_A_PREFETCH_CPU_ORIGINAL,
				       st.orig, MEMDIAG_A_PREFETCH_CPU_PAD)) ||
		    nla_put_u8(msg, MEMDIAG_A_PREFETCH_CPU_CHANGED,
			       st.saved && st.orig != st.val) ||
		    nla_put_u8(msg, MEMDIAG_A_PREFETCH_CPU_RESTORE_FAILED,
			       st.failed))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* A reply with room for @cpus CPU states; NULL without memory. */
static struct sk_buff *pf_reply_new(unsigned int cpus)
{
	if (memdiag_alloc_fails())
		return NULL;
	return genlmsg_new(pf_reply_size(cpus), GFP_KERNEL);
}

/* Send @msg with the prefetcher list and the state of @cpus; frees it. */
static int pf_reply(struct genl_info *info, struct sk_buff *msg,
		    const struct cpumask *cpus)
{
	void *hdr;
	int err;

	hdr = memdiag_genl_reply_put(msg, info);
	err = hdr ? put_prefetchers(msg) : -EMSGSIZE;
	if (!err)
		err = put_cpu_states(msg, cpus, info);
	if (err) {
		if (err == -EMSGSIZE)
			GENL_SET_ERR_MSG(info, "prefetch reply could not be built");
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int memdiag_nl_prefetch_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	cpumask_var_t scope, cpus;
	struct sk_buff *msg;
	int socket, err;

	if (!pf_available(info))
		return -EOPNOTSUPP;
	if (!memdiag_zalloc_cpumask(&scope))
		return -ENOMEM;
	if (!memdiag_zalloc_cpumask(&cpus)) {
		free_cpumask_var(scope);
		return -ENOMEM;
	}
	cpus_read_lock();
	err = pf_scope(info, scope, &socket);
	if (!err) {
		memdiag_prefetch_widen(scope, cpus);
		msg = pf_reply_new(cpumask_weight(cpus));
		err = msg ? pf_reply(info, msg, cpus) : -ENOMEM;
	}
	cpus_read_unlock();
	free_cpumask_var(cpus);
	free_cpumask_var(scope);
	return err;
}

/* Privilege, availability and (for a set) the prefetchers asked for. */
static int pf_change_check(struct sk_buff *skb, struct genl_info *info,
			   bool restore, u32 *mask, bool *off)
{
	u32 n = memdiag.prefetch ? memdiag.prefetch->n_bits : 0;
	struct nlattr *which;

	if (!pf_available(info))
		return -EOPNOTSUPP;
	if (restore)
		return 0;
	if (GENL_REQ_ATTR_CHECK(info, MEMDIAG_A_PREFETCH_PREFETCHERS)) {
		GENL_SET_ERR_MSG(info, "prefetchers is required: which to switch");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, MEMDIAG_A_PREFETCH_DISABLE)) {
		GENL_SET_ERR_MSG(info, "disable is required: 1 for off, 0 for on");
		return -EINVAL;
	}
	/* only now: prefetch-restore's attrs[] ends before PREFETCHERS */
	which = info->attrs[MEMDIAG_A_PREFETCH_PREFETCHERS];
	*mask = nla_get_u32(which);
	*off = nla_get_u8(info->attrs[MEMDIAG_A_PREFETCH_DISABLE]);
	if (!*mask || (*mask & ~GENMASK(n - 1, 0))) {
		memdiag_nl_errf(info->extack, info->snd_portid, which,
				"prefetchers: 0x%x must name prefetchers 0 to %u of this processor (bits 0x%lx)",
				*mask, n - 1, GENMASK(n - 1, 0));
		return -EINVAL;
	}
	return 0;
}

/* Apply the set or restore; on failure @why says what happened. */
static int pf_change_apply(const struct cpumask *scope, int socket,
			   bool restore, u32 mask, bool off,
			   struct cpumask *touched, char *why)
{
	int err;

	if (restore) {
		err = memdiag_prefetch_restore(scope, socket, touched, why,
					       MEMDIAG_REASON_LEN);
		/* write faults and values that do not stick */
		return err ? -EIO : 0;
	}
	err = memdiag_prefetch_set(scope, socket, mask, off, touched, why,
				   MEMDIAG_REASON_LEN);
	if (err == -ENOMEM)
		snprintf(why, MEMDIAG_REASON_LEN,
			 "out of memory; nothing was changed");
	/* did not stick: not worth a retry */
	return err == -EAGAIN ? -EIO : err;
}

/*
 * Set or restore; the reply shows the CPUs touched. The scope is taken
 * under cpus_read_lock(), which memdiag_prefetch_set() takes again: a
 * CPU going offline in between is simply skipped there. The reply is
 * allocated first, so that a change once made is always reported.
 */
static int pf_change(struct sk_buff *skb, struct genl_info *info,
		     bool restore)
{
	char why[MEMDIAG_REASON_LEN];
	struct sk_buff *msg = NULL;
	cpumask_var_t scope, touched;
	bool off = false;
	int socket, err;
	u32 mask = 0;

	err = pf_change_check(skb, info, restore, &mask, &off);
	if (err)
		return err;
	if (!memdiag_zalloc_cpumask(&scope))
		return -ENOMEM;
	if (!memdiag_zalloc_cpumask(&touched)) {
		free_cpumask_var(scope);
		return -ENOMEM;
	}
	cpus_read_lock();
	err = pf_scope(info, scope, &socket);
	cpus_read_unlock();
	if (err)
		goto out;
	msg = pf_reply_new(num_possible_cpus());
	if (!msg) {
		GENL_SET_ERR_MSG(info, "out of memory; nothing was changed");
		err = -ENOMEM;
		goto out;
	}
	err = pf_change_apply(scope, socket, restore, mask, off, touched, why);
	if (err) {
		memdiag_nl_errf(info->extack, info->snd_portid, NULL, "%s", why);
		nlmsg_free(msg);
		goto out;
	}
	cpus_read_lock();
	cpumask_and(touched, touched, cpu_online_mask);
	err = pf_reply(info, msg, touched);
	cpus_read_unlock();
out:
	free_cpumask_var(touched);
	free_cpumask_var(scope);
	return err;
}

int memdiag_nl_prefetch_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return pf_change(skb, info, false);
}

int memdiag_nl_prefetch_restore_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	return pf_change(skb, info, true);
}
