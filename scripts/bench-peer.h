/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-peer.h - what make bench's two plain peers, bench-chase.c and
 * bench-read.c, both need: a monotonic clock in seconds and a size
 * argument with an optional K, M or G. Nothing of memdiag's own code, so
 * that the peers stay independent of what they check.
 */
#ifndef BENCH_PEER_H
#define BENCH_PEER_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* @s as bytes ("64M"): 0, or -1 if it is not a number with K, M or G */
static inline int bench_size(const char *s, size_t *bytes)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		return -1;
	switch (*end) {
	case 'K': case 'k':
		v <<= 10, end++;
		break;
	case 'M': case 'm':
		v <<= 20, end++;
		break;
	case 'G': case 'g':
		v <<= 30, end++;
		break;
	}
	if (*end)
		return -1;
	*bytes = (size_t)v;
	return 0;
}

#endif
