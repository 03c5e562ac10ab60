// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - client sessions, counter ownership and the sampler.
 *
 * The counters are programmed when the first session starts and released
 * (every register written put back) when the last one ends. A session
 * belongs to the netlink socket that started it: when that socket is
 * released, including by a SIGKILLed client, the NETLINK_URELEASE notifier
 * ends its sessions.
 *
 * While a session runs, a delayed work item samples every socket each
 * interval and publishes the snapshots on the monitor group. Sampling
 * needs task context (cross-calls to other CPUs), so it never runs from a
 * timer. Lock order: cpus_read_lock(), then memdiag_lock; CPU hotplug
 * callbacks run with the hotplug lock held and take memdiag_lock.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/workqueue.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/ktime.h>
#include <net/net_namespace.h>

#include "memdiag.h"

struct memdiag_session {
	struct list_head node;
	u32 id;
	u32 portid;
	u32 interval_ms;
};

/* sessions, counter state and sampling; taken after cpus_read_lock() */
DEFINE_MUTEX(memdiag_lock);
static LIST_HEAD(sessions);
static u32 next_id = 1;
static bool imc_on, core_on, closing;
static u64 last_sample_ns;
static enum cpuhp_state hp_state;
static struct delayed_work sampler;

bool memdiag_session_active(void)
{
	return !list_empty(&sessions);
}

static u32 min_interval(void)
{
	struct memdiag_session *s;
	u32 ms = U32_MAX;

	list_for_each_entry(s, &sessions, node)
		ms = min(ms, s->interval_ms);
	return ms;
}

/**
 * memdiag_sample() - read every socket's counters now
 * @snaps: one per socket, indexed by socket, zeroed by the caller
 * @n: number of entries
 *
 * Called with cpus_read_lock() and memdiag_lock held.
 */
void memdiag_sample(struct memdiag_snap *snaps, unsigned int n)
{
	u64 now = ktime_get_ns(), dt = now - last_sample_ns;
	unsigned int s;

	for (s = 0; s < n; s++) {
		snaps[s].socket = s;
		snaps[s].time_ns = now;
	}
	if (imc_on)
		memdiag_imc_sample(snaps, n, dt);
	if (core_on)
		memdiag_core_sample(snaps, n, dt);
	memdiag_prefetch_sample(snaps, n);
	last_sample_ns = now;
}

static void sampler_fn(struct work_struct *work)
{
	unsigned int n = memdiag_max_sockets();
	struct memdiag_snap *snaps;

	snaps = kcalloc(n, sizeof(*snaps), GFP_KERNEL);
	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	if (!memdiag_session_active()) {
		mutex_unlock(&memdiag_lock);
		cpus_read_unlock();
		kfree(snaps);
		return;
	}
	if (snaps)
		memdiag_sample(snaps, n);
	queue_delayed_work(system_unbound_wq, &sampler,
			   msecs_to_jiffies(min_interval()));
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();

	if (snaps)
		memdiag_genl_publish(snaps, n);
	kfree(snaps);
}

/* Program whatever this machine offers; fail only if nothing can count. */
static int counters_start(char *msg, size_t len)
{
	int err = -ENODEV;

	snprintf(msg, len,
		 "no counter is available on this machine: see memdiagctl info for the reasons");
	if (memdiag.caps[MEMDIAG_CAPABILITY_IMC_BANDWIDTH].available) {
		err = memdiag_imc_start(msg, len);
		if (err)
			return err;
		imc_on = true;
	}
	if (memdiag.core_mode != MEMDIAG_CORE_MODE_NONE) {
		err = memdiag_core_start(msg, len);
		if (err) {
			if (imc_on)
				memdiag_imc_stop();
			imc_on = false;
			return err;
		}
		core_on = true;
	}
	last_sample_ns = ktime_get_ns();
	return err;
}

static void counters_stop(void)
{
	if (core_on)
		memdiag_core_stop();
	if (imc_on)
		memdiag_imc_stop();
	imc_on = false;
	core_on = false;
}

/**
 * memdiag_session_start() - start a session for the socket @portid
 * @portid: netlink port of the requesting socket
 * @interval_ms: snapshot period
 * @id: the new session's id
 * @msg: why not, when the return value is negative
 * @len: size of @msg
 */
int memdiag_session_start(u32 portid, u32 interval_ms, u32 *id,
			  char *msg, size_t len)
{
	struct memdiag_session *s;
	int err = 0;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	if (closing) {
		snprintf(msg, len, "memdiag is being unloaded");
		err = -ESHUTDOWN;
	} else if (!memdiag_session_active()) {
		err = counters_start(msg, len);
	}
	if (!err) {
		s->id = next_id++;
		s->portid = portid;
		s->interval_ms = interval_ms;
		list_add_tail(&s->node, &sessions);
		*id = s->id;
		mod_delayed_work(system_unbound_wq, &sampler,
				 msecs_to_jiffies(min_interval()));
	}
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	if (err)
		kfree(s);
	return err;
}

/* Drop sessions matching @portid (and @id unless 0); memdiag_lock held. */
static int drop_sessions(u32 portid, u32 id)
{
	struct memdiag_session *s, *tmp;
	int found = 0;

	list_for_each_entry_safe(s, tmp, &sessions, node) {
		if (s->portid != portid || (id && s->id != id))
			continue;
		list_del(&s->node);
		kfree(s);
		found++;
	}
	if (found && !memdiag_session_active())
		counters_stop();
	return found;
}

int memdiag_session_stop(u32 portid, u32 id)
{
	int found;

	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	found = drop_sessions(portid, id);
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	return found ? 0 : -ENOENT;
}

/* A released generic netlink socket ends the sessions it started. */
static int release_notify(struct notifier_block *nb, unsigned long event,
			  void *ptr)
{
	struct netlink_notify *n = ptr;
	struct memdiag_session *s;
	bool owner = false;

	/* port ids are per netns; memdiag serves only the initial one */
	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid || !net_eq(n->net, &init_net))
		return NOTIFY_DONE;
	/* every generic netlink socket passes here: look before locking more */
	mutex_lock(&memdiag_lock);
	list_for_each_entry(s, &sessions, node)
		owner |= s->portid == n->portid;
	mutex_unlock(&memdiag_lock);
	if (!owner)
		return NOTIFY_DONE;
	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	drop_sessions(n->portid, 0);
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	return NOTIFY_DONE;
}

static struct notifier_block release_nb = {
	.notifier_call = release_notify,
};

int memdiag_session_init(void)
{
	int err;

	INIT_DELAYED_WORK(&sampler, sampler_fn);
	err = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "memdiag:online",
					memdiag_core_cpu_online,
					memdiag_core_cpu_offline);
	if (err < 0)
		return err;
	hp_state = err;
	err = netlink_register_notifier(&release_nb);
	if (err)
		cpuhp_remove_state_nocalls(hp_state);
	return err;
}

/*
 * Ends every session and puts every register back; called before the
 * family is unregistered, so the sampler has stopped publishing by then.
 */
void memdiag_session_exit(void)
{
	netlink_unregister_notifier(&release_nb);
	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	closing = true;
	while (!list_empty(&sessions)) {
		struct memdiag_session *s =
			list_first_entry(&sessions, struct memdiag_session, node);

		drop_sessions(s->portid, 0);
	}
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	cancel_delayed_work_sync(&sampler);
	cpuhp_remove_state_nocalls(hp_state);
}
