/* SPDX-License-Identifier: GPL-2.0 */
/*
 * curve_quality.h - a socket's "check" and "quality" objects in the curve
 * file (curve_quality_json.c), for the reader (curve.c) and the writer
 * (curve_save.c). Both objects are optional: files of older memdiagctl
 * have neither (not checked, not judged).
 */

#ifndef MEMDIAGCTL_CURVE_QUALITY_H
#define MEMDIAGCTL_CURVE_QUALITY_H

#include <json-c/json.h>

#include "curve.h"
#include "curve_json.h"

/* Read them from the socket object @o, when there. 0, or -1 (reported). */
int curve_quality_parse(const struct jctx *x, json_object *o,
			struct curve_socket *s);
/* Add them to the socket object @o. 0, or -1 (out of memory). */
int curve_quality_add(json_object *o, const struct curve_socket *s);

#endif /* MEMDIAGCTL_CURVE_QUALITY_H */
