// SPDX-License-Identifier: GPL-2.0
/*
 * dump_uarch.c - print memdiag's uarch table, one row per line, for the
 * oracle test to compare against perf's and the uncore driver's data.
 */
#include <stdio.h>
#include "kshim.h"
#include "../../module/uarch.h"

static const char *const access_names[] = {
	[MEMDIAG_IMC_PCI] = "pci",
	[MEMDIAG_IMC_MMIO] = "mmio",
	[MEMDIAG_IMC_DISCOVERY] = "discovery",
};

int main(void)
{
	unsigned int i;

	for (i = 0; i < memdiag_uarch_table_len; i++) {
		const struct memdiag_uarch *u = &memdiag_uarch_table[i];

		printf("%s|%s|%u|%u|%u|%u|%s|%s|0x%04x|%u\n", u->name,
		       u->vendor, u->family, u->model, u->stepping_min,
		       u->stepping_max, u->pmu_events,
		       access_names[u->imc_access], u->imc_pci_device,
		       u->gp_counters_min);
	}
	return 0;
}
