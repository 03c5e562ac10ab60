// SPDX-License-Identifier: GPL-2.0
/*
 * prefetch_hp.c - the prefetcher control's life cycle: probe, load, CPU
 * hotplug and unload, which must leave no core changed, and the reads
 * that report the state (prefetch-get, snapshots).
 *
 * A core memdiag cannot reach (all its CPUs offline) cannot be written,
 * so its last CPU going offline puts the original back there, and a core
 * coming back gets what was asked for it. Unloading removes the hotplug
 * callbacks and restores every online core inside one cpus_read_lock()
 * section: no CPU can go offline between the two, which is how a core
 * could once be left changed with nothing to restore it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/slab.h>

#include "prefetch_int.h"

static enum cpuhp_state pf_hp_state;
static bool pf_hp_registered;

/**
 * memdiag_prefetch_read() - what one CPU's register holds now
 * @cpu: an online CPU
 * @st: its value, and the original memdiag keeps for its core if any
 */
int memdiag_prefetch_read(unsigned int cpu, struct memdiag_pf_state *st)
{
	int err, sv;

	memdiag_lockdep_assert_cpus_held();	/* @cpu stays online */
	mutex_lock(&pf_lock);
	err = pf_read(cpu, &st->val);
	sv = pf_core_saved(cpu);
	st->saved = sv >= 0;
	st->orig = sv >= 0 ? pf_cpus[sv].orig : 0;
	st->failed = sv >= 0 && pf_cpus[sv].failed;
	mutex_unlock(&pf_lock);
	return err;
}

/**
 * memdiag_prefetch_sample() - the prefetcher state of each socket
 * @snap: one per socket, socket numbers 0..@n-1
 * @n: number of entries
 *
 * pf_lock is taken after the caller's memdiag_lock. Sets prefetch_off to
 * the prefetchers off on every online CPU of the socket, prefetch_mixed to
 * those on some CPUs and off on others, and prefetch_changed when a CPU
 * differs from what memdiag found.
 */
void memdiag_prefetch_sample(struct memdiag_snap *snap, unsigned int n)
{
	u32 off, all[MEMDIAG_MAX_SOCKETS], any[MEMDIAG_MAX_SOCKETS] = {};
	bool seen[MEMDIAG_MAX_SOCKETS] = {};
	unsigned int cpu, s;
	u64 val;
	int sv;

	memdiag_lockdep_assert_cpus_held();
	lockdep_assert_held(&memdiag_lock);
	if (!pf_desc || !memdiag.caps[MEMDIAG_CAPABILITY_PREFETCH_CONTROL].available)
		return;
	memset(all, 0xff, sizeof(all));
	mutex_lock(&pf_lock);
	for_each_online_cpu(cpu) {
		s = memdiag_socket_of(cpu);
		if (s >= n || s >= MEMDIAG_MAX_SOCKETS ||
		    cpu != cpumask_first_and(pf_core(cpu), cpu_online_mask) ||
		    pf_read(cpu, &val))
			continue;
		off = memdiag_prefetch_off(val);
		all[s] &= off;
		any[s] |= off;
		seen[s] = true;
		sv = pf_core_saved(cpu);
		if (sv >= 0 && pf_cpus[sv].orig != val)
			snap[s].prefetch_changed = true;
	}
	mutex_unlock(&pf_lock);
	for (s = 0; s < n && s < MEMDIAG_MAX_SOCKETS; s++) {
		if (!seen[s])
			continue;
		snap[s].has_prefetch = true;
		snap[s].prefetch_off = all[s];
		snap[s].prefetch_mixed = any[s] & ~all[s];
	}
}

/* Join @cpu to its core's record, which an online sibling may hold. */
static void pf_join_core(unsigned int cpu)
{
	struct pf_cpu *p = &pf_cpus[cpu];
	unsigned int c2;

	p->core_key = pf_core_key(cpu);
	for_each_present_cpu(c2) {
		if (c2 != cpu && pf_same_core(c2, cpu) && pf_cpus[c2].saved) {
			p->saved = true;
			p->orig = pf_cpus[c2].orig;
			p->failed = pf_cpus[c2].failed;
			return;
		}
	}
}

/* Whether @cpu is the only online CPU of its core. */
static bool pf_core_alone(unsigned int cpu)
{
	unsigned int c2;

	for_each_cpu_and(c2, pf_core(cpu), cpu_online_mask)
		if (c2 != cpu)
			return false;
	return true;
}

/*
 * Hotplug: a CPU coming online gets what was asked for its core or
 * socket; with nothing asked but an original still kept (its restore
 * failed before), the restore is tried again.
 */
static int pf_cpu_online(unsigned int cpu)
{
	struct pf_cpu *p = &pf_cpus[cpu];
	struct pf_req r = { p->req_mask, p->req_off };
	unsigned int s = pf_socket(cpu);
	u64 old, new, got = 0;
	bool retry;
	int err;

	mutex_lock(&pf_lock);
	pf_join_core(cpu);
	/* a CPU never asked about gets what its socket was asked */
	if (!p->known && s < MEMDIAG_MAX_SOCKETS) {
		r.mask = pf_sock[s].mask;
		r.off = pf_sock[s].off;
	}
	/* a restore that failed: retry it, unless a sibling uses the core */
	retry = !r.mask && p->failed && pf_core_alone(cpu);
	if ((!r.mask && !retry) || pf_read(cpu, &old))
		goto out;
	new = retry ? p->orig : (old & ~pf_bits(r.mask)) | pf_bits(r.off);
	if (new == old) {
		if (retry)	/* the original is back already */
			pf_core_record(cpu, false, 0, false);
		else if (p->failed)	/* it holds what was asked */
			pf_core_record(cpu, true, p->orig, false);
		goto out;
	}
	if (!p->saved)
		pf_core_record(cpu, true, old, false);
	err = pf_write_verify(cpu, new, &got);
	if (err) {
		pr_warn("prefetch: CPU %u came online, but setting MSR 0x%x to 0x%llx failed (%d, reads 0x%llx)\n",
			cpu, pf_desc->msr, new, err, got);
		if (err == -EAGAIN && !retry)
			pf_write(cpu, old);
		goto out;
	}
	if (retry) {
		pf_core_record(cpu, false, 0, false);
		pr_info("prefetch: CPU %u came online: MSR 0x%x 0x%llx -> 0x%llx, restored at last\n",
			cpu, pf_desc->msr, old, new);
		goto out;
	}
	/* the core holds what was asked: no restore is pending any more */
	pf_core_record(cpu, true, p->orig, false);
	p->req_mask = r.mask;
	p->req_off = r.off;
	p->known = true;
	pr_info("prefetch: CPU %u came online: MSR 0x%x 0x%llx -> 0x%llx, as asked for before\n",
		cpu, pf_desc->msr, old, new);
out:
	mutex_unlock(&pf_lock);
	return 0;
}

/*
 * Hotplug: the last online CPU of a core gets the value memdiag found, so
 * that nothing stays changed while memdiag cannot reach the core (it may
 * be unloaded before the core returns). What was asked is kept, and so is
 * the original if the write fails: rmmod reports it, and the core coming
 * back online retries.
 */
static int pf_cpu_offline(unsigned int cpu)
{
	struct pf_cpu *p = &pf_cpus[cpu];
	u64 got = 0;

	mutex_lock(&pf_lock);
	/* a sibling still online still uses the setting */
	if (!p->saved || !pf_core_alone(cpu))
		goto out;
	if (pf_write_verify(cpu, p->orig, &got)) {
		pf_read(cpu, &got);	/* a fault leaves got unset */
		pr_err("prefetch: CPU %u going offline: restoring MSR 0x%x to 0x%llx failed (reads 0x%llx); retried when it comes back\n",
		       cpu, pf_desc->msr, p->orig, got);
		pf_core_record(cpu, true, p->orig, true);
	} else {
		pf_core_record(cpu, false, 0, false);
	}
out:
	mutex_unlock(&pf_lock);
	return 0;
}

/**
 * memdiag_prefetch_probe() - can this machine's prefetchers be switched
 * @st: the module state (identity and platform known)
 * @cap: the capability to fill in
 */
void memdiag_prefetch_probe(struct memdiag_state *st, struct memdiag_cap *cap)
{
	unsigned int cpu = cpumask_first(cpu_online_mask);
	u64 val;

	cap->available = false;
	pf_desc = memdiag_prefetch_match(&st->ident, cap->reason,
					 sizeof(cap->reason));
	st->prefetch = pf_desc;
	if (!pf_desc)
		return;
	if (pf_read(cpu, &val)) {
		snprintf(cap->reason, sizeof(cap->reason),
			 "reading MSR 0x%x (%s prefetch control) on CPU %u faulted%s",
			 pf_desc->msr, pf_desc->name, cpu,
			 st->ident.hypervisor ? " (this is a virtual machine)" : "");
		return;
	}
	cap->available = true;
	cap->reason[0] = '\0';
}

int memdiag_prefetch_init(void)
{
	unsigned int cpu;
	int ret;

	if (!pf_desc)
		return 0;
	pf_cpus = memdiag_kcalloc(nr_cpu_ids, sizeof(*pf_cpus));
	if (!pf_cpus)
		return -ENOMEM;
	cpus_read_lock();
	for_each_possible_cpu(cpu)
		pf_cpus[cpu].core_key = cpu_online(cpu) ? pf_core_key(cpu) :
							  PF_NO_CORE;
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "memdiag/prefetch:online",
						   pf_cpu_online,
						   pf_cpu_offline);
	cpus_read_unlock();
	if (ret < 0) {
		kfree(pf_cpus);
		pf_cpus = NULL;
		return ret;
	}
	pf_hp_state = ret;
	pf_hp_registered = true;
	return 0;
}

/* rmmod: say which cores stay changed because their restore failed. */
static void pf_report_left(void)
{
	unsigned int cpu, c2;
	bool first;

	for_each_present_cpu(cpu) {
		if (!pf_cpus[cpu].saved)
			continue;
		first = true;
		for_each_present_cpu(c2)	/* once per core */
			if (c2 < cpu && pf_same_core(c2, cpu))
				first = false;
		if (first)
			pr_err("prefetch: unloading with CPU %u (%s) not restored: MSR 0x%x was 0x%llx when memdiag first changed it; set it back by hand\n",
			       cpu, cpu_online(cpu) ? "online" : "offline",
			       pf_desc->msr, pf_cpus[cpu].orig);
	}
}

/*
 * rmmod: every core memdiag changed gets its value back. The hotplug
 * callbacks go and the online cores are restored under one hotplug read
 * lock, so no core can leave or join in between; the offline cores were
 * restored when their last CPU left.
 */
void memdiag_prefetch_exit(void)
{
	u64 *old, *new;

	if (!pf_cpus)
		return;
	old = memdiag_kcalloc(nr_cpu_ids, sizeof(*old));
	new = memdiag_kcalloc(nr_cpu_ids, sizeof(*new));
	cpus_read_lock();
	if (pf_hp_registered)
		cpuhp_remove_state_nocalls_cpuslocked(pf_hp_state);
	pf_hp_registered = false;
	mutex_lock(&pf_lock);
	pf_restore_locked(NULL, old && new ? old : NULL, new, NULL, 0);
	pf_log("restored", old, new);
	pf_report_left();
	mutex_unlock(&pf_lock);
	cpus_read_unlock();
	kfree(new);
	kfree(old);
	kfree(pf_cpus);
	pf_cpus = NULL;
}
