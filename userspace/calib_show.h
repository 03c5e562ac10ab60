/* SPDX-License-Identifier: GPL-2.0 */
/* calib_show.h - print stored curves (calib_show.c). */

#ifndef MEMDIAGCTL_CALIB_SHOW_H
#define MEMDIAGCTL_CALIB_SHOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif /* MEMDIAGCTL_CALIB_SHOW_H */
