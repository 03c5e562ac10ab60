// SPDX-License-Identifier: GPL-2.0
/*
 * curve_quality_json.c - a socket's "check" (calibrate's reference reads
 * and how starved its generators were) and "quality" (reliable, and each
 * flaw with its numbers) in the curve file; Documentation/curves.rst.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "curve_quality.h"

/* a share that may be unknown: a number, or null for NaN */
static int get_share(const struct jctx *x, json_object *o, const char *key,
		     double *d)
{
	json_object *v;

	if (json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, json_type_null)) {
		*d = NAN;
		return 0;
	}
	return curve_json_double(x, o, key, d);
}

static int parse_check(const struct jctx *x, json_object *o,
		       struct curve_check *c)
{
	uint64_t th;

	if (!json_object_is_type(o, json_type_object))
		return curve_json_bad(x, "check", "not an object");
	if (curve_json_double(x, o, "read_gbps", &c->read_gbps) ||
	    curve_json_uint(x, o, "read_threads", UINT32_MAX, &th) ||
	    curve_json_double(x, o, "read_one_gbps", &c->read_one_gbps) ||
	    curve_json_uint(x, o, "read_bytes", UINT64_MAX, &c->read_bytes) ||
	    get_share(x, o, "steal_share", &c->steal_share) ||
	    get_share(x, o, "cpu_pressure_share", &c->cpu_pressure_share))
		return -1;
	if (c->read_gbps < 0 || c->read_one_gbps < 0)
		return curve_json_bad(x, "check", "negative bandwidth");
	c->read_threads = (uint32_t)th;
	c->measured = true;
	return 0;
}

static int parse_flaw(const struct jctx *x, json_object *e,
		      struct curve_quality *q)
{
	json_object *v;
	unsigned int f;
	const char *name;

	if (!json_object_is_type(e, json_type_object) ||
	    !json_object_object_get_ex(e, "flaw", &v) ||
	    !json_object_is_type(v, json_type_string))
		return curve_json_bad(x, "flaws", "an element without a \"flaw\" name");
	name = json_object_get_string(v);
	for (f = 0; f < NR_CURVE_FLAWS && strcmp(name, curve_flaw_name(f)); f++)
		;
	if (f == NR_CURVE_FLAWS)
		return curve_json_bad(x, "flaws", "an unknown flaw");
	q->flaws |= 1u << f;
	if (json_object_object_get_ex(e, "detail", &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(q->why[f], sizeof(q->why[f]), "%s",
			 json_object_get_string(v));
	return 0;
}

static int parse_quality(const struct jctx *x, json_object *o,
			 struct curve_quality *q)
{
	json_object *v, *a;
	size_t i, n;

	if (!json_object_is_type(o, json_type_object))
		return curve_json_bad(x, "quality", "not an object");
	if (!json_object_object_get_ex(o, "reliable", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return curve_json_bad(x, "quality.reliable", "missing or not a boolean");
	if (!json_object_object_get_ex(o, "flaws", &a) ||
	    !json_object_is_type(a, json_type_array))
		return curve_json_bad(x, "quality.flaws", "missing or not an array");
	n = json_object_array_length(a);
	for (i = 0; i < n; i++)
		if (parse_flaw(x, json_object_array_get_idx(a, i), q))
			return -1;
	/* the two must agree: a hand-edited file is not half trusted */
	if (json_object_get_boolean(v) != !q->flaws)
		return curve_json_bad(x, "quality.reliable",
				      "disagrees with the flaws listed");
	q->judged = true;
	return 0;
}

int curve_quality_parse(const struct jctx *x, json_object *o,
			struct curve_socket *s)
{
	json_object *v;

	if (json_object_object_get_ex(o, "check", &v) &&
	    !json_object_is_type(v, json_type_null) &&
	    parse_check(x, v, &s->check))
		return -1;
	if (json_object_object_get_ex(o, "quality", &v) &&
	    parse_quality(x, v, &s->quality))
		return -1;
	return 0;
}

static json_object *share(double d)
{
	return isfinite(d) ? json_object_new_double(d) : NULL;
}

/* json_object_object_add() that fails on a NULL that is not meant */
static int put(json_object *o, const char *key, json_object *v, bool may_null)
{
	if (!v && !may_null)
		return -1;
	return json_object_object_add(o, key, v) ? -1 : 0;
}

static json_object *check_json(const struct curve_check *c)
{
	json_object *o = json_object_new_object();

	if (!o || put(o, "read_gbps", json_object_new_double(c->read_gbps), 0) ||
	    put(o, "read_threads", json_object_new_int64(c->read_threads), 0) ||
	    put(o, "read_one_gbps", json_object_new_double(c->read_one_gbps), 0) ||
	    put(o, "read_bytes", json_object_new_int64((int64_t)c->read_bytes), 0) ||
	    put(o, "steal_share", share(c->steal_share), 1) ||
	    put(o, "cpu_pressure_share", share(c->cpu_pressure_share), 1)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *quality_json(const struct curve_quality *q)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	json_object *e;
	unsigned int f;

	if (!o || !a || put(o, "reliable", json_object_new_boolean(!q->flaws), 0))
		goto err;
	for (f = 0; f < NR_CURVE_FLAWS; f++) {
		if (!(q->flaws & (1u << f)))
			continue;
		e = json_object_new_object();
		if (!e || put(e, "flaw", json_object_new_string(curve_flaw_name(f)), 0) ||
		    put(e, "detail", json_object_new_string(q->why[f]), 0) ||
		    json_object_array_add(a, e)) {
			json_object_put(e);
			goto err;
		}
	}
	if (put(o, "flaws", a, 0))
		goto err;
	return o;
err:
	json_object_put(a);
	json_object_put(o);
	return NULL;
}

int curve_quality_add(json_object *o, const struct curve_socket *s)
{
	json_object *v;

	if (s->check.measured) {
		v = check_json(&s->check);
		if (!v || put(o, "check", v, 0))
			return -1;
	}
	if (s->quality.judged) {
		v = quality_json(&s->quality);
		if (!v || put(o, "quality", v, 0))
			return -1;
	}
	return 0;
}
