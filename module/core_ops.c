// SPDX-License-Identifier: GPL-2.0
/*
 * core_ops.c - the MSR accesses core.c batches on a CPU: which registers
 * memdiag reads to sample and to check a CPU, what it writes to program
 * one, and which saved value puts each back. Pure functions of the
 * vendor's PMU description (ccfg) and a CPU's saved state, so that core.c
 * holds only the sequences and their state.
 */
#include <linux/kernel.h>
#include <asm/perf_event.h>

#include "core_int.h"

#define FIXED_CTRL_OS_USR	0x333ULL	/* OS|USR for fixed 0, 1, 2 */
#define GLOBAL_FIXED_BITS	(7ULL << 32)
#define EVTSEL_OS_USR_EN	(ARCH_PERFMON_EVENTSEL_USR | \
				 ARCH_PERFMON_EVENTSEL_OS | \
				 ARCH_PERFMON_EVENTSEL_ENABLE)

/* Intel's fixed counters count instructions, cycles and reference cycles. */
static bool ev_fixed(int e)
{
	return e >= MEMDIAG_EV_NR && ccfg.pmc_of[e] < 0 && ccfg.pmu->fixed_ctr;
}

bool core_ev_used(int e)
{
	return ccfg.pmc_of[e] >= 0 || ev_fixed(e);
}

unsigned int core_ev_ctr(int e)
{
	return ev_fixed(e) ? ccfg.pmu->fixed_ctr + (e - MEMDIAG_FIX_INSTR) :
	       ccfg.pmu->ctr + ccfg.pmc_of[e] * ccfg.pmu->stride;
}

u64 core_evtsel_of(int e)
{
	const struct memdiag_core_event *d = core_ev_desc(e);

	return d->event | (u64)d->umask << 8 | EVTSEL_OS_USR_EN;
}

/* What memdiag sets in the global control: its counters (and fixed ones). */
u64 core_global_bits(void)
{
	return ccfg.gp_used | (ccfg.pmu->fixed_ctr ? GLOBAL_FIXED_BITS : 0);
}

/*
 * Whether the fixed and global controls read at @op[*i] (those the PMU
 * has, in that order) count what memdiag needs; *i moves past them.
 */
bool core_ctrls_ok(const struct memdiag_msr_op *op, unsigned int *i)
{
	bool ok = true;
	unsigned int k;

	for (k = 0; k < ccfg.n_gp; k++)
		if ((ccfg.merge_used & BIT(k)) &&
		    op[(*i)++].val != ccfg.pmu->merge_evtsel)
			ok = false;

	if (ccfg.pmu->fixed_ctrl &&
	    (op[(*i)++].val & FIXED_CTRL_OS_USR) != FIXED_CTRL_OS_USR)
		ok = false;
	if (ccfg.pmu->global_ctrl &&
	    (op[(*i)++].val & core_global_bits()) != core_global_bits())
		ok = false;
	return ok;
}

/* The merge event, fixed and global control reads, for those that exist. */
unsigned int core_ctrl_reads(struct memdiag_msr_op *op)
{
	unsigned int n = 0, k;

	for (k = 0; k < ccfg.n_gp; k++)
		if (ccfg.merge_used & BIT(k))
			op[n++] = (struct memdiag_msr_op){ evtsel_msr(k) };

	if (ccfg.pmu->fixed_ctrl)
		op[n++] = (struct memdiag_msr_op){ ccfg.pmu->fixed_ctrl };
	if (ccfg.pmu->global_ctrl)
		op[n++] = (struct memdiag_msr_op){ ccfg.pmu->global_ctrl };
	return n;
}

/*
 * The batch that reads a CPU's state: every used event select, the fixed
 * and global controls, then every counter. Returns the number of ops.
 */
unsigned int core_read_ops(struct memdiag_msr_op *op)
{
	unsigned int n = 0;
	int e;

	for (e = 0; e < MEMDIAG_CORE_NR; e++)
		if (ccfg.pmc_of[e] >= 0)
			op[n++] = (struct memdiag_msr_op){ evtsel_msr(ccfg.pmc_of[e]) };
	n += core_ctrl_reads(&op[n]);
	for (e = 0; e < MEMDIAG_CORE_NR; e++)
		if (core_ev_used(e))
			op[n++] = (struct memdiag_msr_op){ core_ev_ctr(e) };
	return n;
}

/* What memdiag writes to a CPU, in the order it writes it. */
unsigned int core_write_ops(struct core_cpu *c, struct memdiag_msr_op *op)
{
	unsigned int n = 0, k;
	int e;

	if (core_ev_used(MEMDIAG_EV_OFFCORE) && ccfg.pmu->offcore_rsp)
		op[n++] = (struct memdiag_msr_op){ ccfg.pmu->offcore_rsp, true,
						   ccfg.events[MEMDIAG_EV_OFFCORE].offcore_rsp };
	/* the merge event first, as amd/core.c enables a pair */
	for (k = 0; k < ccfg.n_gp; k++)
		if (ccfg.merge_used & BIT(k))
			op[n++] = (struct memdiag_msr_op){ evtsel_msr(k), true,
							   ccfg.pmu->merge_evtsel };
	for (e = 0; e < MEMDIAG_CORE_NR; e++)
		if (ccfg.pmc_of[e] >= 0)
			op[n++] = (struct memdiag_msr_op){ evtsel_msr(ccfg.pmc_of[e]),
							   true, core_evtsel_of(e) };
	if (ccfg.pmu->fixed_ctrl)
		op[n++] = (struct memdiag_msr_op){ ccfg.pmu->fixed_ctrl, true,
						   c->saved_fixed_ctrl | FIXED_CTRL_OS_USR };
	if (ccfg.pmu->global_ctrl)
		op[n++] = (struct memdiag_msr_op){ ccfg.pmu->global_ctrl, true,
						   c->saved_global_ctrl | core_global_bits() };
	return n;
}

u64 core_saved_value(struct core_cpu *c, u32 msr)
{
	if (msr == ccfg.pmu->offcore_rsp)
		return c->saved_rsp;
	if (msr == ccfg.pmu->fixed_ctrl)
		return c->saved_fixed_ctrl;
	if (msr == ccfg.pmu->global_ctrl)
		return c->saved_global_ctrl;
	return c->saved_evtsel[(msr - ccfg.pmu->evtsel) / ccfg.pmu->stride];
}
