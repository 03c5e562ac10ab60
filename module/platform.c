// SPDX-License-Identifier: GPL-2.0
/*
 * platform.c - choose where registers come from: the hardware, or the
 * simulated platform of memdiag_sim.ko.
 *
 * The sim's ops are taken with symbol_get(), a lookup by name, so neither
 * module depends on the other; the reference keeps memdiag_sim loaded for
 * as long as memdiag uses it.
 */
#include <linux/module.h>

#include "memdiag.h"

extern const struct memdiag_platform_ops memdiag_sim_platform;

int memdiag_platform_get(struct memdiag_state *st)
{
	if (st->platform == MEMDIAG_PLATFORM_HW) {
		st->plat = &memdiag_hw_platform;
	} else {
		st->plat = symbol_get(memdiag_sim_platform);
		if (!st->plat) {
			pr_err("memdiag: platform=sim needs memdiag_sim.ko: load it first (insmod memdiag_sim.ko uarch=NAME; a NAME it lacks is refused with the list)\n");
			return -ENODEV;
		}
	}
	st->plat->cpu_ident(&st->ident);
	return 0;
}

void memdiag_platform_put(struct memdiag_state *st)
{
	if (st->platform == MEMDIAG_PLATFORM_SIM && st->plat)
		symbol_put(memdiag_sim_platform);
	st->plat = NULL;
}
