/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calib_busy.h - the share of a CPU a busy thread gets on a socket now.
 */

#ifndef MEMDIAGCTL_CALIB_BUSY_H
#define MEMDIAGCTL_CALIB_BUSY_H

#include "calib_plan.h"

/*
 * The mean share of a CPU (0.1 to 1) a spinning thread got on up to 8 of
 * @so's CPUs just now; 1 where it cannot be measured.
 */
double calib_cpu_share(const struct calib_socket *so);

#endif
