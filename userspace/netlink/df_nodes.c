// SPDX-License-Identifier: GPL-2.0
/* df_nodes.c - read the df-node nests and df-nodes-reason (df_nodes.h). */

#include <string.h>

#include <libmnl/libmnl.h>

#include <linux/memdiag.h>

#include "df_nodes.h"

static int take_node(struct df_nodes *d, const struct nlattr *nest)
{
	struct df_node n = { 0 };
	const struct nlattr *attr;
	uint32_t have = 0;

	mnl_attr_for_each_nested(attr, nest) {
		uint16_t type = mnl_attr_get_type(attr);
		uint16_t len = mnl_attr_get_payload_len(attr);

		if (type == MEMDIAG_A_DF_NODE_ID ||
		    type == MEMDIAG_A_DF_NODE_CHANNELS) {
			if (len != 4)
				return -1;
			if (type == MEMDIAG_A_DF_NODE_ID)
				n.id = mnl_attr_get_u32(attr);
			else
				n.chans = mnl_attr_get_u32(attr);
		} else if (type == MEMDIAG_A_DF_NODE_RDWR_BYTES) {
			if (len != 8)
				return -1;
			n.rdwr_bytes = mnl_attr_get_u64(attr);
			n.have_bytes = true;
		} else {
			continue;	/* pad, or newer than this memdiagctl */
		}
		have |= 1u << type;
	}
	if (!(have & 1u << MEMDIAG_A_DF_NODE_ID) ||
	    !(have & 1u << MEMDIAG_A_DF_NODE_CHANNELS))
		return -1;
	if (d->n < DF_NODES_MAX)
		d->node[d->n++] = n;
	return 1;
}

int df_nodes_take(struct df_nodes *d, const struct nlattr *attr,
		  uint16_t node_type, uint16_t why_type)
{
	uint16_t type = mnl_attr_get_type(attr);

	if (type == node_type)
		return mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ? -1 :
		       take_node(d, attr);
	if (type != why_type)
		return 0;
	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
		return -1;
	strncpy(d->why, mnl_attr_get_str(attr), sizeof(d->why) - 1);
	d->why[sizeof(d->why) - 1] = '\0';
	return 1;
}

void df_nodes_delta(const struct df_nodes *a, const struct df_nodes *b,
		    bool ok, struct df_nodes *d)
{
	const struct df_node *p;
	size_t i, k;

	*d = *b;
	for (i = 0; i < d->n; i++) {
		struct df_node *n = &d->node[i];

		for (k = 0, p = NULL; k < a->n && !p; k++)
			if (a->node[k].id == n->id)
				p = &a->node[k];
		n->have_bytes = ok && p && p->have_bytes && n->have_bytes &&
				n->rdwr_bytes >= p->rdwr_bytes;
		n->rdwr_bytes = n->have_bytes ? n->rdwr_bytes - p->rdwr_bytes : 0;
	}
}
