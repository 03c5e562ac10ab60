/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - from two snapshots of one socket's cumulative counters to
 * the rates and latencies memdiagctl watch prints. Pure computation: no
 * I/O, no netlink, so every case can be tested with exact numbers.
 */

#ifndef MEMDIAGCTL_METRICS_H
#define MEMDIAGCTL_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/memdiag.h>

#include "df_nodes.h"

#define SNAP_ATTRS (MEMDIAG_A_SNAPSHOT_MAX + 1)
_Static_assert(SNAP_ATTRS <= 32, "struct snap's presence mask is 32 bits");

/*
 * One snapshot of one socket: the value of each scalar attribute of the
 * "snapshot" set (u32 ones widened), indexed by attribute type, and which
 * were present. An absent attribute is a counter the module does not have.
 */
/* The module sends at most this many channel nests (MEMDIAG_MAX_CHANNELS). */
#define SNAP_MAX_CHANNELS 32

/*
 * One channel's cumulative counts, as a channel nest has them: reads and
 * writes, or (rdwr, AMD's DF) both together and the time they were
 * counted in, the channel being counted only part of the time.
 */
struct snap_chan {
	uint32_t id;
	uint64_t read_bytes, write_bytes;
	bool rdwr;
	uint64_t rdwr_bytes, counted_ns;
};

/*
 * A channel's rate in 10^9 bytes per second over @ns (a delta's): reads
 * and writes over @ns, or the DF's bytes over the time they were counted
 * (NaN when it was not counted: unmeasured).
 */
double snap_chan_gbps(const struct snap_chan *c, double ns);

struct snap {
	uint32_t have;
	uint64_t v[SNAP_ATTRS];
	unsigned int nr_channels;	/* channel nests in the message */
	/* the first SNAP_MAX_CHANNELS nests that have id and both counts */
	size_t nr_chan;
	struct snap_chan chan[SNAP_MAX_CHANNELS];
	struct df_nodes df;	/* AMD Zen 2/3: per NUMA node */
};

static inline bool snap_has(const struct snap *s, unsigned int attr)
{
	return attr < SNAP_ATTRS && (s->have & (1u << attr));
}

static inline void snap_set(struct snap *s, unsigned int attr, uint64_t v)
{
	if (attr < SNAP_ATTRS) {
		s->have |= 1u << attr;
		s->v[attr] = v;
	}
}

/*
 * Counters that share an epoch: the IMC ones (dram-*-bytes) and the core
 * PMU ones (cycles ... offcore-dram-reads, offcore included).
 */
enum metric_group {
	GROUP_IMC,
	GROUP_CORE,
	NR_GROUPS,
};

/* Why an interval's metrics of one group cannot be trusted. */
enum group_break {
	BREAK_NONE,
	BREAK_EPOCH,		/* the module restarted counting: from -> to */
	BREAK_BACKWARDS,	/* counter @attr decreased with no epoch change */
};

struct group_state {
	enum group_break why;
	uint64_t from, to;	/* the epochs, for BREAK_EPOCH */
	unsigned int attr;	/* the counter, for BREAK_BACKWARDS */
};

/*
 * What one interval of one socket measured. A double that cannot be
 * computed (counter absent, interval invalid, zero denominator) is NaN,
 * printed as null or '-': never 0, never a made-up value.
 */
struct interval {
	uint32_t socket;
	uint64_t t_ns;		/* time-ns of the later snapshot (0: absent) */
	uint64_t interval_ns;	/* between the two snapshots (0: unknown) */
	bool valid;		/* no group broke in the interval */
	struct group_state brk[NR_GROUPS];

	bool have_read_bytes, have_write_bytes, have_offcore_bytes;
	uint64_t read_bytes, write_bytes, offcore_bytes;
	/*
	 * AMD's DF: reads and writes together, the module's estimate for
	 * the socket (read_gbps and write_gbps are NaN, total_gbps is this)
	 */
	bool have_rdwr_bytes;
	uint64_t rdwr_bytes;
	double read_gbps;	/* 10^9 bytes per second */
	double write_gbps;
	double total_gbps;
	double offcore_read_gbps;
	double l1_miss_latency;		/* cycles */
	double load_miss_real_latency;	/* cycles */
	double core_ghz;		/* average unhalted core frequency */
	double load_miss_real_latency_ns;
	/*
	 * AMD Zen 4/5: the DRAM latency the L3 sampled (its latency over its
	 * requests, near and far DRAM), in core clocks and in ns at the TSC
	 * frequency; NaN without the L3 counters or across an l3-epoch change.
	 */
	double l3_dram_latency_cycles;
	double l3_dram_latency_ns;
	int saturated;		/* 1 or 0; -1 when the latency is unknown */
	/*
	 * Per channel, for the channels both snapshots have (matched by
	 * id, in the later one's order); nr_chan 0 when the IMC interval is
	 * broken or a channel went backwards. Imbalance: the busiest
	 * channel's bytes over the mean channel's (1: even; NaN: no
	 * channels or no traffic).
	 */
	size_t nr_chan;
	struct snap_chan chan[SNAP_MAX_CHANNELS];	/* deltas */
	size_t nr_unmeasured;	/* DF channels not counted in the interval */
	double channel_imbalance;
	uint32_t busiest_channel;	/* id; valid when imbalance is */
	double busiest_channel_gbps;
	/* AMD Zen 2/3: each NUMA node's bytes in the interval (deltas) */
	struct df_nodes df;
};

/*
 * The DRAM bytes @m's memory controllers counted: reads plus writes, or
 * the Data Fabric's total. False when the interval broke or has neither.
 */
bool interval_dram_bytes(const struct interval *m, uint64_t *bytes);

/*
 * The metrics of the interval from @a to @b (same socket, @a earlier).
 * @tsc_khz is get-info's tsc-khz (0: unknown, no ns); the interval counts
 * as saturated when its load miss real latency exceeds @threshold cycles
 * (0: no threshold, saturated is -1).
 */
void metrics_compute(const struct snap *a, const struct snap *b,
		     uint32_t tsc_khz, double threshold, struct interval *m);

/*
 * Turning a stream of snapshots of one socket, perhaps more frequent than
 * wanted (the module publishes at the shortest interval of all sessions),
 * into intervals of about @interval_ns: snapshots are absorbed until the
 * one nearest to @interval_ns after the interval's start, and an epoch
 * change at any of them invalidates the interval. The interval's end is
 * the next one's start.
 */
struct aggregator {
	uint64_t interval_ns;
	uint32_t tsc_khz;
	double threshold;
	bool have_base;
	struct snap base;	/* where the current interval started */
	struct snap last;	/* the latest snapshot absorbed */
	struct group_state brk[NR_GROUPS];	/* first break since base */
};

void agg_init(struct aggregator *g, uint64_t interval_ns, uint32_t tsc_khz,
	      double threshold);

/*
 * Feed the next snapshot. Returns 1 when it ends an interval (*@m filled
 * in), 0 when absorbed (the first one, or one before the interval is
 * over), -1 when ignored because it is not newer than the last one.
 */
int agg_feed(struct aggregator *g, const struct snap *s, struct interval *m);

/*
 * The interval and saturation threshold (cycles) that watch, export and
 * run's counters use unless told otherwise.
 */
#define WATCH_DEFAULT_INTERVAL_MS 1000
#define WATCH_DEFAULT_THRESHOLD 300.0

#endif /* MEMDIAGCTL_METRICS_H */
