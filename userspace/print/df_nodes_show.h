/* SPDX-License-Identifier: GPL-2.0 */
/*
 * df_nodes_show.h - how info and snapshot print AMD Zen 2/3's per-node
 * table and sums (netlink/df_nodes.h).
 */

#ifndef MEMDIAGCTL_DF_NODES_SHOW_H
#define MEMDIAGCTL_DF_NODES_SHOW_H

#include <stdint.h>

#include "df_nodes.h"
#include "print.h"

/*
 * JSON: "df_nodes" [{"id", "channels_mask"[, "rdwr_bytes" (null when
 * unmeasured), with @bytes]}], or "df_nodes_reason"; nothing when the
 * socket has neither (not a Data Fabric machine).
 */
void df_nodes_json(struct printer *p, const struct df_nodes *d, bool bytes);

/*
 * watch's JSON (flat, for --csv): "df_node_ids" and "df_node_total_gbps"
 * (null where unmeasured), the node's bytes over @interval_ns; or
 * "df_nodes_reason".
 */
void df_nodes_watch_json(struct printer *p, const struct df_nodes *d,
			 uint64_t interval_ns);

/* info's text: "  numa node N  channels 0-3" lines, or the reason. */
void df_nodes_info_text(struct printer *p, const struct df_nodes *d);

/*
 * snapshot's text table: a "df-node N rdwr-bytes" row for each node any
 * of the @nr sockets (columns) has, then each socket's reason.
 */
void df_nodes_snapshot_text(struct printer *p, const struct df_nodes *const *d,
			    const uint64_t *socket, size_t nr, int label_w,
			    int value_w);

#endif /* MEMDIAGCTL_DF_NODES_SHOW_H */
