// SPDX-License-Identifier: GPL-2.0
/*
 * prefetch_table.c - which register and which bits switch each hardware
 * prefetcher off, per processor family, as data.
 *
 * Checked by selftests/host/prefetch_oracle.py against Debian's
 * linux-source-6.12: model numbers against arch/x86/include/asm/
 * intel-family.h, register addresses against msr-index.h, and the bits of
 * the Intel core and Goldmont rows against the SDM excerpts and disable
 * masks in arch/x86/kernel/cpu/resctrl/pseudo_lock.c. The Xeon Phi and
 * AMD rows have no source in the kernel; they were checked by hand against
 * LIKWID (src/sysFeatures_intel_prefetcher.c, src/sysFeatures_amd.c) and
 * are named in Documentation/prefetch.rst.
 *
 * Left out on purpose, because no second source confirms them: SPR's bit
 * 6 (LIKWID only), Tremont and the E-cores' 0x1320-0x1327 (one secondary
 * source), Silvermont beyond bit 0, and AMD family 0x17; Xeon 6
 * (Granite Rapids, Sierra Forest, Clearwater Forest), which neither
 * resctrl nor LIKWID's model list names.
 */
#include <linux/kernel.h>
#include <linux/types.h>
#include "prefetch.h"

#define MSR_AMD_PREFETCH_CONTROL	0xc0000108

/* MSR 0x1A4 (MISC_FEATURE_CONTROL) of the Core and Xeon processors */
static const struct memdiag_pf_bit intel_core_bits[] = {
	{ 0, "l2-stream", "L2 hardware prefetcher (streamer)" },
	{ 1, "l2-adjacent", "L2 adjacent cache line prefetcher" },
	{ 2, "l1-nextline", "DCU hardware prefetcher (L1 next line)" },
	{ 3, "l1-ip", "DCU IP prefetcher (L1 stride)" },
};

static const struct memdiag_pf_model intel_core_models[] = {
	{ 0x1e, "NEHALEM" }, { 0x1f, "NEHALEM_G" }, { 0x1a, "NEHALEM_EP" },
	{ 0x2e, "NEHALEM_EX" }, { 0x25, "WESTMERE" }, { 0x2c, "WESTMERE_EP" },
	{ 0x2f, "WESTMERE_EX" }, { 0x2a, "SANDYBRIDGE" },
	{ 0x2d, "SANDYBRIDGE_X" }, { 0x3a, "IVYBRIDGE" },
	{ 0x3e, "IVYBRIDGE_X" }, { 0x3c, "HASWELL" }, { 0x3f, "HASWELL_X" },
	{ 0x45, "HASWELL_L" }, { 0x46, "HASWELL_G" }, { 0x3d, "BROADWELL" },
	{ 0x47, "BROADWELL_G" }, { 0x4f, "BROADWELL_X" },
	{ 0x56, "BROADWELL_D" }, { 0x4e, "SKYLAKE_L" }, { 0x5e, "SKYLAKE" },
	{ 0x55, "SKYLAKE_X" }, { 0x8e, "KABYLAKE_L" }, { 0x9e, "KABYLAKE" },
	{ 0xa5, "COMETLAKE" }, { 0xa6, "COMETLAKE_L" },
	{ 0x66, "CANNONLAKE_L" }, { 0x6a, "ICELAKE_X" }, { 0x6c, "ICELAKE_D" },
	{ 0x7d, "ICELAKE" }, { 0x7e, "ICELAKE_L" }, { 0xa7, "ROCKETLAKE" },
	{ 0x8c, "TIGERLAKE_L" }, { 0x8d, "TIGERLAKE" },
	{ 0x8f, "SAPPHIRERAPIDS_X" }, { 0xcf, "EMERALDRAPIDS_X" },
	{ }
};

/* Xeon Phi: bits 0 and 1 mean the opposite of the Core processors' */
static const struct memdiag_pf_bit intel_phi_bits[] = {
	{ 0, "l1-nextline", "DCU hardware prefetcher (L1 next line)" },
	{ 1, "l2-stream", "L2 hardware prefetcher" },
};

static const struct memdiag_pf_model intel_phi_models[] = {
	{ 0x57, "XEON_PHI_KNL" }, { 0x85, "XEON_PHI_KNM" }, { }
};

/* Goldmont and Goldmont Plus: bit 1 is reserved */
static const struct memdiag_pf_bit intel_goldmont_bits[] = {
	{ 0, "l2-stream", "L2 hardware prefetcher" },
	{ 2, "l1-nextline", "DCU hardware prefetcher (L1 next line)" },
};

static const struct memdiag_pf_model intel_goldmont_models[] = {
	{ 0x5c, "ATOM_GOLDMONT" }, { 0x7a, "ATOM_GOLDMONT_PLUS" }, { }
};

/* PrefetchControl of Zen 3 to Zen 5: bit 4 is reserved */
static const struct memdiag_pf_bit amd_zen_bits[] = {
	{ 0, "l1-stream", "L1 stream prefetcher" },
	{ 1, "l1-stride", "L1 stride prefetcher" },
	{ 2, "l1-region", "L1 region prefetcher" },
	{ 3, "l2-stream", "L2 stream prefetcher" },
	{ 5, "l2-updown", "L2 up/down prefetcher" },
};

const struct memdiag_pf_desc memdiag_pf_table[] = {
	{
		.name = "Intel Core/Xeon (Nehalem to Emerald Rapids)",
		.vendor = "GenuineIntel", .family = 6,
		.models = intel_core_models,
		.msr = 0x1a4,
		.bits = intel_core_bits, .n_bits = ARRAY_SIZE(intel_core_bits),
		.source = "Intel H/W prefetcher control disclosure; SDM",
	},
	{
		.name = "Intel Xeon Phi (Knights Landing, Knights Mill)",
		.vendor = "GenuineIntel", .family = 6,
		.models = intel_phi_models,
		.msr = 0x1a4,
		.bits = intel_phi_bits, .n_bits = ARRAY_SIZE(intel_phi_bits),
		.source = "LIKWID sysFeatures_intel_prefetcher.c (KNL list)",
	},
	{
		.name = "Intel Atom (Goldmont, Goldmont Plus)",
		.vendor = "GenuineIntel", .family = 6,
		.models = intel_goldmont_models,
		.msr = 0x1a4,
		.bits = intel_goldmont_bits,
		.n_bits = ARRAY_SIZE(intel_goldmont_bits),
		.source = "SDM, as quoted in resctrl pseudo_lock.c",
	},
	{
		.name = "AMD Zen 3/Zen 4 (family 0x19)",
		.vendor = "AuthenticAMD", .family = 0x19,
		.msr = MSR_AMD_PREFETCH_CONTROL,
		.bits = amd_zen_bits, .n_bits = ARRAY_SIZE(amd_zen_bits),
		.source = "AMD PPR PrefetchControl; LIKWID sysFeatures_amd.c",
	},
	{
		.name = "AMD Zen 5 (family 0x1a)",
		.vendor = "AuthenticAMD", .family = 0x1a,
		.msr = MSR_AMD_PREFETCH_CONTROL,
		.bits = amd_zen_bits, .n_bits = ARRAY_SIZE(amd_zen_bits),
		.source = "AMD PPR PrefetchControl; LIKWID sysFeatures_amd.c",
	},
};

const unsigned int memdiag_pf_table_len = ARRAY_SIZE(memdiag_pf_table);
