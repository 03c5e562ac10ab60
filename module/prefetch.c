// SPDX-License-Identifier: GPL-2.0
/*
 * prefetch.c - switch hardware prefetchers on and off, and always put back
 * what was found.
 *
 * The control register is per core: hyperthread siblings share one copy,
 * so every request is widened to whole cores and each core is written
 * once, through one of its online CPUs. Only the bits asked for change
 * (read-modify-write); bits memdiag has no name for are never touched.
 *
 * The first change memdiag makes to a core saves the value it found there
 * in every CPU of the core. Restore, rmmod, and a core's last CPU going
 * offline put that value back. What was asked for is remembered per CPU
 * and per socket, so a CPU that comes back online (or comes online for
 * the first time in a socket that was set) gets the setting again.
 *
 * A write is read back: if the value did not stick (a hypervisor or TCG
 * dropping the write), every core the request already changed is put
 * back and the request fails, so no request is ever half applied.
 *
 * Lock order: cpus_read_lock(), then pf_lock. The hotplug callbacks run
 * with the hotplug lock held for writing and take only pf_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/sched.h>

#include "memdiag.h"

struct pf_cpu {
	bool saved;		/* orig is what memdiag found on this core */
	u64 orig;
	u32 req_mask;		/* prefetchers (by index) asked for */
	u32 req_off;		/* of those, the ones asked to be off */
	bool known;		/* req_* say it; else its socket's does */
	u64 core_key;		/* package and core id, taken while online */
};

struct pf_req {
	u32 mask, off;
};

static const struct memdiag_pf_desc *pf_desc;
static struct pf_cpu *pf_cpus;
static struct pf_req pf_sock[MEMDIAG_MAX_SOCKETS];
static enum cpuhp_state pf_hp_state;
static bool pf_hp_registered;
static DEFINE_MUTEX(pf_lock);

/**
 * memdiag_prefetch_match() - the prefetcher controls of a processor
 * @id: what CPUID says
 * @reason: why there are none, when NULL is returned
 * @len: size of @reason
 */
const struct memdiag_pf_desc *
memdiag_prefetch_match(const struct memdiag_cpu_ident *id, char *reason,
		       size_t len)
{
	const struct memdiag_pf_desc *d;
	const struct memdiag_pf_model *m;
	unsigned int i;

	for (i = 0; i < memdiag_pf_table_len; i++) {
		d = &memdiag_pf_table[i];
		if (strcmp(d->vendor, id->vendor) || d->family != id->family)
			continue;
		if (!d->models)
			return d;
		for (m = d->models; m->kname; m++)
			if (m->model == id->model)
				return d;
	}
	snprintf(reason, len,
		 "memdiag knows no documented prefetcher control for %s family 0x%x model 0x%x",
		 id->vendor, id->family, id->model);
	return NULL;
}

/* The register bits of the prefetchers in @mask (bit i: prefetcher i). */
static u64 pf_bits(u32 mask)
{
	u64 bits = 0;
	unsigned int i;

	for (i = 0; i < pf_desc->n_bits; i++)
		if (mask & BIT(i))
			bits |= BIT_ULL(pf_desc->bits[i].bit);
	return bits;
}

/* The prefetchers (by index) that @val switches off. */
u32 memdiag_prefetch_off(u64 val)
{
	u32 off = 0;
	unsigned int i;

	for (i = 0; pf_desc && i < pf_desc->n_bits; i++)
		if (val & BIT_ULL(pf_desc->bits[i].bit))
			off |= BIT(i);
	return off;
}

static int pf_read(unsigned int cpu, u64 *val)
{
	struct memdiag_msr_op op = { .msr = pf_desc->msr };
	int err = memdiag.plat->msr_batch(cpu, &op, 1);

	*val = op.val;
	return err ?: op.err;
}

static int pf_write(unsigned int cpu, u64 val)
{
	struct memdiag_msr_op op = { .msr = pf_desc->msr, .write = true,
				     .val = val };
	int err = memdiag.plat->msr_batch(cpu, &op, 1);

	return err ?: op.err;
}

/* Write and read back; -EAGAIN if the value did not stick. */
static int pf_write_verify(unsigned int cpu, u64 val, u64 *got)
{
	int err = pf_write(cpu, val);

	if (!err)
		err = pf_read(cpu, got);
	if (!err && *got != val)
		err = -EAGAIN;
	return err;
}

/* The online CPUs that share @cpu's register, @cpu included. */
static const struct cpumask *pf_core(unsigned int cpu)
{
	return topology_sibling_cpumask(cpu);
}

/*
 * Whether @a and @b share a core, also when one is offline and so in no
 * sibling mask (nor, on some kernels, with its core id intact): the ids
 * are recorded while each CPU is online.
 */
static u64 pf_core_key(unsigned int cpu)
{
	return (u64)topology_physical_package_id(cpu) << 32 |
	       (u32)topology_core_id(cpu);
}

static bool pf_same_core(unsigned int a, unsigned int b)
{
	return pf_cpus[a].core_key == pf_cpus[b].core_key;
}

/* Drop what memdiag saved and was asked for @cpu (not its core's ids). */
static void pf_forget(unsigned int cpu, bool known)
{
	struct pf_cpu *p = &pf_cpus[cpu];

	p->saved = false;
	p->orig = 0;
	p->req_mask = 0;
	p->req_off = 0;
	p->known = known;
}

/* Any online CPU of @cpu's core holding the saved original: which, or -1. */
static int pf_core_saved(unsigned int cpu)
{
	unsigned int c2;

	for_each_cpu_and(c2, pf_core(cpu), cpu_online_mask)
		if (pf_cpus[c2].saved)
			return c2;
	return -1;
}

static u64 pf_apply(u64 val, u32 mask, bool off)
{
	u64 bits = pf_bits(mask);

	return (val & ~bits) | (off ? bits : 0);
}

static void req_merge(struct pf_req *r, u32 mask, bool off)
{
	r->mask |= mask;
	r->off = (r->off & ~mask) | (off ? mask : 0);
}

/* Socket @s, or MEMDIAG_MAX_SOCKETS when @cpu's socket is not known. */
static unsigned int pf_socket(unsigned int cpu)
{
	unsigned int s = memdiag_socket_of(cpu);

	return min_t(unsigned int, s, MEMDIAG_MAX_SOCKETS);
}

/**
 * memdiag_prefetch_widen() - the CPUs that share a register with @scope
 * @scope: CPUs
 * @out: set to every online CPU of a core @scope has an online CPU in
 */
void memdiag_prefetch_widen(const struct cpumask *scope, struct cpumask *out)
{
	unsigned int cpu;

	cpumask_clear(out);
	for_each_cpu_and(cpu, scope, cpu_online_mask)
		if (!cpumask_test_cpu(cpu, out))
			cpumask_or(out, out, pf_core(cpu));
	cpumask_and(out, out, cpu_online_mask);
}

/*
 * Widen @scope to whole cores: @touched gets every online CPU sharing a
 * register with @scope, @cores one of them per core (its first).
 */
static void pf_expand(const struct cpumask *scope, struct cpumask *cores,
		      struct cpumask *touched)
{
	unsigned int cpu;

	memdiag_prefetch_widen(scope, touched);
	cpumask_clear(cores);
	for_each_cpu(cpu, touched)
		if (cpu == cpumask_first_and(pf_core(cpu), cpu_online_mask))
			__cpumask_set_cpu(cpu, cores);
}

/*
 * One kernel log line per distinct old -> new transition of a change;
 * @old and @new are indexed by the first online CPU of each core, and
 * equal (zero) for the cores the change left alone.
 */
static void pf_log(const char *what, const u64 *old, const u64 *new)
{
	cpumask_var_t done, group;
	unsigned int cpu, c2;

	if (!old || !new || !zalloc_cpumask_var(&done, GFP_KERNEL))
		return;
	if (!zalloc_cpumask_var(&group, GFP_KERNEL)) {
		free_cpumask_var(done);
		return;
	}
	for_each_online_cpu(cpu) {
		if (cpumask_test_cpu(cpu, done) || old[cpu] == new[cpu])
			continue;
		cpumask_clear(group);
		for_each_online_cpu(c2) {
			if (old[c2] != old[cpu] || new[c2] != new[cpu])
				continue;
			cpumask_or(group, group, pf_core(c2));
			__cpumask_set_cpu(c2, done);
		}
		cpumask_and(group, group, cpu_online_mask);
		pr_info("prefetch: %s by %s (pid %d): CPUs %*pbl: MSR 0x%x 0x%llx -> 0x%llx\n",
			what, current->comm, task_pid_nr(current),
			cpumask_pr_args(group), pf_desc->msr, old[cpu],
			new[cpu]);
	}
	free_cpumask_var(group);
	free_cpumask_var(done);
}

/**
 * memdiag_prefetch_set() - switch prefetchers of some CPUs on or off
 * @scope: the CPUs asked for (online ones; widened to whole cores)
 * @socket: the socket @scope is, so that CPUs coming online there get the
 *	setting too; -1 for all sockets, -2 for a plain CPU list
 * @mask: which prefetchers, bit i for prefetcher i of the table row
 * @off: switch them off (true) or on
 * @touched: set to the CPUs whose register was written or already right
 * @msg: why it failed
 * @len: size of @msg
 *
 * Return: 0; -EAGAIN if a write did not stick, -EIO if one faulted (then
 * nothing is left changed); -ENOMEM.
 */
int memdiag_prefetch_set(const struct cpumask *scope, int socket, u32 mask,
			 bool off, struct cpumask *touched, char *msg,
			 size_t len)
{
	cpumask_var_t cores;
	unsigned int cpu, c2, s;
	u64 *old, *new, got = 0;
	int err = 0;

	if (!zalloc_cpumask_var(&cores, GFP_KERNEL))
		return -ENOMEM;
	old = kcalloc(nr_cpu_ids, sizeof(*old), GFP_KERNEL);
	new = kcalloc(nr_cpu_ids, sizeof(*new), GFP_KERNEL);
	if (!old || !new) {
		err = -ENOMEM;
		goto out;
	}
	cpus_read_lock();
	mutex_lock(&pf_lock);
	pf_expand(scope, cores, touched);
	for_each_cpu(cpu, cores) {
		err = pf_read(cpu, &old[cpu]);
		if (err) {
			snprintf(msg, len, "reading MSR 0x%x on CPU %u faulted",
				 pf_desc->msr, cpu);
			break;
		}
		new[cpu] = pf_apply(old[cpu], mask, off);
		if (new[cpu] == old[cpu])
			continue;
		err = pf_write_verify(cpu, new[cpu], &got);
		if (err == -EAGAIN) {
			snprintf(msg, len,
				 "MSR 0x%x on CPU %u did not stick: wrote 0x%llx, read back 0x%llx (the hypervisor or firmware ignores it); nothing was changed",
				 pf_desc->msr, cpu, new[cpu], got);
		} else if (err) {
			snprintf(msg, len,
				 "writing MSR 0x%x on CPU %u faulted; nothing was changed",
				 pf_desc->msr, cpu);
		}
		if (err) {
			/* this core too: a write that half stuck is undone */
			new[cpu] = U64_MAX;
			break;
		}
	}
	if (err) {
		/* roll back every core this request changed, in order */
		for_each_cpu(c2, cores) {
			if (new[c2] != old[c2] &&
			    pf_write_verify(c2, old[c2], &got))
				pr_err("prefetch: rolling back CPU %u to 0x%llx failed: it reads 0x%llx\n",
				       c2, old[c2], got);
			if (c2 == cpu)
				break;
		}
		goto unlock;
	}
	for_each_cpu(cpu, cores) {
		int sv = pf_core_saved(cpu);
		/* the first change to a core saves what it found */
		u64 orig = sv >= 0 ? pf_cpus[sv].orig : old[cpu];
		bool save = sv >= 0 || new[cpu] != old[cpu];

		for_each_cpu_and(c2, pf_core(cpu), cpu_online_mask) {
			struct pf_cpu *p = &pf_cpus[c2];
			struct pf_req r = { p->req_mask, p->req_off };

			if (save) {
				p->saved = true;
				p->orig = orig;
			}
			req_merge(&r, mask, off);
			p->req_mask = r.mask;
			p->req_off = r.off;
			p->known = true;
		}
	}
	/* CPUs of the socket(s) that are offline now get it when they return */
	for (s = 0; socket != -2 && s < MEMDIAG_MAX_SOCKETS; s++) {
		if (socket != -1 && s != socket)
			continue;
		req_merge(&pf_sock[s], mask, off);
		for_each_present_cpu(c2) {
			struct pf_req r = { pf_cpus[c2].req_mask,
					    pf_cpus[c2].req_off };

			if (cpu_online(c2) || pf_socket(c2) != s)
				continue;
			req_merge(&r, mask, off);
			pf_cpus[c2].req_mask = r.mask;
			pf_cpus[c2].req_off = r.off;
			pf_cpus[c2].known = true;
		}
	}
	pf_log(off ? "disabled" : "enabled", old, new);
unlock:
	mutex_unlock(&pf_lock);
	cpus_read_unlock();
out:
	kfree(new);
	kfree(old);
	free_cpumask_var(cores);
	return err;
}

/**
 * memdiag_prefetch_restore() - put back what memdiag found
 * @scope: the CPUs to restore (widened to whole cores); all when NULL
 * @socket: as for memdiag_prefetch_set(); the socket's remembered setting
 *	is forgotten too
 * @touched: if not NULL, set to the CPUs looked at
 *
 * Works without memory too (only the log line is lost), since rmmod
 * depends on it.
 *
 * Return: 0, or the first error (every core is still tried).
 */
int memdiag_prefetch_restore(const struct cpumask *scope, int socket,
			     struct cpumask *touched)
{
	const struct cpumask *core;
	unsigned int cpu, c2, s;
	u64 *old, *new, cur, got = 0;
	int err = 0, e, sv;

	old = kcalloc(nr_cpu_ids, sizeof(*old), GFP_KERNEL);
	new = kcalloc(nr_cpu_ids, sizeof(*new), GFP_KERNEL);
	if (touched)
		cpumask_clear(touched);
	cpus_read_lock();
	mutex_lock(&pf_lock);
	for_each_online_cpu(cpu) {
		core = pf_core(cpu);
		if (cpu != cpumask_first_and(core, cpu_online_mask) ||
		    (scope && !cpumask_intersects(core, scope)))
			continue;
		if (touched)
			cpumask_or(touched, touched, core);
		sv = pf_core_saved(cpu);
		e = sv >= 0 ? pf_read(cpu, &cur) : 0;
		if (!e && sv >= 0 && cur != pf_cpus[sv].orig) {
			e = pf_write_verify(cpu, pf_cpus[sv].orig, &got);
			if (!e && old && new) {
				old[cpu] = cur;
				new[cpu] = pf_cpus[sv].orig;
			}
		}
		if (e) {
			pr_err("prefetch: restoring CPU %u to 0x%llx failed (%d)\n",
			       cpu, pf_cpus[sv].orig, e);
			err = err ?: e;
		}
		/*
		 * Forget what was asked for the whole core, offline siblings
		 * included, or they would bring it back.
		 */
		for_each_present_cpu(c2)
			if (cpumask_test_cpu(c2, core) || pf_same_core(c2, cpu))
				pf_forget(c2, true);	/* asked: nothing */
	}
	if (touched)
		cpumask_and(touched, touched, cpu_online_mask);
	/* offline CPUs got their value back when they went offline */
	for (s = 0; socket != -2 && s < MEMDIAG_MAX_SOCKETS; s++) {
		if (socket != -1 && s != socket)
			continue;
		memset(&pf_sock[s], 0, sizeof(pf_sock[s]));
		for_each_present_cpu(c2)
			if (!cpu_online(c2) && pf_socket(c2) == s)
				pf_forget(c2, false);
	}
	pf_log("restored", old, new);
	mutex_unlock(&pf_lock);
	cpus_read_unlock();
	kfree(new);
	kfree(old);
	return err;
}

/**
 * memdiag_prefetch_read() - what one CPU's register holds now
 * @cpu: an online CPU
 * @val: the value
 * @orig: the value memdiag found, if it changed this core
 * @saved: whether @orig is set
 *
 * Caller holds cpus_read_lock().
 */
int memdiag_prefetch_read(unsigned int cpu, u64 *val, u64 *orig, bool *saved)
{
	int err;

	int sv;

	mutex_lock(&pf_lock);
	err = pf_read(cpu, val);
	sv = pf_core_saved(cpu);
	*saved = sv >= 0;
	*orig = sv >= 0 ? pf_cpus[sv].orig : 0;
	mutex_unlock(&pf_lock);
	return err;
}

/**
 * memdiag_prefetch_sample() - the prefetcher state of each socket
 * @snap: one per socket, socket numbers 0..@n-1
 * @n: number of entries
 *
 * Called with cpus_read_lock() held (and memdiag_lock, which is taken
 * before pf_lock). Sets prefetch_off to the prefetchers off on every
 * online CPU of the
 * socket, prefetch_mixed to those on some CPUs and off on others, and
 * prefetch_changed when a CPU differs from what memdiag found.
 */
void memdiag_prefetch_sample(struct memdiag_snap *snap, unsigned int n)
{
	u32 off, all[MEMDIAG_MAX_SOCKETS], any[MEMDIAG_MAX_SOCKETS] = {};
	unsigned int cpu, s;
	bool seen[MEMDIAG_MAX_SOCKETS] = {};
	u64 val;
	int sv;

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

/* Hotplug: a CPU coming online gets what was asked for its core or socket. */
static int pf_cpu_online(unsigned int cpu)
{
	struct pf_cpu *p = &pf_cpus[cpu];
	struct pf_req r = { p->req_mask, p->req_off };
	unsigned int s = pf_socket(cpu), c2;
	u64 old, new, got = 0;
	int err;

	mutex_lock(&pf_lock);
	p->core_key = pf_core_key(cpu);
	/* a CPU never asked about gets what its socket was asked */
	if (!p->known && s < MEMDIAG_MAX_SOCKETS) {
		r.mask = pf_sock[s].mask;
		r.off = pf_sock[s].off;
	}
	/* an online sibling already holds the saved value of this core */
	for_each_cpu_and(c2, pf_core(cpu), cpu_online_mask) {
		if (c2 != cpu && pf_cpus[c2].saved) {
			p->saved = true;
			p->orig = pf_cpus[c2].orig;
			break;
		}
	}
	if (!r.mask || pf_read(cpu, &old))
		goto out;
	new = (old & ~pf_bits(r.mask)) | pf_bits(r.off);
	if (new == old)
		goto out;
	if (!p->saved) {
		for_each_cpu_and(c2, pf_core(cpu), cpu_online_mask) {
			pf_cpus[c2].saved = true;
			pf_cpus[c2].orig = old;
		}
	}
	err = pf_write_verify(cpu, new, &got);
	if (err) {
		pr_warn("prefetch: CPU %u came online, but setting MSR 0x%x to 0x%llx failed (%d, reads 0x%llx)\n",
			cpu, pf_desc->msr, new, err, got);
		if (err == -EAGAIN)
			pf_write(cpu, old);
		goto out;
	}
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
 * be unloaded before the core returns). What was asked is kept.
 */
static int pf_cpu_offline(unsigned int cpu)
{
	struct pf_cpu *p = &pf_cpus[cpu];
	unsigned int c2;
	u64 got = 0;

	mutex_lock(&pf_lock);
	for_each_cpu_and(c2, pf_core(cpu), cpu_online_mask)
		if (c2 != cpu)
			goto out;	/* a sibling still uses the setting */
	if (p->saved && pf_write_verify(cpu, p->orig, &got))
		pr_err("prefetch: CPU %u going offline: restoring MSR 0x%x to 0x%llx failed (reads 0x%llx)\n",
		       cpu, pf_desc->msr, p->orig, got);
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
	pf_cpus = kcalloc(nr_cpu_ids, sizeof(*pf_cpus), GFP_KERNEL);
	if (!pf_cpus)
		return -ENOMEM;
	cpus_read_lock();
	for_each_online_cpu(cpu)
		pf_cpus[cpu].core_key = pf_core_key(cpu);
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

/* rmmod: every core memdiag changed gets its value back. */
void memdiag_prefetch_exit(void)
{
	if (!pf_cpus)
		return;
	if (pf_hp_registered)
		cpuhp_remove_state_nocalls(pf_hp_state);
	pf_hp_registered = false;
	memdiag_prefetch_restore(NULL, -1, NULL);
	kfree(pf_cpus);
	pf_cpus = NULL;
}
