// SPDX-License-Identifier: GPL-2.0
/*
 * mbm_judge.c - the verdict of validate --groups: resctrl's count of a
 * pinned read loop's group against the socket's memory controllers, as
 * tools/testing/selftests/resctrl/mbm_test.c decides it.
 */

#include <math.h>

#include "mbm_judge.h"

bool mbm_judge(const double *mbm, const double *imc, size_t n, size_t drop,
	       double tol_pct, double *diff_pct)
{
	double sum_mbm = 0, sum_imc = 0;
	size_t i;

	*diff_pct = NAN;
	if (n <= drop)
		return false;
	for (i = drop; i < n; i++) {
		sum_mbm += mbm[i];
		sum_imc += imc[i];
	}
	if (sum_imc <= 0)
		return false;
	*diff_pct = 100 * fabs(sum_mbm - sum_imc) / sum_imc;
	return *diff_pct <= tol_pct;
}
