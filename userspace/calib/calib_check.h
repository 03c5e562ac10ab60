/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calib_check.h - calibrate's measurements of its own trustworthiness
 * (calib_check.c): reference reads and the generators' starvation.
 */

#ifndef MEMDIAGCTL_CALIB_CHECK_H
#define MEMDIAGCTL_CALIB_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "calib_plan.h"
#include "curve.h"

/* What the CPU accounting said when a measurement began. */
struct calib_starve {
	double t0;
	bool have_stat, have_psi;
	uint64_t total, steal, psi_us;
};
void calib_starve_begin(struct calib_starve *m);
/* c->steal_share and c->cpu_pressure_share since @m (NaN: unknown). */
void calib_starve_end(const struct calib_starve *m, struct curve_check *c);

/*
 * read-delay at delay 0 over @p's pool size on all generator CPUs of @so
 * and on the first of them, into @c (measured, read_*). 0, or -1 with
 * @err.
 */
int calib_check_reads(const struct calib_socket *so,
		      const struct calib_plan *p, struct curve_check *c,
		      char *err, size_t errsz);

#endif /* MEMDIAGCTL_CALIB_CHECK_H */
