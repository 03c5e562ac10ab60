// SPDX-License-Identifier: GPL-2.0
/*
 * watch.c - the engine of "memdiagctl watch": sockets, notes, and one row
 * per socket and interval from pairs of snapshots, in text or JSON. Kept
 * apart from cmd_watch.c's socket, signals and options so the tests can
 * feed it canned notifications.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "cli.h"
#include "cpulist.h"
#include "csv.h"
#include "df_nodes_show.h"
#include "names.h"
#include "parse.h"
#include "prefetch.h"
#include "snapshot.h"
#include "watch.h"

#define WATCH_HEADER "sock  rd_GB/s  wr_GB/s  tot_GB/s  ocr_GB/s  l1m_lat_cyc  lmr_lat_cyc  lmr_lat_ns"
/* only where the L3-sampled DRAM latency is available (AMD Zen 4/5) */
#define WATCH_HEADER_L3 "  l3_lat_ns"
#define WATCH_HEADER_END "  sat  ch_imb  busy_ch  prefetch"

/*
 * The columns (text) or keys (JSON) that a missing counter group leaves
 * empty, indexed by enum empty; a note says each once.
 */
enum empty {
	EMPTY_IMC,
	EMPTY_CORE,
	EMPTY_OFFCORE,
	EMPTY_NS,
	EMPTY_CORE_GROUP,	/* an invalid core interval: latency and offcore */
	NR_EMPTY,
	NOTED_MALFORMED = NR_EMPTY,
};

static const struct {
	const char *text;
	const char *json;
} empties[NR_EMPTY] = {
	[EMPTY_IMC] = { "rd_GB/s, wr_GB/s and tot_GB/s",
		"read_bytes, write_bytes, read_gbps, write_gbps and total_gbps" },
	[EMPTY_CORE] = { "l1m_lat_cyc, lmr_lat_cyc, lmr_lat_ns and sat",
		"l1_miss_latency_cycles, load_miss_real_latency_cycles, core_ghz, load_miss_real_latency_ns and saturated" },
	[EMPTY_OFFCORE] = { "ocr_GB/s",
		"offcore_read_bytes and offcore_read_gbps" },
	[EMPTY_NS] = { "lmr_lat_ns", "core_ghz and load_miss_real_latency_ns" },
	[EMPTY_CORE_GROUP] = { "ocr_GB/s, l1m_lat_cyc, lmr_lat_cyc, lmr_lat_ns and sat",
		"offcore_read_bytes, offcore_read_gbps, l1_miss_latency_cycles, load_miss_real_latency_cycles, core_ghz, load_miss_real_latency_ns and saturated" },
};

static const char *empty(const struct watch *w, enum empty e)
{
	return w->json ? empties[e].json : empties[e].text;
}

/*
 * Say once why @e's columns will be empty. The core columns include the
 * ns one, so explaining them explains that too.
 */
static void explain(struct watch *w, enum empty e, const char *why)
{
	if (w->explained & (1u << e))
		return;
	w->explained |= 1u << e;
	if (e == EMPTY_CORE)
		w->explained |= 1u << EMPTY_NS;
	cli_err(w->cmd, "note", "%s will be %s: %s", empty(w, e),
		w->json ? "null" : "-", why);
}

static void explain_cap(struct watch *w, enum empty e,
			const struct info_cap_summary *c, unsigned int cap)
{
	char why[400];

	snprintf(why, sizeof(why), "%s is unavailable%s%s",
		 name_capability(cap), c->reason[0] ? ": " : "", c->reason);
	explain(w, e, why);
}

static int add_socket(struct watch *w, uint32_t id)
{
	struct watch_socket *s;

	s = realloc(w->sock, (w->nr_sock + 1) * sizeof(*s));
	if (!s)
		return -1;
	w->sock = s;
	s = &w->sock[w->nr_sock++];
	memset(s, 0, sizeof(*s));
	s->id = id;
	agg_init(&s->agg, (uint64_t)w->interval_ms * 1000000, w->tsc_khz,
		 w->threshold);
	return 0;
}

static const unsigned int counter_caps[] = {
	MEMDIAG_CAPABILITY_IMC_BANDWIDTH,
	MEMDIAG_CAPABILITY_CORE_LATENCY,
	MEMDIAG_CAPABILITY_OFFCORE,
};

int watch_init(struct watch *w, const struct info_summary *sum)
{
	const struct info_cap_summary *imc, *core, *ocr;
	unsigned int i, nr_unavailable = 0;
	size_t k;

	w->tsc_khz = sum->tsc_khz;
	w->l3 = sum->cap[MEMDIAG_CAPABILITY_L3_DRAM_LATENCY].available;
	w->rc = MDC_EXIT_OK;
	for (i = 0; i < sizeof(counter_caps) / sizeof(counter_caps[0]); i++) {
		const struct info_cap_summary *c = &sum->cap[counter_caps[i]];

		if (c->listed && !c->available)
			nr_unavailable++;
	}
	if (nr_unavailable == sizeof(counter_caps) / sizeof(counter_caps[0])) {
		cli_err(w->cmd, "nothing to measure",
			"no counter is available on this machine");
		for (i = 0; i < sizeof(counter_caps) / sizeof(counter_caps[0]); i++)
			cli_err(w->cmd, name_capability(counter_caps[i]), "%s",
				sum->cap[counter_caps[i]].reason[0] ?
				sum->cap[counter_caps[i]].reason : "unavailable");
		return MDC_EXIT_UNAVAILABLE;
	}

	imc = &sum->cap[MEMDIAG_CAPABILITY_IMC_BANDWIDTH];
	core = &sum->cap[MEMDIAG_CAPABILITY_CORE_LATENCY];
	ocr = &sum->cap[MEMDIAG_CAPABILITY_OFFCORE];
	if (imc->listed && !imc->available)
		explain_cap(w, EMPTY_IMC, imc, MEMDIAG_CAPABILITY_IMC_BANDWIDTH);
	if (core->listed && !core->available)
		explain_cap(w, EMPTY_CORE, core, MEMDIAG_CAPABILITY_CORE_LATENCY);
	if (ocr->listed && !ocr->available)
		explain_cap(w, EMPTY_OFFCORE, ocr, MEMDIAG_CAPABILITY_OFFCORE);
	if (!w->tsc_khz)
		explain(w, EMPTY_NS,
			"the memdiag module did not report the TSC frequency (tsc-khz)");

	if (!w->all) {
		if (add_socket(w, w->socket) < 0)
			goto nomem;
	} else if (sum->nr_socket) {
		for (k = 0; k < sum->nr_socket; k++)
			if (add_socket(w, sum->socket[k]) < 0)
				goto nomem;
	} else if (sum->have_nr_sockets) {
		for (i = 0; i < sum->nr_sockets; i++)
			if (add_socket(w, i) < 0)
				goto nomem;
	}
	/* with no socket list at all, sockets are added as they report */
	w->nr_expected = w->nr_sock;
	return MDC_EXIT_OK;
nomem:
	cli_err(w->cmd, "cannot set up", "%s", strerror(ENOMEM));
	return MDC_EXIT_LOCAL;
}

void watch_free(struct watch *w)
{
	free(w->sock);
	w->sock = NULL;
	w->nr_sock = 0;
}

static struct watch_socket *find_socket(struct watch *w, uint32_t id)
{
	size_t i;

	for (i = 0; i < w->nr_sock; i++)
		if (w->sock[i].id == id)
			return &w->sock[i];
	if (w->nr_expected || (!w->all && id != w->socket))
		return NULL;	/* not one we watch */
	if (add_socket(w, id) < 0) {
		cli_err(w->cmd, "cannot follow another socket", "%s",
			strerror(ENOMEM));
		w->rc = MDC_EXIT_LOCAL;
		return NULL;
	}
	return &w->sock[w->nr_sock - 1];
}

/* A counter group the module sent nothing of, unexplained so far. */
static void explain_absent(struct watch *w, const struct snap *s)
{
	if (!snap_has(s, MEMDIAG_A_SNAPSHOT_DRAM_READ_BYTES))
		explain(w, EMPTY_IMC, "the memdiag module sends no DRAM counters");
	if (!snap_has(s, MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS) &&
	    !snap_has(s, MEMDIAG_A_SNAPSHOT_MAB_OCCUPANCY))
		explain(w, EMPTY_CORE,
			"the memdiag module sends no load latency counters");
	if (!snap_has(s, MEMDIAG_A_SNAPSHOT_OFFCORE_DRAM_READS))
		explain(w, EMPTY_OFFCORE,
			"the memdiag module sends no offcore counters");
}

static void describe_break(const struct group_state *b, const char *epoch,
			   char *buf, size_t size)
{
	if (b->why == BREAK_EPOCH)
		snprintf(buf, size, "%s changed from %" PRIu64 " to %" PRIu64
			 " (counting restarted)", epoch, b->from, b->to);
	else
		snprintf(buf, size, "%s went backwards without an epoch change",
			 name_snapshot_attr(b->attr));
}

/* One line on stderr for an interval that an epoch change invalidated. */
static void note_invalid(struct watch *w, const struct interval *m)
{
	const struct group_state *imc = &m->brk[GROUP_IMC];
	const struct group_state *core = &m->brk[GROUP_CORE];
	char a[160] = "", b[160] = "";

	if (imc->why != BREAK_NONE)
		describe_break(imc, "imc-epoch", a, sizeof(a));
	if (core->why != BREAK_NONE)
		describe_break(core, "core-epoch", b, sizeof(b));
	if (a[0] && b[0])
		cli_err(w->cmd, "note",
			"socket %u: %s and %s, so none of this interval's metrics %s",
			m->socket, a, b, w->json ? "has a value" : "is shown");
	else
		cli_err(w->cmd, "note", "socket %u: %s, so this interval's %s are %s",
			m->socket, a[0] ? a : b,
			empty(w, a[0] ? EMPTY_IMC : EMPTY_CORE_GROUP),
			w->json ? "null" : "not shown");
}

/* A metric: @fmt in its column or '-' (@nullfmt); a number or null in JSON. */
static void metric(struct printer *p, const char *key, const char *fmt,
		   const char *nullfmt, double v)
{
	if (isfinite(v))
		print_double(p, PRINT_ANY, key, fmt, v);
	else
		print_string(p, PRINT_ANY, key, nullfmt, NULL);
}

static void count(struct printer *p, const char *key, bool have, uint64_t v)
{
	if (have)
		print_u64(p, PRINT_JSON, key, "%" PRIu64, v);
	else
		print_string(p, PRINT_JSON, key, "%s", NULL);
}

/* Prefetchers of @mask by name (or "#bit" when the names are unknown). */
static void pf_array(struct printer *p, const struct watch *w,
		     const char *key, uint32_t mask)
{
	char num[16];
	unsigned int i;

	print_open_array(p, key);
	for (i = 0; i < 32; i++) {
		if (!(mask & (1u << i)))
			continue;
		snprintf(num, sizeof(num), "#%u", i);
		print_string(p, PRINT_JSON, NULL, "%s",
			     i < w->nr_pf ? w->pf_name[i] : num);
	}
	print_close_array(p);
}

/*
 * The prefetcher state at the end of the interval: "on", "off" or "N/M
 * off" (how many of the processor's are off everywhere), "~" when CPUs
 * of the socket differ, "*" when memdiag changed them (restore undoes).
 */
static void print_prefetch(struct printer *p, const struct watch *w,
			   const struct snap *s)
{
	uint32_t off = (uint32_t)s->v[MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED];
	uint32_t mixed = (uint32_t)s->v[MEMDIAG_A_SNAPSHOT_PREFETCH_MIXED];
	bool changed = s->v[MEMDIAG_A_SNAPSHOT_PREFETCH_CHANGED];
	unsigned int n = (unsigned int)__builtin_popcount(off);
	char text[32];

	if (!snap_has(s, MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED)) {
		print_string(p, PRINT_ANY, "prefetch_disabled", "  %s", NULL);
		print_string(p, PRINT_JSON, "prefetch_mixed", "%s", NULL);
		print_string(p, PRINT_JSON, "prefetch_changed", "%s", NULL);
		return;
	}
	if (!off)
		snprintf(text, sizeof(text), "on");
	else if (w->nr_pf && n == w->nr_pf)
		snprintf(text, sizeof(text), "off");
	else if (w->nr_pf)
		snprintf(text, sizeof(text), "%u/%zu off", n, w->nr_pf);
	else
		snprintf(text, sizeof(text), "%#x off", off);
	snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s",
		 mixed ? "~" : "", changed ? "*" : "");
	print_textf(p, "  %s", text);
	pf_array(p, w, "prefetch_disabled", off);
	pf_array(p, w, "prefetch_mixed", mixed);
	print_bool(p, PRINT_JSON, "prefetch_changed", "%s", changed);
}

/*
 * The wall clock of @t_ns (CLOCK_MONOTONIC, the module's clock): the
 * offset between the two clocks now, or the one a test fixed.
 */
static uint64_t unix_ns(const struct watch *w, uint64_t t_ns)
{
	struct timespec mono, real;
	int64_t off = w->unix_offset_ns;

	if (!w->have_unix_offset) {
		clock_gettime(CLOCK_REALTIME, &real);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		off = ((int64_t)real.tv_sec - (int64_t)mono.tv_sec) * 1000000000 +
		      ((int64_t)real.tv_nsec - (int64_t)mono.tv_nsec);
	}
	return (uint64_t)((int64_t)t_ns + off);
}

/* ISO 8601 local time with milliseconds and the UTC offset. */
static void iso8601(uint64_t unix_ns, char *buf, size_t size)
{
	time_t sec = (time_t)(unix_ns / 1000000000);
	struct tm tm;
	char zone[8];
	size_t n;

	localtime_r(&sec, &tm);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);	/* +0100 */
	snprintf(buf + n, size - n, ".%03u%.3s:%.2s",
		 (unsigned int)(unix_ns % 1000000000 / 1000000), zone, zone + 3);
}

/*
 * How evenly the socket's channels shared the interval's bytes: the
 * busiest channel's over the mean (1.00: even) and which one it was. On
 * AMD's DF, channels take turns on the counters: those not counted in the
 * interval are unmeasured_channels, left out of the imbalance (JSON only;
 * null where the channels are always counted).
 */
static void print_channels(struct printer *p, const struct interval *m)
{
	if (m->nr_chan)
		print_uint(p, PRINT_JSON, "nr_channels", "%u",
			   (unsigned int)m->nr_chan);
	else
		print_string(p, PRINT_JSON, "nr_channels", "%s", NULL);
	if (m->nr_chan && m->chan[0].rdwr)
		print_uint(p, PRINT_JSON, "unmeasured_channels", "%u",
			   (unsigned int)m->nr_unmeasured);
	else
		print_string(p, PRINT_JSON, "unmeasured_channels", "%s", NULL);
	metric(p, "channel_imbalance", "  %6.2f", "  %6s", m->channel_imbalance);
	if (isfinite(m->channel_imbalance))
		print_uint(p, PRINT_ANY, "busiest_channel", "  %7u",
			   m->busiest_channel);
	else
		print_string(p, PRINT_ANY, "busiest_channel", "  %7s", NULL);
	print_double(p, PRINT_JSON, "busiest_channel_gbps", "%f",
		     m->busiest_channel_gbps);
}

/*
 * One row's values, the same calls for text, JSON and (via JSON) CSV;
 * @v is the row's verdict, NULL without verdict columns.
 */
static void row(struct printer *p, struct watch *w, const struct interval *m,
		const struct snap *s, const struct verdict *v)
{
	char when[48];

	print_open_object(p, NULL);
	if (w->timestamp) {
		if (m->t_ns)
			iso8601(unix_ns(w, m->t_ns), when, sizeof(when));
		print_textf(p, "%-29s  ", m->t_ns ? when : "-");
	}
	print_uint(p, PRINT_ANY, "socket", "%4u", m->socket);
	count(p, "time_ns", m->t_ns != 0, m->t_ns);
	count(p, "time_unix_ns", m->t_ns != 0, m->t_ns ? unix_ns(w, m->t_ns) : 0);
	count(p, "interval_ns", m->interval_ns != 0, m->interval_ns);
	print_bool(p, PRINT_JSON, "valid", "%s", m->valid);
	count(p, "read_bytes", m->have_read_bytes, m->read_bytes);
	count(p, "write_bytes", m->have_write_bytes, m->write_bytes);
	metric(p, "read_gbps", "  %7.2f", "  %7s", m->read_gbps);
	metric(p, "write_gbps", "  %7.2f", "  %7s", m->write_gbps);
	metric(p, "total_gbps", "  %8.2f", "  %8s", m->total_gbps);
	count(p, "offcore_read_bytes", m->have_offcore_bytes, m->offcore_bytes);
	metric(p, "offcore_read_gbps", "  %8.2f", "  %8s", m->offcore_read_gbps);
	metric(p, "l1_miss_latency_cycles", "  %11.1f", "  %11s",
	       m->l1_miss_latency);
	metric(p, "load_miss_real_latency_cycles", "  %11.1f", "  %11s",
	       m->load_miss_real_latency);
	print_double(p, PRINT_JSON, "core_ghz", "%f", m->core_ghz);
	metric(p, "load_miss_real_latency_ns", "  %10.1f", "  %10s",
	       m->load_miss_real_latency_ns);
	if (w->l3) {
		if (isfinite(m->l3_dram_latency_cycles))
			print_double(p, PRINT_JSON, "l3_dram_latency_cycles", "%f",
				     m->l3_dram_latency_cycles);
		else
			print_string(p, PRINT_JSON, "l3_dram_latency_cycles", "%s",
				     NULL);
		metric(p, "l3_dram_latency_ns", "  %9.1f", "  %9s",
		       m->l3_dram_latency_ns);
	}
	if (m->saturated < 0)
		print_string(p, PRINT_ANY, "saturated", "  %3s", NULL);
	else
		print_bool(p, PRINT_ANY, "saturated", "  %3s", m->saturated);
	print_channels(p, m);
	df_nodes_watch_json(p, &m->df, m->interval_ns);
	print_prefetch(p, w, s);
	if (v)	/* csv.c takes scalars only: CSV gets the verdict flattened */
		verdict_print(p, v, w->vs->curve.source, w->csv);
	if (w->grp)
		watch_group_row(p, w->grp, m);
	print_close_object(p);
	print_textf(p, "\n");
}

/* The row as CSV: its JSON object turned into a row (csv.c). */
static int csv_print_row(struct watch *w, const struct interval *m,
			 const struct snap *s, const struct verdict *v)
{
	struct printer p;
	char *json = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&json, &len);
	int ret = -1;

	if (mem) {
		print_init(&p, mem, true, false);
		row(&p, w, m, s, v);
		if (print_end(&p) == 0 && fclose(mem) == 0)
			ret = csv_row(w->out, json, w->rows == 0);
		else
			fclose(mem);
	}
	free(json);
	errno = 0;
	if (ret == 0 && (fflush(w->out) == EOF || ferror(w->out)))
		ret = -1;
	if (ret < 0)
		cli_err(w->cmd, "cannot write output", "%s",
			strerror(errno ? errno : EIO));
	return ret;
}

static void print_row(struct watch *w, const struct interval *m,
		      const struct snap *s, const struct verdict *v)
{
	struct printer p;

	if (w->csv) {
		if (csv_print_row(w, m, s, v) < 0)
			w->rc = MDC_EXIT_LOCAL;
		w->rows++;
		return;
	}
	print_init(&p, w->out, w->json, w->pretty);
	if (w->rows % WATCH_HEADER_EVERY == 0)
		print_textf(&p, "%s%s%s%s%s%s\n", w->timestamp ?
			    "time                           " : "", WATCH_HEADER,
			    w->l3 ? WATCH_HEADER_L3 : "", WATCH_HEADER_END,
			    w->vs ? VERDICT_HEADER : "",
			    w->grp ? WATCH_GROUP_HEADER : "");
	row(&p, w, m, s, v);
	/* one line at a time, so that a pipe into jq sees each at once */
	if (cli_output_end(w->cmd, &p) != MDC_EXIT_OK)
		w->rc = MDC_EXIT_LOCAL;
	w->rows++;
}

/* The verdict of interval @m on the curves, before anything is printed. */
static void judge(const struct watch *w, const struct interval *m,
		  const struct snap *s, struct verdict *v)
{
	struct verdict_channels ch;
	uint64_t bytes[SNAP_MAX_CHANNELS];
	uint32_t ids[SNAP_MAX_CHANNELS];

	verdict_channels_of(m, bytes, ids, &ch);
	verdict_live(w->vs, m, s, w->nr_pf, &ch, v);
}

/* Feed a message of command @cmd (a notification, or a snapshot reply). */
static void feed(struct watch *w, const struct nlmsghdr *nlh, uint8_t cmd)
{
	const struct genlmsghdr *genl;
	struct watch_socket *ws;
	struct interval m;
	struct verdict v;
	struct snap s;
	char why[160];

	if (w->rc != MDC_EXIT_OK || nlh->nlmsg_type != w->family ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl))
		return;
	genl = mnl_nlmsg_get_payload(nlh);
	if (genl->cmd != cmd)
		return;
	if (snap_parse(nlh, &s, why, sizeof(why)) < 0) {
		if (!(w->explained & (1u << NOTED_MALFORMED)))
			cli_err(w->cmd, "note",
				"ignoring a malformed snapshot from the memdiag module: %s",
				why);
		w->explained |= 1u << NOTED_MALFORMED;
		return;
	}
	ws = find_socket(w, (uint32_t)s.v[MEMDIAG_A_SNAPSHOT_SOCKET]);
	if (!ws || (w->count && ws->rows >= w->count))
		return;
	explain_absent(w, &s);
	if (agg_feed(&ws->agg, &s, &m) != 1)
		return;
	if (!m.valid)
		note_invalid(w, &m);
	if (w->vs)
		judge(w, &m, &s, &v);
	print_row(w, &m, &s, w->vs ? &v : NULL);
	ws->rows++;
}

void watch_msg(const struct nlmsghdr *nlh, void *w)
{
	feed(w, nlh, MEMDIAG_CMD_SNAPSHOT_NTF);
}

static int baseline_msg(const struct nlmsghdr *nlh, void *w)
{
	feed(w, nlh, MEMDIAG_CMD_SNAPSHOT);
	return MNL_CB_OK;
}

/*
 * Read every watched socket once right after the session started, so the
 * first interval ends one interval later rather than two. Best effort: if
 * this fails, the first notification is the baseline instead.
 */
void watch_baseline(struct watch *w, struct nl *nl,
		    const struct nl_family *fam)
{
	struct nlmsghdr *req;
	struct nl_error e;

	if (fam->nr_ops && !nl_family_has_op(fam, MEMDIAG_CMD_SNAPSHOT))
		return;
	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_SNAPSHOT,
			   MEMDIAG_FAMILY_VERSION, NLM_F_DUMP);
	if (!w->all)
		mnl_attr_put_u32(req, MEMDIAG_A_SNAPSHOT_SOCKET, w->socket);
	/* the notifications carry the channels: so must their baseline */
	mnl_attr_put(req, MEMDIAG_A_SNAPSHOT_CHANNELS, 0, NULL);
	(void)nl_exchange(nl, req, baseline_msg, w, &e);
}

size_t watch_nr_done(const struct watch *w)
{
	size_t i, n = 0;

	for (i = 0; i < w->nr_sock; i++)
		if (w->count && w->sock[i].rows >= w->count)
			n++;
	return n;
}

bool watch_done(const struct watch *w)
{
	return w->count && w->nr_sock && watch_nr_done(w) == w->nr_sock;
}

void watch_no_core(struct watch *w, const char *reason)
{
	char why[400];

	snprintf(why, sizeof(why),
		 "the core counters are not counted in this session (core-mode none)%s%s",
		 reason[0] ? ": " : "", reason);
	explain(w, EMPTY_CORE, why);
	explain(w, EMPTY_OFFCORE, why);
}
