/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attr.h - who uses the DRAM bandwidth: the groups of "top --by" (pods,
 * services, cgroups; cgscan.h) and the bytes each moved per socket, from
 * resctrl's MBM counters (resctrl.h), sampled together (attr.c); and the
 * reconciliation of those groups with the socket's own count
 * (reconcile.c).
 */

#ifndef MEMDIAGCTL_ATTR_H
#define MEMDIAGCTL_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgscan.h"
#include "resctrl.h"

#define ATTR_WHY 320

/* Where a group's bytes come from (the "source" of the output). */
enum attr_source {
	ATTR_SOURCE_MBM,		/* resctrl's memory bandwidth monitoring */
	ATTR_SOURCE_CORE_ESTIMATE,	/* memdiag's core counters */
};

const char *attr_source_name(enum attr_source s);

struct attr_group {
	char *key;
	struct cg_ident id;
	bool seen;		/* found by the last scan */
	uint64_t bytes[RC_MAX_SOCKETS];	/* since the start */
	uint64_t delta[RC_MAX_SOCKETS];	/* in the last interval */
};

/* One (socket, cgroup) of the module's core estimate (its group-get). */
struct attr_core_entry {
	uint32_t socket;
	uint64_t cgroup_id;	/* the cgroup2 directory's inode; 0: no slot */
	uint64_t bytes;		/* since the accounting started */
};

/*
 * Read every entry of the core estimate: a malloc()ed array in *@e, or a
 * negative errno with @why. attr.c prints nothing and speaks no netlink,
 * so the command that opened the module passes this in.
 */
typedef int (*attr_core_read_fn)(void *ctx, struct attr_core_entry **e,
				 size_t *n, char *why, size_t size);

struct attr {
	enum attr_source source;
	attr_core_read_fn core_read;
	void *core_ctx;
	struct attr_core_entry *core_prev;	/* the last read, sorted */
	size_t nr_core_prev;
	bool core_rebase;	/* the next read is a baseline only */
	enum cg_by by;
	bool attach;		/* make memdiag groups for threads in none */
	size_t max;		/* groups kept at most */
	/* only the cgroups under this path, as one group (watch --group) */
	const char *subtree;
	struct cg_hier h;
	struct resctrl rc;
	struct rc_groups gs;
	int *link;		/* per rc group: its attr group, or -1 */
	size_t nr_link;
	struct attr_group *g;
	size_t nr, cap;
	int *index;		/* keys to groups, open addressing */
	size_t index_cap;
	/* the bytes of every control group, root included: all MBM saw */
	uint64_t total[RC_MAX_SOCKETS];
	uint64_t total_delta[RC_MAX_SOCKETS];
	unsigned int samples;
	/* what the last sample met */
	struct rc_read_stats rs;
	size_t unowned;		/* threads left in a control group (no root) */
	size_t shared;		/* a reused group with threads of two groups */
	struct cg_scan scan;	/* the last scan's counts */
};

/*
 * Find resctrl and the cgroup hierarchy and list the groups; with
 * @attach, sweep a killed memdiag's groups. 0, or a negative errno
 * with @why saying what is missing and what to do on this host.
 */
int attr_open(struct attr *a, enum cg_by by, bool attach, size_t max,
	      char *why, size_t size);
/*
 * One sample: rescan the groups and their threads (attaching the new
 * ones), then read every group's counters into its delta and bytes. The
 * first sample only sets the baselines. 0, or a negative errno with @why.
 */
int attr_sample(struct attr *a, char *why, size_t size);
/*
 * The same from the memdiag module's core estimate (no resctrl): groups
 * from the cgroup hierarchy, bytes from @fn; the sockets are those of
 * @socket_id. 0, or a negative errno with @why.
 */
int attr_open_core(struct attr *a, enum cg_by by, size_t max,
		   const uint32_t *socket_id, size_t nr_socket,
		   attr_core_read_fn fn, void *ctx, char *why, size_t size);
/*
 * The core estimate is read from a new connection (the module was loaded
 * again): its counts began anew, or run on in another session, so the
 * next sample takes them as its baseline and adds nothing; the groups'
 * bytes so far stay.
 */
void attr_core_rebase(struct attr *a);
/* Remove the groups memdiag made, and free everything. */
void attr_close(struct attr *a);

/* One row of the reconciliation of a socket. */
struct recon_row {
	const struct attr_group *g;
	uint64_t bytes;
};

/*
 * A socket's interval: its own count (IMC/DF) when known, the groups
 * shown (top @k by bytes), "other" (every control group's bytes minus
 * those shown) and "unattributed" (the socket minus every control group:
 * IO/DMA, kernel threads, MBM's own error). Signed: MBM may count more
 * than the socket over an interval, and that is shown, not hidden.
 */
struct recon {
	size_t socket;		/* index into the resctrl sockets */
	uint32_t socket_id;
	bool have_socket;
	uint64_t socket_bytes;
	uint64_t groups_total;	/* every control group */
	uint64_t shown;
	int64_t other;
	int64_t unattributed;	/* only with have_socket */
	struct recon_row *rows;	/* k of them at most */
	size_t nr_rows;
	size_t nr_active;	/* groups with bytes in the interval */
};

/* Fill @r for socket index @sock; -ENOMEM. @r->rows is malloc()ed. */
int reconcile(const struct attr *a, size_t sock, bool have_socket,
	      uint64_t socket_bytes, size_t k, struct recon *r);
void recon_free(struct recon *r);

#endif /* MEMDIAGCTL_ATTR_H */
