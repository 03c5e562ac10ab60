/* SPDX-License-Identifier: GPL-2.0 */
/*
 * df_map.h - which of a Zen 2/3 socket's DRAM channels serve which NUMA
 * node, from the Data Fabric's DRAM address maps (DF3). Plain data and
 * arithmetic, no register access, so that it also builds into a host
 * test (selftests/host/df_map_test.c); df_nodes.c reads the registers.
 *
 * Each coherent station (CS, the DF's port to one DRAM channel) holds the
 * DRAM address maps it serves: a range of system addresses and the set
 * of CSs the range is interleaved over, named by the lowest CS fabric id
 * and a channel count. The register layout is the one the kernel's AMD
 * address translation library reads (drivers/ras/amd/atl/reg_fields.h,
 * map.c: DF3 rows). A range's memory is in one NUMA node, so the node of
 * each map's range is the node of the channels it names.
 */
#ifndef _MEMDIAG_DF_MAP_H
#define _MEMDIAG_DF_MAP_H

/* DF3: DRAM address maps a CS holds (atl's num_coh_st_maps) */
#define MEMDIAG_DF_MAPS_PER_CS	2

/* DF3 register offsets, function 0, read per CS instance */
#define MEMDIAG_DF_FABRIC_INFO3	0x050	/* FabricBlockInstanceInformation3 */
#define MEMDIAG_DF_DRAM_BASE(m)	(0x110 + 8 * (m))	/* DramBaseAddress */
#define MEMDIAG_DF_DRAM_LIMIT(m) (0x114 + 8 * (m))	/* DramLimitAddress */

/* What one CS's registers read. */
struct memdiag_df_cs_regs {
	u32 fabric_info3;	/* its own CS fabric id at 19:8 */
	u32 base[MEMDIAG_DF_MAPS_PER_CS];
	u32 limit[MEMDIAG_DF_MAPS_PER_CS];
};

/* One decoded DRAM address map. */
struct memdiag_df_map {
	u64 base, limit;	/* system addresses, limit inclusive */
	u16 dst_fabric_id;	/* the lowest CS fabric id of the set */
	u8 n_chans;		/* CSs interleaved: dst_fabric_id + 0..n-1 */
};

/*
 * The NUMA node holding all of [@base, @limit]; -ENOENT if no node holds
 * any of it, -ERANGE if more than one node holds part of it.
 */
typedef int (*memdiag_df_node_fn)(u64 base, u64 limit, void *arg);

int memdiag_df_map_decode(u32 base, u32 limit, struct memdiag_df_map *m,
			  char *why, size_t len);
int memdiag_df_chan_nodes(const struct memdiag_df_cs_regs *cs,
			  unsigned int n_chans, memdiag_df_node_fn node_of,
			  void *arg, s8 *node_of_chan, char *why, size_t len);

#endif /* _MEMDIAG_DF_MAP_H */
