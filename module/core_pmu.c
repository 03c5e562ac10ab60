// SPDX-License-Identifier: GPL-2.0
/*
 * core_pmu.c - which core PMU memdiag programs (the vendor's struct
 * memdiag_core_pmu), how many general counters it has, and which counter
 * each event of the processor's table takes.
 */
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/cpumask.h>

#include "core_int.h"

struct core_cfg ccfg;

/* The general-counter event of counter @e, or NULL (fixed, or not used). */
const struct memdiag_core_event *core_ev_desc(int e)
{
	const struct memdiag_core_event *d;

	if (e < MEMDIAG_EV_NR)
		d = &ccfg.events[e];
	else
		d = ccfg.fix ? &ccfg.fix[e - MEMDIAG_EV_NR] : NULL;
	return d && d->perf ? d : NULL;
}

/*
 * Is general counter @i free for @d? A merged event also needs the
 * counter above it, for the merge event.
 */
static bool ctr_fits(const struct memdiag_core_event *d, unsigned int i)
{
	if (!(d->counters & BIT(i)) || (ccfg.gp_used & BIT(i)))
		return false;
	return !d->merge || (ccfg.pmu->merge_evtsel && i + 1 < ccfg.n_gp &&
			     !(ccfg.gp_used & BIT(i + 1)));
}

/* Give each event a counter, most constrained event first. */
static int assign_counters(void)
{
	bool done[MEMDIAG_CORE_NR] = {};
	int placed, e, best, i;

	memset(ccfg.pmc_of, -1, sizeof(ccfg.pmc_of));
	ccfg.gp_used = 0;
	ccfg.merge_used = 0;
	for (placed = 0; placed < MEMDIAG_CORE_NR; placed++) {
		best = -1;
		for (e = 0; e < MEMDIAG_CORE_NR; e++) {
			if (done[e] || !core_ev_desc(e))
				continue;
			if (best < 0 || hweight8(core_ev_desc(e)->counters) <
					hweight8(core_ev_desc(best)->counters))
				best = e;
		}
		if (best < 0)
			break;
		done[best] = true;
		for (i = 0; i < ccfg.n_gp; i++)
			if (ctr_fits(core_ev_desc(best), i))
				break;
		if (i == ccfg.n_gp)
			return -ENOSPC;
		ccfg.pmc_of[best] = i;
		ccfg.gp_used |= BIT(i);
		if (core_ev_desc(best)->merge) {
			ccfg.gp_used |= BIT(i + 1);
			ccfg.merge_used |= BIT(i + 1);
		}
	}
	return 0;
}

/*
 * AMD: general counters from PerfMonV2's CPUID leaf 0x80000022, which
 * Zen 4 and later have; without it there is no PerfCntrGlobalCtl.
 */
static int count_amd(struct memdiag_state *st, const char *vm, char *reason,
		     size_t len)
{
	struct memdiag_msr_op op;
	unsigned int cpu;

	/* before PerfMonV2 (Zen 2, Zen 3): the PMU's own counter count */
	if (ccfg.pmu->n_ctrs) {
		if (!st->ident.perfctr_core) {
			snprintf(reason, len,
				 "CPUID 0x80000001 ECX bit 23 (PerfCtrExtCore) is clear: the PerfCtl/PerfCtr MSRs memdiag programs are not there%s",
				 vm);
			return -ENODEV;
		}
		/* a hypervisor may say so and still fault the MSRs */
		op = (struct memdiag_msr_op){ ccfg.pmu->evtsel };
		cpu = cpumask_first(cpu_online_mask);
		if (st->plat->msr_batch(cpu, &op, 1) || op.err) {
			snprintf(reason, len,
				 "reading PerfCtl0 (MSR 0x%x) on CPU %u faulted: no core counters here%s",
				 ccfg.pmu->evtsel, cpu, vm);
			return -ENODEV;
		}
		ccfg.n_gp = min_t(unsigned int, ccfg.pmu->n_ctrs, MAX_GP);
		ccfg.ctr_bits = ccfg.pmu->ctr_bits;
		return 0;
	}
	if (!(st->ident.cpuid_ext22_eax & BIT(0))) {
		snprintf(reason, len,
			 "CPUID leaf 0x80000022 reports no PerfMonV2, which memdiag needs on AMD%s",
			 vm);
		return -ENODEV;
	}
	ccfg.n_gp = min_t(unsigned int, st->ident.cpuid_ext22_ebx & 0xf, MAX_GP);
	ccfg.ctr_bits = ccfg.pmu->ctr_bits;
	if (ccfg.n_gp < st->uarch->gp_counters_min) {
		snprintf(reason, len,
			 "CPUID leaf 0x80000022 reports %u core counters per CPU, the %s events need %u%s",
			 ccfg.n_gp, st->uarch->name, st->uarch->gp_counters_min, vm);
		return -ENODEV;
	}
	return 0;
}

/* Intel: general and fixed counters from CPUID leaf 0xA. */
static int count_intel(struct memdiag_state *st, const char *vm, char *reason,
		       size_t len)
{
	u32 eax = st->ident.cpuid_0a_eax, edx = st->ident.cpuid_0a_edx;
	unsigned int version = eax & 0xff, n_fixed = edx & 0x1f;

	ccfg.n_gp = min_t(unsigned int, (eax >> 8) & 0xff, MAX_GP);
	ccfg.ctr_bits = (eax >> 16) & 0xff;
	if (version < 2 || !ccfg.ctr_bits || ccfg.ctr_bits > 64) {
		snprintf(reason, len,
			 "CPUID leaf 0xA reports architectural perfmon version %u, memdiag needs 2 or later%s",
			 version, vm);
		return -ENODEV;
	}
	if (ccfg.n_gp < st->uarch->gp_counters_min || n_fixed < FIXED_USED) {
		snprintf(reason, len,
			 "CPUID leaf 0xA reports %u general and %u fixed counters per CPU, the %s events need %u and %u%s",
			 ccfg.n_gp, n_fixed, st->uarch->name,
			 st->uarch->gp_counters_min, FIXED_USED, vm);
		return -ENODEV;
	}
	return 0;
}

/**
 * core_pmu_init() - decide whether the core counters can be used, and on
 * which general counter each event runs
 * @st: the module state
 * @reason: why not, when the return value is negative
 * @len: size of @reason
 */
int core_pmu_init(struct memdiag_state *st, char *reason, size_t len)
{
	const char *vm = st->ident.hypervisor ?
		" (this is a virtual machine; the hypervisor exposes no PMU)" : "";
	int err;

	ccfg.pmu = st->uarch->pmu;
	ccfg.events = st->uarch->core;
	ccfg.fix = st->uarch->core_fix;
	if (st->core_pref == MEMDIAG_CORE_MODE_PERF) {
		if (st->platform == MEMDIAG_PLATFORM_SIM) {
			snprintf(reason, len,
				 "core=perf counts through the kernel's perf events, which the simulated platform does not model: use core=msr or core=auto");
			return -EINVAL;
		}
		/* perf checks the PMU itself when the events are created */
		return 0;
	}
	err = ccfg.pmu->fixed_ctr ? count_intel(st, vm, reason, len) :
			       count_amd(st, vm, reason, len);
	if (err)
		return err;
	if (assign_counters()) {
		snprintf(reason, len,
			 "the %s core events do not fit the %u general counters",
			 st->uarch->name, ccfg.n_gp);
		return -ENOSPC;
	}
	return 0;
}
