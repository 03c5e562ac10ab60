/* SPDX-License-Identifier: GPL-2.0 */
/* parse.h - the values of command-line options, checked strictly. */

#ifndef MEMDIAGCTL_PARSE_H
#define MEMDIAGCTL_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* The range memdiag's session-start accepts for interval-ms. */
#define INTERVAL_MS_MIN 1u
#define INTERVAL_MS_MAX 60000u

/*
 * Each returns 0, or -1 with why in @err, worded to follow "option
 * '--name': " (e.g. "'5x' is not a duration: ..."). Nothing but the value
 * is accepted: no sign, no blanks, no trailing characters.
 */

/* A decimal number from @min to @max. */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *v,
	       char *err, size_t size);

/*
 * A duration: seconds ("2", "1.5"), or a number followed by "s" or "ms"
 * ("1.5s", "500ms"); a whole number of milliseconds from INTERVAL_MS_MIN
 * to INTERVAL_MS_MAX.
 */
int parse_interval_ms(const char *s, uint32_t *ms, char *err, size_t size);

/*
 * A duration of 0 to @max seconds, in seconds ("2", "0.5", "0.5s") or
 * milliseconds ("300ms"), into @sec.
 */
int parse_seconds(const char *s, double max, double *sec, char *err,
		  size_t size);

/* A number of cycles greater than 0, with an optional fraction ("250.5"). */
int parse_cycles(const char *s, double *v, char *err, size_t size);

/*
 * A list of channel numbers below @nr ("0-3", "0,2,5"; "1-1" is 1) into
 * the bit mask @mask (bit i: channel i); not empty, no channel twice.
 */
int parse_channel_set(const char *s, unsigned int nr, uint32_t *mask,
		      char *err, size_t size);

#endif /* MEMDIAGCTL_PARSE_H */
