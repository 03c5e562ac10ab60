/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export_groups.h - the exporter's per-group series (export_groups.c):
 * each socket's top K groups by bytes in the last interval as counters,
 * with "other" and "unattributed", and the info series to join them with
 * kube-state-metrics. No I/O besides the attribution sample and the
 * output stream. Where resctrl has no MBM, the groups' bytes are the
 * memdiag module's core estimate, read over a connection of their own
 * while the module is there (export_groups_core.c).
 */

#ifndef MEMDIAGCTL_EXPORT_GROUPS_H
#define MEMDIAGCTL_EXPORT_GROUPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "attr.h"
#include "groups.h"
#include "info.h"
#include "export.h"

#define EXPORT_GROUPS_MAX_K 100
#define EXPORT_GROUPS_MAX_GROUPS 10000	/* kept in memory at most */
#define EXPORT_GROUPS_MIN_MS 950	/* between samples: resctrl's second */

struct export_group_socket {
	uint32_t id;
	/* counters: each interval's part, never below zero */
	uint64_t other_total, unattributed_total;
	bool have_unattributed;	/* the module counted the socket */
	uint64_t negative;	/* intervals MBM counted more than the socket */
	size_t nr_shown;
	int shown[EXPORT_GROUPS_MAX_K];	/* attr group indices */
};

struct export_groups {
	bool on;		/* the groups are read: the series exist */
	char why[ATTR_WHY];	/* why not */
	size_t k;		/* --top; 0: asked for none */
	bool opened;		/* @a is open (its bytes kept while !on) */
	struct attr a;
	/* the core estimate, where resctrl has no MBM */
	bool core;		/* tried at each connection to the module */
	char mbm_why[ATTR_WHY];	/* why not MBM */
	struct groups_conn gc;
	bool rebase;		/* the next sample is a baseline only */
	struct export_group_socket sock[RC_MAX_SOCKETS];
	uint64_t samples;
	uint64_t sampled_ms;	/* CLOCK_MONOTONIC of the last sample */
};

/* Open attribution for --top @k (0: none); g->why says why not. */
void export_groups_open(struct export_groups *g, size_t k, bool attach);
/*
 * The module is there (@sum its get-info): without MBM, read the core
 * estimate over a connection and a session of our own; g->why says why
 * not. Counters go on from where they were before a disconnect.
 */
void export_groups_connect(struct export_groups *g,
			   const struct info_summary *sum);
/* The module went away: close that connection (the series stay). */
void export_groups_disconnect(struct export_groups *g);
/*
 * One sample of every group, reconciled with each socket's last whole
 * interval in @st (the module's), added to the counters.
 */
void export_groups_sample(struct export_groups *g,
			  const struct export_state *st);
/* The series, after export_render()'s. */
void export_groups_render(const struct export_groups *g, FILE *f);
void export_groups_close(struct export_groups *g);

#endif /* MEMDIAGCTL_EXPORT_GROUPS_H */
