// SPDX-License-Identifier: GPL-2.0
/* snapshot.c - check and read the counters of a snapshot message. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "names.h"
#include "snapshot.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Payload size of each attribute this memdiagctl reads: 4 (u32), 8 (u64),
 * -1 for a channel nest, -2 for the df-node nests and their reason
 * (df_nodes.c); 0 for what it skips (pad, request-only, unknown).
 */
static const int snap_sizes[] = {
	[MEMDIAG_A_SNAPSHOT_SOCKET] = 4,
	[MEMDIAG_A_SNAPSHOT_TIME_NS] = 8,
	[MEMDIAG_A_SNAPSHOT_IMC_EPOCH] = 4,
	[MEMDIAG_A_SNAPSHOT_DRAM_READ_BYTES] = 8,
	[MEMDIAG_A_SNAPSHOT_DRAM_WRITE_BYTES] = 8,
	[MEMDIAG_A_SNAPSHOT_CHANNEL] = -1,
	[MEMDIAG_A_SNAPSHOT_CORE_EPOCH] = 4,
	[MEMDIAG_A_SNAPSHOT_NR_CPUS] = 4,
	[MEMDIAG_A_SNAPSHOT_INSTRUCTIONS] = 8,
	[MEMDIAG_A_SNAPSHOT_CYCLES] = 8,
	[MEMDIAG_A_SNAPSHOT_REF_CYCLES] = 8,
	[MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS] = 8,
	[MEMDIAG_A_SNAPSHOT_L1_MISS] = 8,
	[MEMDIAG_A_SNAPSHOT_LFB_HIT] = 8,
	[MEMDIAG_A_SNAPSHOT_L1_MISS_ANY] = 8,
	[MEMDIAG_A_SNAPSHOT_OFFCORE_DRAM_READS] = 8,
	[MEMDIAG_A_SNAPSHOT_CHANNELS] = 0,	/* a request flag */
	[MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED] = 4,
	[MEMDIAG_A_SNAPSHOT_PREFETCH_MIXED] = 4,
	[MEMDIAG_A_SNAPSHOT_PREFETCH_CHANGED] = 1,
	[MEMDIAG_A_SNAPSHOT_MAB_OCCUPANCY] = 8,
	[MEMDIAG_A_SNAPSHOT_MAB_ALLOCATIONS] = 8,
	[MEMDIAG_A_SNAPSHOT_L3_EPOCH] = 4,
	[MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_LATENCY_CYCLES] = 8,
	[MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_REQUESTS] = 8,
	[MEMDIAG_A_SNAPSHOT_DRAM_RDWR_BYTES] = 8,
	[MEMDIAG_A_SNAPSHOT_DF_NODE] = -2,	/* df_nodes.c */
	[MEMDIAG_A_SNAPSHOT_DF_NODES_REASON] = -2,
};
_Static_assert(ARRAY_SIZE(snap_sizes) == MEMDIAG_A_SNAPSHOT_MAX + 1,
	       "snap_sizes does not cover MEMDIAG_A_SNAPSHOT_MAX");

static const int channel_sizes[] = {
	[MEMDIAG_A_CHANNEL_ID] = 4,
	[MEMDIAG_A_CHANNEL_READ_BYTES] = 8,
	[MEMDIAG_A_CHANNEL_WRITE_BYTES] = 8,
	[MEMDIAG_A_CHANNEL_RDWR_BYTES] = 8,
	[MEMDIAG_A_CHANNEL_COUNTED_NS] = 8,
};
_Static_assert(ARRAY_SIZE(channel_sizes) == MEMDIAG_A_CHANNEL_MAX + 1,
	       "channel_sizes does not cover MEMDIAG_A_CHANNEL_MAX");

static int size_of(const int *sizes, size_t n, uint16_t type)
{
	return type < n ? sizes[type] : 0;
}

static uint64_t value(const struct nlattr *attr, int size)
{
	if (size == 1)
		return mnl_attr_get_u8(attr);
	return size == 4 ? mnl_attr_get_u32(attr) : mnl_attr_get_u64(attr);
}

static int bad(char *why, size_t size, const char *set, uint16_t type,
	       const char *name)
{
	snprintf(why, size, "attribute %s%s%s (type %u) has the wrong size",
		 set ? set : "", set ? "." : "", name ? name : "?", type);
	errno = EBADMSG;
	return -1;
}

static int check_channel(const struct nlattr *nest, char *why, size_t size)
{
	const struct nlattr *attr;

	mnl_attr_for_each_nested(attr, nest) {
		uint16_t type = mnl_attr_get_type(attr);
		int want = size_of(channel_sizes, ARRAY_SIZE(channel_sizes),
				   type);

		if (want > 0 && mnl_attr_get_payload_len(attr) != (uint16_t)want)
			return bad(why, size, "channel", type,
				   name_channel_attr(type));
	}
	return 0;
}

/*
 * Keep a channel's counts in @s, if it has them all (reads and writes, or
 * AMD's DF: both together and the time counted) and there is room.
 */
static void keep_channel(struct snap *s, const struct nlattr *nest)
{
	const uint32_t rw = 1u << MEMDIAG_A_CHANNEL_ID |
			    1u << MEMDIAG_A_CHANNEL_READ_BYTES |
			    1u << MEMDIAG_A_CHANNEL_WRITE_BYTES;
	const uint32_t rdwr = 1u << MEMDIAG_A_CHANNEL_ID |
			      1u << MEMDIAG_A_CHANNEL_RDWR_BYTES |
			      1u << MEMDIAG_A_CHANNEL_COUNTED_NS;
	struct snap_channel c;
	struct snap_chan *k;

	if (s->nr_chan == SNAP_MAX_CHANNELS)
		return;
	snap_channel_parse(nest, &c);
	k = &s->chan[s->nr_chan];
	memset(k, 0, sizeof(*k));
	if ((c.have & rw) == rw) {
		k->read_bytes = c.read_bytes;
		k->write_bytes = c.write_bytes;
	} else if ((c.have & rdwr) == rdwr) {
		k->rdwr = true;
		k->rdwr_bytes = c.rdwr_bytes;
		k->counted_ns = c.counted_ns;
	} else {
		return;
	}
	k->id = c.id;
	s->nr_chan++;
}

int snap_parse(const struct nlmsghdr *nlh, struct snap *s, char *why,
	       size_t size)
{
	const struct nlattr *attr;

	memset(s, 0, sizeof(*s));
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr)) {
		snprintf(why, size, "no generic netlink header");
		errno = EBADMSG;
		return -1;
	}
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		uint16_t type = mnl_attr_get_type(attr);
		int want = size_of(snap_sizes, ARRAY_SIZE(snap_sizes), type);

		if (want == 0)
			continue;
		if (want == -2) {
			if (df_nodes_take(&s->df, attr, MEMDIAG_A_SNAPSHOT_DF_NODE,
					  MEMDIAG_A_SNAPSHOT_DF_NODES_REASON) < 0)
				return bad(why, size, NULL, type,
					   name_snapshot_attr(type));
			continue;
		}
		if (want < 0) {
			if (check_channel(attr, why, size) < 0)
				return -1;
			s->nr_channels++;
			keep_channel(s, attr);
			continue;
		}
		if (mnl_attr_get_payload_len(attr) != (uint16_t)want)
			return bad(why, size, NULL, type,
				   name_snapshot_attr(type));
		snap_set(s, type, value(attr, want));
	}
	if (!snap_has(s, MEMDIAG_A_SNAPSHOT_SOCKET)) {
		snprintf(why, size, "no socket attribute");
		errno = EBADMSG;
		return -1;
	}
	return 0;
}

void snap_channel_parse(const struct nlattr *nest, struct snap_channel *c)
{
	const struct nlattr *attr;

	memset(c, 0, sizeof(*c));
	mnl_attr_for_each_nested(attr, nest) {
		uint16_t type = mnl_attr_get_type(attr);
		int want = size_of(channel_sizes, ARRAY_SIZE(channel_sizes),
				   type);

		if (want <= 0 || mnl_attr_get_payload_len(attr) != (uint16_t)want)
			continue;
		c->have |= 1u << type;
		if (type == MEMDIAG_A_CHANNEL_ID)
			c->id = mnl_attr_get_u32(attr);
		else if (type == MEMDIAG_A_CHANNEL_READ_BYTES)
			c->read_bytes = mnl_attr_get_u64(attr);
		else if (type == MEMDIAG_A_CHANNEL_WRITE_BYTES)
			c->write_bytes = mnl_attr_get_u64(attr);
		else if (type == MEMDIAG_A_CHANNEL_RDWR_BYTES)
			c->rdwr_bytes = mnl_attr_get_u64(attr);
		else if (type == MEMDIAG_A_CHANNEL_COUNTED_NS)
			c->counted_ns = mnl_attr_get_u64(attr);
	}
}
