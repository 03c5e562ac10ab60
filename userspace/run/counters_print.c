// SPDX-License-Identifier: GPL-2.0
/*
 * counters_print.c - the counters of "memdiagctl run" as output: each
 * slot's sums turned into bytes, rates and latencies per socket (null with
 * the reason where a counter is missing or broke), the totals and volume
 * ratios, as JSON inside each result and as the text table under them.
 */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memdiag.h>

#include "names.h"
#include "run/counters.h"
#include "run/counters_int.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- from sums to metrics, and why a metric is null ---- */

/* The metrics one socket's sums give (@m), as metrics.c computes them. */
static void socket_metrics(const struct run_counters *c, const struct rc_slot *s,
			   const struct rc_socket *rs, struct interval *m)
{
	struct snap z, t;
	size_t k;

	memset(&z, 0, sizeof(z));
	memset(&t, 0, sizeof(t));
	snap_set(&z, A(SOCKET), rs->id);
	snap_set(&t, A(SOCKET), rs->id);
	if (s->ns) {
		snap_set(&z, A(TIME_NS), 0);
		snap_set(&t, A(TIME_NS), s->ns);
	}
	for (k = 0; !rs->missing && k < rc_nr_counted; k++) {
		unsigned int at = rc_counted[k].attr;

		if (!snap_has(&rs->sum, at) ||
		    rs->brk[rc_counted[k].group].why != BREAK_NONE)
			continue;
		snap_set(&z, at, 0);
		snap_set(&t, at, rs->sum.v[at]);
	}
	metrics_compute(&z, &t, c->tsc_khz, WATCH_DEFAULT_THRESHOLD, m);
}

static void describe_break(const struct group_state *b, const char *epoch,
			   char *buf, size_t size)
{
	if (b->why == BREAK_EPOCH)
		rc_say(buf, size,
		       "%s changed from %" PRIu64 " to %" PRIu64
		       " during the run (the counters were reset or reprogrammed), so the interval is invalid",
		       epoch, b->from, b->to);
	else
		rc_say(buf, size,
		       "%s went backwards without an epoch change, so the interval is invalid",
		       name_snapshot_attr(b->attr));
}

/* Why the DRAM counters are absent. */
static void imc_absent(const struct run_counters *c, char *buf, size_t size)
{
	if (c->imc.listed && !c->imc.available)
		rc_say(buf, size, "%s is unavailable%s%s",
		       name_capability(MEMDIAG_CAPABILITY_IMC_BANDWIDTH),
		       c->imc.reason[0] ? ": " : "", c->imc.reason);
	else
		rc_say(buf, size, "the memdiag module sent no DRAM counters");
}

/* Why a counter of the core group is absent. */
static void core_absent(const struct run_counters *c,
			const struct info_cap_summary *cap, uint32_t cap_id,
			const char *what, char *buf, size_t size)
{
	if (c->core_mode == MEMDIAG_CORE_MODE_NONE)
		rc_say(buf, size,
		       "the core counters are not counted in this session (core-mode none)%s%s",
		       c->core_mode_reason[0] ? ": " : "", c->core_mode_reason);
	else if (cap->listed && !cap->available)
		rc_say(buf, size, "%s is unavailable%s%s", name_capability(cap_id),
		       cap->reason[0] ? ": " : "", cap->reason);
	else
		rc_say(buf, size, "the memdiag module sent no %s counters", what);
}

enum rc_metric {
	RC_READ_BYTES,
	RC_WRITE_BYTES,
	RC_READ_GBPS,
	RC_WRITE_GBPS,
	RC_OFFCORE_BYTES,
	RC_L1M_LAT,
	RC_LMR_LAT,
	NR_RC_METRICS,
};

static const struct {
	const char *key;	/* JSON */
	const char *col;	/* text */
} rc_names[NR_RC_METRICS] = {
	[RC_READ_BYTES] = { "read_bytes", "rd_MB" },
	[RC_WRITE_BYTES] = { "write_bytes", "wr_MB" },
	[RC_READ_GBPS] = { "read_gbps", "rd_GB/s" },
	[RC_WRITE_GBPS] = { "write_gbps", "wr_GB/s" },
	[RC_OFFCORE_BYTES] = { "offcore_read_bytes", "ocr_MB" },
	[RC_L1M_LAT] = { "l1_miss_latency_cycles", "l1m_cyc" },
	[RC_LMR_LAT] = { "load_miss_real_latency_cycles", "lmr_cyc" },
};

/* A socket's metrics over a slot: values, and why each null one is null. */
struct rc_values {
	bool null[NR_RC_METRICS];
	double v[NR_RC_METRICS];
	uint64_t bytes[NR_RC_METRICS];	/* the byte counts, exact */
	char why[NR_RC_METRICS][RUN_COUNTERS_REASON];
};

static void values(const struct run_counters *c, const struct rc_slot *s,
		   const struct rc_socket *rs, struct rc_values *out)
{
	const struct group_state *imc = &rs->brk[GROUP_IMC];
	const struct group_state *core = &rs->brk[GROUP_CORE];
	char brk_imc[RUN_COUNTERS_REASON] = "", brk_core[RUN_COUNTERS_REASON] = "";
	struct interval m;
	unsigned int k;

	memset(out, 0, sizeof(*out));
	socket_metrics(c, s, rs, &m);
	out->bytes[RC_READ_BYTES] = m.read_bytes;
	out->bytes[RC_WRITE_BYTES] = m.write_bytes;
	out->bytes[RC_OFFCORE_BYTES] = m.offcore_bytes;
	out->v[RC_READ_BYTES] = m.have_read_bytes ? (double)m.read_bytes : NAN;
	out->v[RC_WRITE_BYTES] = m.have_write_bytes ? (double)m.write_bytes : NAN;
	out->v[RC_READ_GBPS] = m.read_gbps;
	out->v[RC_WRITE_GBPS] = m.write_gbps;
	out->v[RC_OFFCORE_BYTES] = m.have_offcore_bytes ?
				   (double)m.offcore_bytes : NAN;
	out->v[RC_L1M_LAT] = m.l1_miss_latency;
	out->v[RC_LMR_LAT] = m.load_miss_real_latency;
	if (imc->why != BREAK_NONE)
		describe_break(imc, name_snapshot_attr(A(IMC_EPOCH)), brk_imc,
			       sizeof(brk_imc));
	if (core->why != BREAK_NONE)
		describe_break(core, name_snapshot_attr(A(CORE_EPOCH)), brk_core,
			       sizeof(brk_core));

	for (k = 0; k < NR_RC_METRICS; k++) {
		char *why = out->why[k];
		size_t sz = sizeof(out->why[k]);
		bool is_imc = k <= RC_WRITE_GBPS;

		out->null[k] = !isfinite(out->v[k]);
		if (!out->null[k])
			continue;
		if (rs->missing)
			rc_say(why, sz, "socket %u was missing from a snapshot",
			       rs->id);
		else if (is_imc && brk_imc[0])
			rc_say(why, sz, "%s", brk_imc);
		else if (!is_imc && brk_core[0])
			rc_say(why, sz, "%s", brk_core);
		else if (is_imc && !snap_has(&rs->sum, k == RC_READ_BYTES ||
					     k == RC_READ_GBPS ?
					     A(DRAM_READ_BYTES) :
					     A(DRAM_WRITE_BYTES)))
			imc_absent(c, why, sz);
		else if (is_imc)
			rc_say(why, sz, "the interval has no length (the module sent no time)");
		else if (k == RC_OFFCORE_BYTES)
			core_absent(c, &c->offcore, MEMDIAG_CAPABILITY_OFFCORE,
				    "offcore", why, sz);
		else if (!snap_has(&rs->sum, A(L1D_PEND_MISS)) ||
			 !snap_has(&rs->sum, A(L1_MISS)))
			core_absent(c, &c->core, MEMDIAG_CAPABILITY_CORE_LATENCY,
				    "load latency", why, sz);
		else if (k == RC_LMR_LAT && !snap_has(&rs->sum, A(L1_MISS_ANY)) &&
			 !snap_has(&rs->sum, A(LFB_HIT)))
			core_absent(c, &c->core, MEMDIAG_CAPABILITY_CORE_LATENCY,
				    "fill-buffer hit", why, sz);
		else
			rc_say(why, sz, "no load missed the L1 during the run");
	}
}

/* Over all sockets: the totals, the volume ratios, and why null. */
struct rc_totals {
	bool have_read, have_write, have_offcore;
	uint64_t read, write, offcore;
	double ratio, offcore_ratio;
	char why_read[RUN_COUNTERS_REASON + 32];
	char why_write[RUN_COUNTERS_REASON + 32];
	char why_offcore[RUN_COUNTERS_REASON + 32];
	char why_ratio[RUN_COUNTERS_REASON + 32];
	char why_offcore_ratio[RUN_COUNTERS_REASON + 32];
};

static void totals(const struct run_counters *c, const struct rc_slot *s,
		   struct rc_totals *t)
{
	struct rc_values v;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->have_read = t->have_write = t->have_offcore = true;
	for (i = 0; i < c->nr_sock; i++) {
		values(c, s, &s->sock[i], &v);
		if (t->have_read && v.null[RC_READ_BYTES]) {
			t->have_read = false;
			rc_say(t->why_read, sizeof(t->why_read), "socket %u: %s",
			       s->sock[i].id, v.why[RC_READ_BYTES]);
		}
		if (t->have_write && v.null[RC_WRITE_BYTES]) {
			t->have_write = false;
			rc_say(t->why_write, sizeof(t->why_write), "socket %u: %s",
			       s->sock[i].id, v.why[RC_WRITE_BYTES]);
		}
		if (t->have_offcore && v.null[RC_OFFCORE_BYTES]) {
			t->have_offcore = false;
			rc_say(t->why_offcore, sizeof(t->why_offcore),
			       "socket %u: %s", s->sock[i].id,
			       v.why[RC_OFFCORE_BYTES]);
		}
		t->read += v.bytes[RC_READ_BYTES];
		t->write += v.bytes[RC_WRITE_BYTES];
		t->offcore += v.bytes[RC_OFFCORE_BYTES];
	}
	t->ratio = t->offcore_ratio = NAN;
	if (!s->have_traffic)
		return;
	if (!t->have_read || !t->have_write)
		rc_say(t->why_ratio, sizeof(t->why_ratio), "%s",
		       !t->have_read ? t->why_read : t->why_write);
	else if (!s->traffic_bytes)
		rc_say(t->why_ratio, sizeof(t->why_ratio),
		       "the kernel moved no bytes");
	else
		t->ratio = ((double)t->read + (double)t->write) /
			   (double)s->traffic_bytes;
	if (!t->have_offcore)
		rc_say(t->why_offcore_ratio, sizeof(t->why_offcore_ratio), "%s",
		       t->why_offcore);
	else if (!s->traffic_read_bytes)
		rc_say(t->why_offcore_ratio, sizeof(t->why_offcore_ratio),
		       "the kernel read no bytes");
	else
		t->offcore_ratio = (double)t->offcore /
				   (double)s->traffic_read_bytes;
}

static bool socket_valid(const struct rc_socket *rs)
{
	return !rs->missing && rs->brk[GROUP_IMC].why == BREAK_NONE &&
	       rs->brk[GROUP_CORE].why == BREAK_NONE;
}

/* Why @slot has no counters at all, or NULL when it has. */
static const char *slot_reason(const struct run_counters *c, size_t slot)
{
	if (!c)
		return "counters were not read for this run";
	if (!c->on)
		return c->reason;
	if (slot >= c->nr_slot)
		return "counters were not read for this kernel";
	if (c->slot[slot].failed)
		return c->slot[slot].why;
	if (!c->slot[slot].intervals)
		return "nothing was timed";
	return NULL;
}

/* ---- output ---- */

static void json_u64(struct printer *p, const char *key, bool have, uint64_t v)
{
	if (have)
		print_u64(p, PRINT_JSON, key, "%" PRIu64, v);
	else
		print_string(p, PRINT_JSON, key, "%s", NULL);
}

static void json_socket(struct printer *p, const struct run_counters *c,
			const struct rc_slot *s, const struct rc_socket *rs)
{
	struct rc_values v;
	unsigned int k;

	values(c, s, rs, &v);
	print_open_object(p, NULL);
	print_uint(p, PRINT_JSON, "socket", "%u", rs->id);
	print_bool(p, PRINT_JSON, "valid", "%s", socket_valid(rs));
	for (k = 0; k < NR_RC_METRICS; k++) {
		if (k == RC_READ_BYTES || k == RC_WRITE_BYTES ||
		    k == RC_OFFCORE_BYTES)
			json_u64(p, rc_names[k].key, !v.null[k], v.bytes[k]);
		else
			print_double(p, PRINT_JSON, rc_names[k].key, "%f", v.v[k]);
	}
	print_open_object(p, "null_reasons");
	for (k = 0; k < NR_RC_METRICS; k++)
		if (v.null[k])
			print_string(p, PRINT_JSON, rc_names[k].key, "%s", v.why[k]);
	print_close_object(p);
	print_close_object(p);
}

void run_counters_json(struct printer *p, const struct run_counters *c,
		       size_t slot)
{
	const char *reason = slot_reason(c, slot);
	const struct rc_slot *s;
	struct rc_totals t;
	bool valid = true;
	size_t i;

	if (reason) {
		print_string(p, PRINT_JSON, "counters", "%s", NULL);
		print_string(p, PRINT_JSON, "counters_reason", "%s", reason);
		return;
	}
	s = &c->slot[slot];
	for (i = 0; i < c->nr_sock; i++)
		valid &= socket_valid(&s->sock[i]);
	totals(c, s, &t);
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
	if (s->have_traffic && isnan(t.ratio))
		print_string(p, PRINT_JSON, "volume_ratio", "%s", t.why_ratio);
	if (s->have_traffic && isnan(t.offcore_ratio))
		print_string(p, PRINT_JSON, "offcore_volume_ratio", "%s",
			     t.why_offcore_ratio);
	print_close_object(p);
	print_open_array(p, "sockets");
	for (i = 0; i < c->nr_sock; i++)
		json_socket(p, c, s, &s->sock[i]);
	print_close_array(p);
	print_close_object(p);
	print_string(p, PRINT_JSON, "counters_reason", "%s", NULL);
}

/* The notes under the table: each distinct reason once, with its columns. */
struct notes {
	char why[32][RUN_COUNTERS_REASON];
	unsigned int cols[32];	/* bit per enum rc_metric */
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

static void text_cell(struct printer *p, const struct rc_values *v,
		      unsigned int k, int width, int prec, double scale)
{
	if (v->null[k])
		print_textf(p, " %*s", width, "-");
	else
		print_textf(p, " %*.*f", width, prec, v->v[k] / scale);
}

/* One row per socket of each slot; the nulls go to @ns. */
static void text_rows(struct printer *p, const struct run_counters *c,
		      const char *what, struct notes *ns)
{
	char buf[RUN_COUNTERS_REASON + 32];
	struct rc_values v;
	bool any = false;
	size_t i, j;
	unsigned int k;

	for (i = 0; i < c->nr_slot; i++)
		any |= !slot_reason(c, i);
	if (any) {
		print_textf(p, "counters over %s, per socket (MB: 10^6 bytes; cyc: core cycles):\n",
			    c->span ? c->span : "the timed part");
		print_textf(p, "%-8s %4s %9s %10s %10s %10s %8s %8s %8s %8s\n",
			    what, "sock", "time_s", "rd_MB", "wr_MB", "ocr_MB",
			    "rd_GB/s", "wr_GB/s", "l1m_cyc", "lmr_cyc");
	}
	for (i = 0; i < c->nr_slot; i++) {
		const struct rc_slot *s = &c->slot[i];
		const char *reason = slot_reason(c, i);

		if (reason) {
			print_textf(p, "%-8s no counters: %s\n", s->label, reason);
			continue;
		}
		for (j = 0; j < c->nr_sock; j++) {
			values(c, s, &s->sock[j], &v);
			print_textf(p, "%-8s %4u %9.4f", s->label, s->sock[j].id,
				    (double)s->ns / 1e9);
			text_cell(p, &v, RC_READ_BYTES, 10, 1, 1e6);
			text_cell(p, &v, RC_WRITE_BYTES, 10, 1, 1e6);
			text_cell(p, &v, RC_OFFCORE_BYTES, 10, 1, 1e6);
			text_cell(p, &v, RC_READ_GBPS, 8, 2, 1);
			text_cell(p, &v, RC_WRITE_GBPS, 8, 2, 1);
			text_cell(p, &v, RC_L1M_LAT, 8, 1, 1);
			text_cell(p, &v, RC_LMR_LAT, 8, 1, 1);
			print_textf(p, "\n");
			for (k = 0; ns && k < NR_RC_METRICS; k++) {
				if (!v.null[k])
					continue;
				rc_say(buf, sizeof(buf), "socket %u: %s",
				       s->sock[j].id, v.why[k]);
				note(ns, k, buf);
			}
		}
	}
}

/* The volume ratio of each slot that knows its traffic. */
static void text_volume(struct printer *p, const struct run_counters *c,
			struct notes *ns)
{
	struct rc_totals t;
	size_t i, n = 0;
	bool any = false;

	for (i = 0; i < c->nr_slot; i++)
		any |= !slot_reason(c, i) && c->slot[i].have_traffic;
	if (!any)
		return;
	print_textf(p, "volume check (IMC read+write bytes / computed bytes with write-allocate):");
	for (i = 0; i < c->nr_slot; i++) {
		const struct rc_slot *s = &c->slot[i];

		if (slot_reason(c, i) || !s->have_traffic)
			continue;
		totals(c, s, &t);
		if (isnan(t.ratio))
			print_textf(p, "%s %s -", n++ ? "," : "", s->label);
		else
			print_textf(p, "%s %s %.3f", n++ ? "," : "", s->label,
				    t.ratio);
		if (isnan(t.ratio) && ns)
			note(ns, NR_RC_METRICS, t.why_ratio);
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

		for (k = 0; k <= NR_RC_METRICS; k++) {
			if (!(ns->cols[i] & (1u << k)))
				continue;
			len += (size_t)snprintf(cols + len, sizeof(cols) - len,
						"%s%s", nc++ ? ", " : "",
						k < NR_RC_METRICS ?
						rc_names[k].col : "volume check");
			if (len >= sizeof(cols))
				break;
		}
		print_textf(p, "note: - in %s: %s\n", cols, ns->why[i]);
	}
	if (ns->more)
		print_textf(p, "note: more columns are '-' for other reasons; -j gives each one\n");
}

void run_counters_text(struct printer *p, const struct run_counters *c,
		       const char *what)
{
	struct notes *ns;

	if (!c || !c->on) {
		print_textf(p, "counters: unavailable: %s\n", slot_reason(c, 0));
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
static void csv_cell(FILE *f, const struct rc_values *v, unsigned int k)
{
	if (v->null[k])
		fputs(",", f);
	else if (k == RC_READ_BYTES || k == RC_WRITE_BYTES ||
		 k == RC_OFFCORE_BYTES)
		fprintf(f, ",%" PRIu64, v->bytes[k]);
	else
		fprintf(f, ",%.4f", v->v[k]);
}

void run_counters_csv(FILE *f, const struct run_counters *c, size_t slot,
		      const char *lead_head, const char *lead)
{
	const struct rc_slot *s;
	struct rc_values v;
	unsigned int k;
	size_t i;

	/* the JSON keys are the column names: one name per quantity */
	fprintf(f, "%s%ssocket,valid,interval_ns", lead_head ? lead_head : "",
		lead_head ? "," : "");
	for (k = 0; k < NR_RC_METRICS; k++)
		fprintf(f, ",%s", rc_names[k].key);
	fputs("\n", f);
	if (slot_reason(c, slot)) {
		/* the lead columns still say something: every other is null */
		fprintf(f, "%s%s,,", lead ? lead : "", lead ? "," : "");
		for (k = 0; k < NR_RC_METRICS; k++)
			fputs(",", f);
		fputs("\n", f);
		return;
	}
	s = &c->slot[slot];
	for (i = 0; i < c->nr_sock; i++) {
		values(c, s, &s->sock[i], &v);
		fprintf(f, "%s%s%u,%s,", lead ? lead : "", lead ? "," : "",
			s->sock[i].id, socket_valid(&s->sock[i]) ? "true" : "false");
		if (s->ns)
			fprintf(f, "%" PRIu64, s->ns);
		for (k = 0; k < NR_RC_METRICS; k++)
			csv_cell(f, &v, k);
		fputs("\n", f);
	}
}

/* Why @slot has no counters, or NULL: for a command that says it itself. */
const char *run_counters_reason(const struct run_counters *c, size_t slot)
{
	return slot_reason(c, slot);
}
