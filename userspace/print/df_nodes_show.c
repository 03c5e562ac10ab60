// SPDX-License-Identifier: GPL-2.0
/* df_nodes_show.c - info's and snapshot's per-node lines (df_nodes_show.h). */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "cpulist.h"
#include "df_nodes_show.h"

void df_nodes_json(struct printer *p, const struct df_nodes *d, bool bytes)
{
	size_t i;

	if (d->why[0])
		print_string(p, PRINT_JSON, "df_nodes_reason", "%s", d->why);
	if (!d->n)
		return;
	print_open_array(p, "df_nodes");
	for (i = 0; i < d->n; i++) {
		print_open_object(p, NULL);
		print_uint(p, PRINT_JSON, "id", "%u", d->node[i].id);
		print_uint(p, PRINT_JSON, "channels_mask", "%u",
			   d->node[i].chans);
		if (bytes && d->node[i].have_bytes)
			print_u64(p, PRINT_JSON, "rdwr_bytes", "%" PRIu64,
				  d->node[i].rdwr_bytes);
		else if (bytes)
			print_string(p, PRINT_JSON, "rdwr_bytes", "%s", NULL);
		print_close_object(p);
	}
	print_close_array(p);
}

void df_nodes_watch_json(struct printer *p, const struct df_nodes *d,
			 uint64_t interval_ns)
{
	size_t i;

	if (d->why[0])
		print_string(p, PRINT_JSON, "df_nodes_reason", "%s", d->why);
	if (!d->n)
		return;
	print_open_array(p, "df_node_ids");
	for (i = 0; i < d->n; i++)
		print_uint(p, PRINT_JSON, NULL, "%u", d->node[i].id);
	print_close_array(p);
	print_open_array(p, "df_node_total_gbps");
	for (i = 0; i < d->n; i++)
		print_double(p, PRINT_JSON, NULL, "%f",
			     d->node[i].have_bytes && interval_ns ?
			     (double)d->node[i].rdwr_bytes / interval_ns : NAN);
	print_close_array(p);
}

/* "0-3" for the channels of @mask */
static void chan_list(char *buf, size_t size, uint32_t mask)
{
	uint32_t ids[32];
	size_t n = 0, c;

	for (c = 0; c < 32; c++)
		if (mask & (1u << c))
			ids[n++] = c;
	cpulist_format(buf, size, ids, n);
}

void df_nodes_info_text(struct printer *p, const struct df_nodes *d)
{
	char list[128];
	size_t i;

	if (d->why[0])
		print_textf(p, "    no per-node DRAM sums: %s\n", d->why);
	for (i = 0; i < d->n; i++) {
		chan_list(list, sizeof(list), d->node[i].chans);
		print_textf(p, "    numa node %u  dram channels %s\n",
			    d->node[i].id, list);
	}
}

static const struct df_node *find_node(const struct df_nodes *d, uint32_t id)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->node[i].id == id)
			return &d->node[i];
	return NULL;
}

void df_nodes_snapshot_text(struct printer *p, const struct df_nodes *const *d,
			    const uint64_t *socket, size_t nr, int label_w,
			    int value_w)
{
	const struct df_node *n;
	char label[48];
	size_t i, j, k;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < d[i]->n; j++) {
			snprintf(label, sizeof(label), "df-node %u rdwr-bytes",
				 d[i]->node[j].id);
			print_textf(p, "%-*s", label_w, label);
			for (k = 0; k < nr; k++) {
				n = find_node(d[k], d[i]->node[j].id);
				if (n && n->have_bytes)
					print_textf(p, " %*" PRIu64, value_w,
						    n->rdwr_bytes);
				else
					print_textf(p, " %*s", value_w, "-");
			}
			print_textf(p, "\n");
		}
	}
	for (i = 0; i < nr; i++)
		if (d[i]->why[0])
			print_textf(p, "socket %" PRIu64 ": no per-node DRAM sums: %s\n",
				    socket[i], d[i]->why);
}
