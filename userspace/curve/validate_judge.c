// SPDX-License-Identifier: GPL-2.0
/*
 * validate_judge.c - validate's rows from one "run stream" JSON document:
 * each counter against the volume STREAM computed, and why a row fails
 * (tolerances in Documentation/curves.rst). No I/O: the unit tests feed
 * it canned documents.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "validate.h"


/* The tolerances (curves.rst): ratio = measured / expected. */
static const struct vrule {
	const char *counter;
	const char *measured_key;	/* in the op's "counters" */
	const char *expected_key;
	double lo, hi;
} vrules[] = {
	{ "imc_bytes", NULL, "traffic_bytes", 0.90, 1.15 },
	{ "imc_read_bytes", "read_bytes", "traffic_read_bytes", 0.90, 1.15 },
	/* L2 prefetches are not offcore demand reads: the paper's shortfall */
	{ "offcore_read_bytes", "offcore_read_bytes", "traffic_read_bytes",
	  0.50, 1.15 },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
_Static_assert(ARRAY_SIZE(vrules) == VALIDATE_NR_RULES, "one row per rule");

static void explain(struct vcheck *c)
{
	if (c->pass)
		return;
	if (!isfinite(c->ratio))
		return;		/* the reason is already set */
	if (c->ratio < 0.05)
		snprintf(c->why, sizeof(c->why),
			 "the counters saw almost none of the traffic (wrong socket mapping, a missing channel, or a VM that shows zeros)");
	else if (c->ratio >= 0.35 && c->ratio <= 0.65)
		snprintf(c->why, sizeof(c->why),
			 "the counters saw about half of the traffic (a channel or socket not counted?)");
	else if (c->ratio < c->lo)
		snprintf(c->why, sizeof(c->why),
			 "the counters saw %.0f%% of the traffic", 100 * c->ratio);
	else
		snprintf(c->why, sizeof(c->why),
			 "the counters saw %.0f%% of the traffic (other traffic on the machine, or overfetch)",
			 100 * c->ratio);
}

static double num(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !key || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_int) ||
	      json_object_is_type(v, json_type_double)))
		return NAN;
	return json_object_get_double(v);
}

/* The rows of op @op of one "run stream" document @doc. */
void validate_judge(json_object *doc, const char *op, bool nt,
		    struct vcheck *out)
{
	json_object *res = NULL, *r, *cnt = NULL, *v;
	const char *reason = "the stream run printed no result for this op";
	size_t i, n;

	if (json_object_object_get_ex(doc, "results", &res) &&
	    json_object_is_type(res, json_type_array)) {
		n = json_object_array_length(res);
		for (i = 0; i < n; i++) {
			r = json_object_array_get_idx(res, i);
			if (json_object_object_get_ex(r, "op", &v) &&
			    !strcmp(json_object_get_string(v), op)) {
				json_object_object_get_ex(r, "counters", &cnt);
				if (json_object_object_get_ex(r, "counters_reason", &v) &&
				    json_object_is_type(v, json_type_string))
					reason = json_object_get_string(v);
				else if (!cnt)
					reason = "no counters";
				break;
			}
		}
	}
	if (cnt && !json_object_is_type(cnt, json_type_object))
		cnt = NULL;
	for (i = 0; i < VALIDATE_NR_RULES; i++) {
		struct vcheck *c = &out[i];

		memset(c, 0, sizeof(*c));
		c->op = op;
		c->nt = nt;
		c->counter = vrules[i].counter;
		c->lo = vrules[i].lo;
		c->hi = vrules[i].hi;
		c->expected = num(cnt, vrules[i].expected_key);
		c->measured = vrules[i].measured_key ?
			      num(cnt, vrules[i].measured_key) :
			      num(cnt, "read_bytes") + num(cnt, "write_bytes");
		c->ratio = c->expected > 0 ? c->measured / c->expected : NAN;
		c->pass = c->ratio >= c->lo && c->ratio <= c->hi;
		if (!cnt)
			snprintf(c->why, sizeof(c->why), "no counters: %s", reason);
		else if (!isfinite(c->ratio))
			snprintf(c->why, sizeof(c->why), "%s not counted on this machine",
				 c->counter);
		explain(c);
	}
}

