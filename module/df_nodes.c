// SPDX-License-Identifier: GPL-2.0
/*
 * df_nodes.c - which NUMA node each of a Zen 2/3 socket's DRAM channels
 * serves, and the per-node sums of a snapshot.
 *
 * At load, each channel's coherent station registers (its fabric id and
 * the DRAM address maps it holds) are read through the platform's
 * df_read() and decoded by df_map.c; a map's range is placed in the NUMA
 * node whose memory span it falls in. The channel of the DF PMU's
 * dram_channel_data_controller_N is taken to be DF instance N: the atl
 * reads a UMC's maps at the instance its MCA_IPID names as its channel.
 * Where the registers cannot be read or do not give a clean split (see
 * df_map.c), or a node also holds CPUs of another socket (NPS0, a guest
 * without NUMA information), the socket has no per-node sums and every
 * snapshot of it says why. The table is fixed after load.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/topology.h>

#include "memdiag.h"
#include "imc.h"
#include "df_map.h"
#include "df_rotate.h"

struct df_node_table {
	bool ok;
	char why[MEMDIAG_REASON_LEN];
	s8 node_of_chan[MEMDIAG_DF_MAX_CHANS];
	u32 nr_node;
	u32 node_id[MEMDIAG_DF_MAX_NODES];
	u32 node_chans[MEMDIAG_DF_MAX_NODES];	/* bit i: channel i */
};

static struct df_node_table df_tables[MEMDIAG_MAX_SOCKETS];

/* The node whose memory span holds [@base, @limit] (df_map.h's rules). */
static int span_node(u64 base, u64 limit, void *arg)
{
	int nid, found = -ENOENT;

	for_each_online_node(nid) {
		u64 lo = PFN_PHYS(node_start_pfn(nid));
		u64 hi = PFN_PHYS(node_end_pfn(nid));

		if (lo == hi || limit < lo || base >= hi)
			continue;
		if (found >= 0)
			return -ERANGE;
		found = nid;
	}
	return found;
}

static int read_cs(unsigned int socket, unsigned int c,
		   struct memdiag_df_cs_regs *cs)
{
	int (*rd)(unsigned int, unsigned int, unsigned int, unsigned int,
		  u32 *) = memdiag.plat->df_read;
	unsigned int m;
	int err;

	err = rd(socket, 0, MEMDIAG_DF_FABRIC_INFO3, c, &cs->fabric_info3);
	for (m = 0; !err && m < MEMDIAG_DF_MAPS_PER_CS; m++)
		err = rd(socket, 0, MEMDIAG_DF_DRAM_BASE(m), c, &cs->base[m]) ?:
		      rd(socket, 0, MEMDIAG_DF_DRAM_LIMIT(m), c, &cs->limit[m]);
	return err;
}

/* A node of the table holding an online CPU of another socket, or -1. */
static int foreign_node(unsigned int socket, const struct df_node_table *t,
			unsigned int *other)
{
	unsigned int i, cpu;

	for (i = 0; i < t->nr_node; i++)
		for_each_cpu(cpu, cpumask_of_node(t->node_id[i]))
			if (cpu_online(cpu) && memdiag_socket_of(cpu) != socket) {
				*other = memdiag_socket_of(cpu);
				return t->node_id[i];
			}
	return -1;
}

/* Group the channels by node; false if there are more nodes than fit. */
static bool group_nodes(struct df_node_table *t, unsigned int n_chans)
{
	unsigned int c, i;

	for (c = 0; c < n_chans; c++) {
		if (t->node_of_chan[c] < 0)
			continue;
		for (i = 0; i < t->nr_node; i++)
			if (t->node_id[i] == t->node_of_chan[c])
				break;
		if (i == t->nr_node) {
			if (i == MEMDIAG_DF_MAX_NODES)
				return false;
			t->node_id[t->nr_node++] = t->node_of_chan[c];
		}
		t->node_chans[i] |= BIT(c);
	}
	return true;
}

/**
 * memdiag_df_nodes_init() - read and decode @socket's DRAM address maps
 * @socket: the socket
 * @n_chans: its DRAM channels (DF instances 0 to @n_chans - 1)
 *
 * Never fails the load: without a table the snapshots say why.
 */
void memdiag_df_nodes_init(unsigned int socket, unsigned int n_chans)
{
	struct memdiag_df_cs_regs cs[MEMDIAG_DF_MAX_CHANS];
	struct df_node_table *t = &df_tables[socket];
	unsigned int c, other;
	int node;

	memset(t, 0, sizeof(*t));
	if (!memdiag.plat->df_read || n_chans > MEMDIAG_DF_MAX_CHANS) {
		snprintf(t->why, sizeof(t->why),
			 "this platform does not read the Data Fabric's DRAM address maps");
		return;
	}
	for (c = 0; c < n_chans; c++) {
		if (read_cs(socket, c, &cs[c])) {
			snprintf(t->why, sizeof(t->why),
				 "the DRAM address maps of channel %u of socket %u could not be read",
				 c, socket);
			return;
		}
	}
	if (memdiag_df_chan_nodes(cs, n_chans, span_node, NULL,
				  t->node_of_chan, t->why, sizeof(t->why)))
		return;
	if (!group_nodes(t, n_chans)) {
		snprintf(t->why, sizeof(t->why),
			 "the channels of socket %u serve more than %u NUMA nodes",
			 socket, MEMDIAG_DF_MAX_NODES);
		return;
	}
	node = foreign_node(socket, t, &other);
	if (node >= 0) {
		snprintf(t->why, sizeof(t->why),
			 "NUMA node %d, whose DRAM socket %u's channels serve, has CPUs of socket %u too (NPS0, or no NUMA information)",
			 node, socket, other);
		return;
	}
	t->ok = true;
}

/* Why @socket has no per-node sums, or NULL when it has them. */
const char *memdiag_df_nodes_why(unsigned int socket)
{
	const struct df_node_table *t = &df_tables[socket];

	if (!imc_type || imc_type->access != MEMDIAG_IMC_DF)
		return NULL;
	return t->ok ? NULL : t->why;
}

/*
 * @socket's nodes (@ids) and each one's channels (@chans, bit i: channel
 * i), MEMDIAG_DF_MAX_NODES each; returns how many (0: no table).
 */
unsigned int memdiag_df_nodes(unsigned int socket, u32 *ids, u32 *chans)
{
	const struct df_node_table *t = &df_tables[socket];

	if (!t->ok)
		return 0;
	memcpy(ids, t->node_id, sizeof(t->node_id));
	memcpy(chans, t->node_chans, sizeof(t->node_chans));
	return t->nr_node;
}

/**
 * memdiag_df_nodes_snap() - each node's sum into @s, or why there is none
 * @socket: the socket
 * @r: its channels' counts
 * @s: the snapshot
 *
 * A node's sum is its channels' estimates, as the socket total is the
 * sum of all; under a fixed channel set, a node with a channel outside
 * it is not measured (the estimate would be a guess).
 */
void memdiag_df_nodes_snap(unsigned int socket, const struct memdiag_df_rot *r,
			   struct memdiag_snap *s)
{
	const struct df_node_table *t = &df_tables[socket];
	unsigned int i, c;

	s->nr_node = 0;
	s->nodes_why = t->ok ? NULL : t->why;
	if (!t->ok)
		return;
	for (i = 0; i < t->nr_node; i++) {
		s->node[i].id = t->node_id[i];
		s->node[i].chans = t->node_chans[i];
		s->node[i].measured = !r->fixed ||
				      !(t->node_chans[i] & ~r->fixed);
		s->node[i].rdwr_bytes = 0;
		for (c = 0; c < r->n_chans; c++)
			if (t->node_chans[i] & BIT(c))
				s->node[i].rdwr_bytes += r->est[c] *
					imc_desc->events[c].bytes;
	}
	s->nr_node = t->nr_node;
}
