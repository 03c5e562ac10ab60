/* SPDX-License-Identifier: GPL-2.0 */
/* counters_int.h - what counters.c and counters_print.c share, nothing else. */

#ifndef MEMDIAGCTL_COUNTERS_INT_H
#define MEMDIAGCTL_COUNTERS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "counters/counters.h"

/* The counters that are summed, and the epoch group of each. */
struct counters_counted {
	unsigned int attr;
	enum metric_group group;
};
extern const struct counters_counted counters_counted[];
extern const size_t counters_nr_counted;

/* snprintf() into a reason buffer. */
void counters_say(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* counters_values.c: a slot's sums as metrics, and why one is null */
enum counters_metric {
	COUNTERS_READ_BYTES,
	COUNTERS_WRITE_BYTES,
	COUNTERS_READ_GBPS,
	COUNTERS_WRITE_GBPS,
	COUNTERS_OFFCORE_BYTES,
	COUNTERS_L1M_LAT,
	COUNTERS_LMR_LAT,
	/*
	 * AMD's DF only (counters.rdwr): the socket total, and how many
	 * channels that total only estimates
	 */
	COUNTERS_RDWR_BYTES,
	COUNTERS_UNMEASURED,
	NR_COUNTERS_METRICS,
};

/* A socket's metrics over a slot: values, and why each null one is null. */
struct counters_values {
	bool null[NR_COUNTERS_METRICS];
	double v[NR_COUNTERS_METRICS];
	uint64_t bytes[NR_COUNTERS_METRICS];	/* the byte counts, exact */
	char why[NR_COUNTERS_METRICS][COUNTERS_REASON];
};

/* Over all sockets: the totals, the volume ratios, and why null. */
struct counters_totals {
	bool have_read, have_write, have_offcore, have_rdwr;
	uint64_t read, write, offcore, rdwr;
	unsigned int unmeasured;	/* over the sockets that know it */
	double ratio, offcore_ratio;
	char why_read[COUNTERS_REASON + 32];
	char why_write[COUNTERS_REASON + 32];
	char why_offcore[COUNTERS_REASON + 32];
	char why_rdwr[COUNTERS_REASON + 32];
	char why_ratio[COUNTERS_REASON + 32];
	char why_offcore_ratio[COUNTERS_REASON + 32];
};

/* Whether metric @k is shown at all: the DF's only on the DF. */
bool counters_shown(const struct counters *c, unsigned int k);

/* Socket @rs's metrics over slot @s into @out. */
void counters_values(const struct counters *c, const struct counters_slot *s,
		     const struct counters_socket *rs, struct counters_values *out);
/* The totals and volume ratios of slot @s over every socket. */
void counters_totals(const struct counters *c, const struct counters_slot *s,
		     struct counters_totals *t);
/* No snapshot missed @rs and no group of it broke. */
bool counters_socket_valid(const struct counters_socket *rs);
/* Why @slot has no counters at all, or NULL when it has. */
const char *counters_slot_reason(const struct counters *c, size_t slot);

#endif /* MEMDIAGCTL_COUNTERS_INT_H */
