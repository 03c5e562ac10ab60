/* SPDX-License-Identifier: GPL-2.0 */
/*
 * df_nodes.h - AMD Zen 2/3: the df-node nests and df-nodes-reason of a
 * snapshot message or of an info socket nest: which NUMA nodes a
 * socket's DRAM channels serve, and (snapshots) each node's bytes.
 */

#ifndef MEMDIAGCTL_DF_NODES_H
#define MEMDIAGCTL_DF_NODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* no libmnl here: metrics.h, pure computation, includes this header */
struct nlattr;

/* The module sends at most this many (MEMDIAG_DF_MAX_NODES). */
#define DF_NODES_MAX 8

struct df_node {
	uint32_t id;		/* the NUMA node */
	uint32_t chans;		/* bit i: channel i */
	bool have_bytes;	/* false: unmeasured (a fixed channel set) */
	uint64_t rdwr_bytes;
};

struct df_nodes {
	size_t n;
	struct df_node node[DF_NODES_MAX];
	char why[256];		/* df-nodes-reason; "" when absent */
};

/*
 * Take @attr into @d if it is a df-node nest (type @node_type) or the
 * reason (@why_type). Returns 1 when taken, 0 when it is neither, -1 when
 * it is malformed (a nest member or the reason of the wrong size or form).
 */
int df_nodes_take(struct df_nodes *d, const struct nlattr *attr,
		  uint16_t node_type, uint16_t why_type);

/*
 * The interval from @a to @b: @b's nodes, each with the bytes it moved
 * since @a (have_bytes when both snapshots measured it, @ok and its count
 * did not go backwards), and @b's reason.
 */
void df_nodes_delta(const struct df_nodes *a, const struct df_nodes *b,
		    bool ok, struct df_nodes *d);

#endif /* MEMDIAGCTL_DF_NODES_H */
