// SPDX-License-Identifier: GPL-2.0
/*
 * uarch.c - recognise the processor from memdiag_uarch_table.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "memdiag.h"

/**
 * memdiag_uarch_match() - find the table row of a processor
 * @id: what the platform's CPUID says
 * @reason: filled with why the CPU is unsupported when NULL is returned
 * @len: size of @reason
 *
 * Return: the matching row, or NULL if memdiag does not support this CPU.
 */
const struct memdiag_uarch *memdiag_uarch_match(const struct memdiag_cpu_ident *id,
						char *reason, size_t len)
{
	bool vendor_known = false;
	unsigned int i;

	for (i = 0; i < memdiag_uarch_table_len; i++) {
		const struct memdiag_uarch *u = &memdiag_uarch_table[i];

		if (strcmp(id->vendor, u->vendor))
			continue;
		vendor_known = true;
		if (id->family != u->family || id->model < u->model ||
		    id->model > max(u->model, u->model_max) ||
		    id->stepping < u->stepping_min ||
		    id->stepping > u->stepping_max)
			continue;
		if (!u->unsupported)
			return u;
		snprintf(reason, len, "%s (family 0x%x model 0x%x): %s",
			 id->vendor, id->family, id->model, u->unsupported);
		return NULL;
	}

	if (vendor_known)
		snprintf(reason, len,
			 "%s family 0x%x model 0x%x stepping %u is not a supported microarchitecture; memdiag supports Intel Xeon Haswell-EP to Granite Rapids and Sierra Forest, and AMD Zen 2 to Zen 5",
			 id->vendor, id->family, id->model, id->stepping);
	else
		snprintf(reason, len,
			 "%s processors (family 0x%x model 0x%x) are not supported; memdiag supports Intel Xeon Haswell-EP to Granite Rapids and Sierra Forest, and AMD Zen 2 to Zen 5",
			 id->vendor[0] ? id->vendor : "unknown-vendor",
			 id->family, id->model);
	return NULL;
}
