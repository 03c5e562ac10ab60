/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top.h - "memdiagctl top": the socket's own count each interval
 * (top_socket.c), the groups' reconciliation with it printed as one
 * table, text or JSON (top_show.c), and the command (cmd_top.c).
 */

#ifndef MEMDIAGCTL_TOP_H
#define MEMDIAGCTL_TOP_H

#include <stdbool.h>
#include <stdint.h>

#include "attr.h"
#include "nl.h"
#include "snapshot_collect.h"
#include "snapshot_verdict.h"

#define TOP_WHY 640

/* The sockets' own bytes, from the memdiag module's snapshots. */
struct top_socket_src {
	bool on;		/* connected, a session runs */
	char why[TOP_WHY];	/* why not, when !on */
	struct nl nl;
	struct nl_family fam;
	bool connected, own;
	uint32_t session;
	uint32_t tsc_khz;
	uint32_t sock_id[RC_MAX_SOCKETS];	/* get-info's sockets */
	size_t nr_sock;
	struct snapshot_collect prev;
	struct verdict_src *vs;
	struct snap_judged *j;	/* the last interval, per socket */
	size_t nr_j;
};

/* Connect and start a session; never fails: t->why says why not. */
void top_socket_open(struct top_socket_src *t, struct verdict_src *vs);
/* Read every socket: its interval since the last call into t->j. */
void top_socket_sample(struct top_socket_src *t);
/* The last interval of socket @id: NULL when unknown. */
const struct snap_judged *top_socket_get(const struct top_socket_src *t,
					 uint32_t id);
/* Its bytes (reads and writes, or the DF's total); false when none. */
bool top_socket_bytes(const struct snap_judged *j, uint64_t *bytes);
void top_socket_close(struct top_socket_src *t);

/* The module's core estimate as top's groups (no resctrl MBM). */
struct top_core {
	struct top_socket_src *ts;
	uint32_t session;	/* the session that asked for groups */
	bool on;
};

/*
 * Ask the module to count per cgroup, in a session of its own on @ts's
 * connection, and open @a on it. 0, or a negative errno with @why.
 */
int top_core_open(struct top_core *c, struct top_socket_src *ts,
		  struct attr *a, enum cg_by by, size_t max, char *why,
		  size_t size);
void top_core_close(struct top_core *c);

/* What one table shows. */
struct top_view {
	bool json, pretty, tty;
	unsigned int width;	/* the terminal's columns; 0: no limit */
	double interval_s;
	enum cg_by by;
	enum attr_source source;
	enum curve_source curve_src;
};

/* One socket's interval: the socket line, then the groups. */
int top_show(const char *cmd, const struct top_view *v,
	     const struct attr *a, const struct recon *r,
	     const struct snap_judged *j, const char *socket_why);

#endif /* MEMDIAGCTL_TOP_H */
