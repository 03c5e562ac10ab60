/* SPDX-License-Identifier: GPL-2.0 */
/*
 * curve_json.h - the curve file's strict JSON readers (curve.c), for the
 * files that read other parts of it (curve_quality.c): each names the
 * member and the path it sits at when it is missing or wrong.
 */

#ifndef MEMDIAGCTL_CURVE_JSON_H
#define MEMDIAGCTL_CURVE_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* Where a member sits in the file, for messages: "sockets[0].curves[1]". */
struct jctx {
	char *why;
	size_t size;
	const char *at;		/* the containing object's path; "" at top */
};

/* "@at.@key: @what" into x->why, errno EINVAL; returns -1. */
int curve_json_bad(const struct jctx *x, const char *key, const char *what);
/* A required finite number. 0, or -1 (reported). */
int curve_json_double(const struct jctx *x, json_object *o, const char *key,
		      double *d);
/* A required integer from 0 to @max. 0, or -1 (reported). */
int curve_json_uint(const struct jctx *x, json_object *o, const char *key,
		    uint64_t max, uint64_t *u);
/* A required string, copied (malloc). 0, or -1 (reported). */
int curve_json_string(const struct jctx *x, json_object *o, const char *key,
		      char **s);

#endif /* MEMDIAGCTL_CURVE_JSON_H */
