// SPDX-License-Identifier: GPL-2.0
/*
 * uarch.c - the generations memdiag_sim models, as data.
 *
 * Event encodings and OFFCORE_RESPONSE values are perf's (Debian
 * linux-source-6.12 tools/perf/pmu-events/arch/x86/{skylakex,icelakex,
 * sapphirerapids,graniterapids,sierraforest}); register offsets, PCI
 * ids, box control bits and OFFCORE_RSP write masks are the kernel's
 * (arch/x86/events/intel/core.c, uncore_snbep.c, uncore_discovery.h).
 * The sim's own choices (addresses, the other discovery units) are marked
 * as such.
 */
#include <linux/kernel.h>

#include "sim.h"

#define K(x)	BIT(MDSIM_K_##x)

/* Skylake-SP and Ice Lake-SP: OFFCORE_RESPONSE_0/1 are 0xb7/0xbb */
static const struct mdsim_core_event skx_icx_core[] = {
	{ 0x48, 0x01, K(PEND), -1 },	/* L1D_PEND_MISS.PENDING */
	{ 0xd1, 0x08, K(L1_MISS), -1 },	/* MEM_LOAD_RETIRED.L1_MISS */
	{ 0xd1, 0x40, K(LFB_HIT), -1 },	/* MEM_LOAD_RETIRED.FB_HIT */
	{ 0x3c, 0x00, K(CYCLES), -1 },	/* CPU_CLK_UNHALTED.THREAD_P */
	{ 0xb7, 0x01, K(OFFCORE), 0 },
	{ 0xbb, 0x01, K(OFFCORE), 1 },
};

/* Golden Cove: OCR moved to 0x2a/0x2b; L1_MISS_ANY counts misses and FB hits */
static const struct mdsim_core_event spr_core[] = {
	{ 0x48, 0x01, K(PEND), -1 },	/* L1D_PEND_MISS.PENDING */
	{ 0xd1, 0x08, K(L1_MISS), -1 },	/* MEM_LOAD_RETIRED.L1_MISS */
	{ 0xd1, 0x40, K(LFB_HIT), -1 },	/* MEM_LOAD_RETIRED.FB_HIT */
	{ 0x3c, 0x00, K(CYCLES), -1 },	/* CPU_CLK_UNHALTED.THREAD_P */
	{ 0x43, 0xfd, K(L1_MISS) | K(LFB_HIT), -1 }, /* MEM_LOAD_COMPLETED.L1_MISS_ANY */
	{ 0x2a, 0x01, K(OFFCORE), 0 },
	{ 0x2b, 0x01, K(OFFCORE), 1 },
};

/*
 * Crestmont (Sierra Forest): no L1D_PEND_MISS at all, and L1 misses are
 * MEM_LOAD_UOPS_RETIRED.L1_MISS, umask 0x40 (FB_HIT's on the P-cores).
 * Its OCR events (0xb7, umask 1/2) are not modelled: no source gives an
 * "all reads from local DRAM" value for them, so they count nothing here.
 */
static const struct mdsim_core_event srf_core[] = {
	{ 0xd1, 0x40, K(L1_MISS), -1 },	/* MEM_LOAD_UOPS_RETIRED.L1_MISS */
	{ 0x3c, 0x00, K(CYCLES), -1 },	/* CPU_CLK_UNHALTED.THREAD_P */
};

#define RD	BIT(MDSIM_K_CAS_RD)
#define WR	BIT(MDSIM_K_CAS_WR)

/* UNC_M_CAS_COUNT.RD, .WR and .ALL */
static const struct mdsim_imc_event skx_imc[] = {
	{ 0x04, 0x03, RD }, { 0x04, 0x0c, WR }, { 0x04, 0x0f, RD | WR },
};

static const struct mdsim_imc_event icx_imc[] = {
	{ 0x04, 0x0f, RD }, { 0x04, 0x30, WR }, { 0x04, 0x3f, RD | WR },
};

static const struct mdsim_imc_event spr_imc[] = {
	{ 0x05, 0xcf, RD }, { 0x05, 0xf0, WR }, { 0x05, 0xff, RD | WR },
};

#define SCH(x)	BIT(MDSIM_K_CAS_##x)

/* UNC_M_CAS_COUNT_SCH0/SCH1.RD, .WR and .ALL: one event per sub-channel */
static const struct mdsim_imc_event gnr_imc[] = {
	{ 0x05, 0xcf, SCH(RD_SCH0) }, { 0x05, 0xf0, SCH(WR_SCH0) },
	{ 0x05, 0xff, SCH(RD_SCH0) | SCH(WR_SCH0) },
	{ 0x06, 0xcf, SCH(RD_SCH1) }, { 0x06, 0xf0, SCH(WR_SCH1) },
	{ 0x06, 0xff, SCH(RD_SCH1) | SCH(WR_SCH1) },
};

/* SNB-EP style box in a channel's config space (skx) */
static const struct mdsim_box_reg cfg_box_regs[] = {
	/* 48-bit counters: two dwords each */
	{ 0xa0, 4, MDSIM_BOX_CTR, 0, 0 }, { 0xa4, 4, MDSIM_BOX_CTR, 0, 32 },
	{ 0xa8, 4, MDSIM_BOX_CTR, 1, 0 }, { 0xac, 4, MDSIM_BOX_CTR, 1, 32 },
	{ 0xb0, 4, MDSIM_BOX_CTR, 2, 0 }, { 0xb4, 4, MDSIM_BOX_CTR, 2, 32 },
	{ 0xb8, 4, MDSIM_BOX_CTR, 3, 0 }, { 0xbc, 4, MDSIM_BOX_CTR, 3, 32 },
	{ 0xd0, 4, MDSIM_BOX_FIXED_CTR, 0, 0 },
	{ 0xd4, 4, MDSIM_BOX_FIXED_CTR, 0, 32 },
	{ 0xd8, 4, MDSIM_BOX_CTLN, 0 }, { 0xdc, 4, MDSIM_BOX_CTLN, 1 },
	{ 0xe0, 4, MDSIM_BOX_CTLN, 2 }, { 0xe4, 4, MDSIM_BOX_CTLN, 3 },
	{ 0xf0, 4, MDSIM_BOX_FIXED_CTL },
	{ 0xf4, 4, MDSIM_BOX_CTL },
};

static const struct mdsim_box_layout cfg_box = {
	cfg_box_regs, ARRAY_SIZE(cfg_box_regs)
};

/* A box in MMIO (icx, spr): 32-bit controls, 64-bit counters */
static const struct mdsim_box_reg mmio_box_regs[] = {
	{ 0x00, 4, MDSIM_BOX_CTL },
	{ 0x08, 8, MDSIM_BOX_CTR, 0 }, { 0x10, 8, MDSIM_BOX_CTR, 1 },
	{ 0x18, 8, MDSIM_BOX_CTR, 2 }, { 0x20, 8, MDSIM_BOX_CTR, 3 },
	{ 0x38, 8, MDSIM_BOX_FIXED_CTR },
	{ 0x40, 4, MDSIM_BOX_CTLN, 0 }, { 0x44, 4, MDSIM_BOX_CTLN, 1 },
	{ 0x48, 4, MDSIM_BOX_CTLN, 2 }, { 0x4c, 4, MDSIM_BOX_CTLN, 3 },
	{ 0x54, 4, MDSIM_BOX_FIXED_CTL },
};

static const struct mdsim_box_layout mmio_box = {
	mmio_box_regs, ARRAY_SIZE(mmio_box_regs)
};

/* Skylake-SP: the same three ids on both MCs, told apart by dev:fn */
static const struct mdsim_fn_desc skx_fns[] = {
	{ MDSIM_FN_UBOX, 0x2014, 8, 0 },
	{ MDSIM_FN_CHAN, 0x2042, 10, 2, 0 },
	{ MDSIM_FN_CHAN, 0x2046, 10, 6, 1 },
	{ MDSIM_FN_CHAN, 0x204a, 11, 2, 2 },
	{ MDSIM_FN_CHAN, 0x2042, 12, 2, 3 },
	{ MDSIM_FN_CHAN, 0x2046, 12, 6, 4 },
	{ MDSIM_FN_CHAN, 0x204a, 13, 2, 5 },
};

static const struct mdsim_fn_desc icx_fns[] = {
	{ MDSIM_FN_UBOX, 0x3450, 8, 0 },
	{ MDSIM_FN_MC, 0x3451, 0, 1 },
};

static const struct mdsim_fn_desc spr_fns[] = {
	{ MDSIM_FN_UBOX, 0x3250, 8, 0 },
	{ MDSIM_FN_DISC, 0x09a7, 0, 1 },
};

/* Granite Rapids: the discovery table and no UBOX to map buses */
static const struct mdsim_fn_desc gnr_fns[] = {
	{ MDSIM_FN_DISC, 0x09a7, 0, 1 },
};

/*
 * Sapphire Rapids discovery table: the eight IMC units (type 6) mixed with
 * CHA (type 0) and IIO (type 1) units reached by MSR, so that a reader has
 * to filter by type; the non-IMC units are the sim's choice.
 */
#define MSR_UNIT(t, i, ctl)	{ (t), (i), 0, 0x02, 0x08, 0x0e, (ctl) }
#define IMC_UNIT(i)		{ 6, (i), 1, 0x40, 0x08, 0x5c, 0 }

static const struct mdsim_disc_unit spr_units[] = {
	MSR_UNIT(0, 0, 0x2000), MSR_UNIT(0, 1, 0x2010),
	IMC_UNIT(0), IMC_UNIT(1), IMC_UNIT(2), IMC_UNIT(3),
	MSR_UNIT(1, 0, 0x3000),
	IMC_UNIT(4), IMC_UNIT(5), IMC_UNIT(6), IMC_UNIT(7),
	MSR_UNIT(1, 1, 0x3010),
};

/*
 * Granite Rapids: the same IMC units (type 6) among units of types the
 * kernel's gnr_uncores[] lists (CHA 0, IIO 1, UBOX 5 by MSR); the non-IMC
 * units are the sim's choice.
 */
static const struct mdsim_disc_unit gnr_units[] = {
	MSR_UNIT(0, 0, 0x2000), MSR_UNIT(5, 0, 0x2fd0),
	IMC_UNIT(0), IMC_UNIT(1), IMC_UNIT(2), IMC_UNIT(3),
	MSR_UNIT(1, 0, 0x3000),
	IMC_UNIT(4), IMC_UNIT(5), IMC_UNIT(6), IMC_UNIT(7),
};

/* SNB-EP style box control: reset controls, reset counters, freeze, freeze enable */
#define SNBEP_BOX							\
	.box_rst_ctrl = BIT(0), .box_rst_ctrs = BIT(1),			\
	.box_frz = BIT(8), .box_keep = BIT(8) | BIT(16), .ctl_en = BIT(22)

#define INTEL_PF_BITS	GENMASK_ULL(3, 0)	/* MSR 0x1A4 bits 0-3 */

static const struct mdsim_uarch skx = {
	.name = "skx", .family = 6, .model = 0x55, .stepping = 4,
	.misc_bits = INTEL_PF_BITS,
	.version = 4, .n_gp = 4,
	.rsp_mask = 0x3fffff8fffULL,
	.rsp_local_dram = 0x604000491ULL,
	.core_events = skx_icx_core, .n_core_events = ARRAY_SIZE(skx_icx_core),
	.imc = MDSIM_IMC_PCI,
	.fns = skx_fns, .n_fns = ARRAY_SIZE(skx_fns),
	.n_chans = 6, .layout = &cfg_box, SNBEP_BOX,
	.imc_events = skx_imc, .n_imc_events = ARRAY_SIZE(skx_imc),
};

static const struct mdsim_uarch icx = {
	.name = "icx", .family = 6, .model = 0x6a, .stepping = 6,
	.misc_bits = INTEL_PF_BITS,
	.version = 5, .n_gp = 8,
	.global_ctrl_extra = BIT_ULL(48),	/* perf metrics */
	.rsp_mask = 0x3fffffbfffULL,
	.rsp_local_dram = 0x104000477ULL,
	.core_events = skx_icx_core, .n_core_events = ARRAY_SIZE(skx_icx_core),
	.imc = MDSIM_IMC_MMIO,
	.fns = icx_fns, .n_fns = ARRAY_SIZE(icx_fns),
	.n_chans = 8, .layout = &mmio_box, SNBEP_BOX,
	.imc_events = icx_imc, .n_imc_events = ARRAY_SIZE(icx_imc),
};

/* Golden Cove's core PMU (Sapphire Rapids on) */
#define GLC_CORE							\
	.version = 5, .n_gp = 8,					\
	.global_ctrl_extra = BIT_ULL(48),				\
	.rsp_mask = 0x3fffffffffULL,					\
	.rsp_local_dram = 0x104004477ULL,				\
	.core_events = spr_core, .n_core_events = ARRAY_SIZE(spr_core)

/* Boxes in discovery tables, "generic" box control: freeze is bit 0; counters need no enable bit */
#define GENERIC_BOX							\
	.imc = MDSIM_IMC_DISCOVERY, .n_chans = 8, .layout = &mmio_box,	\
	.box_rst_ctrl = BIT(8), .box_rst_ctrs = BIT(9),			\
	.box_frz = BIT(0), .box_keep = BIT(0), .ctl_en = 0

static const struct mdsim_uarch spr = {
	.name = "spr", .family = 6, .model = 0x8f, .stepping = 8,
	.misc_bits = INTEL_PF_BITS,
	GLC_CORE, GENERIC_BOX,
	.fns = spr_fns, .n_fns = ARRAY_SIZE(spr_fns),
	.imc_events = spr_imc, .n_imc_events = ARRAY_SIZE(spr_imc),
	.units = spr_units, .n_units = ARRAY_SIZE(spr_units),
};

/*
 * Xeon 6: Granite Rapids' Redwood Cove counts as SPR's Golden Cove
 * (perf's graniterapids JSON, the kernel's intel_rwc_extra_regs
 * OFFCORE_RSP mask); Sierra Forest's Crestmont as above, its OFFCORE_RSP
 * mask from intel_cmt_extra_regs. Both have the same IMC boxes (the
 * kernel's gnr_uncore_init serves both), found through discovery tables
 * alone, each counting CAS per sub-channel. Steppings are the sim's choice.
 */
#define XEON6_IMC							\
	GENERIC_BOX, .fns = gnr_fns, .n_fns = ARRAY_SIZE(gnr_fns),	\
	.imc_events = gnr_imc, .n_imc_events = ARRAY_SIZE(gnr_imc),	\
	.units = gnr_units, .n_units = ARRAY_SIZE(gnr_units)

static const struct mdsim_uarch gnr = {
	.name = "gnr", .family = 6, .model = 0xad, .stepping = 1,
	.misc_bits = INTEL_PF_BITS,
	GLC_CORE, XEON6_IMC,
};

static const struct mdsim_uarch srf = {
	.name = "srf", .family = 6, .model = 0xaf, .stepping = 3,
	.misc_bits = INTEL_PF_BITS,
	.version = 5, .n_gp = 8,
	.rsp_mask = 0x800ff3ffffffffffULL,
	.core_events = srf_core, .n_core_events = ARRAY_SIZE(srf_core),
	XEON6_IMC,
};

/*
 * Zen 4 and Zen 5 (amdzen4/amdzen5 JSON): the MAB occupancy counts the
 * sim's pending misses; each L1 miss or fill-buffer hit allocates a MAB
 * entry (the sim's choice), so occupancy / allocations is the latency knob.
 */
static const struct mdsim_core_event zen4_core[] = {
	{ 0x5f, 0x00, K(PEND), -1 },		/* ls_alloc_mab_count */
	{ 0x41, 0x7f, K(L1_MISS) | K(LFB_HIT), -1 }, /* ls_mab_alloc.all_allocations */
	{ 0x76, 0x00, K(CYCLES), -1 },		/* ls_not_halted_cyc */
	{ 0xc0, 0x00, K(INSTR), -1 },		/* ex_ret_instr */
};

static const struct mdsim_core_event zen5_core[] = {
	{ 0x5f, 0x00, K(PEND), -1 },
	{ 0x41, 0x0f, K(L1_MISS) | K(LFB_HIT), -1 },
	{ 0x76, 0x00, K(CYCLES), -1 },
	{ 0xc0, 0x00, K(INSTR), -1 },
};

/* umc_cas_cmd.rd, .wr and .all: RdWrMask 1, 2, 3 in bits 9:8 */
static const struct mdsim_imc_event zen_umc[] = {
	{ 0x0a, 0x01, RD }, { 0x0a, 0x02, WR }, { 0x0a, 0x03, RD | WR },
};

/* a UMC's control i at MSR offset 2i, its counter at 2i + 1 */
static const struct mdsim_box_reg umc_box_regs[] = {
	{ 0, 8, MDSIM_BOX_CTLN, 0 }, { 1, 8, MDSIM_BOX_CTR, 0 },
	{ 2, 8, MDSIM_BOX_CTLN, 1 }, { 3, 8, MDSIM_BOX_CTR, 1 },
	{ 4, 8, MDSIM_BOX_CTLN, 2 }, { 5, 8, MDSIM_BOX_CTR, 2 },
	{ 6, 8, MDSIM_BOX_CTLN, 3 }, { 7, 8, MDSIM_BOX_CTR, 3 },
};

static const struct mdsim_box_layout umc_box = {
	umc_box_regs, ARRAY_SIZE(umc_box_regs)
};

/*
 * Eight UMCs of four counters (the sim's choice; Genoa has twelve),
 * enable bit 31, no box control, counters that saturate.
 */
#define ZEN_UMC								\
	.imc = MDSIM_IMC_PCI, .layout = &umc_box, .n_chans = 8,		\
	.umc_per = 4, .ctl_en = BIT(31),				\
	.imc_events = zen_umc, .n_imc_events = ARRAY_SIZE(zen_umc)

#define L3K(x)	BIT(MDSIM_L3_##x)
#define L3_LAT	(L3K(LAT_NEAR) | L3K(LAT_FAR))
#define L3_REQ	(L3K(REQ_NEAR) | L3K(REQ_FAR))

/*
 * Zen 4/5 (amdzen4 cache.json, amdzen5 l3-cache.json):
 * l3_xi_sampled_latency and its requests, dram_near umask 1, dram_far 2;
 * the latency in tenths of core clocks (recommended.json's x 10)
 */
static const struct mdsim_l3_event zen45_l3[] = {
	{ 0xac, 0x01, L3K(LAT_NEAR), 10 }, { 0xac, 0x02, L3K(LAT_FAR), 10 },
	{ 0xac, 0x03, L3_LAT, 10 },
	{ 0xad, 0x01, L3K(REQ_NEAR), 1 }, { 0xad, 0x02, L3K(REQ_FAR), 1 },
	{ 0xad, 0x03, L3_REQ, 1 },
};

/*
 * Zen 2/3 (amdzen2/amdzen3 cache.json): xi_sys_fill_latency, the cycles
 * over 16, and xi_ccx_sdp_req1, which on Zen 3 counts only with umask
 * 0xff; Zen 2's all_l3_miss_req_typs is umask 0x3f. Another umask counts
 * nothing here (the sim's choice).
 */
static const struct mdsim_l3_event zen2_l3[] = {
	{ 0x90, 0x00, L3_LAT, 16 }, { 0x9a, 0x3f, L3_REQ, 1 },
};

static const struct mdsim_l3_event zen3_l3[] = {
	{ 0x90, 0x00, L3_LAT, 16 }, { 0x9a, 0xff, L3_REQ, 1 },
};

/*
 * L3 control layouts (perf_event.h's AMD64_L3_*), each with the bits
 * amd/uncore.c sets so that every core, thread and slice counts.
 * Family 0x19 on: CoreId 44:42, EnAllSlices 46, EnAllCores 47, SliceId
 * 50:48, ThreadMask 57:56. Family 0x17: SliceMask 51:48, ThreadMask 63:56.
 */
#define L3_F19H								\
	.l3_bits = GENMASK_ULL(15, 0) | GENMASK_ULL(44, 42) |		\
		   GENMASK_ULL(50, 46) | GENMASK_ULL(57, 56),		\
	.l3_all = 0x3ULL << 56 | BIT_ULL(47) | BIT_ULL(46)
#define L3_F17H								\
	.l3_bits = GENMASK_ULL(15, 0) | GENMASK_ULL(51, 48) |		\
		   GENMASK_ULL(63, 56),					\
	.l3_all = 0xffULL << 56 | 0xfULL << 48

/* PrefetchControl 0xC0000108: bits 0-3 and 5; bit 4 is reserved */
#define AMD_PF_BITS	(GENMASK_ULL(3, 0) | BIT_ULL(5))

/* Genoa (family 0x19 model 0x11) and Turin (0x1a, 0x02): the sim's picks */
static const struct mdsim_uarch zen4 = {
	.name = "zen4", .amd = true, .family = 0x19, .model = 0x11,
	.stepping = 1, .n_gp = 6, .misc_bits = AMD_PF_BITS,
	.core_events = zen4_core, .n_core_events = ARRAY_SIZE(zen4_core),
	ZEN_UMC, L3_F19H,
	.l3_events = zen45_l3, .n_l3_events = ARRAY_SIZE(zen45_l3),
};

static const struct mdsim_uarch zen5 = {
	.name = "zen5", .amd = true, .family = 0x1a, .model = 0x02,
	.stepping = 1, .n_gp = 6, .misc_bits = AMD_PF_BITS,
	.core_events = zen5_core, .n_core_events = ARRAY_SIZE(zen5_core),
	ZEN_UMC, L3_F19H,
	.l3_events = zen45_l3, .n_l3_events = ARRAY_SIZE(zen45_l3),
};

/*
 * Zen 2 and Zen 3 (Rome 0x17/0x31, Milan 0x19/0x01: the sim's picks): no
 * PerfMonV2 and no UMC counters; a DF node of four counters over eight
 * channels (df.c). The channels carry unequal shares of the socket's
 * traffic (1 to 8 of 36), so that a channel counted under another's name,
 * or a socket total taken from some channels only, shows.
 */
static const u8 zen23_chan_weight[] = { 1, 2, 3, 4, 5, 6, 7, 8 };

/* Zen 2: no ls_alloc_mab_count in perf's amdzen2 JSON */
static const struct mdsim_core_event zen2_core[] = {
	{ 0x76, 0x00, K(CYCLES), -1 },		/* ls_not_halted_cyc */
	{ 0xc0, 0x00, K(INSTR), -1 },		/* ex_ret_instr */
};

/*
 * Zen 3 (amdzen3 memory.json): as Zen 4, but ls_alloc_mab_count is a
 * Large Increment per Cycle event, exact only when merged (core_count.c)
 */
static const struct mdsim_core_event zen3_core[] = {
	{ 0x5f, 0x00, K(PEND), -1, true },	/* ls_alloc_mab_count */
	{ 0x41, 0x7f, K(L1_MISS) | K(LFB_HIT), -1 }, /* ls_mab_alloc.all_allocations */
	{ 0x76, 0x00, K(CYCLES), -1 },		/* ls_not_halted_cyc */
	{ 0xc0, 0x00, K(INSTR), -1 },		/* ex_ret_instr */
};

/* no PerfMonV2: six PerfCtl/PerfCtr pairs without a global control */
#define ZEN_DF								\
	.imc = MDSIM_IMC_PCI, .layout = &umc_box, .n_chans = 8,		\
	.df = true, .chan_weight = zen23_chan_weight, .legacy_core = true

static const struct mdsim_uarch zen2 = {
	.name = "zen2", .amd = true, .family = 0x17, .model = 0x31,
	.stepping = 0, .n_gp = 6, .misc_bits = AMD_PF_BITS,
	ZEN_DF, L3_F17H,
	.core_events = zen2_core, .n_core_events = ARRAY_SIZE(zen2_core),
	.l3_events = zen2_l3, .n_l3_events = ARRAY_SIZE(zen2_l3),
};

static const struct mdsim_uarch zen3 = {
	.name = "zen3", .amd = true, .family = 0x19, .model = 0x01,
	.stepping = 1, .n_gp = 6, .misc_bits = AMD_PF_BITS,
	ZEN_DF, L3_F19H,
	.core_events = zen3_core, .n_core_events = ARRAY_SIZE(zen3_core),
	.l3_events = zen3_l3, .n_l3_events = ARRAY_SIZE(zen3_l3),
};

const struct mdsim_uarch * const mdsim_uarchs[] = {
	&skx, &icx, &spr, &gnr, &srf, &zen2, &zen3, &zen4, &zen5
};

const unsigned int mdsim_n_uarchs = ARRAY_SIZE(mdsim_uarchs);
