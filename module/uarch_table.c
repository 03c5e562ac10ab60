// SPDX-License-Identifier: GPL-2.0
/*
 * uarch_table.c - the processors memdiag supports, as data.
 *
 * Family/model/stepping and the pmu-events directory are those of perf's
 * tools/perf/pmu-events/arch/x86/mapfile.csv; the IMC PCI device ids are
 * those of the kernel's arch/x86/events/intel/uncore_snbep.c. A userspace
 * test checks every row against both files of linux-source-6.12.
 */
#include <linux/kernel.h>
#include <linux/types.h>
#include "uarch.h"

const struct memdiag_uarch memdiag_uarch_table[] = {
	{
		.name = "Haswell-EP", .vendor = "GenuineIntel",
		.family = 6, .model = 0x3f,
		.stepping_min = 0, .stepping_max = 0xf,
		.pmu_events = "haswellx",
		.imc_access = MEMDIAG_IMC_PCI,
		.imc_pci_device = 0x2fb0,	/* MC0 channel 0 */
		.gp_counters_min = 4,
	},
	{
		.name = "Broadwell-EP", .vendor = "GenuineIntel",
		.family = 6, .model = 0x4f,
		.stepping_min = 0, .stepping_max = 0xf,
		.pmu_events = "broadwellx",
		.imc_access = MEMDIAG_IMC_PCI,
		.imc_pci_device = 0x6fb0,	/* MC0 channel 0 */
		.gp_counters_min = 4,
	},
	{
		/* Skylake-SP and Cascade Lake-SP share model 0x55 */
		.name = "Skylake-SP", .vendor = "GenuineIntel",
		.family = 6, .model = 0x55,
		.stepping_min = 0, .stepping_max = 4,
		.pmu_events = "skylakex",
		.imc_access = MEMDIAG_IMC_PCI,
		.imc_pci_device = 0x2042,	/* MC channels 0 and 3 */
		.gp_counters_min = 4,
	},
	{
		.name = "Cascade Lake-SP", .vendor = "GenuineIntel",
		.family = 6, .model = 0x55,
		.stepping_min = 5, .stepping_max = 0xf,
		.pmu_events = "cascadelakex",
		.imc_access = MEMDIAG_IMC_PCI,
		.imc_pci_device = 0x2042,
		.gp_counters_min = 4,
	},
	{
		.name = "Ice Lake-SP", .vendor = "GenuineIntel",
		.family = 6, .model = 0x6a,
		.stepping_min = 0, .stepping_max = 0xf,
		.pmu_events = "icelakex",
		.imc_access = MEMDIAG_IMC_MMIO,
		.imc_pci_device = 0x3451,	/* holds the MC MMIO bases */
		.gp_counters_min = 4,
	},
	{
		.name = "Sapphire Rapids", .vendor = "GenuineIntel",
		.family = 6, .model = 0x8f,
		.stepping_min = 0, .stepping_max = 0xf,
		.pmu_events = "sapphirerapids",
		.imc_access = MEMDIAG_IMC_DISCOVERY,
		.gp_counters_min = 4,
	},
	{
		.name = "Emerald Rapids", .vendor = "GenuineIntel",
		.family = 6, .model = 0xcf,
		.stepping_min = 0, .stepping_max = 0xf,
		.pmu_events = "emeraldrapids",
		.imc_access = MEMDIAG_IMC_DISCOVERY,
		.gp_counters_min = 4,
	},
};

const unsigned int memdiag_uarch_table_len = ARRAY_SIZE(memdiag_uarch_table);
