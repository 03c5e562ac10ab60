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

#include "cli.h"
#include "conn.h"
#include "names.h"
#include "counters/counters.h"
#include "counters/counters_int.h"
#include "snapshot.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The session only has to keep the counters running: its notifications
 * are not listened to, so it asks for the rarest there are, which never
 * makes another client's session publish more often.
 */
#define RUN_SESSION_MS 60000
/*
 * AMD Zen 2/3: the Data Fabric's channels take turns on its four counters
 * at each sample. Sampling once a minute, a timed part between two marks
 * would count the same half of the channels and hold only an estimate
 * from before it for the others; sampling at the module's shortest
 * interval turns them inside every part longer than two turns.
 */
#define RUN_DF_TURN_MS 10

const struct counters_counted counters_counted[] = {
	{ A(DRAM_READ_BYTES), GROUP_IMC },
	{ A(DRAM_WRITE_BYTES), GROUP_IMC },
	{ A(DRAM_RDWR_BYTES), GROUP_IMC },
	{ A(INSTRUCTIONS), GROUP_CORE },
	{ A(CYCLES), GROUP_CORE },
	{ A(REF_CYCLES), GROUP_CORE },
	{ A(L1D_PEND_MISS), GROUP_CORE },
	{ A(L1_MISS), GROUP_CORE },
	{ A(LFB_HIT), GROUP_CORE },
	{ A(L1_MISS_ANY), GROUP_CORE },
	{ A(OFFCORE_DRAM_READS), GROUP_CORE },
};

const size_t counters_nr_counted = ARRAY_SIZE(counters_counted);

void counters_say(char *buf, size_t size, const char *fmt, ...)
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
static int take_info(struct counters *c, const struct info_summary *sum)
{
	size_t i;

	c->tsc_khz = sum->tsc_khz;
	c->have_platform = sum->have_platform;
	c->platform = sum->platform;
	c->imc = sum->cap[MEMDIAG_CAPABILITY_IMC_BANDWIDTH];
	c->core = sum->cap[MEMDIAG_CAPABILITY_CORE_LATENCY];
	c->offcore = sum->cap[MEMDIAG_CAPABILITY_OFFCORE];
	snprintf(c->core_mode_reason, sizeof(c->core_mode_reason), "%s",
		 sum->core_mode_reason);
	c->nr_sock = sum->nr_socket ? sum->nr_socket :
		     sum->have_nr_sockets ? sum->nr_sockets : 0;
	if (!c->nr_sock) {
		counters_say(c->reason, sizeof(c->reason),
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
		counters_say(c->reason, sizeof(c->reason), "out of memory");
		return -1;
	}
	for (i = 0; i < c->nr_sock; i++)
		c->sock_id[i] = sum->nr_socket ? sum->socket[i] : (uint32_t)i;
	return 0;
}

/* Whether nothing can count, and then why, as watch says it. */
static bool nothing_counts(struct counters *c)
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

static int snapshot(struct counters *c, struct snap *out, bool *have,
		    char *why, size_t size);

/* Whether any socket in @s (@have) counts through the Data Fabric. */
static bool counts_df(const struct counters *c, const struct snap *s,
		      const bool *have)
{
	size_t i, k;

	for (i = 0; i < c->nr_sock; i++) {
		if (!have[i])
			continue;
		if (snap_has(&s[i], A(DRAM_RDWR_BYTES)))
			return true;
		for (k = 0; k < s[i].nr_chan; k++)
			if (s[i].chan[k].rdwr)
				return true;
	}
	return false;
}

/*
 * On the Data Fabric: a session sampling every RUN_DF_TURN_MS in place of
 * the first (started before the first is stopped, so the counters stay
 * claimed). If that fails the run keeps the first: unmeasured_channels
 * then says what it costs.
 */
static void df_turns(struct counters *c)
{
	struct cli_error err;
	uint32_t id, mode;
	char why[160];

	if (snapshot(c, c->begin, c->have_begin, why, sizeof(why)) < 0 ||
	    !counts_df(c, c->begin, c->have_begin))
		return;
	if (session_start(&c->nl, &c->fam, RUN_DF_TURN_MS, 0, &id, &mode,
			  &err) != MDC_EXIT_OK)
		return;
	session_stop(&c->nl, &c->fam, c->session, &err);
	c->session = id;
	c->core_mode = mode;
}

void counters_open(struct counters *c)
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
		if (session_start(&c->nl, &c->fam, RUN_SESSION_MS, 0,
				  &c->session, &c->core_mode,
				  &err) == MDC_EXIT_OK)
			c->on = true;
		else
			cli_error_phrase(&err, c->reason, sizeof(c->reason));
	}
	info_summary_free(&sum);
	if (c->on) {
		df_turns(c);
		return;
	}
	nl_family_free(&c->fam);
	nl_close(&c->nl);
	c->connected = false;
}

int counters_only(struct counters *c, uint32_t socket)
{
	size_t i;

	for (i = 0; i < c->nr_sock; i++) {
		if (c->sock_id[i] == socket) {
			c->sock_id[0] = socket;
			c->nr_sock = 1;
			return 0;
		}
	}
	return -1;
}

void counters_close(struct counters *c)
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

/*
 * AMD's DF: the time each channel was counted from @a to @b, into @rs.
 * A channel counted for none of a slot's time is in the socket total only
 * as the module's estimate from before the slot (unmeasured_channels).
 */
static void counters_chan_add(struct counters *c, struct counters_socket *rs,
			      const struct snap *a, const struct snap *b)
{
	size_t i, j;

	for (i = 0; i < b->nr_chan; i++) {
		const struct snap_chan *cb = &b->chan[i];

		if (!cb->rdwr || cb->id >= COUNTERS_MAX_CHANNELS)
			continue;
		c->rdwr = true;
		rs->chan_seen |= 1u << cb->id;
		for (j = 0; j < a->nr_chan; j++)
			if (a->chan[j].rdwr && a->chan[j].id == cb->id &&
			    cb->counted_ns > a->chan[j].counted_ns)
				rs->chan_counted |= 1u << cb->id;
	}
	if (snap_has(b, A(DRAM_RDWR_BYTES)))
		c->rdwr = true;
}

struct dump {
	struct counters *c;
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
static int snapshot(struct counters *c, struct snap *out, bool *have,
		    char *why, size_t size)
{
	struct dump d = { .c = c, .out = out, .have = have };
	struct nlmsghdr *req;
	struct nl_error e;

	memset(have, 0, c->nr_sock * sizeof(*have));
	req = nl_msg_start(&c->nl, c->fam.id, MEMDIAG_CMD_SNAPSHOT,
			   MEMDIAG_FAMILY_VERSION, NLM_F_DUMP);
	/* the DF's channels: which of them a slot counted (counters_chan_add()) */
	mnl_attr_put(req, MEMDIAG_A_SNAPSHOT_CHANNELS, 0, NULL);
	if (nl_exchange(&c->nl, req, dump_msg, &d, &e) < 0) {
		struct cli_error err;

		cli_error_nl(&err, "a snapshot request during the run failed",
			     &e, name_snapshot_attr);
		cli_error_phrase(&err, why, size);
		return -1;
	}
	if (d.bad) {
		counters_say(why, size, "a malformed snapshot from the memdiag module: %s",
			     d.why);
		return -1;
	}
	return 0;
}

static void slot_fail(struct counters_slot *s, const char *why)
{
	if (s->failed)
		return;
	s->failed = true;
	snprintf(s->why, sizeof(s->why), "%s", why);
}

size_t counters_next(struct counters *c, size_t n,
		     const char *const *labels)
{
	struct counters_slot *slot;
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
		struct counters_slot *s = &c->slot[first + i];
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

void counters_add(struct counters *c, size_t slot,
		  const struct snap *const *a, const struct snap *const *b)
{
	struct counters_slot *s;
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
		struct counters_socket *rs = &s->sock[i];
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
		for (k = 0; k < counters_nr_counted; k++) {
			unsigned int at = counters_counted[k].attr;
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
		counters_chan_add(c, rs, a[i], b[i]);
		rs->started = true;
	}
}

void counters_mark(struct counters *c, bool begin, unsigned int phase)
{
	const struct snap **pa, **pb;
	char why[COUNTERS_REASON];
	struct counters_slot *s;
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
		counters_add(c, slot, pa, pb);
		s->timed += t - c->begun_at;
	}
	free(pa);
	free(pb);
}

void counters_traffic(struct counters *c, size_t slot, uint64_t bytes,
		      uint64_t read_bytes)
{
	if (!c || slot >= c->nr_slot)
		return;
	c->slot[slot].have_traffic = true;
	c->slot[slot].traffic_bytes = bytes;
	c->slot[slot].traffic_read_bytes = read_bytes;
}
