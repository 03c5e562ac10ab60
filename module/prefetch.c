// SPDX-License-Identifier: GPL-2.0
/*
 * prefetch.c - switch hardware prefetchers on and off on request, and
 * always put back what was found (hotplug, load and unload:
 * prefetch_hp.c).
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
 * back and the request fails, so no request is ever half applied. A
 * core that cannot be put back stays recorded (see prefetch_int.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/pid.h>
#include <linux/sched.h>

#include "prefetch_int.h"

const struct memdiag_pf_desc *pf_desc;
struct pf_cpu *pf_cpus;
struct pf_req pf_sock[MEMDIAG_MAX_SOCKETS];
DEFINE_MUTEX(pf_lock);		/* pf_cpus, pf_sock and every write */

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
u64 pf_bits(u32 mask)
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

int pf_read(unsigned int cpu, u64 *val)
{
	struct memdiag_msr_op op = { .msr = pf_desc->msr };
	int err = memdiag.plat->msr_batch(cpu, &op, 1);

	*val = op.val;
	return err ?: op.err;
}

int pf_write(unsigned int cpu, u64 val)
{
	struct memdiag_msr_op op = { .msr = pf_desc->msr, .write = true,
				     .val = val };
	int err = memdiag.plat->msr_batch(cpu, &op, 1);

	return err ?: op.err;
}

/* Write and read back; -EAGAIN if the value did not stick. */
int pf_write_verify(unsigned int cpu, u64 val, u64 *got)
{
	int err = pf_write(cpu, val);

	if (!err)
		err = pf_read(cpu, got);
	if (!err && *got != val)
		err = -EAGAIN;
	return err;
}

/* Package and core id: which CPUs share a register, offline ones too. */
u64 pf_core_key(unsigned int cpu)
{
	return (u64)topology_physical_package_id(cpu) << 32 |
	       (u32)topology_core_id(cpu);
}

/* Drop what was asked for @cpu; @known: "nothing" rather than "ask its socket". */
static void pf_forget(unsigned int cpu, bool known)
{
	struct pf_cpu *p = &pf_cpus[cpu];

	p->req_mask = 0;
	p->req_off = 0;
	p->known = known;
}

/* Any CPU of @cpu's core, online or not, holding a saved original, or -1. */
int pf_core_saved(unsigned int cpu)
{
	unsigned int c2;

	if (pf_cpus[cpu].saved)
		return cpu;
	for_each_present_cpu(c2)
		if (pf_same_core(c2, cpu) && pf_cpus[c2].saved)
			return c2;
	return -1;
}

/* Set the record of every CPU of @cpu's core, offline ones included. */
void pf_core_record(unsigned int cpu, bool saved, u64 orig, bool failed)
{
	unsigned int c2;

	for_each_present_cpu(c2) {
		if (c2 != cpu && !pf_same_core(c2, cpu))
			continue;
		pf_cpus[c2].saved = saved;
		pf_cpus[c2].orig = saved ? orig : 0;
		pf_cpus[c2].failed = saved && failed;
	}
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
unsigned int pf_socket(unsigned int cpu)
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
void pf_log(const char *what, const u64 *old, const u64 *new)
{
	cpumask_var_t done, group;
	unsigned int cpu, c2;

	if (!old || !new)
		return;
	if (!memdiag_zalloc_cpumask(&done))
		goto ungrouped;
	if (!memdiag_zalloc_cpumask(&group)) {
		free_cpumask_var(done);
		goto ungrouped;
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
	return;
ungrouped:
	/* no memory to group CPUs: a line per core, but every change logged */
	for_each_online_cpu(cpu)
		if (old[cpu] != new[cpu])
			pr_info("prefetch: %s by %s (pid %d): core of CPU %u: MSR 0x%x 0x%llx -> 0x%llx\n",
				what, current->comm, task_pid_nr(current), cpu,
				pf_desc->msr, old[cpu], new[cpu]);
}

/*
 * Write the new value of every core of @cores; on the first failure stop,
 * say why in @msg and return the error with *@failed_cpu set. new[] of
 * the failing core becomes U64_MAX: its write may have half stuck, so it
 * is rolled back too.
 */
static int pf_set_apply(const struct cpumask *cores, u32 mask, bool off,
			u64 *old, u64 *new, unsigned int *failed_cpu,
			char *msg, size_t len)
{
	unsigned int cpu;
	u64 got = 0;
	int err;

	for_each_cpu(cpu, cores) {
		*failed_cpu = cpu;
		err = pf_read(cpu, &old[cpu]);
		if (err) {
			snprintf(msg, len, "reading MSR 0x%x on CPU %u faulted",
				 pf_desc->msr, cpu);
			new[cpu] = old[cpu];
			return err;
		}
		new[cpu] = pf_apply(old[cpu], mask, off);
		if (new[cpu] == old[cpu])
			continue;
		err = pf_write_verify(cpu, new[cpu], &got);
		if (err == -EAGAIN)
			snprintf(msg, len,
				 "MSR 0x%x on CPU %u did not stick: wrote 0x%llx, read back 0x%llx (the hypervisor or firmware ignores it)",
				 pf_desc->msr, cpu, new[cpu], got);
		else if (err)
			snprintf(msg, len, "writing MSR 0x%x on CPU %u faulted",
				 pf_desc->msr, cpu);
		if (err) {
			new[cpu] = U64_MAX;
			return err;
		}
		/* a change that stuck: get-info stops saying "untested" */
		WRITE_ONCE(memdiag.caps[MEMDIAG_CAPABILITY_PREFETCH_CONTROL].verified,
			   true);
	}
	return 0;
}

/*
 * Put back every core of @cores up to @last that the failed request
 * changed. A core that cannot be put back keeps its original recorded,
 * marked failed, so that restore and rmmod retry it; @msg says so.
 */
static void pf_set_rollback(const struct cpumask *cores, unsigned int last,
			    const u64 *old, const u64 *new, char *msg,
			    size_t len)
{
	unsigned int cpu, bad = 0;
	size_t n = strnlen(msg, len);
	u64 got = 0;
	int sv;

	for_each_cpu(cpu, cores) {
		if (new[cpu] != old[cpu] &&
		    pf_write_verify(cpu, old[cpu], &got)) {
			pf_read(cpu, &got);	/* a fault leaves got unset */
			pr_err("prefetch: rolling back CPU %u to 0x%llx failed: it reads 0x%llx; kept for restore and rmmod\n",
			       cpu, old[cpu], got);
			sv = pf_core_saved(cpu);
			pf_core_record(cpu, true,
				       sv >= 0 ? pf_cpus[sv].orig : old[cpu],
				       true);
			if (!bad++ && n < len)
				snprintf(msg + n, len - n,
					 "; rolling CPU %u back to 0x%llx failed too: kept for restore and rmmod",
					 cpu, old[cpu]);
		}
		if (cpu == last)
			break;
	}
	if (!bad && n < len)
		snprintf(msg + n, len - n, "; nothing was changed");
}

/* After a request succeeded: save originals, remember what was asked. */
static void pf_set_record(const struct cpumask *cores, int socket, u32 mask,
			  bool off, const u64 *old, const u64 *new)
{
	unsigned int cpu, c2, s;
	int sv;

	for_each_cpu(cpu, cores) {
		sv = pf_core_saved(cpu);
		/* the first change to a core saves what it found */
		if (sv < 0 && new[cpu] != old[cpu])
			pf_core_record(cpu, true, old[cpu], false);
		for_each_cpu_and(c2, pf_core(cpu), cpu_online_mask) {
			struct pf_cpu *p = &pf_cpus[c2];
			struct pf_req r = { p->req_mask, p->req_off };

			req_merge(&r, mask, off);
			p->req_mask = r.mask;
			p->req_off = r.off;
			p->known = true;
		}
	}
	/* CPUs of the socket(s) that are offline now get it when they return */
	for (s = 0; socket != MEMDIAG_PF_CPU_LIST && s < MEMDIAG_MAX_SOCKETS; s++) {
		if (socket != MEMDIAG_PF_ALL_SOCKETS && s != socket)
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
}

/**
 * memdiag_prefetch_set() - switch prefetchers of some CPUs on or off
 * @scope: the CPUs asked for (online ones; widened to whole cores)
 * @socket: the socket @scope is, so that CPUs coming online there get the
 *	setting too; MEMDIAG_PF_ALL_SOCKETS or MEMDIAG_PF_CPU_LIST
 * @mask: which prefetchers, bit i for prefetcher i of the table row
 * @off: switch them off (true) or on
 * @touched: set to the CPUs whose register was written or already right
 * @msg: why it failed
 * @len: size of @msg
 *
 * Return: 0; -EAGAIN if a write did not stick, -EIO if one faulted (then
 * every core changed is put back, or recorded if that fails too);
 * -ENOMEM.
 */
int memdiag_prefetch_set(const struct cpumask *scope, int socket, u32 mask,
			 bool off, struct cpumask *touched, char *msg,
			 size_t len)
{
	cpumask_var_t cores;
	unsigned int last = 0;
	u64 *old, *new;
	int err = 0;

	if (!memdiag_zalloc_cpumask(&cores))
		return -ENOMEM;
	old = memdiag_kcalloc(nr_cpu_ids, sizeof(*old));
	new = memdiag_kcalloc(nr_cpu_ids, sizeof(*new));
	if (!old || !new) {
		err = -ENOMEM;
		goto out;
	}
	cpus_read_lock();
	mutex_lock(&pf_lock);
	pf_expand(scope, cores, touched);
	err = pf_set_apply(cores, mask, off, old, new, &last, msg, len);
	if (err) {
		pf_set_rollback(cores, last, old, new, msg, len);
	} else {
		pf_set_record(cores, socket, mask, off, old, new);
		pf_log(off ? "disabled" : "enabled", old, new);
	}
	mutex_unlock(&pf_lock);
	cpus_read_unlock();
out:
	kfree(new);
	kfree(old);
	free_cpumask_var(cores);
	return err;
}

/*
 * Put back the original of the core whose first online CPU is @cpu, and
 * forget what was asked for it. On success the record goes; on failure
 * it stays, marked failed, and the error is returned.
 */
static int pf_restore_core(unsigned int cpu, u64 *old, u64 *new)
{
	int sv = pf_core_saved(cpu), err;
	unsigned int c2;
	u64 cur, orig, got = 0;

	/* offline siblings included, or they would bring the setting back */
	for_each_present_cpu(c2)
		if (c2 == cpu || pf_same_core(c2, cpu))
			pf_forget(c2, true);	/* asked: nothing */
	if (sv < 0)
		return 0;
	orig = pf_cpus[sv].orig;
	err = pf_read(cpu, &cur);
	if (!err && cur != orig) {
		err = pf_write_verify(cpu, orig, &got);
		if (!err && old && new) {
			old[cpu] = cur;
			new[cpu] = orig;
		}
	}
	if (err) {
		pf_read(cpu, &got);	/* a fault leaves got unset */
		pr_err("prefetch: restoring CPU %u to 0x%llx failed (%d, reads 0x%llx); kept for the next restore and rmmod\n",
		       cpu, orig, err, got);
		pf_core_record(cpu, true, orig, true);
		return err;
	}
	pf_core_record(cpu, false, 0, false);
	return 0;
}

/**
 * pf_restore_locked() - put back what memdiag found on online cores
 * @scope: the CPUs to restore (widened to whole cores); all when NULL
 * @old: if not NULL, old[cpu] and @new[cpu] get each change, for pf_log()
 * @new: see @old
 * @msg: if not NULL, why the first core failed
 * @len: size of @msg
 *
 * Every core is tried.
 *
 * Return: 0, or the first error.
 */
int pf_restore_locked(const struct cpumask *scope, u64 *old, u64 *new,
		      char *msg, size_t len)
{
	const struct cpumask *core;
	unsigned int cpu;
	int err = 0, e;

	memdiag_lockdep_assert_cpus_held();
	lockdep_assert_held(&pf_lock);
	for_each_online_cpu(cpu) {
		core = pf_core(cpu);
		if (cpu != cpumask_first_and(core, cpu_online_mask) ||
		    (scope && !cpumask_intersects(core, scope)))
			continue;
		e = pf_restore_core(cpu, old, new);
		if (e && !err && msg)
			snprintf(msg, len,
				 "CPU %u could not be restored to 0x%llx (error %d): memdiag keeps the original and retries on the next restore and at rmmod; 'prefetch status' shows it",
				 cpu, pf_cpus[cpu].orig, e);
		err = err ?: e;
	}
	return err;
}

/**
 * memdiag_prefetch_restore() - put back what memdiag found
 * @scope: the CPUs to restore (widened to whole cores); all when NULL
 * @socket: as for memdiag_prefetch_set(); the socket's remembered setting
 *	is forgotten too
 * @touched: if not NULL, set to the CPUs looked at
 * @msg: if not NULL, why it failed
 * @len: size of @msg
 *
 * A core whose last CPU went offline got its value back then; one whose
 * write failed there is retried when it comes back online.
 *
 * Return: 0, or the first error (every core is still tried).
 */
int memdiag_prefetch_restore(const struct cpumask *scope, int socket,
			     struct cpumask *touched, char *msg, size_t len)
{
	unsigned int cpu, s;
	u64 *old, *new;
	int err;

	/* without memory only the log line is lost */
	old = memdiag_kcalloc(nr_cpu_ids, sizeof(*old));
	new = memdiag_kcalloc(nr_cpu_ids, sizeof(*new));
	cpus_read_lock();
	mutex_lock(&pf_lock);
	if (touched) {
		cpumask_clear(touched);
		memdiag_prefetch_widen(scope ?: cpu_online_mask, touched);
	}
	err = pf_restore_locked(scope, old && new ? old : NULL, new, msg, len);
	for (s = 0; socket != MEMDIAG_PF_CPU_LIST && s < MEMDIAG_MAX_SOCKETS; s++) {
		if (socket != MEMDIAG_PF_ALL_SOCKETS && s != socket)
			continue;
		memset(&pf_sock[s], 0, sizeof(pf_sock[s]));
		for_each_present_cpu(cpu)
			if (!cpu_online(cpu) && pf_socket(cpu) == s)
				pf_forget(cpu, false);
	}
	pf_log("restored", old, new);
	mutex_unlock(&pf_lock);
	cpus_read_unlock();
	kfree(new);
	kfree(old);
	return err;
}
