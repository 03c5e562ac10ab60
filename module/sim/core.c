// SPDX-License-Identifier: GPL-2.0
/*
 * core.c - the core PMU MSRs of every CPU: event selects, general and fixed
 * counters, global control and status, offcore response, prefetch control.
 *
 * Counters advance lazily: before any access to a CPU's PMU state, the
 * counters that count are brought up to date (core_count.c). An access to
 * an MSR the model does not have, or a write
 * setting a reserved bit, fails with -EIO and changes nothing, as a #GP
 * would on the hardware.
 *
 * MSR_MISC_FEATURE_CONTROL is per core, as on the hardware: hyperthread
 * siblings (same package and core id) share one copy, so a write through
 * one sibling is what the other reads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "sim.h"
#include "msr_rows.h"

static const struct mdsim_msr_row *msr_rows(void)
{
	return mdsim.ua->amd ? mdsim_amd_rows : mdsim_intel_rows;
}

#define EVTSEL_BITS		GENMASK_ULL(33, 0)	/* 63:34 reserved */
#define AMD_EVTSEL_BITS		GENMASK_ULL(35, 0)	/* + event bits 11:8 */
#define FIXED_CTRL_BITS		GENMASK_ULL(11, 0)	/* 4 bits per counter */
#define PERF_CAP_FW_WRITE	BIT_ULL(13)		/* A_PMCi exist */

static const struct mdsim_msr_row *msr_find(u32 msr, unsigned int *idx)
{
	const struct mdsim_msr_row *r;
	unsigned int n, step, off;

	for (r = msr_rows(); r->msr; r++) {
		n = r->n ? r->n : mdsim.ua->n_gp;
		if (r->kind == MK_UMC)
			n = 2 * mdsim.ua->umc_per * mdsim.ua->n_chans;
		if (r->kind == MK_DF && !mdsim.ua->df)
			n = 0;
		/* AMD before PerfMonV2: no global control or status */
		if (mdsim.ua->legacy_core &&
		    (r->kind == MK_GLOBAL_CTRL || r->kind == MK_STATUS ||
		     r->kind == MK_OVF_CTRL))
			n = 0;
		step = r->stride ? r->stride : 1;
		off = msr - r->msr;
		if (msr >= r->msr && off % step == 0 && off / step < n) {
			*idx = off / step;
			return r;
		}
	}
	return NULL;
}

static unsigned int msr_slot(const struct mdsim_msr_row *r, unsigned int idx)
{
	return (r - msr_rows()) * MDSIM_MAX_GP + idx;
}

static u32 slot_msr(unsigned int slot)
{
	const struct mdsim_msr_row *r = &msr_rows()[slot / MDSIM_MAX_GP];

	return r->msr + slot % MDSIM_MAX_GP * (r->stride ? r->stride : 1);
}

/* Overflow bits of GLOBAL_STATUS, and what OVF_CTRL may clear. */
static u64 status_bits(void)
{
	/* AMD has no fixed counters */
	return GENMASK_ULL(mdsim.ua->n_gp - 1, 0) |
	       (mdsim.ua->amd ? 0 :
		GENMASK_ULL(MDSIM_FIXED_STATUS + MDSIM_FIXED - 1, MDSIM_FIXED_STATUS));
}

/* The register behind an MSR; NULL for OVF_CTRL, which holds nothing. */
static u64 *msr_reg(struct mdsim_cpu *c, const struct mdsim_msr_row *r,
		    unsigned int i)
{
	switch (r->kind) {
	case MK_PMC:
	case MK_APMC:
		return &c->pmc[i];
	case MK_EVTSEL:
		return &c->evtsel[i];
	case MK_MISC:
		return &mdsim.cpus[c->core_slot].misc;
	case MK_RSP:
		return &c->rsp[i];
	case MK_FIXED:
		return &c->fixed[i];
	case MK_PERF_CAP:
		return &c->perf_cap;
	case MK_FIXED_CTRL:
		return &c->fixed_ctrl;
	case MK_STATUS:
		return &c->status;
	case MK_GLOBAL_CTRL:
		return &c->global_ctrl;
	default:
		return NULL;
	}
}

/*
 * Bits a register can hold. @poke: what debugfs may set, which includes
 * the read-only registers and the full width of the legacy counters.
 */
static u64 msr_bits(const struct mdsim_msr_row *r, bool poke)
{
	const struct mdsim_uarch *ua = mdsim.ua;

	switch (r->kind) {
	case MK_PMC:
		return poke ? MDSIM_CTR_MASK : U64_MAX;	/* value truncated */
	case MK_APMC:
	case MK_FIXED:
		return MDSIM_CTR_MASK;
	case MK_EVTSEL:
		return ua->amd ? AMD_EVTSEL_BITS : EVTSEL_BITS;
	case MK_MISC:
		return ua->misc_bits;
	case MK_RSP:
		return ua->rsp_mask;
	case MK_FIXED_CTRL:
		return FIXED_CTRL_BITS;
	case MK_GLOBAL_CTRL:
		return status_bits() | ua->global_ctrl_extra;
	case MK_STATUS:
	case MK_OVF_CTRL:
		return status_bits();
	case MK_PERF_CAP:
		return poke ? U64_MAX : 0;
	default:
		return 0;
	}
}

/* regs lists a per-core register under every CPU of the core. */
static void mark_written(struct mdsim_cpu *c, const struct mdsim_msr_row *r,
			 unsigned int i)
{
	unsigned int cpu;

	if (r->kind != MK_MISC) {
		set_bit(msr_slot(r, i), c->written);
		return;
	}
	for_each_possible_cpu(cpu)
		if (mdsim.cpus[cpu].core_slot == c->core_slot)
			set_bit(msr_slot(r, i), mdsim.cpus[cpu].written);
}

static int msr_read(struct mdsim_cpu *c, u32 msr, u64 *val)
{
	const struct mdsim_msr_row *r;
	unsigned int i;
	u64 *p;

	r = msr_find(msr, &i);
	if (!r)
		return -EIO;
	if (r->kind == MK_UMC)
		return mdsim_umc_access(c - mdsim.cpus, i, false, val);
	if (r->kind == MK_L3)
		return mdsim_l3_access(c - mdsim.cpus, i, false, val);
	if (r->kind == MK_DF)
		return mdsim_df_access(c - mdsim.cpus, i, false, val);
	p = msr_reg(c, r, i);
	*val = p ? *p : 0;
	return 0;
}

static int msr_write(struct mdsim_cpu *c, u32 msr, u64 val)
{
	const struct mdsim_msr_row *r;
	unsigned int i;

	r = msr_find(msr, &i);
	if (!r || r->kind == MK_STATUS || r->kind == MK_PERF_CAP)
		return -EIO;
	if (r->kind == MK_UMC)
		return mdsim_umc_access(c - mdsim.cpus, i, true, &val);
	if (r->kind == MK_L3)
		return mdsim_l3_access(c - mdsim.cpus, i, true, &val);
	if (r->kind == MK_DF)
		return mdsim_df_access(c - mdsim.cpus, i, true, &val);
	/* IA32_PMCi takes the low 32 bits, sign-extended to the width */
	if (r->kind == MK_PMC)
		val = sign_extend64(val, 31) & MDSIM_CTR_MASK;
	if (val & ~msr_bits(r, false))
		return -EIO;
	if (r->kind == MK_OVF_CTRL)
		c->status &= ~val;
	else
		*msr_reg(c, r, i) = val;
	mark_written(c, r, i);
	return 0;
}

/* One access of a batch. */
static void msr_op(unsigned int cpu, struct memdiag_msr_op *op)
{
	struct mdsim_cpu *c = &mdsim.cpus[cpu];
	bool fail, drop = false;
	unsigned long flags;

	lockdep_assert_held(&mdsim.lock);
	/* fault_lock may sleep on PREEMPT_RT: decide before ctr_lock */
	if (op->write) {
		fail = mdsim_fault(MDSIM_FAULT_MSR_WRITE, op->msr);
		drop = !fail && mdsim_fault(MDSIM_FAULT_MSR_NOSTICK, op->msr);
	} else {
		fail = mdsim_fault(MDSIM_FAULT_MSR_READ, op->msr);
	}
	raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
	/* each access sees the counts up to its own moment */
	mdsim_core_advance(cpu, ktime_get_ns());
	if (fail)
		op->err = -EIO;
	else if (drop)
		op->err = 0;		/* dropped, as by a hypervisor */
	else if (op->write)
		op->err = msr_write(c, op->msr, op->val);
	else
		op->err = msr_read(c, op->msr, &op->val);
	raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
}

/*
 * A general counter of the CPU this runs on, from any context: the
 * scheduler's probe (group_acct.c) reads it with interrupts off.
 */
int mdsim_msr_read_local(u32 msr, u64 *val)
{
	unsigned int cpu = smp_processor_id(), i;
	const struct mdsim_msr_row *r = msr_find(msr, &i);
	struct mdsim_cpu *c = &mdsim.cpus[cpu];
	unsigned long flags;
	int err = -EIO;

	if (!r || (r->kind != MK_PMC && r->kind != MK_APMC))
		return -EIO;
	raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
	if (c->running) {
		mdsim_core_advance(cpu, ktime_get_ns());
		*val = c->pmc[i];
		err = 0;
	}
	raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
	return err;
}

int mdsim_msr_batch(unsigned int cpu, struct memdiag_msr_op *ops,
		    unsigned int n)
{
	struct mdsim_cpu *c;
	unsigned int i;

	if (cpu >= nr_cpu_ids)
		return -ENXIO;
	c = &mdsim.cpus[cpu];
	mutex_lock(&mdsim.lock);
	if (!c->running) {
		mutex_unlock(&mdsim.lock);
		return -ENXIO;
	}
	for (i = 0; i < n; i++) {
		if (ops[i].clock) {
			ops[i].val = ktime_get_ns();
			ops[i].err = 0;
			continue;
		}
		msr_op(cpu, &ops[i]);
	}
	mutex_unlock(&mdsim.lock);
	return 0;
}

/* debugfs "poke": set an MSR as it is, without a write's side effects. */
int mdsim_core_poke(unsigned int cpu, u32 msr, u64 val)
{
	const struct mdsim_msr_row *r;
	struct mdsim_cpu *c;
	unsigned long flags;
	unsigned int i;
	u64 bits;

	lockdep_assert_held(&mdsim.lock);
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		pr_err("poke: there is no CPU %u\n", cpu);
		return -EINVAL;
	}
	r = msr_find(msr, &i);
	if (!r || r->kind == MK_OVF_CTRL) {
		pr_err("poke: MSR 0x%x is not a register the sim holds\n", msr);
		return -EINVAL;
	}
	if (r->kind == MK_UMC)
		return mdsim_umc_access(cpu, i, true, &val) ? -EINVAL : 0;
	if (r->kind == MK_L3)
		return mdsim_l3_access(cpu, i, true, &val) ? -EINVAL : 0;
	if (r->kind == MK_DF)
		return mdsim_df_access(cpu, i, true, &val) ? -EINVAL : 0;
	bits = msr_bits(r, true);
	if (val & ~bits) {
		pr_err("poke: MSR 0x%x cannot hold 0x%llx: bits 0x%llx are reserved\n",
		       msr, val, val & ~bits);
		return -EINVAL;
	}
	c = &mdsim.cpus[cpu];
	raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
	mdsim_core_advance(cpu, ktime_get_ns());
	*msr_reg(c, r, i) = val;
	raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
	mark_written(c, r, i);
	return 0;
}

int mdsim_core_peek(unsigned int cpu, u32 msr, u64 *val)
{
	unsigned long flags;
	unsigned int i;
	int err;

	lockdep_assert_held(&mdsim.lock);
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		pr_err("peek: there is no CPU %u\n", cpu);
		return -EINVAL;
	}
	if (!msr_find(msr, &i)) {
		pr_err("peek: MSR 0x%x is not modelled\n", msr);
		return -EINVAL;
	}
	raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
	mdsim_core_advance(cpu, ktime_get_ns());
	err = msr_read(&mdsim.cpus[cpu], msr, val);
	raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
	return err;
}

/*
 * The first possible CPU of @cpu's socket (@ccx false) or CCX: the one
 * regs lists the socket's UMC or DF, or the CCX's L3 PMU registers under.
 */
static bool first_of(unsigned int cpu, bool ccx)
{
	unsigned int c;

	for_each_possible_cpu(c) {
		if (topology_logical_package_id(c) !=
		    topology_logical_package_id(cpu))
			continue;
		if (!ccx || mdsim.cpus[c].ccx == mdsim.cpus[cpu].ccx)
			return c == cpu;
	}
	return false;
}

/*
 * Every MSR written since load, by CPU then address: the rows are sorted
 * by address, and a shared row (a CCX's L3 PMU, a socket's UMCs or DF) is
 * listed under the first CPU that shares it.
 */
void mdsim_core_show(struct seq_file *m)
{
	u64 now = ktime_get_ns(), val;
	unsigned long flags;
	const struct mdsim_msr_row *r;
	unsigned int cpu, slot, row;

	lockdep_assert_held(&mdsim.lock);
	for_each_possible_cpu(cpu) {
		struct mdsim_cpu *c = &mdsim.cpus[cpu];

		raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
		mdsim_core_advance(cpu, now);
		raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
		for (r = msr_rows(), row = 0; r->msr; r++, row++) {
			if (r->kind == MK_L3) {
				if (first_of(cpu, true))
					mdsim_l3_show(m, cpu, r->msr);
				continue;
			}
			if (r->kind == MK_UMC) {
				if (first_of(cpu, false))
					mdsim_umc_show(m, cpu, r->msr);
				continue;
			}
			if (r->kind == MK_DF) {
				if (first_of(cpu, false))
					mdsim_df_show(m, cpu, r->msr);
				continue;
			}
			slot = row * MDSIM_MAX_GP;
			for_each_set_bit_from(slot, c->written,
					      (row + 1) * MDSIM_MAX_GP) {
				msr_read(c, slot_msr(slot), &val);
				seq_printf(m, "msr %u 0x%x 0x%llx\n", cpu,
					   slot_msr(slot), val);
			}
		}
	}
}

/*
 * The first CPU of @cpu's core. Package and core ids stay valid while a
 * CPU is offline, so the sharing does not change under hotplug.
 */
static unsigned int core_slot(unsigned int cpu)
{
	unsigned int c;

	if (!cpu_present(cpu))
		return cpu;
	for_each_present_cpu(c)
		if (topology_physical_package_id(c) ==
		    topology_physical_package_id(cpu) &&
		    topology_core_id(c) == topology_core_id(cpu))
			return c;
	return cpu;
}

int mdsim_core_init(void)
{
	unsigned int cpu, k;

	BUILD_BUG_ON(MDSIM_MSR_ROWS * MDSIM_MAX_GP >
		     sizeof(((struct mdsim_cpu *)NULL)->written) * BITS_PER_BYTE);
	mdsim.cpus = kcalloc(nr_cpu_ids, sizeof(*mdsim.cpus), GFP_KERNEL);
	if (!mdsim.cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		mdsim.cpus[cpu].core_slot = core_slot(cpu);
		mdsim.cpus[cpu].ccx = topology_core_id(cpu) % MDSIM_CCX_PER_SOCKET;
		mdsim.cpus[cpu].perf_cap = PERF_CAP_FW_WRITE;
		for (k = 0; k < MDSIM_CORE_NR; k++)
			mdsim.cpus[cpu].clk[k].den = NSEC_PER_SEC;
	}
	return 0;
}

void mdsim_core_exit(void)
{
	kfree(mdsim.cpus);
	mdsim.cpus = NULL;
}
