// SPDX-License-Identifier: GPL-2.0
/*
 * msr_restore.c - put MSRs back to what memdiag found, and say whether
 * that really happened.
 *
 * A write can fault, or succeed and not stick (a hypervisor that drops
 * it), so every register written is read back. A caller that is told the
 * restore failed keeps its saved originals and tries again later: a
 * register memdiag changed stays recorded until it is really put back.
 */
#include <linux/kernel.h>

#include "memdiag.h"

/**
 * memdiag_msr_put_back() - put back the MSRs of @cpu that still hold ours
 * @cpu: the CPU
 * @regs: the registers, in the order to write them (at most
 *	MEMDIAG_MSR_BACK_MAX): each one's address, the value memdiag wrote and
 *	the original
 * @n: number of entries in @regs
 *
 * A register that no longer holds memdiag's value was taken over by
 * another agent and stays as that agent left it. Returns 0 when every
 * register holds its original or another agent's value, -EIO when one
 * could not be read, written or did not take the original, or the
 * platform's error (e.g. the CPU is offline).
 */
int memdiag_msr_put_back(unsigned int cpu, const struct memdiag_msr_back *regs,
			 unsigned int n)
{
	struct memdiag_msr_op op[2 * MEMDIAG_MSR_BACK_MAX];
	unsigned int idx[MEMDIAG_MSR_BACK_MAX];
	unsigned int i, k = 0;
	int err, ret = 0;

	if (WARN_ON_ONCE(n > MEMDIAG_MSR_BACK_MAX))
		return -EINVAL;
	for (i = 0; i < n; i++)
		op[i] = (struct memdiag_msr_op){ regs[i].msr };
	err = memdiag.plat->msr_batch(cpu, op, n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		if (op[i].err)
			ret = -EIO;	/* cannot tell whose it is: kept */
		else if (op[i].val == regs[i].ours)
			idx[k++] = i;
	}
	if (!k)
		return ret;
	/* the writes, then the same registers read back */
	for (i = 0; i < k; i++) {
		const struct memdiag_msr_back *r = &regs[idx[i]];

		op[i] = (struct memdiag_msr_op){ r->msr, true, r->orig };
		op[k + i] = (struct memdiag_msr_op){ r->msr };
	}
	err = memdiag.plat->msr_batch(cpu, op, 2 * k);
	if (err)
		return err;
	for (i = 0; i < k; i++)
		if (op[i].err || op[k + i].err ||
		    op[k + i].val != regs[idx[i]].orig)
			ret = -EIO;
	return ret;
}
