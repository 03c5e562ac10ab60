/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mbm_judge.h - MBM against the memory controllers, as the kernel's
 * resctrl MBM selftest judges them: the mean of each side's per-second
 * bytes, the first second dropped, within a tolerance (mbm_judge.c).
 */

#ifndef MEMDIAGCTL_MBM_JUDGE_H
#define MEMDIAGCTL_MBM_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#define MBM_JUDGE_TOLERANCE_PCT 8.0	/* the selftest's MAX_DIFF_PERCENT */
#define MBM_JUDGE_DROP 1		/* it throws the first run away */

/*
 * @n per-second byte counts of each side; the first @drop left out.
 * |mean(mbm) - mean(imc)| / mean(imc) in percent into @diff_pct (NaN when
 * the memory controllers counted nothing); whether it is within @tol_pct.
 */
bool mbm_judge(const double *mbm, const double *imc, size_t n, size_t drop,
	       double tol_pct, double *diff_pct);

#endif /* MEMDIAGCTL_MBM_JUDGE_H */
