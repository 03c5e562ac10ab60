/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export.h - the state "memdiagctl export" keeps between snapshots and its
 * rendering in the Prometheus text format. No I/O besides the output
 * stream, so the unit tests feed it canned snapshots.
 */

#ifndef MEMDIAGCTL_EXPORT_H
#define MEMDIAGCTL_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/memdiag.h>

#include "curve.h"
#include "metrics.h"

#define EXPORT_MAX_SOCKETS 64
#define EXPORT_MAX_PF 32

/* The byte counters the exporter keeps, in the order it prints them. */
enum export_total {
	TOTAL_READ,		/* memdiag_dram_read_bytes_total */
	TOTAL_WRITE,		/* memdiag_dram_write_bytes_total */
	TOTAL_OFFCORE,		/* memdiag_offcore_read_bytes_total */
	TOTAL_RDWR,		/* memdiag_dram_rdwr_bytes_total (AMD's DF) */
	NR_TOTALS,
};

struct export_socket {
	uint32_t id;
	bool have_last;
	struct snap last;		/* the previous snapshot */
	struct aggregator agg;		/* intervals for the gauges */
	bool have_m;
	struct interval m;		/* the last whole interval */
	/*
	 * Totals since the exporter started, over every interval that no
	 * epoch change or reset broke: they never go backwards, so rate()
	 * sees neither a counter reset nor a spike when another agent
	 * restarts counting or the module is reloaded.
	 */
	bool have[NR_TOTALS];
	uint64_t total[NR_TOTALS];	/* bytes */
	uint64_t breaks[NR_GROUPS];	/* intervals left out, per group */
	/*
	 * The same totals per channel, from the same intervals, so a
	 * socket's channels add up to its totals (in order of appearance).
	 */
	struct snap_chan chan_total[SNAP_MAX_CHANNELS];
	size_t nr_chan_total;
	struct df_nodes node_total;	/* AMD Zen 2/3: export_nodes.c */
	bool have_v;
	struct verdict v;		/* of the last whole interval */
};

struct export_cap {
	bool listed, available;
	char reason[256];
};

struct export_state {
	bool up;			/* reading snapshots from the module */
	uint64_t reconnects;		/* sessions started after the first */
	char cpu_model[128];
	char uarch[64];
	char kernel[128];
	char module_version[64];
	uint32_t tsc_khz;
	uint64_t interval_ns;
	double threshold;		/* cycles, as watch --threshold; 0: none */
	struct export_cap cap[MEMDIAG_CAPABILITY_MAX + 1];
	char pf_name[EXPORT_MAX_PF][32];
	size_t nr_pf;
	/* the curve the verdict places each interval on; NULL: why not */
	const struct curve *curve;
	char curve_reason[CURVE_WHY_SIZE];
	struct export_socket sock[EXPORT_MAX_SOCKETS];
	size_t nr_sock;
};

void export_init(struct export_state *st, uint64_t interval_ns,
		 double threshold);

/*
 * The module went away or came back: on a new connection the previous
 * snapshots are not a base for deltas any more, the totals carry on.
 */
void export_set_up(struct export_state *st, bool up);

/* Feed one snapshot (notification). -1 when there is no room for it. */
int export_feed(struct export_state *st, const struct snap *s);

/* Write every metric in the Prometheus text format (version 0.0.4). */
int export_render(const struct export_state *st, FILE *f);

#endif /* MEMDIAGCTL_EXPORT_H */
