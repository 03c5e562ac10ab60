/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - types and functions shared by the files of memdiag_sim.ko, a
 * register-level model of one Intel Xeon generation's PMU registers.
 */
#ifndef _MEMDIAG_SIM_H
#define _MEMDIAG_SIM_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/mutex.h>

#include "../platform.h"

struct seq_file;

#define MDSIM_MAX_SOCKETS	8	/* GIDNIDMAP has eight 3-bit fields */
#define MDSIM_MAX_GP		8	/* general counters per CPU */
#define MDSIM_FIXED		3	/* fixed counters modelled */
#define MDSIM_CTR_BITS		48	/* every counter is 48 bits wide */
#define MDSIM_CTR_MASK		GENMASK_ULL(MDSIM_CTR_BITS - 1, 0)
#define MDSIM_BOX_CTRS		4	/* general counters per IMC box */
#define MDSIM_MAX_CHANS		8	/* IMC channel boxes per socket */
#define MDSIM_FN_REGS		8	/* modelled config registers per function */
#define MDSIM_TABLE_QWORDS	64	/* discovery table: 16 entries of 4 qwords */
#define MDSIM_TABLE_SIZE	0x1000	/* the table's MMIO page */
#define MDSIM_BOX_SIZE		0x4000	/* an MMIO channel box */
#define MDSIM_CFG_SIZE		0x1000	/* PCI config space of a function */

/*
 * MMIO channel boxes (icx, spr): memory controller id / 2 at socket base +
 * id / 2 * MDSIM_MC_STRIDE, its channels at 0x22800 + 0x4000 * (id % 2)
 * from there as on Ice Lake-SP; the third channel slot is left empty. The
 * discovery table (spr) sits at the socket base.
 */
#define MDSIM_MC_STRIDE		0x40000ULL
#define MDSIM_CHAN_BASE		0x22800ULL
#define MDSIM_CHAN_STRIDE	0x4000ULL
#define MDSIM_CHANS_PER_MC	2

/*
 * A count that grows at num events per den nanoseconds: at time t it is
 * base + floor(num * (t - epoch) / den), exactly, so summing the steps
 * between any two readings never drifts from the ideal count.
 */
struct mdsim_clock {
	u64 num, den;
	u64 epoch, base;
};

static inline u64 mdsim_clock_at(const struct mdsim_clock *c, u64 now)
{
	u64 rem, q = div64_u64_rem(now - c->epoch, c->den, &rem);

	/*
	 * Whole periods first: num * q may wrap, but counts are only used
	 * as differences modulo 2^64. The remainder term is below num, so
	 * the 128-bit division cannot overflow.
	 */
	return c->base + c->num * q + mul_u64_u64_div_u64(c->num, rem, c->den);
}

/* Change the rate from @now on; the count so far is kept. */
static inline void mdsim_clock_set(struct mdsim_clock *c, u64 now, u64 num,
				   u64 den)
{
	c->base = mdsim_clock_at(c, now);
	c->epoch = now;
	c->num = num;
	c->den = den;
}

/* Events a core counter can count; rates come from the socket's knobs. */
enum mdsim_core_kind {
	MDSIM_K_L1_MISS,	/* retired loads missing L1D */
	MDSIM_K_LFB_HIT,	/* retired loads hitting a fill buffer */
	MDSIM_K_PEND,		/* L1D misses pending, summed per cycle */
	MDSIM_K_OFFCORE,	/* demand/prefetch reads served by local DRAM */
	MDSIM_K_INSTR,		/* instructions retired */
	MDSIM_K_CYCLES,		/* core cycles */
	MDSIM_K_REF,		/* reference cycles */
	MDSIM_CORE_NR
};

/* Events an IMC channel box can count. */
enum mdsim_imc_kind {
	MDSIM_K_CAS_RD,
	MDSIM_K_CAS_WR,
	MDSIM_K_DCLK,
	MDSIM_IMC_NR,		/* the kinds with a clock */
	/*
	 * DDR5 (Granite Rapids on): a channel's CAS alternate between its
	 * two sub-channels, so each counts half, the first the odd one out.
	 */
	MDSIM_K_CAS_RD_SCH0 = MDSIM_IMC_NR,
	MDSIM_K_CAS_RD_SCH1,
	MDSIM_K_CAS_WR_SCH0,
	MDSIM_K_CAS_WR_SCH1,
	MDSIM_IMC_KINDS
};

/* Per-socket rates, set through debugfs. */
enum mdsim_knob {
	MDSIM_KNOB_READ_BW,	/* 10^6 bytes/s of CAS reads, whole socket */
	MDSIM_KNOB_WRITE_BW,	/* 10^6 bytes/s of CAS writes, whole socket */
	MDSIM_KNOB_LATENCY,	/* cycles an L1D miss is pending */
	MDSIM_KNOB_L1_MISS,	/* per CPU, per second */
	MDSIM_KNOB_LFB_HIT,	/* per CPU, per second */
	MDSIM_KNOB_OFFCORE,	/* 10^6 bytes/s of local DRAM reads per CPU */
	MDSIM_KNOB_L3_LATENCY,	/* AMD: core clocks a sampled DRAM request takes */
	MDSIM_KNOB_L3_NEAR,	/* AMD: sampled near-DRAM requests/s per CCX */
	MDSIM_KNOB_L3_FAR,	/* AMD: sampled far-DRAM requests/s per CCX */
	MDSIM_KNOB_NR
};

/* What a general counter counts for one (event, umask). */
struct mdsim_core_event {
	u8 event, umask;
	u8 kinds;		/* BIT(enum mdsim_core_kind)s summed */
	s8 rsp;			/* OFFCORE_RSP_n it reads, or -1 */
	bool large;		/* AMD Large Increment per Cycle (core_count.c) */
};

/*
 * What an L3 PMU counter counts for one (event, umask): the kinds (BIT(enum
 * mdsim_l3_kind)s) summed, divided by @div (the hardware's scale-down:
 * perf's metric multiplies the count back).
 */
struct mdsim_l3_event {
	u8 event, umask;
	u8 kinds;
	u8 div;
};

/* What an IMC counter counts for one (event, umask). */
struct mdsim_imc_event {
	u8 event, umask;
	u8 kinds;		/* BIT(enum mdsim_imc_kind)s summed */
};

/* How a generation reaches its memory controllers' PMON boxes. */
enum mdsim_imc_access {
	MDSIM_IMC_PCI,		/* one PCI function per channel (skx) */
	MDSIM_IMC_MMIO,		/* MMIO, bases in a PCI function (icx) */
	MDSIM_IMC_DISCOVERY,	/* MMIO, found via discovery tables (spr) */
};

/* What a PCI function of a socket is, which decides its registers. */
enum mdsim_fn_kind {
	MDSIM_FN_UBOX,		/* node id and GIDNIDMAP */
	MDSIM_FN_CHAN,		/* an IMC channel's PMON box in config space */
	MDSIM_FN_MC,		/* icx: the MCs' MMIO base registers */
	MDSIM_FN_DISC,		/* spr: DVSEC capability and table BAR */
};

struct mdsim_fn_desc {
	enum mdsim_fn_kind kind;
	u16 device;
	u8 dev, fn;
	u8 chan;		/* MDSIM_FN_CHAN: channel number */
};

/* One unit entry of a discovery table. */
struct mdsim_disc_unit {
	u16 type, id;
	u8 access;		/* 0 MSR, 1 MMIO */
	u8 ctl_off, ctr_off, status_off;
	u64 ctl;		/* MSR units: box control MSR; IMC: 0 */
};

/* A register of a channel box, as seen at one offset. */
enum mdsim_box_field {
	MDSIM_BOX_CTL,
	MDSIM_BOX_CTLN,
	MDSIM_BOX_CTR,
	MDSIM_BOX_FIXED_CTL,
	MDSIM_BOX_FIXED_CTR,
};

struct mdsim_box_reg {
	u16 off;
	u8 width;		/* bytes: 4, or 8 for a whole MMIO counter */
	u8 field;		/* enum mdsim_box_field */
	u8 idx;			/* counter number */
	u8 shift;		/* 32: high dword of a counter in config space */
};

struct mdsim_box_layout {
	const struct mdsim_box_reg *regs;	/* sorted by offset */
	unsigned int n_regs;
};

/* One generation: every number that differs between skx, icx and spr. */
struct mdsim_uarch {
	const char *name;		/* uarch= value */
	bool amd;			/* AuthenticAMD: AMD's MSRs and CPUID */
	u8 family, model, stepping;
	u8 version, n_gp;		/* CPUID.0xA perfmon version, GP counters */
	u64 misc_bits;			/* prefetch control bits that exist */
	u8 umc_per;			/* AMD: counters per UMC box, 0: none */
	bool df;			/* AMD: Data Fabric PMU (Zen 2/3) */
	bool legacy_core;		/* AMD: no PerfMonV2 global control */
	/* AMD: the L3 PMU's events, and its control layout (l3.c) */
	const struct mdsim_l3_event *l3_events;
	unsigned int n_l3_events;
	u64 l3_bits;			/* bits an L3 control holds */
	u64 l3_all;			/* bits that make every core count */
	/*
	 * Channel i's share of the socket's CAS is chan_weight[i] over their
	 * sum; NULL: all equal
	 */
	const u8 *chan_weight;
	u64 global_ctrl_extra;		/* GLOBAL_CTRL bits beyond counters */
	u64 rsp_mask;			/* writable OFFCORE_RSP bits */
	u64 rsp_local_dram;		/* "all reads from local DRAM" */
	const struct mdsim_core_event *core_events;
	unsigned int n_core_events;

	enum mdsim_imc_access imc;
	const struct mdsim_fn_desc *fns;	/* PCI functions of a socket */
	unsigned int n_fns;
	unsigned int n_chans;			/* channel boxes per socket */
	const struct mdsim_box_layout *layout;
	u32 box_rst_ctrl, box_rst_ctrs;		/* self-clearing box ctl bits */
	u32 box_frz, box_keep;			/* freeze; bits that stick */
	u32 ctl_en;				/* counter enable bit, 0: none */
	const struct mdsim_imc_event *imc_events;
	unsigned int n_imc_events;
	const struct mdsim_disc_unit *units;	/* discovery table entries */
	unsigned int n_units;
};

extern const struct mdsim_uarch * const mdsim_uarchs[];
extern const unsigned int mdsim_n_uarchs;

/* An IMC channel's PMON box, in config space (skx) or MMIO. */
struct mdsim_box {
	unsigned int socket, id;
	u64 phys;			/* MMIO address, 0 in config space */
	u32 box_ctl, ctl[MDSIM_BOX_CTRS], fixed_ctl;
	u64 ctr[MDSIM_BOX_CTRS], fixed_ctr;
	struct mdsim_clock clk[MDSIM_IMC_NR];
	u64 last[MDSIM_IMC_NR];		/* clock values at the last advance */
	u64 cas[2];			/* CAS reads, writes since load */
	u64 written;			/* bit per layout register */
};

/* A modelled config register other than a box's. */
struct mdsim_cfg {
	u16 off;
	bool written;
	u32 val;
};

struct mdsim_fn {
	u16 domain;
	u8 bus, devfn;
	u16 device;
	unsigned int socket;
	struct mdsim_box *box;		/* MDSIM_FN_CHAN, else NULL */
	struct mdsim_cfg cfg[MDSIM_FN_REGS];
	unsigned int n_cfg;
};

/* A range of MMIO: a channel box, or a socket's discovery table. */
struct mdsim_region {
	u64 phys, size;
	unsigned int socket;
	struct mdsim_box *box;		/* NULL: the discovery table */
};

/* AMD's L3 PMU (l3.c): what its counters can count, per CCX */
enum mdsim_l3_kind {
	MDSIM_L3_LAT_NEAR,	/* the near requests' core clocks */
	MDSIM_L3_LAT_FAR,
	MDSIM_L3_REQ_NEAR,	/* sampled requests served by near DRAM */
	MDSIM_L3_REQ_FAR,
	MDSIM_L3_KINDS
};

#define MDSIM_L3_CTRS		6	/* L3 PMU counters per CCX */
#define MDSIM_CCX_PER_SOCKET	8

struct mdsim_ccx {
	u64 ctl[MDSIM_L3_CTRS], ctr[MDSIM_L3_CTRS];
	u16 written;			/* bit per MSR: ctl i 2i, ctr i 2i + 1 */
	struct mdsim_clock clk[MDSIM_L3_KINDS];
	u64 last[MDSIM_L3_KINDS];	/* clock values at the last advance */
};

/* AMD Zen 2/3's Data Fabric PMU (df.c), one per socket */
#define MDSIM_DF_CTRS		4
struct mdsim_df {
	u64 ctl[MDSIM_DF_CTRS], ctr[MDSIM_DF_CTRS];
	u8 written;			/* bit per MSR: ctl i 2i, ctr i 2i + 1 */
	u64 last[MDSIM_MAX_CHANS];	/* each channel's CAS at the last advance */
};

struct mdsim_socket {
	unsigned int id;
	u8 bus;				/* uncore bus, not in socket order */
	u32 package;			/* physical package id */
	u64 base;			/* MMIO range of the socket */
	u64 knob[MDSIM_KNOB_NR];
	struct mdsim_box box[MDSIM_MAX_CHANS];
	u64 table[MDSIM_TABLE_QWORDS];	/* discovery table (spr) */
	u64 table_written;		/* bit per qword */
	struct mdsim_ccx ccx[MDSIM_CCX_PER_SOCKET];	/* AMD L3 PMUs */
	struct mdsim_df df;		/* AMD Zen 2/3 Data Fabric PMU */
};

/* MSR state of one CPU. */
struct mdsim_cpu {
	bool running;			/* online, as far as the sim knows */
	/*
	 * The CPU holding this CPU's copy of the per-core registers (MSR
	 * 0x1A4): the lowest-numbered CPU of the same core.
	 */
	unsigned int core_slot;
	u8 ccx;				/* AMD: the CCX of its L3 PMU */
	u64 evtsel[MDSIM_MAX_GP], pmc[MDSIM_MAX_GP], fixed[MDSIM_FIXED];
	u64 fixed_ctrl, global_ctrl, status, perf_cap, rsp[2], misc;
	struct mdsim_clock clk[MDSIM_CORE_NR];
	u64 last[MDSIM_CORE_NR];
	u64 offcore_mbps;		/* its own DRAM-fill rate; 0: socket's */
	DECLARE_BITMAP(written, 16 * MDSIM_MAX_GP);
};

/* Where a debugfs line points: "msr CPU ADDR", "pci BDF OFF", "mmio S:B OFF" */
enum mdsim_space {
	MDSIM_MMIO,
	MDSIM_MSR,
	MDSIM_PCI,
};

#define MDSIM_TABLE_BOX		(-1)	/* "mmio S:table": the discovery table */

struct mdsim_reg {
	enum mdsim_space space;
	unsigned int cpu;		/* MSR */
	u16 domain;			/* PCI */
	u8 bus, devfn;
	unsigned int socket;		/* MMIO */
	int box;
	u32 addr;			/* MSR number or offset */
};

struct mdsim {
	const struct mdsim_uarch *ua;
	struct mutex lock;		/* everything below */
	/*
	 * Also held, with interrupts off, around every access to a CPU's
	 * core counter state (struct mdsim_cpu's registers and clocks), and
	 * alone by mdsim_msr_read_local() in the scheduler's context.
	 */
	raw_spinlock_t ctr_lock;
	struct mdsim_cpu *cpus;		/* [nr_cpu_ids] */
	struct mdsim_socket *sockets;
	unsigned int n_sockets;
	struct mdsim_fn *fns;		/* sorted by (domain, bus, devfn) */
	unsigned int n_fns;
	struct mdsim_region *regions;
	unsigned int n_regions;
	struct list_head maps;		/* MMIO mappings handed out */
	unsigned int pci_refs;		/* PCI functions handed out */
};

extern struct mdsim mdsim;

static inline u64 mdsim_box_phys(const struct mdsim_socket *sock,
				 unsigned int id)
{
	return sock->base + id / MDSIM_CHANS_PER_MC * MDSIM_MC_STRIDE +
	       MDSIM_CHAN_BASE + id % MDSIM_CHANS_PER_MC * MDSIM_CHAN_STRIDE;
}

/* core.c: the core PMU registers of every CPU */
int mdsim_core_init(void);
void mdsim_core_exit(void);
int mdsim_msr_read_local(u32 msr, u64 *val);
int mdsim_msr_batch(unsigned int cpu, struct memdiag_msr_op *ops,
		    unsigned int n);
/* core_count.c: what they count */
#define MDSIM_FIXED_STATUS	32	/* GLOBAL_* bit of fixed counter 0 */
void mdsim_core_advance(unsigned int cpu, u64 now);
void mdsim_core_online(unsigned int cpu);
void mdsim_core_offline(unsigned int cpu);
int mdsim_core_rates(const u64 *knob, u64 *rate);
void mdsim_core_knob_changed(unsigned int socket);
void mdsim_core_set_cpu_offcore(unsigned int cpu, u64 mbps);
int mdsim_core_inject(unsigned int socket, enum mdsim_core_kind kind,
		      u64 count);
int mdsim_core_poke(unsigned int cpu, u32 msr, u64 val);
int mdsim_core_peek(unsigned int cpu, u32 msr, u64 *val);
void mdsim_core_show(struct seq_file *m);

/* l3.c: AMD's L3 PMU, per CCX */
int mdsim_llc_id(unsigned int cpu);
int mdsim_l3_access(unsigned int cpu, unsigned int idx, bool write, u64 *val);
void mdsim_l3_show(struct seq_file *m, unsigned int cpu, u32 msr0);
int mdsim_l3_rates(const u64 *knob);
void mdsim_l3_knob_changed(unsigned int socket);
void mdsim_l3_init(struct mdsim_socket *sock);

/* df.c: AMD Zen 2/3's Data Fabric PMU, per socket */
int mdsim_df_access(unsigned int cpu, unsigned int idx, bool write, u64 *val);
void mdsim_df_show(struct seq_file *m, unsigned int cpu, u32 msr0);

/* df_maps.c: AMD Zen 2/3's DRAM address maps (nps=), read-only */
int mdsim_df_maps_check(void);
int mdsim_df_read(unsigned int socket, unsigned int func, unsigned int reg,
		  unsigned int inst, u32 *val);

/* imc.c: the channel boxes' registers and counts */
int mdsim_umc_access(unsigned int cpu, unsigned int idx, bool write, u64 *val);
void mdsim_umc_show(struct seq_file *m, unsigned int cpu, u32 msr0);
void mdsim_box_init(struct mdsim_box *b, unsigned int socket, unsigned int id);
void mdsim_box_advance(struct mdsim_box *b);
u32 mdsim_box_read32(struct mdsim_box *b, unsigned int off);
void mdsim_box_write32(struct mdsim_box *b, unsigned int off, u32 val);
int mdsim_box_poke(struct mdsim_box *b, unsigned int off, u64 val);
int mdsim_box_peek(struct mdsim_box *b, unsigned int off, u64 *val);
void mdsim_box_show(struct seq_file *m, struct mdsim_box *b,
		    const char *prefix);
void mdsim_imc_knob_changed(unsigned int socket);
int mdsim_imc_inject(unsigned int socket, enum mdsim_imc_kind kind,
		     u64 count);

/* pci.c: the uncore PCI functions */
int mdsim_pci_init(void);
void mdsim_pci_exit(void);
int mdsim_pci_socket(const struct memdiag_pci *pci);
int mdsim_pci_get(u16 device, unsigned int index, struct memdiag_pci *pci);
void mdsim_pci_put(struct memdiag_pci *pci);
int mdsim_pci_read(const struct memdiag_pci *pci, unsigned int off, u32 *val);
int mdsim_pci_write(const struct memdiag_pci *pci, unsigned int off, u32 val);
int mdsim_pci_poke(const struct mdsim_reg *r, u64 val);
int mdsim_pci_peek(const struct mdsim_reg *r, u64 *val);
void mdsim_pci_show(struct seq_file *m);

/* mmio.c: channel boxes in MMIO and discovery tables */
int mdsim_mmio_init(void);
void mdsim_mmio_exit(void);
void *mdsim_mmio_map(u64 phys, size_t len);
void mdsim_mmio_unmap(void *map);
u64 mdsim_mmio_read(void *map, unsigned int off, unsigned int width);
void mdsim_mmio_write(void *map, unsigned int off, unsigned int width, u64 val);
int mdsim_mmio_poke(const struct mdsim_reg *r, u64 val);
int mdsim_mmio_peek(const struct mdsim_reg *r, u64 *val);
void mdsim_mmio_show(struct seq_file *m);
unsigned int mdsim_mmio_maps(void);

/* fault.c: fail_* switches */
enum mdsim_fault_kind {
	MDSIM_FAULT_MSR_WRITE,
	MDSIM_FAULT_MSR_NOSTICK,
	MDSIM_FAULT_MSR_READ,
	MDSIM_FAULT_PCI_READ,
	MDSIM_FAULT_MMIO_MAP,
	MDSIM_FAULT_ALLOC,
	MDSIM_FAULT_PCI_NODE,
	MDSIM_FAULT_NR
};

struct dentry;
bool mdsim_fault(enum mdsim_fault_kind kind, u32 msr);
bool mdsim_fail_alloc(void);
void mdsim_fault_debugfs(struct dentry *root);

/* kcsan_canary.c: the planted race of make check-kcsan */
void mdsim_canary_debugfs(struct dentry *root);

/* debugfs.c: knobs, inject, regs, poke, peek */
int mdsim_debugfs_init(void);
void mdsim_debugfs_exit(void);

extern const struct memdiag_platform_ops memdiag_sim_platform;

#endif /* _MEMDIAG_SIM_H */
