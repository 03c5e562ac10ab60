/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resctrl.h - the kernel's resctrl file system as attribution's MBM
 * source: where it is mounted and what it monitors (resctrl_info.c), its
 * byte counters per group summed per socket (resctrl_read.c), and the
 * monitoring groups memdiag reuses, makes and removes
 * (resctrl_groups.c). Every path goes through sysroot.h; every write
 * through struct rc_fsops, so that the tests inject the kernel's errors.
 */

#ifndef MEMDIAGCTL_RESCTRL_H
#define MEMDIAGCTL_RESCTRL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RC_MAX_SOCKETS 64
#define RC_MAX_SUBS 8		/* SNC nodes per L3 domain */
#define RC_WHY 256

/* One L3 monitoring domain: mon_data/mon_L3_<id>. */
struct rc_domain {
	unsigned int id;	/* the L3 cache id */
	int socket;		/* index into resctrl.socket_id; -1: unknown */
	unsigned int nr_sub;	/* SNC: its mon_sub_L3_<n> directories */
	unsigned int sub[RC_MAX_SUBS];
};

struct resctrl {
	char root[4096];	/* the mount point, sysroot included */
	bool mbm_total, mbm_local;	/* info/L3_MON/mon_features */
	unsigned int num_rmids;
	/* AMD: info/L3_MON/mbm_assign_mode is [mbm_event] */
	bool assign_mode;
	unsigned int num_cntrs;		/* the fewest of any domain */
	unsigned int avail_cntrs;	/* the fewest free of any domain */
	struct rc_domain *dom;
	size_t nr_dom;
	uint32_t socket_id[RC_MAX_SOCKETS];	/* physical package ids */
	size_t nr_socket;
	int lock_fd;		/* the root, for resctrl's advisory flock */
};

/*
 * Find resctrl in sysroot's /proc/self/mountinfo and read what it
 * monitors and its domains, mapped to sockets through each CPU's L3 id.
 * 0 when it counts mbm_total_bytes; else -ENOENT (not mounted),
 * -EOPNOTSUPP (no MBM) or another negative errno, with @why in words a
 * user can act on.
 */
int resctrl_open(struct resctrl *r, char *why, size_t size);
void resctrl_close(struct resctrl *r);

/* What one read of a counter file gave. */
enum rc_value {
	RC_VALUE_OK,
	RC_VALUE_UNAVAILABLE,	/* "Unavailable": no counter behind it */
	RC_VALUE_UNASSIGNED,	/* "Unassigned": mbm_event, none assigned */
	RC_VALUE_ERROR,		/* "Error": the hardware said so */
	RC_VALUE_GONE,		/* the file or group vanished */
	RC_VALUE_GARBAGE,	/* anything else */
};

enum rc_value rc_parse_value(const char *text, uint64_t *v);
const char *rc_value_name(enum rc_value v);

/* A group's last value of each counter file, to take deltas from. */
struct rc_counter {
	uint64_t last;
	bool have;
};

/* What reading a group's counters met, summed over its files. */
struct rc_read_stats {
	unsigned int resets;	/* a value went down: the delta skipped */
	unsigned int unavailable, unassigned, error, garbage, gone;
};

/* Counter files of one group: one per domain, or per SNC node. */
size_t rc_nr_counters(const struct resctrl *r);

/*
 * Read @dir's (a group's directory under the root, "" for the root
 * group) mbm_total_bytes in every domain, and add what each counted
 * since @state's last values to @bytes[socket]. A file that is not a
 * number starts over: its delta is skipped, never negative. @state has
 * rc_nr_counters() entries. 0, or -ENOENT when the group is gone.
 */
int rc_read_group(const struct resctrl *r, const char *dir,
		  struct rc_counter *state, uint64_t *bytes,
		  struct rc_read_stats *st);

/* How memdiag writes to resctrl: the tests replace these. */
struct rc_fsops {
	int (*mkdir)(const char *path);		/* 0 or -errno */
	int (*rmdir)(const char *path);
	int (*write)(const char *path, const char *text);
};

extern const struct rc_fsops rc_fsops_real;

/* Who made a monitoring group. */
enum rc_owner {
	RC_OWNER_MEMDIAG,	/* memdiag-<pid>-<n> of a live memdiag */
	RC_OWNER_MEMDIAG_DEAD,	/* a memdiag that is gone: swept */
	RC_OWNER_RUNC,		/* <64 hex>: runc >= 1.5, a container's */
	RC_OWNER_CADVISOR,	/* cadvisor-* */
	RC_OWNER_PQOS,		/* pqos-* */
	RC_OWNER_OTHER,
};

const char *rc_owner_name(enum rc_owner o);

/* A control group (the root "" or a directory) or a monitoring group. */
struct rc_group {
	char *dir;		/* under the root: "", "g1", "g1/mon_groups/m" */
	int ctrl;		/* a MON group's parent, an index; -1: a CTRL_MON */
	enum rc_owner owner;
	bool ours;		/* made by this process */
	bool seen;		/* still there at the last listing */
	struct rc_counter *state;
};

/* What memdiag's own writes met, kept for the output. */
struct rc_attach_stats {
	unsigned int enospc;	/* mkdir: no monitoring ID free */
	unsigned int ebusy;	/* mkdir: IDs held in limbo */
	unsigned int esrch;	/* tasks: the thread exited meanwhile */
	unsigned int refused;	/* tasks: another error */
	int refused_errno;
	unsigned int no_cntr;	/* mbm_event: no counter for a group */
	unsigned int swept;	/* leftovers of a killed memdiag removed */
	unsigned int sweep_failed;
};

struct rc_groups {
	const struct resctrl *r;
	const struct rc_fsops *ops;
	pid_t self;
	struct rc_group *g;
	size_t nr;
	unsigned int made;	/* the n of the next memdiag-<pid>-<n> */
	struct rc_attach_stats st;
};

void rc_groups_init(struct rc_groups *gs, const struct resctrl *r,
		    const struct rc_fsops *ops);
/*
 * List the control and monitoring groups (new ones added, vanished ones
 * unmarked). 0, or a negative errno when the root cannot be read.
 */
int rc_groups_list(struct rc_groups *gs);
/* Remove the groups of memdiag runs that are gone (counted in st). */
void rc_groups_sweep(struct rc_groups *gs);
/*
 * Make a monitoring group of ours under control group @ctrl (an index),
 * assigning it a counter in mbm_event mode. Its index, or a negative
 * errno (-ENOSPC, -EBUSY counted in st).
 */
int rc_group_make(struct rc_groups *gs, int ctrl);
/*
 * Write @tid into group @g's tasks. 0; -ESRCH (counted, harmless: it
 * exited) or another negative errno (counted as refused).
 */
int rc_group_add_tid(struct rc_groups *gs, int g, pid_t tid);
/* Remove every group this process made. */
void rc_groups_remove_ours(struct rc_groups *gs);
void rc_groups_free(struct rc_groups *gs);

/* Take and drop resctrl's advisory lock around a batch of writes. */
void rc_lock(const struct resctrl *r);
void rc_unlock(const struct resctrl *r);

/*
 * For each thread listed in the groups' tasks files, its group: @fn
 * gets the tid and the index of the group that holds it (a MON group
 * where it is in one, else its CTRL_MON group).
 */
int rc_groups_tids(const struct rc_groups *gs,
		   int (*fn)(pid_t tid, int g, void *arg), void *arg);

#endif /* MEMDIAGCTL_RESCTRL_H */
