// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - fault injection, netdevsim style: debugfs switches under
 * /sys/kernel/debug/memdiag_sim/ that make the next platform operations
 * of one kind fail, so that memdiag's error paths run against the same
 * code as everything else.
 *
 * For each kind (the file names):
 *   fail_msr_write      an MSR write faults (-EIO, as a #GP), nothing stored
 *   fail_msr_nostick    an MSR write succeeds but the register keeps its
 *                       value (a hypervisor that drops it)
 *   fail_msr_read       an MSR read faults
 *   fail_pci_read       a PCI config read returns all-ones (device gone)
 *   fail_mmio_map       an MMIO mapping fails (NULL)
 *   fail_alloc          an allocation memdiag.ko marks as a fault point
 *                       (memdiag_alloc_fails()) fails
 *   fail_pci_node       the platform cannot tell which CPUs a PCI device
 *                       is local to (a machine without NUMA information)
 * fail_KIND holds how many operations of the kind fail (0: none, the
 * default; 4294967295: all), fail_KIND_skip how many succeed first, and
 * fail_KIND_hit counts the failures injected (write 0 to reset), so a
 * test can tell that its fault really happened. fail_msr_addr, when not
 * 0, limits the three MSR kinds to that one MSR.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/spinlock.h>

#include "sim.h"

struct mdsim_fault {
	u32 times, skip, hit;
};

static const char * const fault_names[MDSIM_FAULT_NR] = {
	[MDSIM_FAULT_MSR_WRITE]		= "msr_write",
	[MDSIM_FAULT_MSR_NOSTICK]	= "msr_nostick",
	[MDSIM_FAULT_MSR_READ]		= "msr_read",
	[MDSIM_FAULT_PCI_READ]		= "pci_read",
	[MDSIM_FAULT_MMIO_MAP]		= "mmio_map",
	[MDSIM_FAULT_ALLOC]		= "alloc",
	[MDSIM_FAULT_PCI_NODE]		= "pci_node",
};

static struct mdsim_fault faults[MDSIM_FAULT_NR];
static u32 fault_msr_addr;
/* a spinlock: allocation points may be reached in atomic context */
static DEFINE_SPINLOCK(fault_lock);

/**
 * mdsim_fault() - whether this operation is to fail
 * @kind: what the operation is
 * @msr: the MSR it accesses (MSR kinds only, else 0)
 */
bool mdsim_fault(enum mdsim_fault_kind kind, u32 msr)
{
	struct mdsim_fault *f = &faults[kind];
	unsigned long flags;
	bool fail = false;

	spin_lock_irqsave(&fault_lock, flags);
	if (f->times && (!msr || !fault_msr_addr || msr == fault_msr_addr)) {
		if (f->skip) {
			f->skip--;
		} else {
			fail = true;
			f->hit++;
			if (f->times != U32_MAX)
				f->times--;
		}
	}
	spin_unlock_irqrestore(&fault_lock, flags);
	return fail;
}

/* The platform op memdiag.ko calls at its allocation fault points. */
bool mdsim_fail_alloc(void)
{
	return mdsim_fault(MDSIM_FAULT_ALLOC, 0);
}

void mdsim_fault_debugfs(struct dentry *root)
{
	char name[32];
	unsigned int k;

	for (k = 0; k < MDSIM_FAULT_NR; k++) {
		snprintf(name, sizeof(name), "fail_%s", fault_names[k]);
		debugfs_create_u32(name, 0600, root, &faults[k].times);
		snprintf(name, sizeof(name), "fail_%s_skip", fault_names[k]);
		debugfs_create_u32(name, 0600, root, &faults[k].skip);
		snprintf(name, sizeof(name), "fail_%s_hit", fault_names[k]);
		debugfs_create_u32(name, 0600, root, &faults[k].hit);
	}
	debugfs_create_x32("fail_msr_addr", 0600, root, &fault_msr_addr);
}
