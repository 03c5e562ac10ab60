/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calib_store.h - where calibrate keeps its curves.
 */

#ifndef MEMDIAGCTL_CALIB_STORE_H
#define MEMDIAGCTL_CALIB_STORE_H

#include "calib_cmd.h"

/* MDC_EXIT_OK, or MDC_EXIT_LOCAL (said) when --curve FILE's directory
 * is missing or not writable: a typo costs no minutes of measuring. */
int calib_curve_dir_ok(const char *cmd, const struct cal_args *a);

/* Write @c to --curve FILE or the default file (keeping the other
 * sockets of this machine's file there) and show it; an exit code. */
int calib_store(const char *cmd, const struct cal_args *a,
		const struct opts *o, struct curve *c);

#endif
