// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - the memdiag counters over exactly the timed part of a
 * "memdiagctl run": one session for the command, a snapshot of every
 * socket at each mark of the harness, and per result the summed deltas,
 * turned into bytes, rates and latencies by metrics.c. Nothing here may
 * fail a run or print to stderr: every gap is a null with its reason.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "conn.h"
#include "names.h"
#include "run/counters.h"
#include "snapshot.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The session only has to keep the counters running: its notifications
 * are not listened to, so it asks for the rarest there are, which never
 * makes another client's session publish more often.
 */
#define RUN_SESSION_MS 60000

/* The counters that are summed, and the epoch group of each. */
static const struct {
	unsigned int attr;
	enum metric_group group;
} counted[] = {
	{ A(DRAM_READ_BYTES), GROUP_IMC },
	{ A(DRAM_WRITE_BYTES), GROUP_IMC },
	{ A(INSTRUCTIONS), GROUP_CORE },
	{ A(CYCLES), GROUP_CORE },
	{ A(REF_CYCLES), GROUP_CORE },
	{ A(L1D_PEND_MISS), GROUP_CORE },
	{ A(L1_MISS), GROUP_CORE },
	{ A(LFB_HIT), GROUP_CORE },
	{ A(L1_MISS_ANY), GROUP_CORE },
	{ A(OFFCORE_DRAM_READS), GROUP_CORE },
};

static void say(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

/* CLOCK_MONOTONIC in seconds: the clock of the harness and the module. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the session ---- */

/* What the run needs of get-info's summary; -1 with c->reason set. */
static int take_info(struct run_counters *c, const struct info_summary *sum)
{
	size_t i;

	c->tsc_khz = sum->tsc_khz;
	c->imc = sum->cap[MEMDIAG_CAPABILITY_IMC_BANDWIDTH];
	c->core = sum->cap[MEMDIAG_CAPABILITY_CORE_LATENCY];
	c->offcore = sum->cap[MEMDIAG_CAPABILITY_OFFCORE];
	snprintf(c->core_mode_reason, sizeof(c->core_mode_reason), "%s",
		 sum->core_mode_reason);
	c->nr_sock = sum->nr_socket ? sum->nr_socket :
		     sum->have_nr_sockets ? sum->nr_sockets : 0;
	if (!c->nr_sock) {
		say(c->reason, sizeof(c->reason),
		    "the memdiag module lists no socket");
		return -1;
	}
	c->sock_id = calloc(c->nr_sock, sizeof(*c->sock_id));
	c->begin = calloc(c->nr_sock, sizeof(*c->begin));
	c->end = calloc(c->nr_sock, sizeof(*c->end));
	c->have_begin = calloc(c->nr_sock, sizeof(*c->have_begin));
	c->have_end = calloc(c->nr_sock, sizeof(*c->have_end));
	if (!c->sock_id || !c->begin || !c->end || !c->have_begin ||
	    !c->have_end) {
		say(c->reason, sizeof(c->reason), "out of memory");
		return -1;
	}
	for (i = 0; i < c->nr_sock; i++)
		c->sock_id[i] = sum->nr_socket ? sum->socket[i] : (uint32_t)i;
	return 0;
}

/* Whether nothing can count, and then why, as watch says it. */
static bool nothing_counts(struct run_counters *c)
{
	const struct info_cap_summary *cap[] = { &c->imc, &c->core, &c->offcore };
	static const uint32_t id[] = {
		MEMDIAG_CAPABILITY_IMC_BANDWIDTH,
		MEMDIAG_CAPABILITY_CORE_LATENCY,
		MEMDIAG_CAPABILITY_OFFCORE,
	};
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(cap); i++)
		if (!cap[i]->listed || cap[i]->available)
			return false;
	len = (size_t)snprintf(c->reason, sizeof(c->reason),
			       "no counter can be read on this machine");
	for (i = 0; i < ARRAY_SIZE(cap) && len < sizeof(c->reason); i++)
		len += (size_t)snprintf(c->reason + len, sizeof(c->reason) - len,
					"%s %s: %s", i ? ";" : " (",
					name_capability(id[i]),
					cap[i]->reason[0] ? cap[i]->reason :
					"unavailable");
	if (len < sizeof(c->reason))
		snprintf(c->reason + len, sizeof(c->reason) - len, ")");
	return true;
}

void run_counters_open(struct run_counters *c)
{
	struct info_summary sum;
	struct cli_error err;

	memset(c, 0, sizeof(*c));
	if (md_open(&c->nl, &c->fam, &sum, &err) != MDC_EXIT_OK) {
		cli_error_phrase(&err, c->reason, sizeof(c->reason));
		return;
	}
	c->connected = true;
	if (take_info(c, &sum) == 0 && !nothing_counts(c)) {
		if (session_start(&c->nl, &c->fam, RUN_SESSION_MS, &c->session,
				  &c->core_mode, &err) == MDC_EXIT_OK)
			c->on = true;
		else
			cli_error_phrase(&err, c->reason, sizeof(c->reason));
	}
	info_summary_free(&sum);
	if (c->on)
		return;
	nl_family_free(&c->fam);
	nl_close(&c->nl);
	c->connected = false;
}

void run_counters_close(struct run_counters *c)
{
	struct cli_error err;
	size_t i;

	/* a failed stop needs no word: closing the socket ends it too */
	if (c->on && c->connected)
		session_stop(&c->nl, &c->fam, c->session, &err);
	if (c->connected) {
		nl_family_free(&c->fam);
		nl_close(&c->nl);
	}
	for (i = 0; i < c->nr_slot; i++)
		free(c->slot[i].sock);
	free(c->slot);
	free(c->sock_id);
	free(c->begin);
	free(c->end);
	free(c->have_begin);
	free(c->have_end);
	memset(c, 0, sizeof(*c));
}

/* ---- snapshots and sums ---- */

struct dump {
	struct run_counters *c;
	struct snap *out;
	bool *have;
	bool bad;
	char why[160];
};

static int dump_msg(const struct nlmsghdr *nlh, void *data)
{
	struct dump *d = data;
	struct snap s;
	size_t i;

	if (snap_parse(nlh, &s, d->why, sizeof(d->why)) < 0) {
		d->bad = true;
		return MNL_CB_OK;
	}
	for (i = 0; i < d->c->nr_sock; i++) {
		if (d->c->sock_id[i] == s.v[A(SOCKET)]) {
			d->out[i] = s;
			d->have[i] = true;
		}
	}
	return MNL_CB_OK;
}

/* Read every socket now; -1 with @why set when that failed. */
static int snapshot(struct run_counters *c, struct snap *out, bool *have,
		    char *why, size_t size)
{
	struct dump d = { .c = c, .out = out, .have = have };
	struct nlmsghdr *req;
	struct nl_error e;

	memset(have, 0, c->nr_sock * sizeof(*have));
	req = nl_msg_start(&c->nl, c->fam.id, MEMDIAG_CMD_SNAPSHOT,
			   MEMDIAG_FAMILY_VERSION, NLM_F_DUMP);
	if (nl_exchange(&c->nl, req, dump_msg, &d, &e) < 0) {
		struct cli_error err;

		cli_error_nl(&err, "a snapshot request during the run failed",
			     &e, name_snapshot_attr);
		cli_error_phrase(&err, why, size);
		return -1;
	}
	if (d.bad) {
		say(why, size, "a malformed snapshot from the memdiag module: %s",
		    d.why);
		return -1;
	}
	return 0;
}

static void slot_fail(struct rc_slot *s, const char *why)
{
	if (s->failed)
		return;
	s->failed = true;
	snprintf(s->why, sizeof(s->why), "%s", why);
}

size_t run_counters_next(struct run_counters *c, size_t n,
			 const char *const *labels)
{
	struct rc_slot *slot;
	size_t i, first;

	if (!c)
		return 0;
	first = c->nr_slot;
	c->have_base = false;
	c->begun = false;
	slot = realloc(c->slot, (c->nr_slot + n) * sizeof(*slot));
	if (!slot)
		return first;	/* marks and prints find no slot: null */
	c->slot = slot;
	for (i = 0; i < n; i++) {
		struct rc_slot *s = &c->slot[first + i];
		size_t k;

		memset(s, 0, sizeof(*s));
		snprintf(s->label, sizeof(s->label), "%s",
			 labels && labels[i] ? labels[i] : "");
		s->sock = calloc(c->nr_sock ? c->nr_sock : 1, sizeof(*s->sock));
		if (!s->sock)
			slot_fail(s, "out of memory");
		for (k = 0; s->sock && k < c->nr_sock; k++)
			s->sock[k].id = c->sock_id[k];
	}
	c->nr_slot += n;
	c->base = first;
	c->have_base = true;
	return first;
}

void run_counters_add(struct run_counters *c, size_t slot,
		      const struct snap *const *a, const struct snap *const *b)
{
	struct rc_slot *s;
	size_t i, k;
	unsigned int g;

	if (!c || slot >= c->nr_slot || c->slot[slot].failed)
		return;
	s = &c->slot[slot];
	/* one dump reads every socket at the same time */
	for (i = 0; i < c->nr_sock; i++) {
		if (a[i] && b[i] && snap_has(a[i], A(TIME_NS)) &&
		    snap_has(b[i], A(TIME_NS)) &&
		    b[i]->v[A(TIME_NS)] > a[i]->v[A(TIME_NS)]) {
			s->ns += b[i]->v[A(TIME_NS)] - a[i]->v[A(TIME_NS)];
			break;
		}
	}
	s->intervals++;
	for (i = 0; i < c->nr_sock; i++) {
		struct rc_socket *rs = &s->sock[i];
		struct interval m;

		if (!a[i] || !b[i]) {
			rs->missing = true;
			continue;
		}
		/* the epoch and backwards checks watch uses */
		metrics_compute(a[i], b[i], c->tsc_khz, WATCH_DEFAULT_THRESHOLD,
				&m);
		for (g = 0; g < NR_GROUPS; g++)
			if (rs->brk[g].why == BREAK_NONE)
				rs->brk[g] = m.brk[g];
		for (k = 0; k < ARRAY_SIZE(counted); k++) {
			unsigned int at = counted[k].attr;
			bool both = snap_has(a[i], at) && snap_has(b[i], at);

			/* a counter missing once is unknown over the slot */
			if (!both) {
				rs->sum.have &= ~(1u << at);
				continue;
			}
			if (!rs->started)
				snap_set(&rs->sum, at, 0);
			if (snap_has(&rs->sum, at))
				rs->sum.v[at] += b[i]->v[at] - a[i]->v[at];
		}
		rs->started = true;
	}
}

void run_counters_mark(struct run_counters *c, bool begin, unsigned int phase)
{
	const struct snap **pa, **pb;
	char why[RUN_COUNTERS_REASON];
	struct rc_slot *s;
	size_t slot, i;
	double t;

	if (!c || !c->on || !c->have_base)
		return;
	slot = c->base + phase;
	if (slot >= c->nr_slot)
		return;
	s = &c->slot[slot];
	if (begin) {
		c->begun = false;
		if (s->failed)
			return;
		if (snapshot(c, c->begin, c->have_begin, why, sizeof(why)) < 0) {
			slot_fail(s, why);
			return;
		}
		c->begun = true;
		c->begin_slot = slot;
		c->begun_at = now();
		return;
	}
	t = now();
	if (!c->begun || c->begin_slot != slot || s->failed)
		return;
	c->begun = false;
	if (snapshot(c, c->end, c->have_end, why, sizeof(why)) < 0) {
		slot_fail(s, why);
		return;
	}
	pa = calloc(c->nr_sock, sizeof(*pa));
	pb = calloc(c->nr_sock, sizeof(*pb));
	if (!pa || !pb) {
		slot_fail(s, "out of memory");
	} else {
		for (i = 0; i < c->nr_sock; i++) {
			pa[i] = c->have_begin[i] ? &c->begin[i] : NULL;
			pb[i] = c->have_end[i] ? &c->end[i] : NULL;
		}
		run_counters_add(c, slot, pa, pb);
		s->timed += t - c->begun_at;
	}
	free(pa);
	free(pb);
}

void run_counters_traffic(struct run_counters *c, size_t slot, uint64_t bytes,
			  uint64_t read_bytes)
{
	if (!c || slot >= c->nr_slot)
		return;
	c->slot[slot].have_traffic = true;
	c->slot[slot].traffic_bytes = bytes;
	c->slot[slot].traffic_read_bytes = read_bytes;
}

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
	for (k = 0; !rs->missing && k < ARRAY_SIZE(counted); k++) {
		unsigned int at = counted[k].attr;

		if (!snap_has(&rs->sum, at) ||
		    rs->brk[counted[k].group].why != BREAK_NONE)
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
		say(buf, size,
		    "%s changed from %" PRIu64 " to %" PRIu64
		    " during the run (the counters were reset or reprogrammed), so the interval is invalid",
		    epoch, b->from, b->to);
	else
		say(buf, size,
		    "%s went backwards without an epoch change, so the interval is invalid",
		    name_snapshot_attr(b->attr));
}

/* Why the DRAM counters are absent. */
static void imc_absent(const struct run_counters *c, char *buf, size_t size)
{
	if (c->imc.listed && !c->imc.available)
		say(buf, size, "%s is unavailable%s%s",
		    name_capability(MEMDIAG_CAPABILITY_IMC_BANDWIDTH),
		    c->imc.reason[0] ? ": " : "", c->imc.reason);
	else
		say(buf, size, "the memdiag module sent no DRAM counters");
}

/* Why a counter of the core group is absent. */
static void core_absent(const struct run_counters *c,
			const struct info_cap_summary *cap, uint32_t cap_id,
			const char *what, char *buf, size_t size)
{
	if (c->core_mode == MEMDIAG_CORE_MODE_NONE)
		say(buf, size,
		    "the core counters are not counted in this session (core-mode none)%s%s",
		    c->core_mode_reason[0] ? ": " : "", c->core_mode_reason);
	else if (cap->listed && !cap->available)
		say(buf, size, "%s is unavailable%s%s", name_capability(cap_id),
		    cap->reason[0] ? ": " : "", cap->reason);
	else
		say(buf, size, "the memdiag module sent no %s counters", what);
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
			say(why, sz, "socket %u was missing from a snapshot",
			    rs->id);
		else if (is_imc && brk_imc[0])
			say(why, sz, "%s", brk_imc);
		else if (!is_imc && brk_core[0])
			say(why, sz, "%s", brk_core);
		else if (is_imc && !snap_has(&rs->sum, k == RC_READ_BYTES ||
					     k == RC_READ_GBPS ?
					     A(DRAM_READ_BYTES) :
					     A(DRAM_WRITE_BYTES)))
			imc_absent(c, why, sz);
		else if (is_imc)
			say(why, sz, "the interval has no length (the module sent no time)");
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
			say(why, sz, "no load missed the L1 during the run");
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
			say(t->why_read, sizeof(t->why_read), "socket %u: %s",
			    s->sock[i].id, v.why[RC_READ_BYTES]);
		}
		if (t->have_write && v.null[RC_WRITE_BYTES]) {
			t->have_write = false;
			say(t->why_write, sizeof(t->why_write), "socket %u: %s",
			    s->sock[i].id, v.why[RC_WRITE_BYTES]);
		}
		if (t->have_offcore && v.null[RC_OFFCORE_BYTES]) {
			t->have_offcore = false;
			say(t->why_offcore, sizeof(t->why_offcore),
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
		say(t->why_ratio, sizeof(t->why_ratio), "%s",
		    !t->have_read ? t->why_read : t->why_write);
	else if (!s->traffic_bytes)
		say(t->why_ratio, sizeof(t->why_ratio),
		    "the kernel moved no bytes");
	else
		t->ratio = ((double)t->read + (double)t->write) /
			   (double)s->traffic_bytes;
	if (!t->have_offcore)
		say(t->why_offcore_ratio, sizeof(t->why_offcore_ratio), "%s",
		    t->why_offcore);
	else if (!s->traffic_read_bytes)
		say(t->why_offcore_ratio, sizeof(t->why_offcore_ratio),
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

void run_counters_text(struct printer *p, const struct run_counters *c,
		       const char *what)
{
	struct notes *ns;
	struct rc_values v;
	struct rc_totals t;
	bool any_traffic = false, any = false;
	size_t i, j, n = 0;
	unsigned int k;

	if (!c || !c->on) {
		print_textf(p, "counters: unavailable: %s\n", slot_reason(c, 0));
		return;
	}
	ns = calloc(1, sizeof(*ns));
	for (i = 0; i < c->nr_slot; i++)
		any |= !slot_reason(c, i);
	if (any) {
		print_textf(p, "counters over the timed part, per socket (MB: 10^6 bytes; cyc: core cycles):\n");
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
		any_traffic |= s->have_traffic;
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
				char buf[RUN_COUNTERS_REASON + 32];

				if (!v.null[k])
					continue;
				say(buf, sizeof(buf), "socket %u: %s",
				    s->sock[j].id, v.why[k]);
				note(ns, k, buf);
			}
		}
	}
	if (any_traffic) {
		print_textf(p, "volume check (IMC read+write bytes / computed bytes with write-allocate):");
		for (i = 0; i < c->nr_slot; i++) {
			const struct rc_slot *s = &c->slot[i];

			if (slot_reason(c, i) || !s->have_traffic)
				continue;
			totals(c, s, &t);
			if (isnan(t.ratio))
				print_textf(p, "%s %s -", n++ ? "," : "", s->label);
			else
				print_textf(p, "%s %s %.3f", n++ ? "," : "",
					    s->label, t.ratio);
			if (isnan(t.ratio) && ns)
				note(ns, NR_RC_METRICS, t.why_ratio);
		}
		print_textf(p, "\n");
	}
	for (i = 0; ns && i < ns->n; i++) {
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
	if (ns && ns->more)
		print_textf(p, "note: more columns are '-' for other reasons; -j gives each one\n");
	free(ns);
}
