/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat_marker.h - "memdiagctl stat --marker": the regions a command
 * linked with libmemdiag-marker reports (marker/memdiag_marker.h), one
 * counters slot each, printed beside the command's own counts.
 */

#ifndef MEMDIAGCTL_STAT_MARKER_H
#define MEMDIAGCTL_STAT_MARKER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "print.h"
#include "counters/counters.h"

#define STAT_MARKER_NAME 64

struct stat_region {
	char name[STAT_MARKER_NAME];
	uint64_t calls, time_ns, counted;
	char why[COUNTERS_REASON];	/* a process had no counters */
	size_t slot;
	/* per socket of the counters, in c->sock_id order */
	struct snap *a, *b;	/* zeros and epochs from; deltas, epochs to */
	bool *have;
};

struct stat_marker {
	bool on;
	char path[PATH_MAX];	/* the file the library appends to */
	unsigned int processes;	/* lines read */
	char bad[256];		/* a line that could not be read, or "" */
	struct stat_region *reg;
	size_t nr_reg;
};

/*
 * Make the file and name it in the environment CMD inherits. 0, or -1
 * with why in @why.
 */
int stat_marker_begin(struct stat_marker *m, char *why, size_t size);

/* Read what CMD's processes wrote: a slot of @c per region. */
void stat_marker_read(struct stat_marker *m, struct counters *c);

/*
 * Into the current JSON object: "regions", one object per region (name,
 * calls, time_s, counted_calls, then counters or counters_reason as in
 * run); in text, a table of calls and time (the counter table, which
 * counters_text() prints, has a row per region and socket).
 */
void stat_marker_print(struct printer *p, const struct stat_marker *m,
		       const struct counters *c);

/* CSV: a header row and one row per region, the JSON's keys flattened. */
int stat_marker_csv(FILE *f, const struct stat_marker *m,
		    const struct counters *c);

/* Remove the file, free everything. */
void stat_marker_end(struct stat_marker *m);

#endif /* MEMDIAGCTL_STAT_MARKER_H */
