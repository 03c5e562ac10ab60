/* SPDX-License-Identifier: GPL-2.0 */
/* counters_int.h - what counters.c and counters_print.c share, nothing else. */

#ifndef MEMDIAGCTL_RUN_COUNTERS_INT_H
#define MEMDIAGCTL_RUN_COUNTERS_INT_H

#include <stddef.h>

#include "metrics.h"

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

#endif /* MEMDIAGCTL_RUN_COUNTERS_INT_H */
