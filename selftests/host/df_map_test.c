// SPDX-License-Identifier: GPL-2.0
/*
 * df_map_test.c - module/df_map.c against the DRAM address maps a Zen 2/3
 * socket of eight channels holds in NPS1, NPS2 and NPS4, the memory
 * hole's second map, unpopulated channels, and the maps it must refuse
 * (the 6-channel mode, interleaving over dies or sockets, a channel in
 * two nodes, a range over two nodes, a map naming other channels).
 * NUMA nodes are ranges of system addresses, as the kernel's are. Prints
 * TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "kshim.h"
#include "tap.h"
#include "../../module/df_map.h"

#define NCH	8
#define GB	(1ULL << 30)

/* The NUMA nodes: node i holds [lo[i], hi[i]). */
struct nodes {
	unsigned int n;
	u64 lo[4], hi[4];
};

static int node_of(u64 base, u64 limit, void *arg)
{
	const struct nodes *t = arg;
	unsigned int i;
	int found = -ENOENT;

	for (i = 0; i < t->n; i++) {
		if (limit < t->lo[i] || base >= t->hi[i])
			continue;
		if (found >= 0)
			return -ERANGE;
		found = i;
	}
	return found;
}

/* A DramBaseAddress: valid, @mode, at @addr (256 MB aligned). */
static u32 base_reg(u64 addr, unsigned int mode)
{
	return (u32)(addr >> 28) << 12 | mode << 2 | 1;
}

/* A DramLimitAddress: up to @end (exclusive), set from fabric id @dst. */
static u32 limit_reg(u64 end, unsigned int dst)
{
	return (u32)((end >> 28) - 1) << 12 | dst;
}

/*
 * A socket split into @nps nodes of @per bytes from @at, channel i at
 * fabric id @fid0 + i, each node's channels interleaved with @mode.
 */
static void socket_maps(struct memdiag_df_cs_regs *cs, unsigned int nps,
			unsigned int mode, u64 at, u64 per, unsigned int fid0)
{
	unsigned int c, k = NCH / nps;

	memset(cs, 0, NCH * sizeof(*cs));
	for (c = 0; c < NCH; c++) {
		unsigned int n = c / k;

		cs[c].fabric_info3 = (fid0 + c) << 8;
		cs[c].base[0] = base_reg(at + n * per, mode);
		cs[c].limit[0] = limit_reg(at + (n + 1) * per, fid0 + n * k);
	}
}

static struct nodes even_nodes(unsigned int n, u64 at, u64 per)
{
	struct nodes t = { .n = n };
	unsigned int i;

	for (i = 0; i < n; i++) {
		t.lo[i] = at + i * per;
		t.hi[i] = at + (i + 1) * per;
	}
	return t;
}

/* Decode @cs; check the result is @want (or -EINVAL with @reason in why). */
static void expect(const char *name, const struct memdiag_df_cs_regs *cs,
		   struct nodes *t, const s8 *want, const char *reason)
{
	s8 got[NCH];
	char why[160] = "", msg[400];
	int err = memdiag_df_chan_nodes(cs, NCH, node_of, t, got, why,
					sizeof(why));

	if (reason) {
		snprintf(msg, sizeof(msg), "err %d, why \"%s\", want \"%s\"",
			 err, why, reason);
		check(err == -EINVAL && strstr(why, reason), name, msg);
		return;
	}
	snprintf(msg, sizeof(msg),
		 "err %d (%s), got %d %d %d %d %d %d %d %d", err, why,
		 got[0], got[1], got[2], got[3], got[4], got[5], got[6],
		 got[7]);
	check(!err && !memcmp(got, want, NCH), name, msg);
}

static void test_nps(void)
{
	static const s8 nps1[NCH] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	static const s8 nps2[NCH] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const s8 nps4[NCH] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	struct memdiag_df_cs_regs cs[NCH];
	struct nodes t;

	t = even_nodes(1, 0, 8 * GB);
	socket_maps(cs, 1, 0x0e, 0, 8 * GB, 0x20);
	expect("NPS1 (COD-1 hash over 8): every channel in node 0", cs, &t,
	       nps1, NULL);
	t = even_nodes(2, 0, 4 * GB);
	socket_maps(cs, 2, 0x0d, 0, 4 * GB, 0x20);
	expect("NPS2 (COD-2 hash over 4): channels 0-3 node 0, 4-7 node 1",
	       cs, &t, nps2, NULL);
	t = even_nodes(4, 0, 2 * GB);
	socket_maps(cs, 4, 0x0c, 0, 2 * GB, 0x20);
	expect("NPS4 (COD-4 hash over 2): two channels a node", cs, &t,
	       nps4, NULL);
	socket_maps(cs, 4, 0x01, 0, 2 * GB, 0x20);
	expect("NPS4 without hashing (2 channels)", cs, &t, nps4, NULL);
	/* the second socket: its nodes and fabric ids above the first's */
	t = even_nodes(2, 8 * GB, 4 * GB);
	socket_maps(cs, 2, 0x03, 8 * GB, 4 * GB, 0x40);
	expect("a second socket's NPS2 (4 channels, no hash)", cs, &t, nps2,
	       NULL);
}

/* NPS1 below and above the 4 GB hole: two maps per channel, one node */
static void test_hole_and_empty(void)
{
	static const s8 nps1[NCH] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	static const s8 six[NCH] = { 0, 0, 0, 0, 0, 0, -1, -1 };
	struct memdiag_df_cs_regs cs[NCH];
	struct nodes t = { 1, { 0 }, { 10 * GB } };
	unsigned int c;

	socket_maps(cs, 1, 0x05, 0, 2 * GB, 0);
	for (c = 0; c < NCH; c++) {
		cs[c].base[1] = base_reg(4 * GB, 0x05);
		cs[c].limit[1] = limit_reg(10 * GB, 0);
	}
	expect("NPS1 with the hole's second map: node 0", cs, &t, nps1, NULL);
	/* channels 6, 7 unpopulated: no valid map, no node */
	socket_maps(cs, 1, 0x00, 0, 2 * GB, 0);
	for (c = 0; c < NCH; c++) {
		cs[c].base[0] = c < 6 ? base_reg(0, 0x00) : 0;
		cs[c].limit[0] = limit_reg(2 * GB, c);
	}
	expect("unpopulated channels serve no node", cs, &t, six, NULL);
	memset(cs, 0, sizeof(cs));
	expect("no valid map at all: refused", cs, &t, NULL,
	       "no DRAM address map is valid");
}

static void test_refused(void)
{
	struct memdiag_df_cs_regs cs[NCH];
	struct nodes t = even_nodes(2, 0, 4 * GB);

	socket_maps(cs, 2, 0x0d, 0, 4 * GB, 0);
	cs[3].base[0] = base_reg(0, 0x06);
	expect("the 6-channel mode is refused", cs, &t, NULL,
	       "interleave mode 0x6 is not decoded");
	socket_maps(cs, 2, 0x0d, 0, 4 * GB, 0);
	cs[0].base[0] |= 1 << 6;
	expect("interleaving over two dies is refused", cs, &t, NULL,
	       "over 2 dies and 1 sockets (NPS0)");
	socket_maps(cs, 2, 0x0d, 0, 4 * GB, 0);
	cs[5].base[0] |= 1 << 8;
	expect("interleaving over two sockets is refused", cs, &t, NULL,
	       "over 1 dies and 2 sockets (NPS0)");
	socket_maps(cs, 2, 0x0d, 0, 4 * GB, 0);
	cs[1].base[1] = base_reg(4 * GB, 0x0d);
	cs[1].limit[1] = limit_reg(8 * GB, 0);
	expect("a channel in two nodes is refused", cs, &t, NULL,
	       "channel 1 serves NUMA nodes 0 and 1");
	socket_maps(cs, 1, 0x0e, 0, 8 * GB, 0);
	expect("a range over two nodes is refused", cs, &t, NULL,
	       "(0x0-0x1ffffffff) is in more than one NUMA node");
	socket_maps(cs, 2, 0x0d, 0, 4 * GB, 0);
	t.n = 1;
	expect("a range in no node is refused", cs, &t, NULL,
	       "channel 4 (0x100000000-0x1ffffffff) is in no NUMA node");
	t.n = 2;
	socket_maps(cs, 2, 0x0d, 0, 4 * GB, 0);
	cs[2].fabric_info3 = 7 << 8;
	expect("a map naming other channels is refused", cs, &t, NULL,
	       "channel 2 (fabric id 0x7) holds a DRAM address map of fabric ids 0x0-0x3");
}

int main(void)
{
	test_nps();
	test_hole_and_empty();
	test_refused();
	return tap_end();
}
