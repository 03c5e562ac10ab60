/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core_int.h - what core_pmu.c decides at load time, core_ops.c lists and
 * core.c programs.
 */
#ifndef _MEMDIAG_CORE_INT_H
#define _MEMDIAG_CORE_INT_H

#include "memdiag.h"

#define MAX_GP		8
#define FIXED_USED	3	/* Intel: instructions, cycles, ref cycles */

struct core_cfg {
	const struct memdiag_core_pmu *pmu;
	const struct memdiag_core_event *events;	/* [MEMDIAG_EV_NR] */
	const struct memdiag_core_event *fix;	/* [MEMDIAG_GPFIX_NR] or NULL */
	s8 pmc_of[MEMDIAG_CORE_NR];	/* general counter of each, -1 none */
	u64 gp_used;			/* mask of general counters used */
	u64 merge_used;			/* of those, the merge event's */
	unsigned int n_gp, ctr_bits;
};

extern struct core_cfg ccfg;

const struct memdiag_core_event *core_ev_desc(int e);
int core_pmu_init(struct memdiag_state *st, char *reason, size_t len);

/* What memdiag saved from, and keeps about, one CPU (core.c). */
struct core_cpu {
	bool programmed;
	bool lost;
	bool restore_failed;	/* saved_* not all put back yet */
	u64 saved_evtsel[MAX_GP];
	u64 saved_fixed_ctrl, saved_global_ctrl, saved_rsp;
	struct memdiag_ext64 ext[MEMDIAG_CORE_NR];
};

/* The longest batch of core_ops.c: reads or writes of one CPU. */
#define MAX_OPS	(2 * MEMDIAG_CORE_NR + MAX_GP + 8)

/* core_ops.c */
bool core_ev_used(int e);
unsigned int core_ev_ctr(int e);
u64 core_evtsel_of(int e);
u64 core_global_bits(void);
bool core_ctrls_ok(const struct memdiag_msr_op *op, unsigned int *i);
unsigned int core_ctrl_reads(struct memdiag_msr_op *op);
unsigned int core_read_ops(struct memdiag_msr_op *op);
unsigned int core_write_ops(struct core_cpu *c, struct memdiag_msr_op *op);
u64 core_saved_value(struct core_cpu *c, u32 msr);

static inline u32 evtsel_msr(unsigned int i)
{
	return ccfg.pmu->evtsel + i * ccfg.pmu->stride;
}

#endif /* _MEMDIAG_CORE_INT_H */
