/* SPDX-License-Identifier: GPL-2.0 */
/* calib_show.h - print stored curves (calib_show.c). */

#ifndef MEMDIAGCTL_CALIB_SHOW_H
#define MEMDIAGCTL_CALIB_SHOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calib_plan.h"
#include "curve.h"
#include "print.h"

/* "read", "2:1", "1:1" for the mixes calibrate makes, else "r=0.60". */
const char *calib_mix_label(double read_fraction, char *buf, size_t size);

/*
 * Into the open document: where @c came from (@path), its bandwidth
 * source, and one table (JSON: "sockets" array) per socket, or only
 * @socket's when @have_socket.
 */
void calib_show(struct printer *p, const struct curve *c, const char *path,
		bool have_socket, uint32_t socket);

/*
 * Into the open socket object: its "check" (the reference reads against
 * the read peak) and "quality" (reliable, or each flaw with its numbers);
 * in text, a line each (calib_show_quality.c).
 */
void calib_show_quality(struct printer *p, const struct curve_socket *s);

/* What a plan costs and may cost, for calib_plan_show(). */
struct calib_plan_cost {
	double est_sec;		/* all prefetcher states */
	uint64_t budget;	/* bytes the buffers may take */
	const char *budget_from;	/* "MemAvailable", "--max-memory" */
	unsigned int npf;	/* prefetcher states */
	double llc_ratio;	/* calib_plan_llc_ratio() */
};

/*
 * Socket @so's plan @p as one object (calib_plan_show.c): CPUs, cache,
 * pool, chase, budget, time, and every point with the bytes it sweeps.
 */
void calib_plan_show(struct printer *pr, const struct calib_socket *so,
		     const struct calib_plan *p,
		     const struct calib_plan_cost *c);

#endif /* MEMDIAGCTL_CALIB_SHOW_H */
