/* SPDX-License-Identifier: GPL-2.0 */
/*
 * imc.h - what imc_find.c (the boxes found at load) and imc.c (counting
 * while a session runs) share. Boxes are found once and read-only after.
 */
#ifndef _MEMDIAG_IMC_H
#define _MEMDIAG_IMC_H

#include "memdiag.h"

enum { RD, WR };

struct imc_box {
	unsigned int socket, chan;
	struct memdiag_pci pci;
	bool has_pci;
	void *map;
	u16 ctl0, ctr0;			/* from the discovery table or desc */
	int ctr[2];			/* counter used for RD and WR */
	u32 saved[2], prog[2];
	struct memdiag_ext64 ext[2];
	bool programmed, lost;
};

/* imc_find.c */
extern const struct memdiag_imc_desc *imc_desc;
extern struct imc_box *imc_boxes;
extern unsigned int imc_n_boxes;

static inline const struct memdiag_platform_ops *plat(void)
{
	return memdiag.plat;
}

#endif /* _MEMDIAG_IMC_H */
