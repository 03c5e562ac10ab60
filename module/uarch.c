// SPDX-License-Identifier: GPL-2.0
/*
 * uarch.c - recognise the boot CPU from memdiag_uarch_table.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/processor.h>

#include "memdiag.h"

/**
 * memdiag_uarch_match() - find the table row of the boot CPU
 * @reason: filled with why the CPU is unsupported when NULL is returned
 * @len: size of @reason
 *
 * Return: the matching row, or NULL if memdiag does not support this CPU.
 */
const struct memdiag_uarch *memdiag_uarch_match(char *reason, size_t len)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	bool vendor_known = false;
	unsigned int i;

	for (i = 0; i < memdiag_uarch_table_len; i++) {
		const struct memdiag_uarch *u = &memdiag_uarch_table[i];

		if (strcmp(c->x86_vendor_id, u->vendor))
			continue;
		vendor_known = true;
		if (c->x86 == u->family && c->x86_model == u->model &&
		    c->x86_stepping >= u->stepping_min &&
		    c->x86_stepping <= u->stepping_max)
			return u;
	}

	if (vendor_known)
		snprintf(reason, len,
			 "%s family 0x%x model 0x%x stepping %u is not a supported microarchitecture; memdiag supports Intel Xeon Haswell-EP to Emerald Rapids",
			 c->x86_vendor_id, c->x86, c->x86_model,
			 c->x86_stepping);
	else
		snprintf(reason, len,
			 "%s processors (family 0x%x model 0x%x) are not supported; memdiag supports Intel Xeon Haswell-EP to Emerald Rapids",
			 c->x86_vendor_id[0] ? c->x86_vendor_id : "unknown-vendor",
			 c->x86, c->x86_model);
	return NULL;
}
