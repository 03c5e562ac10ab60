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
#include <linux/stringify.h>
#include <linux/uidgid.h>
#include <net/net_namespace.h>

#include "memdiag.h"
#include "group_acct.h"

struct memdiag_session {
	struct list_head node;
	u32 id;
	u32 portid;
	kuid_t uid;
	u32 interval_ms;
	bool groups;		/* holds a reference on group_acct.c */
};

/* sessions, counter state and sampling; taken after cpus_read_lock() */
DEFINE_MUTEX(memdiag_lock);
static LIST_HEAD(sessions);
static unsigned int nr_sessions;
static u32 next_id = 1;
static bool closing;
static u64 last_sample_ns;
static enum cpuhp_state hp_state;
static struct delayed_work sampler;
static memdiag_publish_fn publish;
/* group_acct.c references of dropped sessions, given back unlocked */
static unsigned int groups_dropped;

/*
 * The counter families a session programs, in the order they start;
 * they stop, and a failed start unwinds, in reverse. A family joins by
 * one row (Documentation/layout.rst, "Add a counter family").
 */
struct counter_family {
	bool (*available)(void);
	int (*start)(char *msg, size_t len);
	void (*stop)(void);
	void (*sample)(struct memdiag_snap *snap, unsigned int n, u64 dt_ns);
	/* hotplug: every family hears of every CPU, started or not */
	int (*cpu_online)(unsigned int cpu);
	int (*cpu_offline)(unsigned int cpu);
};

static bool imc_available(void)
{
	return memdiag.caps[MEMDIAG_CAPABILITY_IMC_BANDWIDTH].available;
}

static bool l3_available(void)
{
	return memdiag.caps[MEMDIAG_CAPABILITY_L3_DRAM_LATENCY].available;
}

static bool core_available(void)
{
	return memdiag.core_mode != MEMDIAG_CORE_MODE_NONE;
}

static const struct counter_family families[] = {
	{ imc_available, memdiag_imc_start, memdiag_imc_stop,
	  memdiag_imc_sample, memdiag_imc_cpu_online, memdiag_imc_cpu_offline },
	{ l3_available, memdiag_l3_start, memdiag_l3_stop,
	  memdiag_l3_sample, memdiag_l3_cpu_online, memdiag_l3_cpu_offline },
	{ core_available, memdiag_core_start, memdiag_core_stop,
	  memdiag_core_sample, memdiag_core_cpu_online,
	  memdiag_core_cpu_offline },
};

/* which families started with the sessions running */
static bool family_on[ARRAY_SIZE(families)];

/*
 * The shared sample: the last one taken, by the sampler or for a snapshot
 * request, with the time it started. Every reader copies from it, so
 * concurrent readers cost one sample, not one each.
 */
static struct memdiag_snap *shared;
static unsigned int n_shared;
static u64 shared_start_ns;
static bool shared_valid;

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

/* Read every socket's counters into the shared sample; both locks held. */
static void sample(void)
{
	u64 now = ktime_get_ns(), dt = now - last_sample_ns;
	unsigned int s, i;

	memdiag_lockdep_assert_cpus_held();
	lockdep_assert_held(&memdiag_lock);
	memset(shared, 0, n_shared * sizeof(*shared));
	for (s = 0; s < n_shared; s++) {
		shared[s].socket = s;
		shared[s].time_ns = now;
	}
	for (i = 0; i < ARRAY_SIZE(families); i++)
		if (family_on[i])
			families[i].sample(shared, n_shared, dt);
	memdiag_prefetch_sample(shared, n_shared);
	last_sample_ns = now;
	shared_start_ns = now;
	shared_valid = true;
}

/**
 * memdiag_session_snapshot() - every socket's counters, from the shared sample
 * @snaps: memdiag_session_nr_snaps() entries, indexed by socket
 * @max_age_ns: 0: a sample started after this call (exact, as memdiagctl
 *	run needs around its timed part); otherwise any sample younger than
 *	this, which bounds what readers that may not start sessions can cost
 *
 * Return: 0, or -ENODATA when no session runs (the counters are not
 * programmed then).
 */
int memdiag_session_snapshot(struct memdiag_snap *snaps, u64 max_age_ns)
{
	u64 asked = ktime_get_ns();
	int err = 0;

	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	if (!memdiag_session_active()) {
		err = -ENODATA;
	} else {
		/*
		 * A sample that started after the request arrived is as fresh
		 * as a new one, so requests waiting on the lock share it.
		 */
		if (!shared_valid ||
		    (max_age_ns ? asked - shared_start_ns > max_age_ns :
				  shared_start_ns < asked))
			sample();
		memcpy(snaps, shared, n_shared * sizeof(*snaps));
	}
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	return err;
}

unsigned int memdiag_session_nr_snaps(void)
{
	return n_shared;
}

static void sampler_fn(struct work_struct *work)
{
	struct memdiag_snap *snaps;

	snaps = kcalloc(n_shared, sizeof(*snaps), GFP_KERNEL);
	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	if (!memdiag_session_active()) {
		mutex_unlock(&memdiag_lock);
		cpus_read_unlock();
		kfree(snaps);
		return;
	}
	sample();
	if (snaps)
		memcpy(snaps, shared, n_shared * sizeof(*snaps));
	queue_delayed_work(system_unbound_wq, &sampler,
			   msecs_to_jiffies(min_interval()));
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();

	/* outside the lock: building and sending messages may take a while */
	if (snaps)
		publish(snaps, n_shared);
	kfree(snaps);
}

static void counters_stop(void)
{
	unsigned int i = ARRAY_SIZE(families);

	while (i--) {
		if (family_on[i])
			families[i].stop();
		family_on[i] = false;
	}
	shared_valid = false;
}

/* Program whatever this machine offers; fail only if nothing can count. */
static int counters_start(char *msg, size_t len)
{
	int err = -ENODEV;
	unsigned int i;

	snprintf(msg, len,
		 "no counter is available on this machine: see memdiagctl info for the reasons");
	for (i = 0; i < ARRAY_SIZE(families); i++) {
		if (!families[i].available())
			continue;
		err = families[i].start(msg, len);
		if (err) {
			counters_stop();	/* the ones started, in reverse */
			return err;
		}
		family_on[i] = true;
	}
	last_sample_ns = ktime_get_ns();
	return err;
}

/* Sessions of @portid (@uid if @by_uid); memdiag_lock held. */
static unsigned int count_sessions(u32 portid, kuid_t uid, bool by_uid)
{
	struct memdiag_session *s;
	unsigned int n = 0;

	lockdep_assert_held(&memdiag_lock);
	list_for_each_entry(s, &sessions, node)
		n += by_uid ? uid_eq(s->uid, uid) : s->portid == portid;
	return n;
}

#define LIMIT_MSG(what, n, fix) \
	"this " what " already has " __stringify(n) " sessions, its limit: " fix

/* Refuse a session over a limit of Documentation/memdiag.rst; lock held. */
static int check_limits(u32 portid, kuid_t uid, const char **why)
{
	lockdep_assert_held(&memdiag_lock);
	if (closing) {
		*why = "memdiag is being unloaded";
		return -ESHUTDOWN;
	}
	if (count_sessions(portid, uid, false) >= MEMDIAG_SESSIONS_PER_SOCKET) {
		*why = LIMIT_MSG("socket", MEMDIAG_SESSIONS_PER_SOCKET,
				 "stop one, or read the running one's samples");
		return -EMFILE;
	}
	if (count_sessions(portid, uid, true) >= MEMDIAG_SESSIONS_PER_USER) {
		*why = LIMIT_MSG("user", MEMDIAG_SESSIONS_PER_USER, "stop one");
		return -EMFILE;
	}
	if (nr_sessions >= MEMDIAG_SESSIONS_MAX) {
		*why = LIMIT_MSG("machine", MEMDIAG_SESSIONS_MAX, "stop one");
		return -ENFILE;
	}
	return 0;
}

static bool id_used(u32 id)
{
	struct memdiag_session *s;

	list_for_each_entry(s, &sessions, node)
		if (s->id == id)
			return true;
	return false;
}

/* An id no live session has, never 0 (0 names no session); lock held. */
static u32 new_id(void)
{
	lockdep_assert_held(&memdiag_lock);
	/* at most MEMDIAG_SESSIONS_MAX ids are live, so this ends */
	while (!next_id || id_used(next_id))
		next_id++;
	return next_id++;
}

/**
 * memdiag_session_start() - start a session for the socket @portid
 * @portid: netlink port of the requesting socket
 * @uid: the user who opened it, for the per-user limit
 * @interval_ms: snapshot period
 * @df_channels: the DF channels to count all the time (checked by
 *	memdiag_imc_df_channels_check()), 0 for whatever the counters do
 * @id: the new session's id
 * @mode: the core mode it counts in (core=auto may pick perf at start)
 * @why: a static explanation when a limit refused the session
 * @msg: why not, when the counters could not start
 * @len: size of @msg
 *
 * The counters serve every session, so the DF channel set is the first
 * session's: a later one asking for another is refused (-EXDEV).
 *
 * Return: 0, or a negative errno with *@why or @msg set.
 */
int memdiag_session_start(u32 portid, kuid_t uid, u32 interval_ms,
			  u32 df_channels, u32 *id, u32 *mode,
			  const char **why, char *msg, size_t len)
{
	struct memdiag_session *s;
	int err;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	err = check_limits(portid, uid, why);
	if (!err && memdiag_session_active() && df_channels &&
	    df_channels != memdiag_imc_df_channels()) {
		snprintf(msg, len,
			 "df-channels 0x%x: the sessions running count 0x%x (0: every channel in turns); the counters serve them all",
			 df_channels, memdiag_imc_df_channels());
		err = -EXDEV;
	}
	if (!err && !memdiag_session_active()) {
		memdiag_imc_df_set_channels(df_channels);
		err = counters_start(msg, len);
	}
	if (!err) {
		s->id = new_id();
		s->portid = portid;
		s->uid = uid;
		s->interval_ms = interval_ms;
		list_add_tail(&s->node, &sessions);
		nr_sessions++;
		*id = s->id;
		*mode = memdiag.core_mode;
		mod_delayed_work(system_unbound_wq, &sampler,
				 msecs_to_jiffies(min_interval()));
	}
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	if (err)
		kfree(s);
	return err;
}

/* Drop the sessions of @portid: all, or the one with @id; lock held. */
static int drop_sessions(u32 portid, bool all, u32 id)
{
	struct memdiag_session *s, *tmp;
	int found = 0;

	lockdep_assert_held(&memdiag_lock);
	list_for_each_entry_safe(s, tmp, &sessions, node) {
		if (s->portid != portid || (!all && s->id != id))
			continue;
		list_del(&s->node);
		nr_sessions--;
		groups_dropped += s->groups;
		kfree(s);
		found++;
	}
	if (found && !memdiag_session_active())
		counters_stop();
	return found;
}

/*
 * Give back the group_acct.c references of the sessions dropped; without
 * locks, since stopping the accounting unhooks the scheduler, which takes
 * the hotplug lock.
 */
static void put_dropped_groups(void)
{
	unsigned int n;

	mutex_lock(&memdiag_lock);
	n = groups_dropped;
	groups_dropped = 0;
	mutex_unlock(&memdiag_lock);
	memdiag_groups_put(n);
}

/* End the session @id of @portid; -ENOENT if it has none by that id. */
int memdiag_session_stop(u32 portid, u32 id)
{
	int found;

	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	found = drop_sessions(portid, false, id);
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	put_dropped_groups();
	return found ? 0 : -ENOENT;
}

/**
 * memdiag_session_want_groups() - session @id of @portid asks for the
 * DRAM bytes per cgroup (the core estimate)
 * @portid: the session's netlink port
 * @id: the id memdiag_session_start() gave it
 * @msg: why not
 * @len: size of @msg
 *
 * Called without locks. Return: 0, or a negative errno with @msg; the
 * session keeps running either way.
 */
int memdiag_session_want_groups(u32 portid, u32 id, char *msg, size_t len)
{
	struct memdiag_session *s;
	bool kept = false;
	int err;

	err = memdiag_groups_get(msg, len);
	if (err)
		return err;
	mutex_lock(&memdiag_lock);
	list_for_each_entry(s, &sessions, node)
		if (s->portid == portid && s->id == id && !s->groups) {
			s->groups = true;
			kept = true;
			break;
		}
	mutex_unlock(&memdiag_lock);
	if (!kept)	/* it ended meanwhile */
		memdiag_groups_put(1);
	return 0;
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
	memdiag_nl_err_release(n->portid);
	/* every generic netlink socket passes here: look before locking more */
	mutex_lock(&memdiag_lock);
	list_for_each_entry(s, &sessions, node)
		owner |= s->portid == n->portid;
	mutex_unlock(&memdiag_lock);
	if (!owner)
		return NOTIFY_DONE;
	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	drop_sessions(n->portid, true, 0);
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	put_dropped_groups();
	return NOTIFY_DONE;
}

static struct notifier_block release_nb = {
	.notifier_call = release_notify,
};

/*
 * Hotplug: the core counters are per CPU, the L3 PMU per CCX, the Data
 * Fabric per socket.
 */
static int session_cpu_online(unsigned int cpu)
{
	unsigned int i;
	int err = 0;

	/* the first failure is the callback's; every family hears of @cpu */
	for (i = 0; i < ARRAY_SIZE(families); i++) {
		int e = families[i].cpu_online(cpu);

		err = err ?: e;
	}
	memdiag_groups_cpu_online(cpu);
	return err;
}

static int session_cpu_offline(unsigned int cpu)
{
	unsigned int i = ARRAY_SIZE(families);

	/* charged before the core counters are put back */
	memdiag_groups_cpu_offline(cpu);
	while (i--)
		families[i].cpu_offline(cpu);
	return 0;
}

/**
 * memdiag_session_init() - get ready to run sessions
 * @fn: called with each periodic sample, in process context, without locks
 */
int memdiag_session_init(memdiag_publish_fn fn)
{
	int err;

	publish = fn;
	n_shared = memdiag_max_sockets();
	shared = kcalloc(n_shared, sizeof(*shared), GFP_KERNEL);
	if (!shared)
		return -ENOMEM;
	INIT_DELAYED_WORK(&sampler, sampler_fn);
	err = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "memdiag:online",
					session_cpu_online, session_cpu_offline);
	if (err < 0)
		goto free;
	hp_state = err;
	err = netlink_register_notifier(&release_nb);
	if (!err)
		return 0;
	cpuhp_remove_state_nocalls(hp_state);
free:
	kfree(shared);
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

		drop_sessions(s->portid, true, 0);
	}
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	put_dropped_groups();
	cancel_delayed_work_sync(&sampler);
	cpuhp_remove_state_nocalls(hp_state);
	/* requests still arriving find no session and never read it */
	kfree(shared);
	shared = NULL;
}
