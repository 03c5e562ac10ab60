/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export_nodes.h - AMD Zen 2/3's per-NUMA-node DRAM bytes in the
 * exporter: totals since it started, from the same intervals as the
 * socket's, and their series.
 */

#ifndef MEMDIAGCTL_EXPORT_NODES_H
#define MEMDIAGCTL_EXPORT_NODES_H

#include <stdio.h>

#include "df_nodes.h"

struct export_state;

/*
 * Add interval @d's node bytes (measured ones only) to @total, a node
 * first seen added with 0 bytes: a node stays a series once it had one.
 */
void export_nodes_add(struct df_nodes *total, const struct df_nodes *d);

/* memdiag_dram_node_rdwr_bytes_total{socket,node} */
void export_nodes_render(const struct export_state *st, FILE *f);

#endif /* MEMDIAGCTL_EXPORT_NODES_H */
