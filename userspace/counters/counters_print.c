// SPDX-License-Identifier: GPL-2.0
/*
 * counters_print.c - the counters of "memdiagctl run" as output: the
 * metrics of counters_values.c as JSON inside each result and as the text
 * table under them (each socket's values through one function, each
 * metric's renderings in one row of counters_names[]), and as CSV.
 */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memdiag.h>

#include "names.h"
#include "counters/counters.h"
#include "counters/counters_int.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A metric in every rendering: one row each, in the JSON's order. */
static const struct counters_col {
	const char *key;	/* JSON and CSV */
	const char *col;	/* text: the column's head, as the notes say */
	int width, prec;	/* text: the cell's width and precision */
	double scale;		/* text: the cell shows value / scale */
	bool bytes;		/* an exact byte count: an integer in JSON */
} counters_names[NR_COUNTERS_METRICS] = {
	[COUNTERS_READ_BYTES] = { "read_bytes", "rd_MB", 10, 1, 1e6, true },
	[COUNTERS_WRITE_BYTES] = { "write_bytes", "wr_MB", 10, 1, 1e6, true },
	[COUNTERS_READ_GBPS] = { "read_gbps", "rd_GB/s", 8, 2, 1, false },
	[COUNTERS_WRITE_GBPS] = { "write_gbps", "wr_GB/s", 8, 2, 1, false },
	[COUNTERS_OFFCORE_BYTES] = { "offcore_read_bytes", "ocr_MB", 10, 1, 1e6,
			       true },
	[COUNTERS_L1M_LAT] = { "l1_miss_latency_cycles", "l1m_cyc", 8, 1, 1, false },
	[COUNTERS_LMR_LAT] = { "load_miss_real_latency_cycles", "lmr_cyc", 8, 1, 1,
			 false },
	[COUNTERS_RDWR_BYTES] = { "rdwr_bytes", "rdwr_MB", 10, 1, 1e6, true },
	[COUNTERS_UNMEASURED] = { "unmeasured_channels", "unmeas", 6, 0, 1, false },
};

/*
 * The text table's column order: the byte counts together. The JSON keeps
 * the order of json.rst (and of watch), so the order is the one thing the
 * two renderings of a socket do not share.
 */
static const enum counters_metric counters_text_order[NR_COUNTERS_METRICS] = {
	COUNTERS_READ_BYTES, COUNTERS_WRITE_BYTES, COUNTERS_RDWR_BYTES,
	COUNTERS_OFFCORE_BYTES, COUNTERS_READ_GBPS, COUNTERS_WRITE_GBPS,
	COUNTERS_L1M_LAT, COUNTERS_LMR_LAT, COUNTERS_UNMEASURED,
};

/* ---- output ---- */

/* The notes under the table: each distinct reason once, with its columns. */
struct notes {
	char why[32][COUNTERS_REASON];
	unsigned int cols[32];	/* bit per enum counters_metric */
	size_t n;
	bool more;
};

static void note(struct notes *ns, unsigned int k, const char *why)
{
	size_t i;

	for (i = 0; i < ns->n; i++) {
		if (!strcmp(ns->why[i], why)) {
			ns->cols[i] |= 1u << k;
			return;
		}
	}
	if (ns->n == ARRAY_SIZE(ns->why)) {
		ns->more = true;
		return;
	}
	snprintf(ns->why[ns->n], sizeof(ns->why[ns->n]), "%s", why);
	ns->cols[ns->n++] = 1u << k;
}

static void json_u64(struct printer *p, const char *key, bool have, uint64_t v)
{
	if (have)
		print_u64(p, PRINT_JSON, key, "%" PRIu64, v);
	else
		print_string(p, PRINT_JSON, key, "%s", NULL);
}

/*
 * Metric @k of @v as each rendering shows it: its JSON value (null when
 * null), or its text cell ('-' when null).
 */
static void metric_print(struct printer *p, const struct counters_values *v,
			 unsigned int k)
{
	const struct counters_col *col = &counters_names[k];

	if (v->null[k]) {
		print_string(p, PRINT_JSON, col->key, "%s", NULL);
		print_textf(p, " %*s", col->width, "-");
		return;
	}
	if (col->bytes)
		print_u64(p, PRINT_JSON, col->key, "%" PRIu64, v->bytes[k]);
	else
		print_double(p, PRINT_JSON, col->key, "%f", v->v[k]);
	print_textf(p, " %*.*f", col->width, col->prec, v->v[k] / col->scale);
}

/*
 * One socket of slot @s: an object of the result's "sockets" with the
 * reasons of its nulls, or a row of the text table with the reasons
 * going to @ns, the notes under it.
 */
static void socket_print(struct printer *p, const struct counters *c,
			 const struct counters_slot *s, const struct counters_socket *rs,
			 struct notes *ns)
{
	char buf[COUNTERS_REASON + 32];
	struct counters_values v;
	unsigned int i, k;

	counters_values(c, s, rs, &v);
	print_open_object(p, NULL);
	print_string(p, PRINT_TEXT, NULL, "%-8s", s->label);
	print_uint(p, PRINT_ANY, "socket", " %4u", rs->id);
	print_bool(p, PRINT_JSON, "valid", "%s", counters_socket_valid(rs));
	print_double(p, PRINT_TEXT, NULL, " %9.4f", (double)s->ns / 1e9);
	for (i = 0; i < NR_COUNTERS_METRICS; i++) {
		k = p->json ? i : counters_text_order[i];
		if (counters_shown(c, k))
			metric_print(p, &v, k);
	}
	print_textf(p, "\n");
	print_open_object(p, "null_reasons");
	for (k = 0; k < NR_COUNTERS_METRICS; k++) {
		if (!v.null[k] || !counters_shown(c, k))
			continue;
		print_string(p, PRINT_JSON, counters_names[k].key, "%s", v.why[k]);
		if (ns && !p->json) {
			counters_say(buf, sizeof(buf), "socket %u: %s", rs->id,
				     v.why[k]);
			note(ns, k, buf);
		}
	}
	print_close_object(p);
	print_close_object(p);
}

void counters_json(struct printer *p, const struct counters *c,
		   size_t slot)
{
	const char *reason = counters_slot_reason(c, slot);
	const struct counters_slot *s;
	struct counters_totals t;
	bool valid = true;
	size_t i;

	if (!p->json)	/* the text: in the table after the results */
		return;
	if (reason) {
		print_string(p, PRINT_JSON, "counters", "%s", NULL);
		print_string(p, PRINT_JSON, "counters_reason", "%s", reason);
		return;
	}
	s = &c->slot[slot];
	for (i = 0; i < c->nr_sock; i++)
		valid &= counters_socket_valid(&s->sock[i]);
	counters_totals(c, s, &t);
	print_open_object(p, "counters");
	json_u64(p, "interval_ns", s->ns != 0, s->ns);
	print_double(p, PRINT_JSON, "interval_s", "%f",
		     s->ns ? (double)s->ns / 1e9 : NAN);
	print_double(p, PRINT_JSON, "timed_s", "%f", s->timed > 0 ? s->timed : NAN);
	print_uint(p, PRINT_JSON, "intervals", "%u", s->intervals);
	print_bool(p, PRINT_JSON, "valid", "%s", valid);
	json_u64(p, "read_bytes", t.have_read, t.read);
	json_u64(p, "write_bytes", t.have_write, t.write);
	json_u64(p, "offcore_read_bytes", t.have_offcore, t.offcore);
	if (c->rdwr) {
		json_u64(p, "rdwr_bytes", t.have_rdwr, t.rdwr);
		print_uint(p, PRINT_JSON, "unmeasured_channels", "%u",
			   t.unmeasured);
	}
	if (s->have_traffic) {
		print_u64(p, PRINT_JSON, "traffic_bytes", "%" PRIu64,
			  s->traffic_bytes);
		print_u64(p, PRINT_JSON, "traffic_read_bytes", "%" PRIu64,
			  s->traffic_read_bytes);
		print_double(p, PRINT_JSON, "volume_ratio", "%f", t.ratio);
		print_double(p, PRINT_JSON, "offcore_volume_ratio", "%f",
			     t.offcore_ratio);
	}
	print_open_object(p, "null_reasons");
	if (!t.have_read)
		print_string(p, PRINT_JSON, "read_bytes", "%s", t.why_read);
	if (!t.have_write)
		print_string(p, PRINT_JSON, "write_bytes", "%s", t.why_write);
	if (!t.have_offcore)
		print_string(p, PRINT_JSON, "offcore_read_bytes", "%s",
			     t.why_offcore);
	if (c->rdwr && !t.have_rdwr)
		print_string(p, PRINT_JSON, "rdwr_bytes", "%s", t.why_rdwr);
	if (s->have_traffic && isnan(t.ratio))
		print_string(p, PRINT_JSON, "volume_ratio", "%s", t.why_ratio);
	if (s->have_traffic && isnan(t.offcore_ratio))
		print_string(p, PRINT_JSON, "offcore_volume_ratio", "%s",
			     t.why_offcore_ratio);
	print_close_object(p);
	print_open_array(p, "sockets");
	for (i = 0; i < c->nr_sock; i++)
		socket_print(p, c, s, &s->sock[i], NULL);
	print_close_array(p);
	print_close_object(p);
	print_string(p, PRINT_JSON, "counters_reason", "%s", NULL);
}

/* One row per socket of each slot; the nulls go to @ns. */
static void text_rows(struct printer *p, const struct counters *c,
		      const char *what, struct notes *ns)
{
	bool any = false;
	unsigned int k;
	size_t i, j;

	for (i = 0; i < c->nr_slot; i++)
		any |= !counters_slot_reason(c, i);
	if (any) {
		print_textf(p, "counters over %s, per socket (MB: 10^6 bytes; cyc: core cycles):\n",
			    c->span ? c->span : "the timed part");
		print_textf(p, "%-8s %4s %9s", what, "sock", "time_s");
		for (k = 0; k < NR_COUNTERS_METRICS; k++)
			if (counters_shown(c, counters_text_order[k]))
				print_textf(p, " %*s",
					    counters_names[counters_text_order[k]].width,
					    counters_names[counters_text_order[k]].col);
		print_textf(p, "\n");
	}
	for (i = 0; i < c->nr_slot; i++) {
		const struct counters_slot *s = &c->slot[i];
		const char *reason = counters_slot_reason(c, i);

		if (reason) {
			print_textf(p, "%-8s no counters: %s\n", s->label, reason);
			continue;
		}
		for (j = 0; j < c->nr_sock; j++)
			socket_print(p, c, s, &s->sock[j], ns);
	}
}

/* The volume ratio of each slot that knows its traffic. */
static void text_volume(struct printer *p, const struct counters *c,
			struct notes *ns)
{
	struct counters_totals t;
	size_t i, n = 0;
	bool any = false;

	for (i = 0; i < c->nr_slot; i++)
		any |= !counters_slot_reason(c, i) && c->slot[i].have_traffic;
	if (!any)
		return;
	print_textf(p, "volume check (IMC read+write bytes / computed bytes with write-allocate):");
	for (i = 0; i < c->nr_slot; i++) {
		const struct counters_slot *s = &c->slot[i];

		if (counters_slot_reason(c, i) || !s->have_traffic)
			continue;
		counters_totals(c, s, &t);
		if (isnan(t.ratio))
			print_textf(p, "%s %s -", n++ ? "," : "", s->label);
		else
			print_textf(p, "%s %s %.3f", n++ ? "," : "", s->label,
				    t.ratio);
		if (isnan(t.ratio) && ns)
			note(ns, NR_COUNTERS_METRICS, t.why_ratio);
	}
	print_textf(p, "\n");
}

/* Each distinct reason for a '-' once, with the columns it empties. */
static void text_notes(struct printer *p, const struct notes *ns)
{
	size_t i;
	unsigned int k;

	for (i = 0; i < ns->n; i++) {
		char cols[160] = "";
		size_t len = 0, nc = 0;

		for (k = 0; k <= NR_COUNTERS_METRICS; k++) {
			if (!(ns->cols[i] & (1u << k)))
				continue;
			len += (size_t)snprintf(cols + len, sizeof(cols) - len,
						"%s%s", nc++ ? ", " : "",
						k < NR_COUNTERS_METRICS ?
						counters_names[k].col : "volume check");
			if (len >= sizeof(cols))
				break;
		}
		print_textf(p, "note: - in %s: %s\n", cols, ns->why[i]);
	}
	if (ns->more)
		print_textf(p, "note: more columns are '-' for other reasons; -j gives each one\n");
}

void counters_text(struct printer *p, const struct counters *c,
		   const char *what)
{
	struct notes *ns;

	if (p->json)	/* the JSON has them in each result */
		return;
	if (!c || !c->on) {
		print_textf(p, "counters: unavailable: %s\n",
			    counters_slot_reason(c, 0));
		return;
	}
	ns = calloc(1, sizeof(*ns));
	text_rows(p, c, what, ns);
	text_volume(p, c, ns);
	if (ns)
		text_notes(p, ns);
	free(ns);
}

/* One CSV field: the value, or nothing for null. */
static void csv_cell(FILE *f, const struct counters_values *v, unsigned int k)
{
	if (v->null[k])
		fputs(",", f);
	else if (counters_names[k].bytes)
		fprintf(f, ",%" PRIu64, v->bytes[k]);
	else if (k == COUNTERS_UNMEASURED)
		fprintf(f, ",%.0f", v->v[k]);
	else
		fprintf(f, ",%.4f", v->v[k]);
}

void counters_csv(FILE *f, const struct counters *c, size_t slot,
		  const char *lead_head, const char *lead)
{
	const struct counters_slot *s;
	struct counters_values v;
	unsigned int k;
	size_t i;

	/* the JSON keys are the column names: one name per quantity */
	fprintf(f, "%s%ssocket,valid,interval_ns", lead_head ? lead_head : "",
		lead_head ? "," : "");
	for (k = 0; k < NR_COUNTERS_METRICS; k++)
		if (counters_shown(c, k))
			fprintf(f, ",%s", counters_names[k].key);
	fputs("\n", f);
	if (counters_slot_reason(c, slot)) {
		/* the lead columns still say something: every other is null */
		fprintf(f, "%s%s,,", lead ? lead : "", lead ? "," : "");
		for (k = 0; k < NR_COUNTERS_METRICS; k++)
			if (counters_shown(c, k))
				fputs(",", f);
		fputs("\n", f);
		return;
	}
	s = &c->slot[slot];
	for (i = 0; i < c->nr_sock; i++) {
		counters_values(c, s, &s->sock[i], &v);
		fprintf(f, "%s%s%u,%s,", lead ? lead : "", lead ? "," : "",
			s->sock[i].id,
			counters_socket_valid(&s->sock[i]) ? "true" : "false");
		if (s->ns)
			fprintf(f, "%" PRIu64, s->ns);
		for (k = 0; k < NR_COUNTERS_METRICS; k++)
			if (counters_shown(c, k))
				csv_cell(f, &v, k);
		fputs("\n", f);
	}
}

/* Why @slot has no counters, or NULL: for a command that says it itself. */
const char *counters_reason(const struct counters *c, size_t slot)
{
	return counters_slot_reason(c, slot);
}
