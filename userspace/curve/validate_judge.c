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

/* A row without a measured value: the run's reason for its null. */
static void not_counted(json_object *cnt, const char *key, struct vcheck *c)
{
	json_object *nr, *v;

	if (json_object_object_get_ex(cnt, "null_reasons", &nr) &&
	    json_object_object_get_ex(nr, key, &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(c->why, sizeof(c->why), "%s not counted: %s",
			 c->counter, json_object_get_string(v));
	else
		snprintf(c->why, sizeof(c->why),
			 "%s not counted on this machine", c->counter);
}

void validate_skip(struct vcheck *c, const char *why)
{
	c->skipped = true;
	c->pass = false;
	snprintf(c->why, sizeof(c->why), "%s", why);
}

bool validate_passed(const struct vcheck *c, size_t nr, char *why,
		     size_t size)
{
	bool judged = false, pass = true;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (c[i].skipped)
			continue;
		pass &= c[i].pass;
		judged |= !strcmp(c[i].counter, "imc_bytes");
	}
	if (pass && !judged)
		snprintf(why, size, "no row judged the DRAM counters: %s",
			 nr ? c[0].why : "nothing ran");
	return pass && judged;
}

/*
 * AMD Zen 2/3: the Data Fabric counts reads and writes together, and
 * its socket total covers channels no counter saw during the op with an
 * estimate from before it (unmeasured_channels): those rows are skipped.
 */
static void judge_df(json_object *cnt, struct vcheck *c)
{
	double unmeasured = num(cnt, "unmeasured_channels");
	char why[sizeof(c->why)];

	if (!strcmp(c->counter, "imc_read_bytes")) {
		validate_skip(c, "no read/write split: the Data Fabric counts reads and writes together (AMD Zen 2/3)");
	} else if (!strcmp(c->counter, "imc_bytes") && unmeasured > 0 &&
		   isfinite(c->measured)) {
		snprintf(why, sizeof(why),
			 "the Data Fabric counted %.0f channel(s) at no time during the op, their bytes an estimate from before it: a larger --size makes the op span its turns",
			 unmeasured);
		validate_skip(c, why);
	}
}

/* The rows of op @op of one "run stream" document @doc. */
void validate_judge(json_object *doc, const char *op, bool nt,
		    struct vcheck *out)
{
	json_object *res = NULL, *r, *cnt = NULL, *v;
	const char *reason = "the stream run printed no result for this op";
	size_t i, n;
	bool df;

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
	/* the DF's socket totals: present, null or not, only there */
	df = cnt && json_object_object_get_ex(cnt, "rdwr_bytes", &v);
	for (i = 0; i < VALIDATE_NR_RULES; i++) {
		struct vcheck *c = &out[i];

		memset(c, 0, sizeof(*c));
		c->op = op;
		c->nt = nt;
		c->counter = vrules[i].counter;
		c->lo = vrules[i].lo;
		c->hi = vrules[i].hi;
		c->expected = num(cnt, vrules[i].expected_key);
		c->interval_ns = num(cnt, "interval_ns");
		c->measured = vrules[i].measured_key ?
			      num(cnt, vrules[i].measured_key) :
			      df ? num(cnt, "rdwr_bytes") :
			      num(cnt, "read_bytes") + num(cnt, "write_bytes");
		c->ratio = c->expected > 0 ? c->measured / c->expected : NAN;
		c->pass = c->ratio >= c->lo && c->ratio <= c->hi;
		if (!cnt)
			snprintf(c->why, sizeof(c->why), "no counters: %s", reason);
		else if (!isfinite(c->ratio))
			not_counted(cnt, vrules[i].measured_key ?
				    vrules[i].measured_key :
				    df ? "rdwr_bytes" : "read_bytes", c);
		explain(c);
		if (df)
			judge_df(cnt, c);
	}
}

