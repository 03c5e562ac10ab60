// SPDX-License-Identifier: GPL-2.0
/*
 * df_maps.c - the DRAM address maps of the simulated Zen 2/3 Data Fabric
 * (uarch zen2, zen3), read-only, in the DF3 layout of the kernel's AMD
 * address translation library (drivers/ras/amd/atl/reg_fields.h):
 * per channel (DF instance), FabricBlockInstanceInformation3 (D18F0x50,
 * its fabric id at 19:8) and DramBaseAddress/DramLimitAddress (D18F0x110
 * and 0x114, map 0; map 1 unused).
 *
 * nps= (1, 2 or 4) splits each socket's channels into that many runs of
 * consecutive channels, run k interleaved (the DF3 COD hash of that
 * many nodes) over the k-th of as many equal parts of the socket's
 * memory: the span, rounded out to 256 MB, of the guest's NUMA nodes
 * holding the socket's CPUs. So the split matches the guest's nodes when
 * the guest has nps nodes of equal size per socket, and it does not
 * (a range over two nodes) when it has fewer. df_map_mode= writes that
 * interleave mode into every map instead, to reach the modes memdiag does
 * not decode.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/moduleparam.h>
#include <linux/nodemask.h>
#include <linux/topology.h>

#include "sim.h"

#define MAP_GRAIN	BIT_ULL(28)	/* DramBase/LimitAddr granularity */
/* each socket's CS fabric ids: the socket in the node id bits above */
#define FABRIC_ID(s, c)	((s) << 5 | (c))

static unsigned int nps = 1;
module_param(nps, uint, 0444);
MODULE_PARM_DESC(nps, "zen2/zen3: NUMA nodes per socket the DRAM address maps split each socket into: 1 (default), 2 or 4");

static int df_map_mode = -1;
module_param(df_map_mode, int, 0444);
MODULE_PARM_DESC(df_map_mode, "zen2/zen3: the interleave mode (IntLvNumChan, 0-15) of every DRAM address map instead of nps='s");

/* the COD hash modes of 1, 2 and 4 nodes: 8, 4 and 2 channels */
static const u8 cod_mode[] = { [1] = 0x0e, [2] = 0x0d, [4] = 0x0c };

int mdsim_df_maps_check(void)
{
	if (nps >= ARRAY_SIZE(cod_mode) || !cod_mode[nps] ||
	    (mdsim.ua->df && mdsim.ua->n_chans != 8) || df_map_mode > 15) {
		pr_err("nps=%u df_map_mode=%d: use nps=1, 2 or 4 and a mode of 0-15\n",
		       nps, df_map_mode);
		return -EINVAL;
	}
	return 0;
}

/* The memory span of the NUMA nodes holding CPUs of @socket, rounded out. */
static void socket_span(unsigned int socket, u64 *lo, u64 *hi)
{
	unsigned int cpu;
	int nid;

	*lo = U64_MAX;
	*hi = 0;
	for_each_online_cpu(cpu) {
		if (topology_logical_package_id(cpu) != socket)
			continue;
		nid = cpu_to_node(cpu);
		*lo = min(*lo, PFN_PHYS(node_start_pfn(nid)));
		*hi = max(*hi, PFN_PHYS(node_end_pfn(nid)));
	}
	*lo = round_down(*lo, MAP_GRAIN);
	*hi = round_up(*hi, MAP_GRAIN);
}

/* Channel @c's map 0 in @socket: DramBaseAddress, DramLimitAddress. */
static void chan_map(unsigned int socket, unsigned int c, u32 *base,
		     u32 *limit)
{
	unsigned int per = mdsim.ua->n_chans / nps, k = c / per;
	u64 lo, hi, part;
	u32 mode = df_map_mode >= 0 ? df_map_mode : cod_mode[nps];

	socket_span(socket, &lo, &hi);
	part = lo < hi ? round_down((hi - lo) / nps, MAP_GRAIN) : 0;
	if (!part) {	/* no CPU online, or parts under 256 MB: no map */
		*base = 0;
		*limit = 0;
		return;
	}
	*base = (u32)((lo + k * part) >> 28) << 12 | mode << 2 | 1;
	*limit = (u32)(((lo + (k + 1) * part) >> 28) - 1) << 12 |
		 FABRIC_ID(socket, k * per);
}

/**
 * mdsim_df_read() - the platform's df_read(): a DF register, read-only
 * @socket: the socket whose DF is read
 * @func: the DF function
 * @reg: the register offset
 * @inst: the DF instance: channel @inst
 * @val: the value; 0 for anything not modelled
 *
 * Return: 0, or -ENODEV where the sim has no DF (not zen2/zen3).
 */
int mdsim_df_read(unsigned int socket, unsigned int func, unsigned int reg,
		  unsigned int inst, u32 *val)
{
	u32 base, limit;

	if (!mdsim.ua->df || socket >= mdsim.n_sockets ||
	    inst >= mdsim.ua->n_chans)
		return -ENODEV;
	*val = 0;
	if (func != 0)
		return 0;
	if (reg == 0x50) {
		*val = FABRIC_ID(socket, inst) << 8;
		return 0;
	}
	if (reg != 0x110 && reg != 0x114)
		return 0;
	chan_map(socket, inst, &base, &limit);
	*val = reg == 0x110 ? base : limit;
	return 0;
}
