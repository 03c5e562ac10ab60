// SPDX-License-Identifier: GPL-2.0
/*
 * core.c - the core PMU counters behind the two latency metrics and the
 * offcore DRAM reads, programmed through their MSRs on every online CPU.
 * Which MSRs those are is the vendor's struct memdiag_core_pmu: Intel's
 * architectural perfmon with fixed counters, or AMD's PerfCtl/PerfCtr
 * pairs, where instructions and cycles take general counters too.
 *
 * The core PMU is shared with perf and the NMI watchdog. Before writing
 * anything memdiag checks, on the hardware, perf's counter reservation
 * (reserve_evntsel_nmi) and, on every CPU, that none of the counters it
 * needs is enabled; if any is, the session is refused with EBUSY and
 * nothing is written. What it writes (the event selects, the fixed counter
 * control, the global control, the offcore response MSR) is saved per CPU
 * first and written back when the last session ends, when a CPU goes
 * offline, and on unload. Counter values are never written: counts are
 * deltas from a baseline, so there is nothing there to restore. A CPU
 * whose restore fails keeps its saved originals (restore_failed): the
 * restore is retried at the next session start, when the CPU comes back
 * online and at unload, get-info counts such CPUs, and a session may
 * take over the values memdiag itself left behind.
 *
 * Counts of a CPU that goes offline are folded into its socket's total so
 * that a socket's sums never go backwards.
 *
 * The core mode (msr or perf, struct memdiag_state's core_mode and its
 * reason) is this file's alone: memdiag_core_init() chooses it at load,
 * memdiag_core_start() falls back from msr to perf when perf took the PMU
 * since, and memdiag_core_stop() chooses again; both run under
 * memdiag_lock, which get-info holds while it reads the two.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/cpu.h>
#include <linux/math64.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>
#include <asm/nmi.h>

#include "core_int.h"

/* No core counter advances 10^12 times a second (pending misses * cycles). */
#define CORE_MAX_PER_SEC	1000000000000ULL

static bool reserved, running;
static struct core_cpu *cpus;
static u64 offline_total[MEMDIAG_MAX_SOCKETS][MEMDIAG_CORE_NR];
static u32 core_epoch[MEMDIAG_MAX_SOCKETS];

static const struct memdiag_platform_ops *plat(void)
{
	return memdiag.plat;
}

static int cpu_restore(unsigned int cpu);
static void core_choose_mode(struct memdiag_state *st);

/**
 * memdiag_core_init() - decide whether the core counters can be used, and
 * in which core mode
 * @st: the module state
 * @reason: why not, when the return value is negative
 * @len: size of @reason
 *
 * On failure the core mode is none and its reason is @reason's text.
 */
int memdiag_core_init(struct memdiag_state *st, char *reason, size_t len)
{
	int err = -ENODEV;

	if (!st->uarch)
		snprintf(reason, len, "unsupported processor");
	else
		err = core_pmu_init(st, reason, len);
	if (!err && st->core_pref != MEMDIAG_CORE_MODE_PERF) {
		cpus = kcalloc(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL);
		if (!cpus) {
			snprintf(reason, len,
				 "out of memory for the per-CPU core counter state");
			err = -ENOMEM;
		}
	}
	if (err) {
		st->core_mode = MEMDIAG_CORE_MODE_NONE;
		snprintf(st->core_mode_reason, sizeof(st->core_mode_reason),
			 "%s", reason);
		return err;
	}
	core_choose_mode(st);
	return 0;
}

/*
 * Unload: a last try at the restores that failed; what still fails is
 * named in the kernel log with the values to put back by hand.
 */
void memdiag_core_exit(void)
{
	unsigned int cpu;

	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	for_each_possible_cpu(cpu) {
		struct core_cpu *c = cpus ? &cpus[cpu] : NULL;

		if (!c || !c->restore_failed ||
		    (cpu_online(cpu) && !cpu_restore(cpu)))
			continue;
		pr_err("memdiag: unloading with the core PMU controls of CPU %u not put back (GLOBAL_CTRL was 0x%llx, FIXED_CTR_CTRL 0x%llx): a reboot clears them\n",
		       cpu, c->saved_global_ctrl, c->saved_fixed_ctrl);
	}
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	kfree(cpus);
	cpus = NULL;
	ccfg.events = NULL;
	ccfg.fix = NULL;
}

/*
 * Does @msr of @c hold what memdiag wrote and failed to put back? That is
 * no other agent's, so it must not lock the user out: a new session takes
 * it over and the saved originals are put back when that one ends.
 */
static bool still_ours(struct core_cpu *c, u32 msr, u64 val)
{
	struct memdiag_msr_op ours[MAX_OPS];
	unsigned int n, i;

	if (!c->restore_failed)
		return false;
	n = core_write_ops(c, ours);
	for (i = 0; i < n; i++)
		if (ours[i].msr == msr)
			return ours[i].val == val;
	return false;
}

/* Is any counter memdiag needs already enabled on @cpu? */
static int cpu_busy(unsigned int cpu, char *msg, size_t len)
{
	struct core_cpu *c = &cpus[cpu];
	struct memdiag_msr_op op[MAX_GP + 1];
	unsigned int i, n = 0;
	int err;

	for (i = 0; i < ccfg.n_gp; i++)
		op[n++] = (struct memdiag_msr_op){ evtsel_msr(i) };
	if (ccfg.pmu->fixed_ctrl)
		op[n++] = (struct memdiag_msr_op){ ccfg.pmu->fixed_ctrl };
	err = plat()->msr_batch(cpu, op, n);
	if (err)
		return err;
	for (i = 0; i < ccfg.n_gp; i++) {
		if (op[i].err) {
			snprintf(msg, len, "reading PERFEVTSEL%u (MSR 0x%x) on CPU %u faulted",
				 i, evtsel_msr(i), cpu);
			return -EIO;
		}
		if ((ccfg.gp_used & BIT(i)) &&
		    (op[i].val & ARCH_PERFMON_EVENTSEL_ENABLE) &&
		    !still_ours(c, evtsel_msr(i), op[i].val)) {
			snprintf(msg, len,
				 "core counter %u on CPU %u is in use (PERFEVTSEL%u, MSR 0x%x = 0x%llx): perf, the NMI watchdog or another tool (likwid, PCM) holds the PMU; stop it, or load memdiag with core=perf",
				 i, cpu, i, evtsel_msr(i), op[i].val);
			return -EBUSY;
		}
	}
	if (ccfg.pmu->fixed_ctrl &&
	    (op[ccfg.n_gp].err ||
	     ((op[ccfg.n_gp].val & 0xfff) &&
	      !still_ours(c, ccfg.pmu->fixed_ctrl, op[ccfg.n_gp].val)))) {
		snprintf(msg, len,
			 "fixed counters on CPU %u are in use (FIXED_CTR_CTRL = 0x%llx): perf, the NMI watchdog or another tool holds the PMU; stop it, or load memdiag with core=perf",
			 cpu, op[ccfg.n_gp].val);
		return -EBUSY;
	}
	return 0;
}

/*
 * Put back what memdiag found, register by register, but only where the
 * register still holds what memdiag wrote: one another agent has since
 * taken over stays as that agent left it. The global control goes first so
 * that nothing counts half-restored. A failure keeps the originals saved
 * for the next try (see the top of this file).
 */
static int cpu_restore(unsigned int cpu)
{
	struct core_cpu *c = &cpus[cpu];
	struct memdiag_msr_op ours[MAX_OPS];
	struct memdiag_msr_back back[MAX_OPS];
	unsigned int n = core_write_ops(c, ours), i;
	int err;

	for (i = 0; i < n; i++) {
		const struct memdiag_msr_op *o = &ours[n - 1 - i];

		back[i] = (struct memdiag_msr_back){ o->msr, o->val,
						     core_saved_value(c, o->msr) };
	}
	err = memdiag_msr_put_back(cpu, back, n);
	if (err && !c->restore_failed)
		pr_err("memdiag: putting back the core PMU controls of CPU %u failed (%d): kept, retried at the next session start and at unload\n",
		       cpu, err);
	else if (!err && c->restore_failed)
		pr_info("memdiag: the core PMU controls of CPU %u are put back (retried)\n",
			cpu);
	c->restore_failed = err != 0;
	c->programmed = false;
	return err;
}

/* Retry the failed restores of the online CPUs no session counts now. */
static void retry_restores(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpus[cpu].restore_failed && !cpus[cpu].programmed)
			cpu_restore(cpu);
}

/* Write memdiag's controls to @cpu, verify them and take its baseline. */
static int cpu_apply(unsigned int cpu, char *msg, size_t len)
{
	struct core_cpu *c = &cpus[cpu];
	struct memdiag_msr_op op[MAX_OPS];
	unsigned int n, i, r;
	int e, err;

	r = core_write_ops(c, op);
	n = r + core_read_ops(&op[r]);
	c->programmed = true;	/* from here on, restore on failure */
	err = plat()->msr_batch(cpu, op, n);
	for (i = 0; !err && i < n; i++)
		if (op[i].err)
			err = -EIO;
	/* read back: the event selects, then the controls */
	for (e = 0, i = r; !err && e < MEMDIAG_CORE_NR; e++)
		if (ccfg.pmc_of[e] >= 0 && op[i++].val != core_evtsel_of(e))
			err = -EIO;
	if (!err && !core_ctrls_ok(op, &i))
		err = -EIO;
	if (err) {
		snprintf(msg, len,
			 "core PMU writes on CPU %u did not stick (a hypervisor that ignores them?)",
			 cpu);
		cpu_restore(cpu);
		return err;
	}
	for (e = 0; e < MEMDIAG_CORE_NR; e++)
		if (core_ev_used(e))
			memdiag_ext64_start(&c->ext[e], op[i++].val, ccfg.ctr_bits);
	c->lost = false;
	return 0;
}

/* Save what @cpu's controls hold, then program it. */
static int cpu_program(unsigned int cpu, char *msg, size_t len)
{
	struct core_cpu *c = &cpus[cpu];
	/* the controls a PMU lacks read as 0 from a harmless MSR (evtsel 0) */
	u32 ctl[3] = { ccfg.pmu->global_ctrl, ccfg.pmu->fixed_ctrl,
		       core_ev_used(MEMDIAG_EV_OFFCORE) ? ccfg.pmu->offcore_rsp : 0 };
	struct memdiag_msr_op op[MAX_GP + 3];
	unsigned int n = 0, i;
	int err;

	/* left from a failed restore: the originals are saved already */
	if (c->restore_failed)
		return cpu_apply(cpu, msg, len);
	for (i = 0; i < 3; i++)
		op[n++] = (struct memdiag_msr_op){ ctl[i] ?: ccfg.pmu->evtsel };
	for (i = 0; i < ccfg.n_gp; i++)
		op[n++] = (struct memdiag_msr_op){ evtsel_msr(i) };
	err = plat()->msr_batch(cpu, op, n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		if (op[i].err) {
			snprintf(msg, len, "reading the PMU controls of CPU %u faulted (MSR 0x%x)",
				 cpu, op[i].msr);
			return -EIO;
		}
	}
	c->saved_global_ctrl = ctl[0] ? op[0].val : 0;
	c->saved_fixed_ctrl = ctl[1] ? op[1].val : 0;
	c->saved_rsp = ctl[2] ? op[2].val : 0;
	for (i = 0; i < ccfg.n_gp; i++)
		c->saved_evtsel[i] = op[3 + i].val;
	return cpu_apply(cpu, msg, len);
}

static void reserve_release(void)
{
	unsigned int i;

	if (!reserved)
		return;
	for (i = 0; i < ccfg.n_gp; i++)
		if (ccfg.gp_used & BIT(i))
			release_evntsel_nmi(evtsel_msr(i));
	reserved = false;
}

/* perf's reservation of the event selects, where perf sees the PMU */
static int reserve(char *msg, size_t len)
{
	unsigned int i, j;

	if (!plat()->perf_pmu)
		return 0;
	for (i = 0; i < ccfg.n_gp; i++) {
		if (!(ccfg.gp_used & BIT(i)) || reserve_evntsel_nmi(evtsel_msr(i)))
			continue;
		for (j = 0; j < i; j++)
			if (ccfg.gp_used & BIT(j))
				release_evntsel_nmi(evtsel_msr(j));
		snprintf(msg, len,
			 "perf holds the core PMU (the NMI watchdog or a perf event is active): echo 0 > /proc/sys/kernel/nmi_watchdog and stop perf users, or load memdiag with core=perf");
		return -EBUSY;
	}
	reserved = true;
	return 0;
}

/* Program every online CPU, or none. */
static int msr_start(char *msg, size_t len)
{
	unsigned int cpu;
	int err;

	retry_restores();
	err = reserve(msg, len);
	if (err)
		return err;
	for_each_online_cpu(cpu) {
		err = cpu_busy(cpu, msg, len);
		if (err)
			goto release;
	}
	for_each_online_cpu(cpu) {
		err = cpu_program(cpu, msg, len);
		if (err)
			goto restore;
	}
	running = true;
	return 0;

restore:
	for_each_online_cpu(cpu)
		if (cpus[cpu].programmed)
			cpu_restore(cpu);
release:
	reserve_release();
	return err;
}

/* Could memdiag take the PMU from perf right now? (Released at once.) */
static bool pmu_free(void)
{
	char why[MEMDIAG_REASON_LEN];

	if (reserve(why, sizeof(why)))
		return false;
	reserve_release();
	return true;
}

/*
 * msr or perf, and why, for get-info; @st's core counters are usable.
 * core=auto takes the MSRs when perf's reservation of the event selects
 * can be had right now (it is released again at once), perf otherwise.
 */
static void core_choose_mode(struct memdiag_state *st)
{
	char *r = st->core_mode_reason;
	size_t len = sizeof(st->core_mode_reason);

	if (st->core_pref == MEMDIAG_CORE_MODE_PERF) {
		st->core_mode = MEMDIAG_CORE_MODE_PERF;
		snprintf(r, len, "%s",
			 "core=perf: counting through in-kernel perf events, alongside the NMI watchdog and other perf users");
	} else if (st->core_pref == MEMDIAG_CORE_MODE_MSR) {
		st->core_mode = MEMDIAG_CORE_MODE_MSR;
		snprintf(r, len, "%s",
			 "core=msr: memdiag programs the PMU MSRs at session start and refuses while perf, the NMI watchdog or another tool holds them");
	} else if (pmu_free()) {
		st->core_mode = MEMDIAG_CORE_MODE_MSR;
		snprintf(r, len, "%s",
			 "core=auto: the PMU is free, so memdiag programs its MSRs at session start");
	} else {
		st->core_mode = MEMDIAG_CORE_MODE_PERF;
		snprintf(r, len, "%s",
			 "core=auto: perf holds the PMU (the NMI watchdog or a perf user), so counting through in-kernel perf events");
	}
}

/**
 * memdiag_core_start() - start counting in the chosen core mode
 * @msg: why not, when the return value is negative
 * @len: size of @msg
 */
int memdiag_core_start(char *msg, size_t len)
{
	struct memdiag_state *st = &memdiag;
	int err;

	memdiag_lockdep_assert_cpus_held();
	lockdep_assert_held(&memdiag_lock);
	if (st->core_mode == MEMDIAG_CORE_MODE_PERF)
		return memdiag_core_perf_start(ccfg.events, ccfg.fix, msg, len);
	err = msr_start(msg, len);
	/* core=auto: if perf took the PMU since load, count through perf */
	if (err == -EBUSY && st->core_pref == MEMDIAG_CORE_MODE_NONE &&
	    plat()->perf_pmu &&
	    !memdiag_core_perf_start(ccfg.events, ccfg.fix, msg, len)) {
		st->core_mode = MEMDIAG_CORE_MODE_PERF;
		snprintf(st->core_mode_reason, sizeof(st->core_mode_reason),
			 "core=auto: the PMU was busy at session start (%s), so counting through perf events",
			 "perf, the NMI watchdog or another tool held it");
		return 0;
	}
	return err;
}

/* Stop counting and put back every CPU's controls, in either core mode. */
void memdiag_core_stop(void)
{
	unsigned int cpu;

	memdiag_lockdep_assert_cpus_held();
	lockdep_assert_held(&memdiag_lock);
	if (memdiag.core_mode == MEMDIAG_CORE_MODE_PERF) {
		memdiag_core_perf_stop();
		core_choose_mode(&memdiag);
		return;
	}
	for_each_online_cpu(cpu)
		if (cpus[cpu].programmed)
			cpu_restore(cpu);
	reserve_release();
	running = false;
}

/* Read one CPU and add its counts; false if its interval is invalid. */
static bool cpu_sample(unsigned int cpu, u64 max)
{
	struct core_cpu *c = &cpus[cpu];
	struct memdiag_msr_op op[MAX_OPS];
	unsigned int n = core_read_ops(op), i = 0;
	bool ok = true;
	int e;

	if (plat()->msr_batch(cpu, op, n))
		return false;
	for (e = 0; e < MEMDIAG_CORE_NR; e++)
		if (ccfg.pmc_of[e] >= 0 && op[i++].val != core_evtsel_of(e))
			ok = false;
	if (!core_ctrls_ok(op, &i))
		ok = false;
	if (!ok) {
		char msg[MEMDIAG_REASON_LEN];

		/*
		 * Someone rewrote the controls. Take them back only where
		 * the event selects are still ours or free again, never over
		 * a foreign one; the saved originals stay as first found.
		 */
		for (e = 0, i = 0; e < MEMDIAG_CORE_NR; e++)
			if (ccfg.pmc_of[e] >= 0 && op[i++].val != core_evtsel_of(e) &&
			    (op[i - 1].val & ARCH_PERFMON_EVENTSEL_ENABLE))
				c->lost = true;
		/* the merge events' controls come next (core_ctrl_reads()) */
		for (e = 0; e < ccfg.n_gp; e++)
			if ((ccfg.merge_used & BIT(e)) &&
			    op[i++].val != ccfg.pmu->merge_evtsel &&
			    (op[i - 1].val & ARCH_PERFMON_EVENTSEL_ENABLE))
				c->lost = true;
		if (c->lost || cpu_apply(cpu, msg, sizeof(msg))) {
			pr_warn_ratelimited("memdiag: core counters of CPU %u were taken over by another agent; no longer counting it\n",
					    cpu);
			c->lost = true;
		}
		return false;
	}
	for (e = 0; e < MEMDIAG_CORE_NR; e++)
		if (core_ev_used(e) &&
		    !memdiag_ext64_update(&c->ext[e], op[i++].val, ccfg.ctr_bits, max))
			ok = false;
	return ok;
}

/**
 * memdiag_core_sample() - add every CPU's counts into its socket's snapshot
 * @snap: one per socket, indexed by socket
 * @n: number of entries in @snap
 * @dt_ns: time since the last sample, bounding a plausible step
 *
 * One cross-call per CPU.
 */
void memdiag_core_sample(struct memdiag_snap *snap, unsigned int n, u64 dt_ns)
{
	u64 max = div_u64(CORE_MAX_PER_SEC, 1000000) * div_u64(dt_ns, 1000) +
		  (1ULL << 32);
	unsigned int cpu, s;
	int e;

	memdiag_lockdep_assert_cpus_held();
	lockdep_assert_held(&memdiag_lock);
	if (!ccfg.events)
		return;
	if (memdiag.core_mode == MEMDIAG_CORE_MODE_PERF) {
		memdiag_core_perf_sample(snap, n);
		return;
	}
	for (s = 0; s < n && s < MEMDIAG_MAX_SOCKETS; s++) {
		snap[s].has_core = true;
		snap[s].core_epoch = core_epoch[s];
		for (e = 0; e < MEMDIAG_CORE_NR; e++) {
			snap[s].has[e] = core_ev_used(e);
			snap[s].ctr[e] = offline_total[s][e];
		}
	}
	for_each_online_cpu(cpu) {
		struct core_cpu *c = &cpus[cpu];

		s = memdiag_socket_of(cpu);
		if (s >= n || s >= MEMDIAG_MAX_SOCKETS)
			continue;
		if (running && c->programmed && !c->lost &&
		    !cpu_sample(cpu, max))
			snap[s].core_epoch = ++core_epoch[s];
		if (c->programmed && !c->lost)
			snap[s].nr_cpus++;
		for (e = 0; e < MEMDIAG_CORE_NR; e++)
			snap[s].ctr[e] += c->ext[e].total;
	}
}

/* Hotplug: a CPU coming online joins a running session. */
int memdiag_core_cpu_online(unsigned int cpu)
{
	char msg[MEMDIAG_REASON_LEN];

	if (!cpus)
		return 0;
	mutex_lock(&memdiag_lock);
	memset(cpus[cpu].ext, 0, sizeof(cpus[cpu].ext));
	if (running && (cpu_busy(cpu, msg, sizeof(msg)) ||
			cpu_program(cpu, msg, sizeof(msg))))
		pr_warn("memdiag: not counting CPU %u: %s\n", cpu, msg);
	else if (!running && cpus[cpu].restore_failed)
		cpu_restore(cpu);
	mutex_unlock(&memdiag_lock);
	return 0;
}

/* Hotplug: a CPU going offline hands in its counts and gets its registers back. */
int memdiag_core_cpu_offline(unsigned int cpu)
{
	struct core_cpu *c;
	unsigned int s = memdiag_socket_of(cpu);
	int e;

	if (!cpus)
		return 0;
	c = &cpus[cpu];
	mutex_lock(&memdiag_lock);
	if (running && c->programmed) {
		if (!c->lost && !cpu_sample(cpu, U64_MAX) &&
		    s < MEMDIAG_MAX_SOCKETS)
			core_epoch[s]++;
		cpu_restore(cpu);
	}
	if (s < MEMDIAG_MAX_SOCKETS)
		for (e = 0; e < MEMDIAG_CORE_NR; e++)
			offline_total[s][e] += c->ext[e].total;
	memset(c->ext, 0, sizeof(c->ext));
	c->programmed = false;
	mutex_unlock(&memdiag_lock);
	return 0;
}

/**
 * memdiag_core_fill_ctr() - the counter that counts DRAM fills, for the
 * core estimate (group_acct.c), which reads it on each CPU
 * @msr: its MSR, the same general counter on every CPU
 * @bits: its width
 * @msg: why there is none
 * @len: size of @msg
 *
 * Return: 0, or -EOPNOTSUPP with @msg.
 */
int memdiag_core_fill_ctr(u32 *msr, unsigned int *bits, char *msg,
			  size_t len)
{
	lockdep_assert_held(&memdiag_lock);
	if (!running || memdiag.core_mode != MEMDIAG_CORE_MODE_MSR) {
		snprintf(msg, len,
			 "the core counters are not programmed through their MSRs here (%s), and only those can be read at a context switch",
			 memdiag.core_mode_reason[0] ? memdiag.core_mode_reason :
			 "core mode perf");
		return -EOPNOTSUPP;
	}
	if (ccfg.pmc_of[MEMDIAG_EV_OFFCORE] < 0) {
		snprintf(msg, len, "no DRAM-fill event: %s",
			 memdiag.uarch->offcore_reason ?: "none counted");
		return -EOPNOTSUPP;
	}
	*msr = core_ev_ctr(MEMDIAG_EV_OFFCORE);
	*bits = ccfg.ctr_bits;
	return 0;
}

/* CPUs whose core PMU controls are not put back yet. */
unsigned int memdiag_core_restore_failed(void)
{
	unsigned int cpu, n = 0;

	lockdep_assert_held(&memdiag_lock);
	if (cpus)
		for_each_possible_cpu(cpu)
			n += cpus[cpu].restore_failed;
	return n;
}
