// SPDX-License-Identifier: GPL-2.0
/*
 * uarch_table.c - the processors memdiag supports, as data.
 *
 * Sources, all in Debian's linux-source-6.12, and checked row by row by
 * selftests/host/uarch_oracle.py:
 *  - family/model/stepping and the pmu-events directory:
 *    tools/perf/pmu-events/arch/x86/mapfile.csv
 *  - core and uncore event encodings, counter restrictions and offcore
 *    request/response values: that directory's JSON files
 *  - IMC PCI ids, UBOX registers, box register offsets and control bits:
 *    arch/x86/events/intel/uncore_snbep.c and uncore_discovery.[ch]
 *  - AMD family/model ranges: arch/x86/kernel/cpu/amd.c (X86_FEATURE_ZEN*);
 *    core PMU MSRs: msr-index.h and arch/x86/events/amd/core.c
 */
#include <linux/kernel.h>
#include <linux/types.h>
#include "uarch.h"

/* Haswell-EP and Broadwell-EP: MC0 channels 0-3 at 20:0..21:1, MC1 at 23:0..24:1 */
static const struct memdiag_imc_chan hswep_chans[] = {
	{ 0x2fb0, 20, 0 }, { 0x2fb1, 20, 1 }, { 0x2fb4, 21, 0 }, { 0x2fb5, 21, 1 },
	{ 0x2fd0, 23, 0 }, { 0x2fd1, 23, 1 }, { 0x2fd4, 24, 0 }, { 0x2fd5, 24, 1 },
};

static const struct memdiag_imc_chan bdx_chans[] = {
	{ 0x6fb0, 20, 0 }, { 0x6fb1, 20, 1 }, { 0x6fb4, 21, 0 }, { 0x6fb5, 21, 1 },
	{ 0x6fd0, 23, 0 }, { 0x6fd1, 23, 1 }, { 0x6fd4, 24, 0 }, { 0x6fd5, 24, 1 },
};

/* Skylake-SP: the same three ids on both MCs, told apart by dev:fn */
static const struct memdiag_imc_chan skx_chans[] = {
	{ 0x2042, 10, 2 }, { 0x2046, 10, 6 }, { 0x204a, 11, 2 },
	{ 0x2042, 12, 2 }, { 0x2046, 12, 6 }, { 0x204a, 13, 2 },
};

/* SNB-EP style PCI boxes: box ctl 0xf4, ctl 0xd8 + 4i, ctr 0xa0 + 8i */
static const struct memdiag_imc_box_type snbep_pci_box = {
	.access = MEMDIAG_IMC_PCI,
	.box_ctl = 0xf4, .ctl0 = 0xd8, .ctr0 = 0xa0,
	.ctl_stride = 4, .ctr_stride = 8, .n_ctrs = 4, .ctr_bits = 48,
	.ctl_en = 1u << 22, .box_frz = 1u << 8,
};

/* Ice Lake-SP: the same box in MMIO */
static const struct memdiag_imc_box_type icx_mmio_box = {
	.access = MEMDIAG_IMC_MMIO, .box_size = 0x4000,
	.box_ctl = 0x00, .ctl0 = 0x40, .ctr0 = 0x08,
	.ctl_stride = 4, .ctr_stride = 8, .n_ctrs = 4, .ctr_bits = 48,
	.ctl_en = 1u << 22, .box_frz = 1u << 8,
};

/*
 * Sapphire Rapids on: boxes found through discovery tables, with the
 * "generic" box control (freeze is bit 0) and no enable bit in counter
 * controls; offsets within a box come from the table, these are defaults.
 */
static const struct memdiag_imc_box_type generic_mmio_box = {
	.access = MEMDIAG_IMC_DISCOVERY, .box_size = 0x4000,
	.box_ctl = 0x00, .ctl0 = 0x40, .ctr0 = 0x08,
	.ctl_stride = 4, .ctr_stride = 8, .n_ctrs = 4, .ctr_bits = 48,
	.ctl_en = 0, .box_frz = 1u << 0,
};

/* Every CAS moves one 64-byte line. */
#define CAS(name, ev, um, m)	{ name, ev, um, 0, MEMDIAG_IMC_##m, 64 }

static const struct memdiag_imc_event snbep_cas[] = {
	CAS("UNC_M_CAS_COUNT.RD", 0x04, 0x03, READ),
	CAS("UNC_M_CAS_COUNT.WR", 0x04, 0x0c, WRITE),
};

static const struct memdiag_imc_event icx_cas[] = {
	CAS("UNC_M_CAS_COUNT.RD", 0x04, 0x0f, READ),
	CAS("UNC_M_CAS_COUNT.WR", 0x04, 0x30, WRITE),
};

static const struct memdiag_imc_event spr_cas[] = {
	CAS("UNC_M_CAS_COUNT.RD", 0x05, 0xcf, READ),
	CAS("UNC_M_CAS_COUNT.WR", 0x05, 0xf0, WRITE),
};

/*
 * Granite Rapids and Sierra Forest (DDR5): CAS per sub-channel, two
 * schedulers per channel box; a channel's bytes are both sub-channels'.
 */
static const struct memdiag_imc_event gnr_cas[] = {
	CAS("UNC_M_CAS_COUNT_SCH0.RD", 0x05, 0xcf, READ),
	CAS("UNC_M_CAS_COUNT_SCH1.RD", 0x06, 0xcf, READ),
	CAS("UNC_M_CAS_COUNT_SCH0.WR", 0x05, 0xf0, WRITE),
	CAS("UNC_M_CAS_COUNT_SCH1.WR", 0x06, 0xf0, WRITE),
};

#define UBOX(dev, node, map, rev)					\
	.socket_map = MEMDIAG_IMC_MAP_UBOX, .ubox_device = dev,		\
	.ubox_nodeid = node, .ubox_gidnidmap = map, .ubox_reverse = rev

static const struct memdiag_imc_desc hswep_imc = {
	.box = &snbep_pci_box, .events = snbep_cas, .n_events = ARRAY_SIZE(snbep_cas),
	UBOX(0x2f1e, 0x40, 0x54, true),
	.chans = hswep_chans, .n_chans = ARRAY_SIZE(hswep_chans),
};

static const struct memdiag_imc_desc bdx_imc = {
	.box = &snbep_pci_box, .events = snbep_cas, .n_events = ARRAY_SIZE(snbep_cas),
	UBOX(0x6f1e, 0x40, 0x54, true),
	.chans = bdx_chans, .n_chans = ARRAY_SIZE(bdx_chans),
};

static const struct memdiag_imc_desc skx_imc = {
	.box = &snbep_pci_box, .events = snbep_cas, .n_events = ARRAY_SIZE(snbep_cas),
	UBOX(0x2014, 0xc0, 0xd4, false),
	.chans = skx_chans, .n_chans = ARRAY_SIZE(skx_chans),
};

/* Ice Lake-SP: 4 MCs, 2 populated channel boxes each, in MMIO */
static const struct memdiag_imc_desc icx_imc = {
	.box = &icx_mmio_box, .events = icx_cas, .n_events = ARRAY_SIZE(icx_cas),
	UBOX(0x3450, 0xc0, 0xd4, true),
	.mc_device = 0x3451, .mc_base_reg = 0xd0, .mc_off_reg = 0xd8,
	.n_mc = 4, .chans_per_mc = 2,
	.chan_base = 0x22800, .chan_stride = 0x4000,
};

static const struct memdiag_imc_desc spr_imc = {
	.box = &generic_mmio_box, .events = spr_cas, .n_events = ARRAY_SIZE(spr_cas),
	UBOX(0x3250, 0xc0, 0xd4, true),
	.discovery_type = 6,
};

/*
 * Granite Rapids on: no UBOX maps buses to packages (gnr_uncore_init has
 * no pci2phy map); each discovery table's device belongs to the socket of
 * its local CPUs, as uncore_discovery.c's get_device_die_id() decides.
 */
static const struct memdiag_imc_desc gnr_imc = {
	.box = &generic_mmio_box,
	.events = gnr_cas, .n_events = ARRAY_SIZE(gnr_cas),
	.socket_map = MEMDIAG_IMC_MAP_LOCAL,
	.discovery_type = 6,
};

/* Haswell/Broadwell: L1D_PEND_MISS.PENDING runs on PMC2 only */
static const struct memdiag_core_event hswep_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_PENDING] = { "L1D_PEND_MISS.PENDING", 0x48, 0x01, 0x4 },
	[MEMDIAG_EV_L1_MISS] = { "MEM_LOAD_UOPS_RETIRED.L1_MISS", 0xd1, 0x08, 0xf },
	[MEMDIAG_EV_LFB_HIT] = { "MEM_LOAD_UOPS_RETIRED.HIT_LFB", 0xd1, 0x40, 0xf },
	[MEMDIAG_EV_OFFCORE] = { "OFFCORE_RESPONSE.ALL_READS.LLC_MISS.LOCAL_DRAM",
				 0xb7, 0x01, 0xf, 0x6004007f7 },
};

/* Broadwell-EP encodes "local DRAM" differently from Haswell-EP */
static const struct memdiag_core_event bdx_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_PENDING] = { "L1D_PEND_MISS.PENDING", 0x48, 0x01, 0x4 },
	[MEMDIAG_EV_L1_MISS] = { "MEM_LOAD_UOPS_RETIRED.L1_MISS", 0xd1, 0x08, 0xf },
	[MEMDIAG_EV_LFB_HIT] = { "MEM_LOAD_UOPS_RETIRED.HIT_LFB", 0xd1, 0x40, 0xf },
	[MEMDIAG_EV_OFFCORE] = { "OFFCORE_RESPONSE.ALL_READS.LLC_MISS.LOCAL_DRAM",
				 0xb7, 0x01, 0xf, 0x6040007f7 },
};

static const struct memdiag_core_event skx_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_PENDING] = { "L1D_PEND_MISS.PENDING", 0x48, 0x01, 0xf },
	[MEMDIAG_EV_L1_MISS] = { "MEM_LOAD_RETIRED.L1_MISS", 0xd1, 0x08, 0xf },
	[MEMDIAG_EV_LFB_HIT] = { "MEM_LOAD_RETIRED.FB_HIT", 0xd1, 0x40, 0xf },
	[MEMDIAG_EV_OFFCORE] = {
		"OFFCORE_RESPONSE.ALL_DATA_RD.L3_MISS_LOCAL_DRAM.SNOOP_MISS_OR_NO_FWD",
		0xb7, 0x01, 0xf, 0x604000491 },
};

static const struct memdiag_core_event clx_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_PENDING] = { "L1D_PEND_MISS.PENDING", 0x48, 0x01, 0xf },
	[MEMDIAG_EV_L1_MISS] = { "MEM_LOAD_RETIRED.L1_MISS", 0xd1, 0x08, 0xf },
	[MEMDIAG_EV_LFB_HIT] = { "MEM_LOAD_RETIRED.FB_HIT", 0xd1, 0x40, 0xf },
	[MEMDIAG_EV_OFFCORE] = { "OCR.ALL_READS.L3_MISS_LOCAL_DRAM.ANY_SNOOP",
				 0xb7, 0x01, 0xf, 0x3f840007f7 },
};

static const struct memdiag_core_event icx_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_PENDING] = { "L1D_PEND_MISS.PENDING", 0x48, 0x01, 0xf },
	[MEMDIAG_EV_L1_MISS] = { "MEM_LOAD_RETIRED.L1_MISS", 0xd1, 0x08, 0xf },
	[MEMDIAG_EV_LFB_HIT] = { "MEM_LOAD_RETIRED.FB_HIT", 0xd1, 0x40, 0xf },
	[MEMDIAG_EV_OFFCORE] = { "OCR.READS_TO_CORE.LOCAL_DRAM",
				 0xb7, 0x01, 0xf, 0x104000477 },
};

/*
 * Golden Cove: offcore moved to event 0x2a, and every event here is
 * restricted to PMC0-3, so the fill-buffer-hit event (which the SPR
 * load_miss_real_latency does not use) is left out.
 */
static const struct memdiag_core_event spr_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_PENDING] = { "L1D_PEND_MISS.PENDING", 0x48, 0x01, 0xf },
	[MEMDIAG_EV_L1_MISS] = { "MEM_LOAD_RETIRED.L1_MISS", 0xd1, 0x08, 0xf },
	[MEMDIAG_EV_L1_MISS_ANY] = { "MEM_LOAD_COMPLETED.L1_MISS_ANY", 0x43, 0xfd, 0xf },
	[MEMDIAG_EV_OFFCORE] = { "OCR.READS_TO_CORE.LOCAL_DRAM",
				 0x2a, 0x01, 0xf, 0x104004477 },
};

/*
 * Crestmont E-cores (Sierra Forest): perf's sierraforest JSON has no
 * L1D_PEND_MISS event, so neither latency metric exists, and its offcore
 * events (0xb7) name no "all reads from local DRAM". The L1 misses are
 * still counted, under their own name.
 */
static const struct memdiag_core_event srf_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_L1_MISS] = { "MEM_LOAD_UOPS_RETIRED.L1_MISS", 0xd1, 0x40, 0xff },
};

/*
 * Zen 4 and Zen 5: the Miss Address Buffer occupancy over its allocations.
 * ls_alloc_mab_count counts every in-flight L1D miss, prefetcher-allocated
 * entries included, so the denominator is all allocations (Little's law
 * needs one population), not only the load/store ones.
 */
static const struct memdiag_core_event zen4_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_MAB_OCC] = { "ls_alloc_mab_count", 0x5f, 0x00, 0x3f },
	[MEMDIAG_EV_MAB_ALLOC] = { "ls_mab_alloc.all_allocations", 0x41, 0x7f, 0x3f },
};

static const struct memdiag_core_event zen5_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_MAB_OCC] = { "ls_alloc_mab_count", 0x5f, 0x00, 0x3f },
	[MEMDIAG_EV_MAB_ALLOC] = { "ls_mab_alloc.all_allocations", 0x41, 0x0f, 0x3f },
};

/*
 * Zen 3: as Zen 4 (the same events in amdzen3 memory.json), but the JSON
 * says ls_alloc_mab_count counts the in-flight misses divided by 4 and
 * rounded down each cycle unless merged: memdiag runs it on an even
 * counter (amd/core.c's pair_constraint) with the merge event above it.
 */
static const struct memdiag_core_event zen3_core[MEMDIAG_EV_NR] = {
	[MEMDIAG_EV_MAB_OCC] = { "ls_alloc_mab_count", 0x5f, 0x00, 0x15, 0,
				 true },
	[MEMDIAG_EV_MAB_ALLOC] = { "ls_mab_alloc.all_allocations", 0x41, 0x7f, 0x3f },
};

/* AMD has no fixed counters and no reference-cycles event */
static const struct memdiag_core_event zen_fix[MEMDIAG_GPFIX_NR] = {
	[MEMDIAG_GPFIX_INSTR] = { "ex_ret_instr", 0xc0, 0x00, 0x3f },
	[MEMDIAG_GPFIX_CYCLES] = { "ls_not_halted_cyc", 0x76, 0x00, 0x3f },
};

/* Architectural perfmon: IA32_PERFEVTSELi, IA32_PMCi, fixed counters */
static const struct memdiag_core_pmu intel_pmu = {
	.name = "Intel architectural perfmon",
	.evtsel = 0x186, .ctr = 0xc1, .stride = 1,
	.global_ctrl = 0x38f,
	.fixed_ctrl = 0x38d, .fixed_ctr = 0x309,
	.offcore_rsp = 0x1a6,
};

/*
 * AMD family 0x15 and later (PerfCtl/PerfCtr pairs), with PerfMonV2's
 * PerfCntrGlobalCtl on Zen 4 and Zen 5; counters are 48 bits.
 */
static const struct memdiag_core_pmu amd_pmu = {
	.name = "AMD PerfMonV2",
	.evtsel = 0xc0010200, .ctr = 0xc0010201, .stride = 2,
	.global_ctrl = 0xc0000301,
	.ctr_bits = 48,
};

/*
 * AMD family 0x17 and 0x19 before PerfMonV2 (Zen 2, Zen 3): the same
 * pairs, no global control, AMD64_NUM_COUNTERS_CORE counters
 * (amd/core.c without X86_FEATURE_PERFMON_V2). Family 0x17 on merges an
 * even counter with the odd one above it for Large Increment per Cycle
 * events: the odd one's control is AMD_MERGE_EVENT_ENABLE (amd/core.c:
 * event bits 11:0 all ones, enabled).
 */
static const struct memdiag_core_pmu amd_legacy_pmu = {
	.name = "AMD PerfCtl/PerfCtr",
	.evtsel = 0xc0010200, .ctr = 0xc0010201, .stride = 2,
	.ctr_bits = 48, .n_ctrs = 6,
	.merge_evtsel = 0xfULL << 32 | 0xff | BIT_ULL(22),
};

#define INTEL_GP(n, m, s0, s1, dir, gp)					\
	.name = n, .vendor = "GenuineIntel", .family = 6, .model = m,	\
	.stepping_min = s0, .stepping_max = s1, .pmu_events = dir,	\
	.pmu = &intel_pmu, .gp_counters_min = gp
#define INTEL(n, m, s0, s1, dir)	INTEL_GP(n, m, s0, s1, dir, 4)

#define AMD_PMU(n, f, m0, m1, dir, core_pmu)				\
	.name = n, .vendor = "AuthenticAMD", .family = f,		\
	.model = m0, .model_max = m1, .stepping_max = 0xf,		\
	.pmu_events = dir, .pmu = core_pmu, .gp_counters_min = 4
#define AMD(n, f, m0, m1, dir)	AMD_PMU(n, f, m0, m1, dir, &amd_pmu)

/*
 * The L3 PMU of a CCX (amd/uncore.c "amd_l3"): MSR_F16H_L2I_PERF_CTL/CTR
 * + 2i, six 48-bit counters (NUM_COUNTERS_L3, COUNTER_SHIFT), enabled by
 * bit 22. Family 0x19 on: ThreadMask (57:56), EnAllCores (47),
 * EnAllSlices (46) as perf_event.h's AMD64_L3_* and perf's JSON set them
 * (SliceId 3 too, as the JSON has it; EnAllSlices makes it moot), so that
 * every core, thread and slice of the CCX counts.
 */
#define ZEN_L3_CTL_EXTRA	(0x3ULL << 56 | BIT_ULL(47) | BIT_ULL(46) | \
				 0x3ULL << 48)
#define ZEN_L3(gen)							\
static const struct memdiag_l3_pmu gen##_l3 = {				\
	.ctl0 = 0xc0010230, .ctr0 = 0xc0010231, .stride = 2,		\
	.n_ctrs = 6, .ctr_bits = 48, .ctl_en = BIT_ULL(22),		\
	.ctl_extra = ZEN_L3_CTL_EXTRA,					\
	.events = gen##_l3_events, .n_events = ARRAY_SIZE(gen##_l3_events), \
}

/*
 * The DRAM rows of l3_xi_sampled_latency (0xac) and its _requests (0xad):
 * dram_near (umask 0x01, this NUMA node) and dram_far (0x02), near and far
 * summed; recommended.json's l3_read_miss_latency is 10 x 0xac / 0xad in
 * core clocks (amdzen4 cache.json, amdzen5 l3-cache.json).
 */
static const struct memdiag_l3_event zen4_l3_events[] = {
	{ "l3_xi_sampled_latency.dram_near", 0xac, 0x01, MEMDIAG_L3_LATENCY, 10 },
	{ "l3_xi_sampled_latency.dram_far", 0xac, 0x02, MEMDIAG_L3_LATENCY, 10 },
	{ "l3_xi_sampled_latency_requests.dram_near", 0xad, 0x01, MEMDIAG_L3_REQUESTS, 1 },
	{ "l3_xi_sampled_latency_requests.dram_far", 0xad, 0x02, MEMDIAG_L3_REQUESTS, 1 },
};

static const struct memdiag_l3_event zen5_l3_events[] = {
	{ "l3_xi_sampled_latency.dram_near", 0xac, 0x01, MEMDIAG_L3_LATENCY, 10 },
	{ "l3_xi_sampled_latency.dram_far", 0xac, 0x02, MEMDIAG_L3_LATENCY, 10 },
	{ "l3_xi_sampled_latency_requests.dram_near", 0xad, 0x01, MEMDIAG_L3_REQUESTS, 1 },
	{ "l3_xi_sampled_latency_requests.dram_far", 0xad, 0x02, MEMDIAG_L3_REQUESTS, 1 },
};

ZEN_L3(zen4);
ZEN_L3(zen5);

/*
 * Zen 2 and Zen 3: no sampled DRAM latency; recommended.json's
 * l3_read_miss_latency is 16 x xi_sys_fill_latency (0x90, the cycles of
 * every L3 miss over 16) / xi_ccx_sdp_req1 (0x9a, the L3 misses; Zen 3's
 * JSON says it counts only with umask 0xff, Zen 2's names umask 0x3f
 * all_l3_miss_req_typs). Every L3 miss, not only those served by DRAM.
 */
static const struct memdiag_l3_event zen2_l3_events[] = {
	{ "xi_sys_fill_latency", 0x90, 0x00, MEMDIAG_L3_LATENCY, 16 },
	{ "xi_ccx_sdp_req1.all_l3_miss_req_typs", 0x9a, 0x3f,
	  MEMDIAG_L3_REQUESTS, 1 },
};

static const struct memdiag_l3_event zen3_l3_events[] = {
	{ "xi_sys_fill_latency", 0x90, 0x00, MEMDIAG_L3_LATENCY, 16 },
	{ "xi_ccx_sdp_req1", 0x9a, 0xff, MEMDIAG_L3_REQUESTS, 1 },
};

/*
 * The slice and thread fields amd_uncore_l3_event_init() writes when the
 * user gives none: family 0x17 (Zen 2) SliceMask (51:48) and ThreadMask
 * (63:56) all ones; family 0x19 (Zen 3) as Zen 4, without a SliceId (the
 * amdzen3 JSON names none). The JSON says both events ignore these
 * fields; memdiag writes them as the kernel does.
 */
static const struct memdiag_l3_pmu zen2_l3 = {
	.ctl0 = 0xc0010230, .ctr0 = 0xc0010231, .stride = 2,
	.n_ctrs = 6, .ctr_bits = 48, .ctl_en = BIT_ULL(22),
	.ctl_extra = 0xffULL << 56 | 0xfULL << 48,
	.events = zen2_l3_events, .n_events = ARRAY_SIZE(zen2_l3_events),
};

static const struct memdiag_l3_pmu zen3_l3 = {
	.ctl0 = 0xc0010230, .ctr0 = 0xc0010231, .stride = 2,
	.n_ctrs = 6, .ctr_bits = 48, .ctl_en = BIT_ULL(22),
	.ctl_extra = 0x3ULL << 56 | BIT_ULL(47) | BIT_ULL(46),
	.events = zen3_l3_events, .n_events = ARRAY_SIZE(zen3_l3_events),
};

#define ZEN4(m0, m1)							\
	{ AMD("AMD Zen 4", 0x19, m0, m1, "amdzen4"), ZEN_REASONS,	\
	  .core = zen4_core, .core_fix = zen_fix, .l3 = &zen4_l3 }
#define ZEN5(m0, m1)							\
	{ AMD("AMD Zen 5", 0x1a, m0, m1, "amdzen5"), ZEN_REASONS,	\
	  .core = zen5_core, .core_fix = zen_fix, .l3 = &zen5_l3 }
/*
 * Zen 4 and Zen 5 UMC (one per memory channel): MSRs from msr-index.h
 * (MSR_F19H_UMC_PERF_CTL/CTR), the layout, enable bit and saturation from
 * amd/uncore.c and perf_event.h (AMD64_PERFMON_V2_*_UMC); counters per UMC
 * come from CPUID 0x80000022. umc_cas_cmd's RdWrMask sits in bits 9:8,
 * where the umask field starts.
 */
static const struct memdiag_imc_box_type amd_umc_box = {
	.access = MEMDIAG_IMC_MSR,
	.ctl0 = 0xc0010800, .ctr0 = 0xc0010801,
	.ctl_stride = 2, .ctr_stride = 2, .ctr_bits = 48,
	.ctl_en = 1u << 31, .saturates = true,
};

static const struct memdiag_imc_event zen_umc_events[] = {
	{ "umc_cas_cmd.rd", 0x0a, 0x01, 0, MEMDIAG_IMC_READ, 64 },
	{ "umc_cas_cmd.wr", 0x0a, 0x02, 0, MEMDIAG_IMC_WRITE, 64 },
};

static const struct memdiag_imc_desc zen_umc = {
	.box = &amd_umc_box,
	.events = zen_umc_events, .n_events = ARRAY_SIZE(zen_umc_events),
	.socket_map = MEMDIAG_IMC_MAP_LOCAL,	/* MSRs of a CPU of the socket */
};

#define ZEN_REASONS .imc = &zen_umc, .offcore_reason = ZEN_NO_OFFCORE
/* the nearest AMD event counts demand fills only: not the same thing */
#define ZEN_NO_OFFCORE \
	"AMD has no OFFCORE_RESPONSE; ls_dmnd_fills_from_sys.dram_io_near counts demand fills only, so it is not reported as offcore reads"

/*
 * The Data Fabric PMU of family 0x17 and 0x19 before PerfMonV2 (Zen 2,
 * Zen 3): MSR_F15H_NB_PERF_CTL/CTR + 2i, NUM_COUNTERS_NB (4) counters of
 * 64 - COUNTER_SHIFT (48) bits per node, enabled by bit 22, controls in
 * the "event14" layout (memdiag_df_ctl()); amd/uncore.c reads them on one
 * CPU of each node (topology_amd_node_id()). They wrap like the core
 * counters.
 */
static const struct memdiag_imc_box_type amd_df_box = {
	.access = MEMDIAG_IMC_DF,
	.ctl0 = 0xc0010240, .ctr0 = 0xc0010241,
	.ctl_stride = 2, .ctr_stride = 2, .n_ctrs = 4, .ctr_bits = 48,
	.ctl_en = 1u << 22,
};

/*
 * amdzen2 and amdzen3 data-fabric.json: "Requests with Data (64B)" of DRAM
 * channel controller N, event 0x07 + 0x40 N, umask 0x38; reads and writes
 * together (recommended.json's nps1_die_to_dram sums the eight).
 */
#define DF_CHAN(n)							\
	{ "dram_channel_data_controller_" #n, 0x07 + 0x40 * (n), 0x38, 0, \
	  MEMDIAG_IMC_RDWR, 64 }

static const struct memdiag_imc_event zen23_df_events[] = {
	DF_CHAN(0), DF_CHAN(1), DF_CHAN(2), DF_CHAN(3),
	DF_CHAN(4), DF_CHAN(5), DF_CHAN(6), DF_CHAN(7),
};

static const struct memdiag_imc_desc zen23_df = {
	.box = &amd_df_box,
	.events = zen23_df_events, .n_events = ARRAY_SIZE(zen23_df_events),
	.socket_map = MEMDIAG_IMC_MAP_LOCAL,	/* MSRs of a CPU of the node */
};

/*
 * Zen 1 is known but not supported: it has no event list memdiag checked.
 * Zen 2 and Zen 3 count DRAM bandwidth through the Data Fabric, whose
 * eight channels take turns on four counters (imc_df.c), and the L3 miss
 * latency per CCX; Zen 3 the exact MAB latency from a merged counter
 * pair, Zen 2 (no MAB occupancy event) none, and says so.
 */
#define ZEN_OLD(n, f, m0, m1, dir, why)					\
	{ AMD(n, f, m0, m1, dir), .unsupported = why }
static const struct memdiag_core_event zen2_core[MEMDIAG_EV_NR] = {};

#define ZEN2_DF(m0, m1)							\
	{ AMD("AMD Zen 2", 0x17, m0, m1, "amdzen2"), .imc = &zen23_df,	\
	  .core = zen2_core, .latency_reason = ZEN2_NO_MAB,		\
	  .offcore_reason = ZEN_NO_OFFCORE, .l3 = &zen2_l3 }
#define ZEN3_DF(m0, m1)							\
	{ AMD_PMU("AMD Zen 3", 0x19, m0, m1, "amdzen3", &amd_legacy_pmu), \
	  .imc = &zen23_df, .core = zen3_core, .core_fix = zen_fix,	\
	  .offcore_reason = ZEN_NO_OFFCORE, .l3 = &zen3_l3 }
/* amdzen2 memory.json has ls_mab_alloc but no ls_alloc_mab_count */
#define ZEN2_NO_MAB \
	"AMD Zen 2 has no count of in-flight L1D misses (perf's amdzen2 JSON has no ls_alloc_mab_count, 0x5F), so no L1-miss latency; its L3 PMU gives the L3 miss latency (l3-dram-latency)"

#define ZEN_DF_ONLY \
	" has no UMC counters and memdiag has no event list for its Data Fabric checked against perf's (it supports AMD from Zen 2)"

const struct memdiag_uarch memdiag_uarch_table[] = {
	{ INTEL("Haswell-EP", 0x3f, 0, 0xf, "haswellx"),
	  .imc = &hswep_imc, .core = hswep_core },
	{ INTEL("Broadwell-EP", 0x4f, 0, 0xf, "broadwellx"),
	  .imc = &bdx_imc, .core = bdx_core },
	/* Skylake-SP and Cascade Lake-SP share model 0x55 */
	{ INTEL("Skylake-SP", 0x55, 0, 4, "skylakex"),
	  .imc = &skx_imc, .core = skx_core },
	{ INTEL("Cascade Lake-SP", 0x55, 5, 0xf, "cascadelakex"),
	  .imc = &skx_imc, .core = clx_core },
	{ INTEL("Ice Lake-SP", 0x6a, 0, 0xf, "icelakex"),
	  .imc = &icx_imc, .core = icx_core },
	{ INTEL("Sapphire Rapids", 0x8f, 0, 0xf, "sapphirerapids"),
	  .imc = &spr_imc, .core = spr_core },
	{ INTEL("Emerald Rapids", 0xcf, 0, 0xf, "emeraldrapids"),
	  .imc = &spr_imc, .core = spr_core },
	/*
	 * Granite Rapids (Redwood Cove): every core event as on SPR, checked
	 * against the graniterapids JSON; see Documentation/memdiag.rst for the
	 * offcore value, which 6.12's JSON lacks by name.
	 */
	{ INTEL("Granite Rapids", 0xad, 0, 0xf, "graniterapids"),
	  .core = spr_core, .imc = &gnr_imc },
	{ INTEL("Granite Rapids-D", 0xae, 0, 0xf, "graniterapids"),
	  .core = spr_core, .imc = &gnr_imc },
	{ INTEL_GP("Sierra Forest", 0xaf, 0, 0xf, "sierraforest", 1),
	  .core = srf_core, .imc = &gnr_imc,
	  .latency_reason =
		"Sierra Forest's Crestmont E-cores have no L1D_PEND_MISS.PENDING (perf's sierraforest JSON), which both latency metrics need",
	  .offcore_reason =
		"Sierra Forest has no offcore event for all reads from local DRAM (perf's sierraforest JSON; Intel's perfmon has one for demand reads only)",
	},
	/* the model ranges of X86_FEATURE_ZEN4 and ZEN5 in amd.c */
	ZEN4(0x10, 0x1f), ZEN4(0x60, 0xaf),
	ZEN5(0x00, 0x2f), ZEN5(0x40, 0x4f), ZEN5(0x60, 0x7f), ZEN5(0xd0, 0xd7),
	/* the model ranges of X86_FEATURE_ZEN1, ZEN2 and ZEN3 in amd.c */
	ZEN_OLD("AMD Zen 1", 0x17, 0x00, 0x2f, "amdzen1", "AMD Zen 1" ZEN_DF_ONLY),
	ZEN_OLD("AMD Zen 1", 0x17, 0x50, 0x5f, "amdzen2", "AMD Zen 1" ZEN_DF_ONLY),
	ZEN2_DF(0x30, 0x4f), ZEN2_DF(0x60, 0x7f), ZEN2_DF(0x90, 0x91),
	ZEN2_DF(0xa0, 0xaf),
	ZEN3_DF(0x00, 0x0f), ZEN3_DF(0x20, 0x5f),
};

const unsigned int memdiag_uarch_table_len = ARRAY_SIZE(memdiag_uarch_table);
