/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uarch.h - the description of one supported microarchitecture.
 *
 * Only plain data lives here so that the tables in uarch_table.c also build
 * in userspace, where a test checks every number against perf's event
 * tables and the kernel's uncore driver.
 */
#ifndef _MEMDIAG_UARCH_H
#define _MEMDIAG_UARCH_H

/*
 * A memory controller's PMON box, described the way the kernel's uncore
 * driver describes an intel_uncore_type: how its registers are reached and
 * laid out (a box type), and which events it counts for memdiag (a list).
 * Adding a generation is adding rows; imc.c and imc_find.c read only these.
 */

/* How a box's registers are reached (and how the boxes are found). */
enum memdiag_imc_access {
	MEMDIAG_IMC_PCI,	/* PCI config space, one function per channel */
	MEMDIAG_IMC_MMIO,	/* MMIO, base addresses from a PCI device */
	MEMDIAG_IMC_DISCOVERY,	/* MMIO, found through PMON discovery tables */
	/*
	 * MSRs of a CPU of the socket, ctl0/ctr0 + stride * counter, no box
	 * control; counters per box and boxes from CPUID 0x80000022 (AMD UMC)
	 */
	MEMDIAG_IMC_MSR,
	/*
	 * The Data Fabric PMU (AMD family 0x17 and 0x19 before PerfMonV2):
	 * n_ctrs MSR counters per node, read on one CPU of the node, shared
	 * by every channel's event. A channel is an event, not a box, and
	 * there are more channels than counters, so not every channel can
	 * be counted at once; controls take memdiag_df_ctl()'s layout.
	 */
	MEMDIAG_IMC_DF,
};

/* How a box's PCI device is tied to a socket. */
enum memdiag_imc_socket_map {
	/* the UBOX's node id and GIDNIDMAP map PCI buses to packages */
	MEMDIAG_IMC_MAP_UBOX,
	/*
	 * The CPUs local to the device (its NUMA node) give the package; a
	 * platform without that information: the order the devices are found
	 * in (uncore_discovery.c get_device_die_id(), Granite Rapids on).
	 */
	MEMDIAG_IMC_MAP_LOCAL,
};

/* A box type: where its registers are and how they behave. */
struct memdiag_imc_box_type {
	enum memdiag_imc_access access;
	u32 box_size;		/* MMIO bytes mapped per box */
	/* PCI config or MMIO offsets from the box */
	u32 box_ctl, ctl0, ctr0;
	u8 ctl_stride, ctr_stride, n_ctrs, ctr_bits;
	u32 ctl_en;		/* enable bit of a counter control, or 0 */
	u32 box_frz;		/* freeze bit of the box control */
	/*
	 * Counters stop at their top instead of wrapping (AMD's UMC) and set
	 * bit ctr_bits: imc.c zeroes one once its top bit is set, as the
	 * kernel's amd/uncore.c does, so that it never gets there.
	 */
	bool saturates;
};

/* What an event's counts mean. */
enum memdiag_imc_meaning {
	MEMDIAG_IMC_READ,
	MEMDIAG_IMC_WRITE,
	MEMDIAG_IMC_RDWR,	/* reads and writes together (AMD's DF) */
	MEMDIAG_IMC_MEANINGS
};

/* The most events one box counts at once (Granite Rapids: 4). */
#define MEMDIAG_IMC_MAX_EVENTS	4

/* One event a box counts: rd/wr bytes are the sum of count x bytes. */
struct memdiag_imc_event {
	const char *perf;	/* perf's JSON EventName */
	u16 event;		/* 14 bits on AMD's DF, 8 elsewhere */
	u8 umask;
	u32 extra;		/* any other selector bits, in place; or 0 */
	u8 meaning;		/* enum memdiag_imc_meaning */
	u8 bytes;		/* bytes one count moves */
};

/*
 * A Data Fabric counter control (amd/uncore.c's "event14" format, family
 * 0x17 on without PerfMonV2): event bits 7:0 at 7:0, the umask at 15:8,
 * event bits 11:8 at 35:32, event bits 13:12 at 60:59, and @en (bit 22).
 */
static inline u64 memdiag_df_ctl(u16 event, u8 umask, u64 en)
{
	return (event & 0xffULL) | (u64)umask << 8 |
	       ((event >> 8) & 0xfULL) << 32 |
	       ((event >> 12) & 0x3ULL) << 59 | en;
}

/* A memory channel's PMON function: PCI device id at dev:fn. */
struct memdiag_imc_chan {
	u16 device;
	u8 dev, fn;
};

struct memdiag_imc_desc {
	const struct memdiag_imc_box_type *box;
	const struct memdiag_imc_event *events;
	/*
	 * <= MEMDIAG_IMC_MAX_EVENTS and <= box->n_ctrs, except on
	 * MEMDIAG_IMC_DF, where each event is one channel and the channels
	 * outnumber the counters
	 */
	u8 n_events;

	enum memdiag_imc_socket_map socket_map;
	/* MEMDIAG_IMC_MAP_UBOX: the UBOX device and its config offsets */
	u16 ubox_device;
	u16 ubox_nodeid, ubox_gidnidmap;
	bool ubox_reverse;	/* bus without UBOX takes the next one up */

	/* MEMDIAG_IMC_PCI: the channel functions of one socket */
	const struct memdiag_imc_chan *chans;
	u8 n_chans;

	/* MEMDIAG_IMC_MMIO: MC base registers of mc_device */
	u16 mc_device;
	u16 mc_base_reg, mc_off_reg;	/* base<<23 | off[n]<<12 */
	u8 n_mc, chans_per_mc;
	u32 chan_base, chan_stride;

	/* MEMDIAG_IMC_DISCOVERY: the unit type of an IMC channel box */
	u16 discovery_type;
};

/* The core events the two latency metrics and offcore bandwidth need. */
enum memdiag_core_ev {
	MEMDIAG_EV_PENDING,	/* L1D_PEND_MISS.PENDING */
	MEMDIAG_EV_L1_MISS,	/* retired loads missing L1D */
	MEMDIAG_EV_LFB_HIT,	/* retired loads hitting a fill buffer */
	MEMDIAG_EV_L1_MISS_ANY,	/* MEM_LOAD_COMPLETED.L1_MISS_ANY (GLC) */
	MEMDIAG_EV_OFFCORE,	/* OFFCORE_RESPONSE: reads from local DRAM */
	/*
	 * AMD's analogue of PENDING / L1 misses: ls_alloc_mab_count (the
	 * Miss Address Buffers in use, summed every cycle) over
	 * ls_mab_alloc.all_allocations. Named for what they count.
	 */
	MEMDIAG_EV_MAB_OCC,
	MEMDIAG_EV_MAB_ALLOC,
	MEMDIAG_EV_NR
};

/*
 * Where the PMU has no fixed counters (AMD), instructions, cycles and
 * reference cycles are general-counter events too, in this order.
 */
enum memdiag_core_fix {
	MEMDIAG_GPFIX_INSTR,
	MEMDIAG_GPFIX_CYCLES,
	MEMDIAG_GPFIX_REF,
	MEMDIAG_GPFIX_NR
};

struct memdiag_core_event {
	const char *perf;	/* perf's JSON EventName; NULL: not used */
	u8 event, umask;
	u8 counters;		/* general counters it may run on (mask) */
	u64 offcore_rsp;	/* MSR_OFFCORE_RSP_0 value, offcore only */
	/*
	 * AMD's Large Increment per Cycle event: exact only with the PMU's
	 * merge_evtsel on the counter above its (even) one, which then
	 * counts nothing of its own
	 */
	bool merge;
};

/*
 * A vendor's core PMU registers. General counter i is programmed at
 * evtsel + i * stride and counts at ctr + i * stride.
 */
struct memdiag_core_pmu {
	const char *name;
	u32 evtsel, ctr;
	u8 stride;
	u32 global_ctrl;	/* bit i enables counter i; 0: none */
	u32 fixed_ctrl, fixed_ctr;	/* 0: no fixed counters */
	u32 offcore_rsp;	/* OFFCORE_RSP_0; 0: none */
	u8 ctr_bits;		/* 0: from CPUID leaf 0xA */
	/* general counters where no CPUID leaf counts them; 0: CPUID */
	u8 n_ctrs;
	u64 merge_evtsel;	/* AMD: the MergeEvent's control; 0: none */
};

/*
 * AMD's L3 PMU (one per CCX, shared by its cores): the L3 samples some of
 * its fill requests and adds up their latency. memdiag counts each event
 * below in a counter of its own and sums the counts by meaning, each
 * multiplied by its scale (perf's recommended.json multiplies the latency
 * counts by 10 to get core clocks).
 */
enum memdiag_l3_meaning {
	MEMDIAG_L3_LATENCY,	/* core clocks the sampled requests took */
	MEMDIAG_L3_REQUESTS,	/* the sampled requests */
	MEMDIAG_L3_MEANINGS
};

#define MEMDIAG_L3_MAX_EVENTS	4

struct memdiag_l3_event {
	const char *perf;	/* perf's JSON EventName */
	u8 event, umask;
	u8 meaning;		/* enum memdiag_l3_meaning */
	u8 scale;		/* core clocks or requests per count */
};

/*
 * The L3 PMU's registers: control i at ctl0 + i * stride, its counter at
 * ctr0 + i * stride. A control is event | umask << 8 | ctl_extra | ctl_en.
 */
struct memdiag_l3_pmu {
	u32 ctl0, ctr0;
	u8 stride, n_ctrs, ctr_bits;
	u64 ctl_en;
	u64 ctl_extra;		/* which cores, threads and slices count */
	const struct memdiag_l3_event *events;
	u8 n_events;		/* <= MEMDIAG_L3_MAX_EVENTS, <= n_ctrs */
};

struct memdiag_uarch {
	const char *name;		/* what get-info reports */
	const char *vendor;		/* CPUID vendor string */
	u8 family;
	u8 model, model_max;		/* inclusive; model_max 0: model only */
	u8 stepping_min, stepping_max;	/* inclusive */
	const char *pmu_events;		/* perf's pmu-events/arch/x86 dir */
	/* non-NULL: a known processor memdiag does not support, and why */
	const char *unsupported;
	const struct memdiag_core_pmu *pmu;
	const struct memdiag_imc_desc *imc;	/* NULL: see imc_reason */
	const struct memdiag_core_event *core;	/* [MEMDIAG_EV_NR] */
	/* [MEMDIAG_GPFIX_NR] where pmu has no fixed counters, else NULL */
	const struct memdiag_core_event *core_fix;
	u8 gp_counters_min;		/* core counters the events need */
	/*
	 * Why a capability is missing on this processor, for get-info, when
	 * its events are absent from the row: the source that says so.
	 */
	const char *imc_reason;
	const char *latency_reason;	/* no MEMDIAG_EV_PENDING */
	const char *offcore_reason;	/* no MEMDIAG_EV_OFFCORE */
	/* the L3-sampled DRAM latency; NULL: see l3_reason */
	const struct memdiag_l3_pmu *l3;
	const char *l3_reason;
};

extern const struct memdiag_uarch memdiag_uarch_table[];
extern const unsigned int memdiag_uarch_table_len;

#endif /* _MEMDIAG_UARCH_H */
