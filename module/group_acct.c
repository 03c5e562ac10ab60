// SPDX-License-Identifier: GPL-2.0
/*
 * group_acct.c - the core estimate: DRAM fills per cgroup.
 *
 * While a session asks for groups, a probe on the sched_switch tracepoint
 * reads, on the switching CPU, the core counter that counts DRAM fills
 * (the offcore local DRAM reads core.c programs) whenever the next task's
 * cgroup v2 id differs from the one the CPU charges, and adds what the
 * counter moved since the last read to that cgroup in the CPU's own table.
 * Only the CPU itself writes its table, with interrupts off (the
 * scheduler's context, or a cross-call that folds the running cgroup's
 * count in before a read), so the probe takes no lock.
 *
 * A table has GROUP_SLOTS cgroups: the events of a cgroup that finds no
 * free slot are counted under cgroup id 0, never dropped. Slots are never
 * freed while the accounting runs; it starts afresh with the first
 * session that asks for groups.
 *
 * In the module, not BPF: the module owns the counter and reads it on the
 * switching CPU (Documentation/attribution.rst).
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/cpu.h>
#include <linux/cgroup.h>
#include <linux/tracepoint.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/hash.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "memdiag.h"
#include "group_acct.h"

#define GROUP_SLOTS	512		/* a power of 2 */
#define FILL_BYTES	64		/* one cache line per DRAM fill */

struct group_slot {
	u64 id;				/* cgroup id; 0: free */
	u64 events;
};

struct group_cpu {
	u64 cur;			/* the cgroup charged now; 0: none yet */
	u64 raw;			/* the counter at the last fold */
	bool based;			/* raw is a baseline */
	u64 failed;			/* counter reads that failed */
	struct group_slot slot[GROUP_SLOTS];
	u64 no_slot;			/* events of cgroups without a slot */
};

static struct group_cpu __percpu *tab;
static struct tracepoint *tp_switch, *tp_attach;
static u32 ctr_msr;
static u64 ctr_mask;
static bool running;

static u64 task_dfl_id(struct task_struct *p)
{
	u64 id;

	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(p));
	rcu_read_unlock();
	return id;
}

static void charge(struct group_cpu *c, u64 id, u64 events)
{
	unsigned int i = hash_64(id, ilog2(GROUP_SLOTS)), n;

	for (n = 0; n < GROUP_SLOTS; n++, i = (i + 1) & (GROUP_SLOTS - 1)) {
		struct group_slot *s = &c->slot[i];

		if (s->id == id) {
			WRITE_ONCE(s->events, s->events + events);
			return;
		}
		if (!s->id) {
			WRITE_ONCE(s->events, events);
			/* readers see the id after its count */
			smp_store_release(&s->id, id);
			return;
		}
	}
	WRITE_ONCE(c->no_slot, c->no_slot + events);
}

/* Charge what the counter moved to the current cgroup; interrupts off. */
static void fold(struct group_cpu *c)
{
	u64 raw;

	if (memdiag.plat->msr_read_local(ctr_msr, &raw)) {
		c->failed++;
		c->based = false;
		return;
	}
	if (c->based && c->cur)
		charge(c, c->cur, (raw - c->raw) & ctr_mask);
	c->raw = raw;
	c->based = true;
}

static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct group_cpu *c = this_cpu_ptr(tab);
	u64 id = task_dfl_id(next);

	if (id == c->cur && c->based)
		return;
	fold(c);
	c->cur = id;
}

/*
 * Cross-call: charge the running cgroup, and look again at which that is:
 * a task moved to another cgroup while it ran is charged to its new one
 * from here, not only from its next context switch.
 */
static void fold_here(void *unused)
{
	struct group_cpu *c = this_cpu_ptr(tab);

	fold(c);
	c->cur = task_dfl_id(current);
}

/* Every online CPU at once (cross-calls in parallel); cpus_read_lock(). */
static void fold_all(void)
{
	memdiag_lockdep_assert_cpus_held();
	on_each_cpu(fold_here, NULL, 1);
}

/*
 * A task changed cgroup. The CPU it runs on would charge its old cgroup
 * until its next context switch, which a lone busy task may not have for
 * seconds, so every CPU folds now, from a work item: the tracepoint runs
 * with interrupts off, where no cross-call may be made (and an irq_work
 * cannot be sent to another CPU from a module: irq_work_queue_on() is
 * not exported).
 */
static void refold_fn(struct work_struct *work)
{
	cpus_read_lock();
	fold_all();
	cpus_read_unlock();
}

static DECLARE_WORK(refold, refold_fn);

static void probe_attach(void *data, struct cgroup *dst, const char *path,
			 struct task_struct *task, bool threadgroup)
{
	schedule_work(&refold);
}

static void find_tracepoints(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		tp_switch = tp;
	else if (!strcmp(tp->name, "cgroup_attach_task"))
		tp_attach = tp;
}

/*
 * Lock order: groups_lock, then cpus_read_lock() (registering a probe
 * takes it to patch the tracepoint's static key), then memdiag_lock.
 * @tab and @running change with cpus_read_lock() held, so the hotplug
 * callbacks, which run with the hotplug lock held for writing, read them
 * without groups_lock.
 */
static DEFINE_MUTEX(groups_lock);
static unsigned int refs;	/* sessions that asked for groups */

/* Check, allocate, baseline every CPU and hook the scheduler. */
static int groups_start(char *msg, size_t len)
{
	struct group_cpu __percpu *t;
	unsigned int bits;
	int err;

	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	err = memdiag_core_fill_ctr(&ctr_msr, &bits, msg, len);
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	if (err)
		return err;
	if (!memdiag.plat->msr_read_local) {
		snprintf(msg, len, "the %s platform cannot read a counter during a context switch",
			 memdiag.plat->name);
		return -EOPNOTSUPP;
	}
	if (!tp_switch || !tp_attach)
		for_each_kernel_tracepoint(find_tracepoints, NULL);
	if (!tp_switch || !tp_attach) {
		snprintf(msg, len,
			 "this kernel lacks the sched_switch or cgroup_attach_task tracepoint");
		return -ENOENT;
	}
	ctr_mask = GENMASK_ULL(bits - 1, 0);
	t = memdiag_alloc_fails() ? NULL : alloc_percpu(struct group_cpu);
	if (!t) {
		snprintf(msg, len, "out of memory for the per-CPU cgroup tables");
		return -ENOMEM;
	}
	cpus_read_lock();
	tab = t;
	running = true;
	cpus_read_unlock();
	err = tracepoint_probe_register(tp_switch, probe_switch, NULL);
	if (!err) {
		err = tracepoint_probe_register(tp_attach, probe_attach, NULL);
		if (err) {
			tracepoint_probe_unregister(tp_switch, probe_switch, NULL);
			tracepoint_synchronize_unregister();
		}
	}
	if (err) {
		snprintf(msg, len, "the scheduler's probes could not be registered (%d)",
			 err);
		cpus_read_lock();
		running = false;
		tab = NULL;
		cpus_read_unlock();
		free_percpu(t);
		return err;
	}
	/* a CPU that never switches (one busy task) is charged from here */
	cpus_read_lock();
	fold_all();
	cpus_read_unlock();
	return 0;
}

static void groups_stop(void)
{
	struct group_cpu __percpu *t = tab;

	tracepoint_probe_unregister(tp_attach, probe_attach, NULL);
	tracepoint_probe_unregister(tp_switch, probe_switch, NULL);
	/* no probe runs on any CPU after this, and none queues a refold */
	tracepoint_synchronize_unregister();
	cancel_work_sync(&refold);
	cpus_read_lock();
	running = false;
	tab = NULL;
	cpus_read_unlock();
	free_percpu(t);
}

/**
 * memdiag_groups_get() - a session asks for groups: count DRAM fills per
 * cgroup from now on, if that is not done already
 * @msg: why not
 * @len: size of @msg
 *
 * Called without locks, after the session (and the core counters) started.
 * Return: 0, or -EOPNOTSUPP/-ENOENT/-ENOMEM with @msg.
 */
int memdiag_groups_get(char *msg, size_t len)
{
	int err = 0;

	mutex_lock(&groups_lock);
	if (!refs) {
		err = groups_start(msg, len);
	} else {
		/*
		 * charge what each CPU counted and look again at whose task
		 * runs; a stop and restart of the core counters between two
		 * sessions is not told apart (the next fold charges across it)
		 */
		cpus_read_lock();
		fold_all();
		cpus_read_unlock();
	}
	if (!err)
		refs++;
	mutex_unlock(&groups_lock);
	return err;
}

/* @n sessions that asked for groups ended; called without locks. */
void memdiag_groups_put(unsigned int n)
{
	if (!n)
		return;
	mutex_lock(&groups_lock);
	if (WARN_ON_ONCE(n > refs))
		n = refs;
	refs -= n;
	if (!refs && running)
		groups_stop();
	mutex_unlock(&groups_lock);
}

/* Hotplug: a CPU coming back starts from a new baseline. */
void memdiag_groups_cpu_online(unsigned int cpu)
{
	if (running)
		per_cpu_ptr(tab, cpu)->based = false;
}

/* Hotplug: what the leaving CPU counted is charged before it goes. */
void memdiag_groups_cpu_offline(unsigned int cpu)
{
	if (running)
		smp_call_function_single(cpu, fold_here, NULL, 1);
}

static int entry_cmp(const void *a, const void *b)
{
	const struct memdiag_group_bytes *x = a, *y = b;

	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->cgroup_id != y->cgroup_id)
		return x->cgroup_id < y->cgroup_id ? -1 : 1;
	return 0;
}

/* Sort and add up the entries of the same (socket, cgroup); the count. */
static size_t merge(struct memdiag_group_bytes *e, size_t n)
{
	size_t i, out = 0;

	sort(e, n, sizeof(*e), entry_cmp, NULL);
	for (i = 0; i < n; i++) {
		if (out && !entry_cmp(&e[out - 1], &e[i]))
			e[out - 1].bytes += e[i].bytes;
		else
			e[out++] = e[i];
	}
	return out;
}

/**
 * memdiag_groups_read() - every cgroup's bytes per socket
 * @fold_first: fold in what each online CPU's running cgroup counted
 *	(a cross-call per CPU) before reading
 * @out: set to a kvmalloc()ed array, sorted by (socket, cgroup id); the
 *	events of cgroups without a slot are under cgroup id 0
 * @n: its length
 *
 * Return: 0, -ENODATA if no session asked for groups, or -ENOMEM.
 */
int memdiag_groups_read(bool fold_first, struct memdiag_group_bytes **out,
			size_t *n)
{
	struct memdiag_group_bytes *e;
	size_t max, k = 0;
	unsigned int cpu, i;
	int err = 0;

	mutex_lock(&groups_lock);
	cpus_read_lock();
	if (!running) {
		err = -ENODATA;
		goto out;
	}
	if (fold_first)
		fold_all();
	max = (size_t)num_possible_cpus() * (GROUP_SLOTS + 1);
	e = memdiag_alloc_fails() ? NULL : kvcalloc(max, sizeof(*e), GFP_KERNEL);
	if (!e) {
		err = -ENOMEM;
		goto out;
	}
	for_each_possible_cpu(cpu) {
		struct group_cpu *c = per_cpu_ptr(tab, cpu);
		u32 socket = memdiag_socket_of(cpu);

		for (i = 0; i < GROUP_SLOTS; i++) {
			/* pairs with charge(): the count is there before the id */
			u64 id = smp_load_acquire(&c->slot[i].id);

			if (id)
				e[k++] = (struct memdiag_group_bytes){
					socket, id,
					READ_ONCE(c->slot[i].events) * FILL_BYTES };
		}
		if (READ_ONCE(c->no_slot))
			e[k++] = (struct memdiag_group_bytes){
				socket, 0, READ_ONCE(c->no_slot) * FILL_BYTES };
	}
	*out = e;
	*n = merge(e, k);
out:
	cpus_read_unlock();
	mutex_unlock(&groups_lock);
	return err;
}
