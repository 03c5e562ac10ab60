// SPDX-License-Identifier: GPL-2.0
/*
 * msr_rows.c - the MSRs the sim models: Intel's architectural perfmon
 * and MISC_FEATURE_CONTROL, AMD's PerfCtl/PerfCtr, PerfMonV2 globals,
 * PrefetchControl and UMC counters (addresses from msr-index.h).
 */
#include <linux/kernel.h>
#include <asm/msr-index.h>

#include "sim.h"
#include "msr_rows.h"

/* Sorted by address, so that walking the slots lists MSRs in order. */
const struct mdsim_msr_row mdsim_intel_rows[] = {
	{ MSR_IA32_PERFCTR0,		 MK_PMC,	 0 },
	{ MSR_P6_EVNTSEL0,		 MK_EVTSEL,	 0 },
	{ MSR_MISC_FEATURE_CONTROL,	 MK_MISC,	 1 },
	{ MSR_OFFCORE_RSP_0,		 MK_RSP,	 2 },
	{ MSR_CORE_PERF_FIXED_CTR0,	 MK_FIXED,	 MDSIM_FIXED },
	{ MSR_IA32_PERF_CAPABILITIES,	 MK_PERF_CAP,	 1 },
	{ MSR_CORE_PERF_FIXED_CTR_CTRL,	 MK_FIXED_CTRL,	 1 },
	{ MSR_CORE_PERF_GLOBAL_STATUS,	 MK_STATUS,	 1 },
	{ MSR_CORE_PERF_GLOBAL_CTRL,	 MK_GLOBAL_CTRL, 1 },
	{ MSR_CORE_PERF_GLOBAL_OVF_CTRL, MK_OVF_CTRL,	 1 },
	{ MSR_IA32_PMC0,		 MK_APMC,	 0 },
	{ }
};

/*
 * AMD Zen 4/5 (msr-index.h): PrefetchControl, PerfMonV2's global status,
 * control and status-clear, PerfCtl/PerfCtr pairs (full width), the L3
 * PMU's pairs of the CPU's CCX (MK_L3: 0xc0010230 on), Zen 2/3's Data
 * Fabric pairs of the socket (MK_DF: 0xc0010240 on, uarch zen2 and zen3
 * only), then the UMC control/counter pairs of the socket (MK_UMC:
 * 0xc0010800 on, zen4 and zen5 only).
 */
const struct mdsim_msr_row mdsim_amd_rows[] = {
	{ MSR_AMD_PREFETCH_CONTROL,		MK_MISC,	1 },
	{ MSR_AMD64_PERF_CNTR_GLOBAL_STATUS,	MK_STATUS,	1 },
	{ MSR_AMD64_PERF_CNTR_GLOBAL_CTL,	MK_GLOBAL_CTRL,	1 },
	{ MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, MK_OVF_CTRL,	1 },
	{ MSR_F15H_PERF_CTL,			MK_EVTSEL,	0, 2 },
	{ MSR_F15H_PERF_CTR,			MK_APMC,	0, 2 },
	{ MSR_F16H_L2I_PERF_CTL,		MK_L3,		2 * MDSIM_L3_CTRS },
	{ MSR_F15H_NB_PERF_CTL,			MK_DF,		MDSIM_DF_MSRS },
	{ MSR_F19H_UMC_PERF_CTL,		MK_UMC,		0 },
	{ }
};
