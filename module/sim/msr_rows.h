/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msr_rows.h - the MSRs the sim models per vendor, as rows (msr_rows.c),
 * and what kind of register each row is (core.c gives them behaviour).
 */
#ifndef _MDSIM_MSR_ROWS_H
#define _MDSIM_MSR_ROWS_H

#include <linux/types.h>

enum mdsim_msr_kind {
	MK_PMC,		/* IA32_PMCi: writes are 32 bits, sign-extended */
	MK_EVTSEL,
	MK_MISC,	/* MSR_MISC_FEATURE_CONTROL: prefetchers */
	MK_RSP,
	MK_FIXED,
	MK_PERF_CAP,	/* read-only */
	MK_FIXED_CTRL,
	MK_STATUS,	/* read-only */
	MK_GLOBAL_CTRL,
	MK_OVF_CTRL,	/* write 1s to clear status; reads 0 */
	MK_APMC,	/* IA32_A_PMCi: full-width alias of IA32_PMCi */
	MK_UMC,		/* AMD UMC control/counter pairs: the socket's boxes */
	MK_L3,		/* AMD L3 PMU control/counter pairs: the CPU's CCX */
	MK_DF,		/* AMD Data Fabric control/counter pairs: the socket's */
};

#define MSR_AMD_PREFETCH_CONTROL 0xc0000108	/* not in msr-index.h */
#define MDSIM_DF_MSRS	8	/* four control/counter pairs */
#ifndef MSR_F19H_UMC_PERF_CTL
#define MSR_F19H_UMC_PERF_CTL	0xc0010800	/* 6.12's msr-index.h, not 6.1's */
#endif

/*
 * A run of MSRs @stride apart (0: 1); n == 0: one per general counter.
 * Up to MDSIM_MSR_ROWS rows a vendor.
 */
struct mdsim_msr_row {
	u32 msr;
	u8 kind, n, stride;
};

#define MDSIM_MSR_ROWS	16

/* each list ends with an empty row; at most MDSIM_MSR_ROWS rows */
extern const struct mdsim_msr_row mdsim_intel_rows[];
extern const struct mdsim_msr_row mdsim_amd_rows[];

#endif /* _MDSIM_MSR_ROWS_H */
