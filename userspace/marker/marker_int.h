/* SPDX-License-Identifier: GPL-2.0 */
/*
 * marker_int.h - libmemdiag-marker's insides: the process's state (one
 * netlink socket, the regions) shared by marker.c (the API), marker_nl.c
 * (snapshots) and marker_out.c (the results file).
 */

#ifndef MEMDIAG_MARKER_INT_H
#define MEMDIAG_MARKER_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "memdiag_marker.h"
#include "metrics.h"
#include "nl.h"

#define MK_MAX_SOCK 64
#define MK_REASON 256

/* One socket's deltas summed over a region's calls. */
struct mk_sum {
	uint32_t id;
	bool started;		/* the first call is in */
	uint32_t have;		/* attributes every call had at both ends */
	uint64_t v[SNAP_ATTRS];
	/* the first epoch change inside a call, per group: from -> to */
	bool broke[NR_GROUPS];
	uint64_t from[NR_GROUPS], to[NR_GROUPS];
};

struct mk_region {
	char name[MEMDIAG_MARKER_NAME_MAX + 1];
	uint64_t calls;
	uint64_t time_ns;	/* CLOCK_MONOTONIC, start to stop, summed */
	uint64_t counted;	/* calls with counter deltas */
	char why[MK_REASON];	/* the first reason a call had none */
	struct mk_sum sock[MK_MAX_SOCK];
};

struct mk_state {
	pthread_mutex_t lock;	/* everything below, and the socket */
	bool init;
	bool written;
	bool connected;
	struct nl nl;
	struct nl_family fam;
	char reason[MK_REASON];	/* "" while counting */
	uint32_t sock_id[MK_MAX_SOCK];
	size_t nr_sock;
	struct mk_region *reg;
	size_t nr_reg;
};

extern struct mk_state mk;

/*
 * Connect and take a first snapshot, which lists the sockets; on failure
 * mk.reason says why there will be no counters. Under mk.lock.
 */
void mk_connect(void);
void mk_disconnect(void);

/*
 * Every socket's counters now, in mk.sock_id order (@have[i]: socket i
 * answered). 0, or -1 with why in @why. Under mk.lock.
 */
int mk_snapshot(struct snap *out, bool *have, char *why, size_t size);

/* Append the regions to @path as one JSON line. 0, or -1 with errno. */
int mk_write(const char *path);

#endif /* MEMDIAG_MARKER_INT_H */
