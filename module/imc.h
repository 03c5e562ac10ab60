/* SPDX-License-Identifier: GPL-2.0 */
/*
 * imc.h - what imc_find.c (the boxes found at load) and imc.c (counting
 * while a session runs) share. The boxes, and where each one's registers
 * are, are found once at load and fixed after; the counting state of a
 * box (from ctr[] on) is imc.c's, changed under memdiag_lock.
 */
#ifndef _MEMDIAG_IMC_H
#define _MEMDIAG_IMC_H

#include "memdiag.h"

/* One box; counter arrays are indexed like imc_desc->events. */
struct imc_box {
	unsigned int socket, chan;
	struct memdiag_pci pci;
	bool has_pci;
	void *map;
	u32 ctl0, ctr0;			/* from the discovery table or type */
	u8 n_ctrs;			/* the type's, or (MSR boxes) CPUID's */
	/* set by imc.c at session start, under memdiag_lock */
	int ctr[MEMDIAG_IMC_MAX_EVENTS];	/* counter used for each event */
	u32 saved[MEMDIAG_IMC_MAX_EVENTS], prog[MEMDIAG_IMC_MAX_EVENTS];
	struct memdiag_ext64 ext[MEMDIAG_IMC_MAX_EVENTS];
	bool programmed, lost;
	/*
	 * MSR boxes (AMD UMC): no CPU of the socket online, its controls
	 * back (imc.c's hotplug); not counted until one returns
	 */
	bool offline;
};

/* imc_find.c */
extern const struct memdiag_imc_desc *imc_desc;
extern const struct memdiag_imc_box_type *imc_type;
extern struct imc_box *imc_boxes;
extern unsigned int imc_n_boxes;

/* imc_df.c: AMD's Data Fabric (MEMDIAG_IMC_DF), channels in turns */
int memdiag_imc_df_start(char *msg, size_t len);
void memdiag_imc_df_stop(void);
void memdiag_imc_df_sample(struct memdiag_snap *snap, unsigned int n,
			   u64 dt_ns);
void memdiag_imc_df_cpu_online(unsigned int cpu);
void memdiag_imc_df_cpu_offline(unsigned int cpu);

/* df_nodes.c: a snapshot's per-node sums of the channels' estimates */
struct memdiag_df_rot;
void memdiag_df_nodes_snap(unsigned int socket, const struct memdiag_df_rot *r,
			   struct memdiag_snap *s);

static inline const struct memdiag_platform_ops *plat(void)
{
	return memdiag.plat;
}

#endif /* _MEMDIAG_IMC_H */
