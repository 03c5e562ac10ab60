/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch.h - the watch engine (watch.c) and its loop (watch_loop.c): the
 * rows of "memdiagctl watch" and of "stat --interval", apart from the
 * commands' options, sockets and signals.
 */

#ifndef MEMDIAGCTL_WATCH_H
#define MEMDIAGCTL_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libmnl/libmnl.h>

#include "info.h"
#include "metrics.h"
#include "nl.h"
#include "verdict_live.h"
#include "watch_group.h"

/*
 * The watch engine, separate from cmd_watch()'s sockets and signals so the
 * tests can feed it canned notifications.
 */
struct watch_socket {
	uint32_t id;
	struct aggregator agg;
	uint64_t rows;		/* intervals printed */
};

struct watch {
	const char *cmd;
	FILE *out;
	bool json, pretty;
	bool csv;		/* CSV rows (the JSON keys as the header) */
	bool timestamp;		/* the wall clock first in text rows */
	bool have_unix_offset;	/* tests: time_unix_ns = time_ns + this */
	int64_t unix_offset_ns;
	bool all;		/* every socket, or only @socket */
	uint32_t socket;
	uint32_t interval_ms;
	uint32_t df_channels;	/* --df-channels mask; 0: not asked */
	uint64_t count;		/* rows per socket; 0: no limit */
	double threshold;	/* cycles; 0: not asked for (no sat column) */
	const char *curve_path;	/* --curve; NULL: the default places */
	struct verdict_src *vs;	/* NULL: no verdict columns */
	struct watch_group *grp;	/* --group; NULL: none */
	uint32_t tsc_khz;
	bool l3;		/* the L3-sampled DRAM latency is available */
	uint16_t family;	/* nlmsg_type of memdiag's messages */
	unsigned int explained;	/* notes already given, by bit */
	struct watch_socket *sock;
	size_t nr_sock;
	size_t nr_expected;	/* sockets from get-info; 0: add as they report */
	uint64_t rows;		/* rows printed, for the text header */
	char pf_name[32][32];	/* the prefetchers, when known */
	size_t nr_pf;
	int rc;			/* MDC_EXIT_LOCAL once output failed */
};

#define WATCH_HEADER_EVERY 20

/* Set up @w from its options and get-info; reports what is unavailable. */
int watch_init(struct watch *w, const struct info_summary *sum);
/* Feed one message from the socket (notifications; others are ignored). */
void watch_msg(const struct nlmsghdr *nlh, void *w);
/* How many sockets printed --count intervals; whether all of them did. */
size_t watch_nr_done(const struct watch *w);
bool watch_done(const struct watch *w);
void watch_free(struct watch *w);
/*
 * Read the counters once right away, so that the first row comes one
 * interval after the start; when this fails, the first notification is
 * the baseline instead.
 */
void watch_baseline(struct watch *w, struct nl *nl,
		    const struct nl_family *fam);
/* The session counts no core counters: say why, once, for those columns. */
void watch_no_core(struct watch *w, const char *reason);

/*
 * Poll @nl (subscribed to the monitor group) and @sfd (a signalfd, or any
 * descriptor that becomes readable to stop) and feed @w until --count is
 * reached or @sfd is readable. An exit code: MDC_EXIT_OK for both.
 */
int watch_loop(struct watch *w, struct nl *nl, int sfd);

#endif /* MEMDIAGCTL_WATCH_H */
