// SPDX-License-Identifier: GPL-2.0
/*
 * dump_prefetch.c - print memdiag's prefetcher table as JSON, one row per
 * line, for prefetch_oracle.py to compare against the kernel's sources.
 */
#include <stdio.h>
#include "kshim.h"
#include "../../module/prefetch.h"

int main(void)
{
	const struct memdiag_pf_model *m;
	unsigned int i, j;

	for (i = 0; i < memdiag_pf_table_len; i++) {
		const struct memdiag_pf_desc *d = &memdiag_pf_table[i];

		printf("{\"name\":\"%s\",\"vendor\":\"%s\",\"family\":%u,\"msr\":%u,\"models\":",
		       d->name, d->vendor, d->family, d->msr);
		if (d->models) {
			printf("[");
			for (m = d->models; m->kname; m++)
				printf("%s[%u,\"%s\"]", m == d->models ? "" : ",",
				       m->model, m->kname);
			printf("]");
		} else {
			printf("null");
		}
		printf(",\"bits\":[");
		for (j = 0; j < d->n_bits; j++)
			printf("%s[%u,\"%s\"]", j ? "," : "", d->bits[j].bit,
			       d->bits[j].name);
		printf("]}\n");
	}
	return 0;
}
