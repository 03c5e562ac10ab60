/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core_int.h - what core_pmu.c decides at load time and core.c programs.
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
	unsigned int n_gp, ctr_bits;
};

extern struct core_cfg ccfg;

const struct memdiag_core_event *core_ev_desc(int e);
int core_pmu_init(struct memdiag_state *st, char *reason, size_t len);

static inline u32 evtsel_msr(unsigned int i)
{
	return ccfg.pmu->evtsel + i * ccfg.pmu->stride;
}

#endif /* _MEMDIAG_CORE_INT_H */
