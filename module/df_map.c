// SPDX-License-Identifier: GPL-2.0
/*
 * df_map.c - the DF3 DRAM address maps of a Zen 2/3 socket decoded into a
 * channel -> NUMA node table (df_map.h). Facts from the kernel's AMD
 * address translation library (drivers/ras/amd/atl/): the field layout
 * of DramBaseAddress/DramLimitAddress and FabricBlockInstanceInformation3
 * (reg_fields.h), the interleave modes and their channel counts
 * (internal.h, map.c), the set a map names being the CS fabric ids from
 * its destination fabric id up (denormalize.c). A map this file cannot
 * place in one node, or a channel in two nodes, refuses the whole table:
 * per-node sums are then not offered, and @why says what was found.
 */
#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#endif

#include "df_map.h"

/* DramBaseAddress (DF3) */
#define BASE_ADDR_RNG_VAL	BIT(0)
#define BASE_INTLV_NUM_CHAN(r)	(((r) >> 2) & 0xf)
#define BASE_INTLV_NUM_DIES(r)	(((r) >> 6) & 0x3)	/* log2 */
#define BASE_INTLV_NUM_SKTS(r)	(((r) >> 8) & 0x1)	/* log2 */
#define BASE_ADDR(r)		((u64)((r) >> 12) << 28)
/* DramLimitAddress (DF3) */
#define LIMIT_DST_FABRIC_ID(r)	((r) & 0x3ff)
#define LIMIT_ADDR(r)		((u64)((r) >> 12) << 28 | 0xfffffff)
/* FabricBlockInstanceInformation3 */
#define INFO3_FABRIC_ID(r)	(((r) >> 8) & 0xfff)

/*
 * The DF3 interleave modes whose channel set is a plain run of CS fabric
 * ids (hashing spreads addresses within the set, not beyond it). The
 * 6-channel mode remaps its CSs through other registers: not decoded.
 */
static const struct {
	u8 mode, n_chans;
} df3_modes[] = {
	{ 0x00, 1 },	/* none */
	{ 0x01, 2 },	/* 2 channels */
	{ 0x03, 4 },	/* 4 channels */
	{ 0x05, 8 },	/* 8 channels */
	{ 0x07, 16 },	/* 16 channels */
	{ 0x08, 32 },	/* 32 channels */
	{ 0x0c, 2 },	/* COD-4 hash, 2 channels (NPS4) */
	{ 0x0d, 4 },	/* COD-2 hash, 4 channels (NPS2) */
	{ 0x0e, 8 },	/* COD-1 hash, 8 channels (NPS1) */
};

static int df3_mode_chans(unsigned int mode)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(df3_modes); i++)
		if (df3_modes[i].mode == mode)
			return df3_modes[i].n_chans;
	return 0;
}

/**
 * memdiag_df_map_decode() - decode one DRAM address map
 * @base: its DramBaseAddress
 * @limit: its DramLimitAddress
 * @m: the map, when valid
 * @why: what is not handled, when -EINVAL
 * @len: size of @why
 *
 * Return: 1 for a valid map, 0 for an unused one (AddrRngVal clear),
 * -EINVAL for one interleaved in a way this file does not decode (the
 * 6-channel mode, or over dies or sockets: NPS0).
 */
int memdiag_df_map_decode(u32 base, u32 limit, struct memdiag_df_map *m,
			  char *why, size_t len)
{
	unsigned int mode = BASE_INTLV_NUM_CHAN(base);

	if (!(base & BASE_ADDR_RNG_VAL))
		return 0;
	m->n_chans = df3_mode_chans(mode);
	if (!m->n_chans) {
		snprintf(why, len,
			 "DRAM address map 0x%08x: interleave mode 0x%x is not decoded",
			 base, mode);
		return -EINVAL;
	}
	if (BASE_INTLV_NUM_DIES(base) || BASE_INTLV_NUM_SKTS(base)) {
		snprintf(why, len,
			 "DRAM address map 0x%08x is interleaved over %u dies and %u sockets (NPS0): no node is one socket's",
			 base, 1U << BASE_INTLV_NUM_DIES(base),
			 1U << BASE_INTLV_NUM_SKTS(base));
		return -EINVAL;
	}
	m->base = BASE_ADDR(base);
	m->limit = LIMIT_ADDR(limit);
	m->dst_fabric_id = LIMIT_DST_FABRIC_ID(limit);
	if (m->limit < m->base) {
		snprintf(why, len,
			 "DRAM address map 0x%08x/0x%08x ends below its base",
			 base, limit);
		return -EINVAL;
	}
	return 1;
}

/* The node of channel @c's map @m into @node (-1 for no map); 0 or -EINVAL. */
static int cs_map_node(const struct memdiag_df_cs_regs *cs, unsigned int c,
		       unsigned int m, memdiag_df_node_fn node_of, void *arg,
		       int *node, char *why, size_t len)
{
	unsigned int self = INFO3_FABRIC_ID(cs->fabric_info3);
	struct memdiag_df_map map;
	int err;

	*node = -1;
	err = memdiag_df_map_decode(cs->base[m], cs->limit[m], &map, why, len);
	if (err <= 0)
		return err;
	if (self < map.dst_fabric_id ||
	    self >= map.dst_fabric_id + map.n_chans) {
		snprintf(why, len,
			 "channel %u (fabric id 0x%x) holds a DRAM address map of fabric ids 0x%x-0x%x, not its own",
			 c, self, map.dst_fabric_id,
			 map.dst_fabric_id + map.n_chans - 1);
		return -EINVAL;
	}
	*node = node_of(map.base, map.limit, arg);
	if (*node >= 0)
		return 0;
	snprintf(why, len,
		 "the DRAM of channel %u (0x%llx-0x%llx) is %s",
		 c, (unsigned long long)map.base,
		 (unsigned long long)map.limit,
		 *node == -ERANGE ? "in more than one NUMA node" :
				    "in no NUMA node");
	return -EINVAL;
}

/**
 * memdiag_df_chan_nodes() - the NUMA node each channel serves
 * @cs: what each channel's CS registers read, channel i at @cs[i]
 * @n_chans: number of channels
 * @node_of: the node of a range of system addresses
 * @arg: passed to @node_of
 * @node_of_chan: per channel, its node, or -1 for a channel no valid map
 *	names (it serves no DRAM)
 * @why: why not, when the return value is negative
 * @len: size of @why
 *
 * Return: 0, or -EINVAL when a map is not decoded, a range is not in
 * exactly one node, a channel serves two nodes, or no channel serves any.
 */
int memdiag_df_chan_nodes(const struct memdiag_df_cs_regs *cs,
			  unsigned int n_chans, memdiag_df_node_fn node_of,
			  void *arg, s8 *node_of_chan, char *why, size_t len)
{
	unsigned int c, m, served = 0;
	int node;

	for (c = 0; c < n_chans; c++) {
		node_of_chan[c] = -1;
		for (m = 0; m < MEMDIAG_DF_MAPS_PER_CS; m++) {
			if (cs_map_node(&cs[c], c, m, node_of, arg, &node,
					why, len))
				return -EINVAL;
			if (node < 0)
				continue;
			if (node_of_chan[c] >= 0 && node_of_chan[c] != node) {
				snprintf(why, len,
					 "channel %u serves NUMA nodes %d and %d",
					 c, node_of_chan[c], node);
				return -EINVAL;
			}
			node_of_chan[c] = node;
		}
		served += node_of_chan[c] >= 0;
	}
	if (!served) {
		snprintf(why, len, "no DRAM address map is valid");
		return -EINVAL;
	}
	return 0;
}
