/* SPDX-License-Identifier: GPL-2.0 */
/* counters_int.h - what counters.c and counters_print.c share, nothing else. */

#ifndef MEMDIAGCTL_RUN_COUNTERS_INT_H
#define MEMDIAGCTL_RUN_COUNTERS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "counters/counters.h"

/* The counters that are summed, and the epoch group of each. */
struct rc_counted {
	unsigned int attr;
	enum metric_group group;
};
extern const struct rc_counted rc_counted[];
extern const size_t rc_nr_counted;

/* snprintf() into a reason buffer. */
void rc_say(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* counters_values.c: a slot's sums as metrics, and why one is null */
enum rc_metric {
	RC_READ_BYTES,
	RC_WRITE_BYTES,
	RC_READ_GBPS,
	RC_WRITE_GBPS,
	RC_OFFCORE_BYTES,
	RC_L1M_LAT,
	RC_LMR_LAT,
	/*
	 * AMD's DF only (run_counters.rdwr): the socket total, and how many
	 * channels that total only estimates
	 */
	RC_RDWR_BYTES,
	RC_UNMEASURED,
	NR_RC_METRICS,
};

/* A socket's metrics over a slot: values, and why each null one is null. */
struct rc_values {
	bool null[NR_RC_METRICS];
	double v[NR_RC_METRICS];
	uint64_t bytes[NR_RC_METRICS];	/* the byte counts, exact */
	char why[NR_RC_METRICS][RUN_COUNTERS_REASON];
};

/* Over all sockets: the totals, the volume ratios, and why null. */
struct rc_totals {
	bool have_read, have_write, have_offcore, have_rdwr;
	uint64_t read, write, offcore, rdwr;
	unsigned int unmeasured;	/* over the sockets that know it */
	double ratio, offcore_ratio;
	char why_read[RUN_COUNTERS_REASON + 32];
	char why_write[RUN_COUNTERS_REASON + 32];
	char why_offcore[RUN_COUNTERS_REASON + 32];
	char why_rdwr[RUN_COUNTERS_REASON + 32];
	char why_ratio[RUN_COUNTERS_REASON + 32];
	char why_offcore_ratio[RUN_COUNTERS_REASON + 32];
};

/* Whether metric @k is shown at all: the DF's only on the DF. */
bool rc_shown(const struct run_counters *c, unsigned int k);

/* Socket @rs's metrics over slot @s into @out. */
void rc_values(const struct run_counters *c, const struct rc_slot *s,
	       const struct rc_socket *rs, struct rc_values *out);
/* The totals and volume ratios of slot @s over every socket. */
void rc_totals(const struct run_counters *c, const struct rc_slot *s,
	       struct rc_totals *t);
/* No snapshot missed @rs and no group of it broke. */
bool rc_socket_valid(const struct rc_socket *rs);
/* Why @slot has no counters at all, or NULL when it has. */
const char *rc_slot_reason(const struct run_counters *c, size_t slot);

#endif /* MEMDIAGCTL_RUN_COUNTERS_INT_H */
