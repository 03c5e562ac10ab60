/* SPDX-License-Identifier: GPL-2.0 */
/*
 * platform.h - the one layer that differs between the real hardware and
 * the simulated platform of memdiag_sim.ko.
 *
 * Everything above it (tables, discovery, socket mapping, programming
 * sequences, 64-bit extension, sessions, netlink) is the same code on both.
 * memdiag_sim.ko exports one struct memdiag_platform_ops as
 * memdiag_sim_platform (EXPORT_SYMBOL_GPL); memdiag.ko takes it with
 * symbol_get() when loaded with platform=sim, so neither module depends on
 * the other and the sim's register state outlives memdiag.ko.
 *
 * All functions are called from task context and may sleep, except where
 * noted. PCI and MMIO addresses are the hardware's: a platform presents the
 * devices a real socket has, and memdiag finds them the way it would on a
 * real machine.
 */
#ifndef _MEMDIAG_PLATFORM_H
#define _MEMDIAG_PLATFORM_H

#include <linux/types.h>

/* One MSR access of a batch run on one CPU. */
struct memdiag_msr_op {
	u32 msr;
	bool write;
	u64 val;	/* value to write, or value read */
	int err;	/* 0, or -EIO if the access faulted (#GP) */
	/*
	 * No MSR: the clock (ktime_get_ns()) at this point of the batch,
	 * into @val. Two of them bracket reads that must be timed with the
	 * values they return, on the CPU that reads them.
	 */
	bool clock;
};

/* A PCI function the platform has. */
struct memdiag_pci {
	u16 domain;
	u8 bus;
	u8 devfn;
	u16 vendor;
	u16 device;
	void *priv;	/* platform's own handle (hw: struct pci_dev *) */
};

/* What CPUID reports about the processor (hw: boot_cpu_data, CPUID 0xA). */
struct memdiag_cpu_ident {
	char vendor[16];	/* "GenuineIntel" */
	char model_name[64];
	u8 family, model, stepping;
	bool hypervisor;	/* X86_FEATURE_HYPERVISOR */
	u32 tsc_khz;		/* rate of the reference-cycles counter */
	u32 cpuid_0a_eax;	/* perfmon version, GP counters, width */
	u32 cpuid_0a_edx;	/* fixed counters and width */
	/* AMD PerfMonV2, CPUID 0x80000022: EAX bit 0, EBX counts; else 0 */
	u32 cpuid_ext22_eax, cpuid_ext22_ebx, cpuid_ext22_ecx;
	/* AMD: CPUID 0x80000001 ECX bit 28, the L3 (LLC) PMU counters */
	bool perfctr_llc;
	/* AMD: CPUID 0x80000001 ECX bit 24, the Data Fabric (NB) counters */
	bool perfctr_nb;
	/* AMD: CPUID 0x80000001 ECX bit 23, the six PerfCtl/PerfCtr pairs */
	bool perfctr_core;
};

struct memdiag_platform_ops {
	const char *name;		/* "hw" or "sim" */
	/*
	 * perf's events and counter reservations see this platform's PMU
	 * (the real hardware's), so memdiag must share it with perf.
	 */
	bool perf_pmu;

	void (*cpu_ident)(struct memdiag_cpu_ident *id);

	/*
	 * Run @n accesses in order on @cpu, in one cross-call on hardware
	 * (clock ops read the clock there). Each op records its own error;
	 * the call returns -ENXIO if @cpu is offline, else 0. Must not be
	 * called with cpu hotplug write-locked.
	 */
	int (*msr_batch)(unsigned int cpu, struct memdiag_msr_op *ops,
			 unsigned int n);

	/*
	 * Read a core counter @msr of the CPU this runs on, with interrupts
	 * off (the scheduler's context switch, a cross-call): no sleeping
	 * lock, no cross-call. 0 or -EIO.
	 */
	int (*msr_read_local)(u32 msr, u64 *val);

	/*
	 * The @index-th function (from 0, in (domain, bus, devfn) order) with
	 * vendor 0x8086 and @device, or any device if @device is 0xffff.
	 * Returns -ENODEV past the last one. Release with pci_put().
	 */
	int (*pci_get)(u16 device, unsigned int index, struct memdiag_pci *pci);
	void (*pci_put)(struct memdiag_pci *pci);
	/* Config space, dword aligned, extended space (>= 0x100) included. */
	int (*pci_read)(const struct memdiag_pci *pci, unsigned int off,
			u32 *val);
	int (*pci_write)(const struct memdiag_pci *pci, unsigned int off,
			 u32 val);
	/*
	 * The socket (logical package) of the CPUs local to @pci: on
	 * hardware that of an online CPU of the device's NUMA node, as the
	 * kernel's uncore_device_to_die() finds a discovery table's die;
	 * -1 when the platform cannot tell (no NUMA information).
	 */
	int (*pci_socket)(const struct memdiag_pci *pci);

	/*
	 * The id of @cpu's last-level cache (on AMD its CCX's L3), the same
	 * for every CPU sharing it, as amd/uncore.c groups its L3 PMU.
	 */
	int (*llc_id)(unsigned int cpu);

	/*
	 * Map @len bytes of MMIO at physical address @phys; NULL if nothing
	 * is there. Accesses are naturally aligned, 4 or 8 bytes wide.
	 */
	void *(*mmio_map)(u64 phys, size_t len);
	void (*mmio_unmap)(void *map);
	u64 (*mmio_read)(void *map, unsigned int off, unsigned int width);
	void (*mmio_write)(void *map, unsigned int off, unsigned int width,
			   u64 val);

	/*
	 * AMD Zen 2/3, optional: the 32-bit Data Fabric register @reg of
	 * function @func of DF instance @inst (the coherent station of DRAM
	 * channel @inst) in @socket's DF, as drivers/ras/amd/atl/access.c
	 * reads it: indirectly through F4 (FICAA/FICAD) on hardware. Reads
	 * only; -ENODEV where @socket has no DF to read.
	 */
	int (*df_read)(unsigned int socket, unsigned int func,
		       unsigned int reg, unsigned int inst, u32 *val);

	/*
	 * Optional, the sim's fault injection: true when the allocation at
	 * a fault point (memdiag_alloc_fails()) is to fail. NULL on hw.
	 */
	bool (*fail_alloc)(void);
};

extern const struct memdiag_platform_ops memdiag_hw_platform;
int memdiag_hw_df_read(unsigned int socket, unsigned int func,
		       unsigned int reg, unsigned int inst, u32 *val);

#endif /* _MEMDIAG_PLATFORM_H */
