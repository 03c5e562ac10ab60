/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uarch.h - the description of one supported microarchitecture.
 *
 * Only plain data lives here so that the tables in uarch_table.c also build
 * in userspace, where a test checks them against perf's event tables and
 * the kernel's uncore driver.
 */
#ifndef _MEMDIAG_UARCH_H
#define _MEMDIAG_UARCH_H

/* How the memory controller's counters are reached on a generation. */
enum memdiag_imc_access {
	MEMDIAG_IMC_PCI,	/* PCI config space, one function per channel */
	MEMDIAG_IMC_MMIO,	/* MMIO, base address from a PCI device */
	MEMDIAG_IMC_DISCOVERY,	/* MMIO, found through PMON discovery tables */
};

struct memdiag_uarch {
	const char *name;		/* what get-info reports */
	const char *vendor;		/* CPUID vendor string */
	u8 family;
	u8 model;
	u8 stepping_min, stepping_max;	/* inclusive */
	const char *pmu_events;		/* perf's pmu-events/arch/x86 dir */
	enum memdiag_imc_access imc_access;
	/*
	 * A PCI device every socket has when its IMC is reachable: the
	 * first channel's function (PCI access) or the device holding the
	 * MMIO base (MMIO). 0 for discovery, which is found by capability.
	 */
	u16 imc_pci_device;
	u8 gp_counters_min;		/* core counters the events need */
};

extern const struct memdiag_uarch memdiag_uarch_table[];
extern const unsigned int memdiag_uarch_table_len;

#endif /* _MEMDIAG_UARCH_H */
