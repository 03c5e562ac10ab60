// SPDX-License-Identifier: GPL-2.0
/* export_nodes.c - the exporter's per-node DRAM series (export_nodes.h). */

#include <inttypes.h>

#include "export.h"
#include "export_nodes.h"
#include "export_text.h"

void export_nodes_add(struct df_nodes *total, const struct df_nodes *d)
{
	struct df_node *t;
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		for (k = 0; k < total->n && total->node[k].id != d->node[i].id;
		     k++)
			;
		if (k == DF_NODES_MAX)
			continue;
		t = &total->node[k];
		if (k == total->n) {
			*t = (struct df_node){ .id = d->node[i].id,
					       .chans = d->node[i].chans,
					       .have_bytes = true };
			total->n++;
		}
		if (d->node[i].have_bytes)
			t->rdwr_bytes += d->node[i].rdwr_bytes;
	}
}

/*
 * A name of its own, not memdiag_dram_rdwr_bytes_total with a node
 * label: sum() over that name would count every byte twice.
 */
void export_nodes_render(const struct export_state *st, FILE *f)
{
	struct prom_family fam = PROM_FAMILY("memdiag_dram_node_rdwr_bytes_total",
		"counter",
		"AMD Zen 2/3: bytes read from and written to DRAM through the channels serving this NUMA node (the Data Fabric's address maps say which), estimated as the socket's total is, since the exporter started; the nodes of a socket add up to memdiag_dram_rdwr_bytes_total. Intervals in which a --df-channels set leaves one of its channels uncounted add nothing");
	const struct export_socket *s;
	char id[16];
	size_t i, k;

	for (i = 0; i < st->nr_sock; i++) {
		s = &st->sock[i];
		for (k = 0; k < s->node_total.n; k++) {
			prom_sample_start(f, &fam);
			prom_sock_label(f, s->id);
			snprintf(id, sizeof(id), "%" PRIu32, s->node_total.node[k].id);
			prom_label(f, false, "node", id);
			prom_value_u64(f, s->node_total.node[k].rdwr_bytes);
		}
	}
}
