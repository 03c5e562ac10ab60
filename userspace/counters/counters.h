/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - the memdiag counters around "memdiagctl run": a session
 * for the whole command, a snapshot of every socket right before and right
 * after each timed phase, and per result the deltas summed over its phases.
 *
 * A result's counters live in a slot. A run function reserves slots with
 * counters_next() before it calls a kernel; the phase the harness
 * marks says which of them the snapshots count towards (phase p of that
 * kernel: slot first + p). Counters never fail a run: whatever is missing
 * is null with the reason.
 */

#ifndef MEMDIAGCTL_COUNTERS_H
#define MEMDIAGCTL_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "info.h"
#include "metrics.h"
#include "nl.h"
#include "print.h"

#define COUNTERS_REASON 512

/* What one socket counted over one slot. */
struct counters_socket {
	uint32_t id;
	bool started;		/* @sum has its first interval */
	bool missing;		/* absent from a snapshot: no values */
	/*
	 * Deltas summed over the slot's intervals, by snapshot attribute;
	 * @sum.have keeps only the counters every snapshot had.
	 */
	struct snap sum;
	struct group_state brk[NR_GROUPS];	/* the first break, per group */
	/* AMD's DF channels (bit: id): in a snapshot; counted in the slot */
	uint32_t chan_seen, chan_counted;
};

/* DF channel ids counters_socket's masks hold */
#define COUNTERS_MAX_CHANNELS 32

struct counters_slot {
	char label[32];
	unsigned int intervals;	/* BEGIN..END pairs summed */
	uint64_t ns;		/* their total length (module's clock) */
	double timed;		/* seconds between the marks, inside that */
	bool failed;		/* a snapshot failed: no counters */
	char why[COUNTERS_REASON];
	struct counters_socket *sock;	/* nr_sock of them */
	/* the traffic the kernel computes, for the volume ratio */
	bool have_traffic;
	uint64_t traffic_bytes, traffic_read_bytes;
};

struct counters {
	bool on;		/* a session runs: marks take snapshots */
	const char *span;	/* the text's name for a slot's span, or NULL */
	char reason[COUNTERS_REASON];	/* why not, when !on */

	/* the session */
	struct nl nl;
	struct nl_family fam;
	bool connected;
	uint32_t session;
	uint32_t core_mode;
	char core_mode_reason[256];
	uint32_t tsc_khz;
	/* get-info's platform: sim counts are the simulator's, not hardware's */
	bool have_platform;
	uint32_t platform;
	struct info_cap_summary imc, core, offcore;	/* from get-info */
	/*
	 * AMD's DF: reads and writes are counted together (rdwr_bytes and
	 * unmeasured_channels are shown), seen in a snapshot
	 */
	bool rdwr;

	uint32_t *sock_id;	/* the sockets, as get-info lists them */
	size_t nr_sock;

	struct snap *begin;	/* the last BEGIN snapshot of each socket */
	bool *have_begin;
	struct snap *end;	/* and the END one */
	bool *have_end;
	bool begun;		/* a BEGIN snapshot is waiting for its END */
	size_t begin_slot;
	double begun_at;	/* when the BEGIN mark returned */

	struct counters_slot *slot;
	size_t nr_slot;
	size_t base;		/* slot of phase 0 of the running kernel */
	bool have_base;
};

/*
 * Connect to the memdiag module and start a session when the counters
 * can be read; otherwise c->reason says why not (module not loaded,
 * permission, nothing available and the module's reasons). Prints
 * nothing: the run goes on either way.
 */
void counters_open(struct counters *c);
/*
 * Count only socket @socket (before counters_next()). -1 when the
 * module lists no such socket; nothing changes then.
 */
int counters_only(struct counters *c, uint32_t socket);
/* Stop the session, close the socket, free everything. */
void counters_close(struct counters *c);

/*
 * Set up @n slots for the next kernel call, labelled @labels[i] (for
 * the text table), and route its phase p to the i == p one. Returns the
 * first slot's index (results print it with counters_json()).
 */
size_t counters_next(struct counters *c, size_t n,
		     const char *const *labels);

/*
 * From kern_cfg.mark: take a snapshot of every socket; at @begin == false
 * add the deltas since the BEGIN one to the slot of @phase.
 */
void counters_mark(struct counters *c, bool begin, unsigned int phase);

/*
 * The bytes the kernel moved over the whole slot (write-allocate
 * included) and the reads among them: enables the volume ratios.
 */
void counters_traffic(struct counters *c, size_t slot, uint64_t bytes,
		      uint64_t read_bytes);

/*
 * Into the current JSON object: "counters" (an object, or null) and
 * "counters_reason" (null, or why counters is null). @c may be NULL.
 */
void counters_json(struct printer *p, const struct counters *c,
		   size_t slot);

/*
 * The text table of every slot, per socket, under the kernel's table;
 * @what heads the label column ("op", "size"). Or the one line saying why
 * there are no counters.
 */
void counters_text(struct printer *p, const struct counters *c,
		   const char *what);

/*
 * CSV: a header row and one row per socket of @slot (a null value is an
 * empty field); @lead_head and @lead, when not NULL, are the first
 * columns of the header and of every row (no trailing comma). Without
 * counters in @slot, one row of @lead and empty fields.
 */
void counters_csv(FILE *f, const struct counters *c, size_t slot,
		  const char *lead_head, const char *lead);

/* Why @slot has no counters (NULL when it has). */
const char *counters_reason(const struct counters *c, size_t slot);

/*
 * For the tests: add the interval from @a to @b (one snapshot per socket
 * each, in c->sock_id order; NULL entries: socket absent) to @slot.
 */
void counters_add(struct counters *c, size_t slot,
		  const struct snap *const *a, const struct snap *const *b);

#endif /* MEMDIAGCTL_COUNTERS_H */
