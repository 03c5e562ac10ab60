// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_watch.c - "memdiagctl watch": DRAM bandwidth and load latency of
 * each socket, interval by interval, from the module's snapshot-ntf
 * notifications.
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

#include "cmd.h"
#include "cpulist.h"
#include "names.h"
#include "parse.h"
#include "prefetch.h"
#include "snapshot.h"

#define WATCH_HEADER "sock  rd_GB/s  wr_GB/s  tot_GB/s  ocr_GB/s  l1m_lat_cyc  lmr_lat_cyc  lmr_lat_ns  sat  prefetch"

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
	if (!snap_has(s, MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS))
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

static void print_row(struct watch *w, const struct interval *m,
		      const struct snap *s)
{
	struct printer p;

	print_init(&p, w->out, w->json, w->pretty);
	if (w->rows % WATCH_HEADER_EVERY == 0)
		print_textf(&p, "%s\n", WATCH_HEADER);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "socket", "%4u", m->socket);
	count(&p, "time_ns", m->t_ns != 0, m->t_ns);
	count(&p, "interval_ns", m->interval_ns != 0, m->interval_ns);
	print_bool(&p, PRINT_JSON, "valid", "%s", m->valid);
	count(&p, "read_bytes", m->have_read_bytes, m->read_bytes);
	count(&p, "write_bytes", m->have_write_bytes, m->write_bytes);
	metric(&p, "read_gbps", "  %7.2f", "  %7s", m->read_gbps);
	metric(&p, "write_gbps", "  %7.2f", "  %7s", m->write_gbps);
	metric(&p, "total_gbps", "  %8.2f", "  %8s", m->total_gbps);
	count(&p, "offcore_read_bytes", m->have_offcore_bytes, m->offcore_bytes);
	metric(&p, "offcore_read_gbps", "  %8.2f", "  %8s", m->offcore_read_gbps);
	metric(&p, "l1_miss_latency_cycles", "  %11.1f", "  %11s",
	       m->l1_miss_latency);
	metric(&p, "load_miss_real_latency_cycles", "  %11.1f", "  %11s",
	       m->load_miss_real_latency);
	print_double(&p, PRINT_JSON, "core_ghz", "%f", m->core_ghz);
	metric(&p, "load_miss_real_latency_ns", "  %10.1f", "  %10s",
	       m->load_miss_real_latency_ns);
	if (m->saturated < 0)
		print_string(&p, PRINT_ANY, "saturated", "  %3s", NULL);
	else
		print_bool(&p, PRINT_ANY, "saturated", "  %3s", m->saturated);
	print_prefetch(&p, w, s);
	print_close_object(&p);
	print_textf(&p, "\n");
	/* one line at a time, so that a pipe into jq sees each at once */
	if (cli_output_end(w->cmd, &p) != MDC_EXIT_OK)
		w->rc = MDC_EXIT_LOCAL;
	w->rows++;
}

/* Feed a message of command @cmd (a notification, or a snapshot reply). */
static void feed(struct watch *w, const struct nlmsghdr *nlh, uint8_t cmd)
{
	const struct genlmsghdr *genl;
	struct watch_socket *ws;
	struct interval m;
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
	print_row(w, &m, &s);
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
static void baseline(struct watch *w, struct nl *nl,
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

void cmd_watch_usage(FILE *f)
{
	fputs("Usage: " PROG " watch [--socket N | --all] [--interval DUR] [--count K]\n"
	      "                        [--threshold CYCLES] [-j|--json] [-p|--pretty]\n"
	      "\n"
	      "Start a session and print, for each socket and each interval, the DRAM\n"
	      "bandwidth from the memory controllers, the offcore DRAM read bandwidth\n"
	      "and the load latency from the core PMU, until --count intervals are\n"
	      "printed or SIGINT (Ctrl-C) or SIGTERM arrives; then stop the session\n"
	      "and exit 0.\n"
	      "\n"
	      "  sock         socket\n"
	      "  rd_GB/s      DRAM read bandwidth (memory controllers), 10^9 bytes/s\n"
	      "  wr_GB/s      DRAM write bandwidth\n"
	      "  tot_GB/s     rd + wr\n"
	      "  ocr_GB/s     64 x offcore DRAM reads / s: the cores' reads served by\n"
	      "               local DRAM; misses lines the L2/LLC prefetchers fetch\n"
	      "  l1m_lat_cyc  L1 miss latency: L1D_PEND_MISS.PENDING / L1 misses\n"
	      "  lmr_lat_cyc  load miss real latency: L1D_PEND_MISS.PENDING /\n"
	      "               (L1 misses + fill buffer hits); on Sapphire and Emerald\n"
	      "               Rapids / MEM_LOAD_COMPLETED.L1_MISS_ANY\n"
	      "  lmr_lat_ns   the same in ns, at the core frequency of the interval\n"
	      "  sat          yes when lmr_lat_cyc exceeds --threshold: the socket's\n"
	      "               loads queue for memory bandwidth\n"
	      "A value that cannot be had (counter unavailable, no misses, counters\n"
	      "restarted) is '-' (null in JSON); why is said once on stderr.\n"
	      "\n"
	      "Options:\n"
	      "  -s, --socket N          only socket N\n"
	      "  -a, --all               every socket (the default)\n"
	      "  -i, --interval DUR      interval: seconds (2, 1.5) or a number with s\n"
	      "                          or ms (1.5s, 500ms), from 1ms to 60s\n"
	      "                          (default 1s)\n"
	      "  -c, --count K           stop after K intervals of each socket\n"
	      "                          (default: until interrupted)\n"
	      "  -t, --threshold CYCLES  saturation threshold of lmr_lat_cyc\n"
	      "                          (default 300; see memdiagctl(8))\n"
	      "  -j, --json              one JSON object per line per socket and interval\n"
	      "  -p, --pretty            indent the JSON objects (implies --json)\n"
	      "  -h, --help              print this help and exit\n", f);
}

static const struct option watch_options[] = {
	{ "socket", required_argument, NULL, 's' },
	{ "all", no_argument, NULL, 'a' },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "threshold", required_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int parse_options(struct watch *w, const struct opts *gopts, int argc,
			 char **argv)
{
	bool one = false, all = false;
	char err[200];
	uint64_t v;
	int c;

	w->json = gopts->json;
	w->pretty = gopts->pretty;
	w->interval_ms = WATCH_DEFAULT_INTERVAL_MS;
	w->threshold = WATCH_DEFAULT_THRESHOLD;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:ai:c:t:jph", watch_options,
				NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_uint(optarg, 0, UINT32_MAX, &v, err,
				       sizeof(err)) < 0)
				return cli_usage(w->cmd, "option '--socket': %s", err);
			w->socket = (uint32_t)v;
			one = true;
			break;
		case 'a':
			all = true;
			break;
		case 'i':
			if (parse_interval_ms(optarg, &w->interval_ms, err,
					      sizeof(err)) < 0)
				return cli_usage(w->cmd, "option '--interval': %s", err);
			break;
		case 'c':
			if (parse_uint(optarg, 1, UINT64_MAX, &w->count, err,
				       sizeof(err)) < 0)
				return cli_usage(w->cmd, "option '--count': %s", err);
			break;
		case 't':
			if (parse_cycles(optarg, &w->threshold, err,
					 sizeof(err)) < 0)
				return cli_usage(w->cmd, "option '--threshold': %s", err);
			break;
		case 'j':
			w->json = true;
			break;
		case 'p':
			w->json = w->pretty = true;
			break;
		case 'h':
			cmd_watch_usage(stdout);
			return -1;
		default:
			return cli_bad_option(w->cmd, c, argv);
		}
	}
	if (optind < argc)
		return cli_usage(w->cmd, "unexpected argument '%s'", argv[optind]);
	if (one && all)
		return cli_usage(w->cmd, "options '--socket' and '--all' exclude each other");
	w->all = !one;
	return MDC_EXIT_OK;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Sockets that have not printed --count intervals, as "1,3". */
static void unfinished(const struct watch *w, char *buf, size_t size)
{
	uint32_t ids[64];
	size_t i, n = 0;

	for (i = 0; i < w->nr_sock && n < sizeof(ids) / sizeof(ids[0]); i++)
		if (w->sock[i].rows < w->count)
			ids[n++] = w->sock[i].id;
	cpulist_format(buf, size, ids, n);
}

/* When the loop has to look at the clock even if nothing arrives. */
struct loop_clock {
	uint64_t stall;		/* say so after this long without a snapshot */
	uint64_t grace;		/* wait this long for late sockets, --count */
	uint64_t last_rx;	/* when the last datagram came */
	uint64_t done_at;	/* when the first socket reached --count */
	bool stall_noted;
};

static int poll_timeout(const struct loop_clock *c, uint64_t now)
{
	uint64_t until = UINT64_MAX;

	if (!c->stall_noted)
		until = c->last_rx + c->stall;
	if (c->done_at && c->done_at + c->grace < until)
		until = c->done_at + c->grace;
	if (until == UINT64_MAX)
		return -1;
	return until > now ? (int)(until - now) : 0;
}

/*
 * Take what the netlink socket has, a bounded batch so that a flood cannot
 * starve the signals. MDC_EXIT_OK to go on; -1 when --count is reached.
 */
static int receive(struct watch *w, struct nl *nl, struct loop_clock *c,
		   bool *lost_noted)
{
	struct nl_error e;
	int n;

	for (n = 0; n < 256; n++) {
		int ret = nl_recv_msgs(nl, watch_msg, w, &e);

		if (ret == 0)
			break;
		if (ret < 0 && e.err == ENOBUFS) {
			if (!*lost_noted)
				cli_err(w->cmd, "note",
					"the receive buffer overflowed and snapshots were lost; the intervals around the gap are longer");
			*lost_noted = true;
			continue;
		}
		if (ret < 0) {
			cli_err(w->cmd, "cannot receive from the memdiag module",
				"%s", strerror(e.err));
			return MDC_EXIT_KERNEL;
		}
		c->last_rx = now_ms();
		c->stall_noted = false;
		if (w->rc != MDC_EXIT_OK)
			return w->rc;
		if (watch_done(w))
			return -1;
	}
	return MDC_EXIT_OK;
}

int watch_loop(struct watch *w, struct nl *nl, int sfd)
{
	struct loop_clock c = {
		.stall = w->interval_ms * 3 > 5000 ? w->interval_ms * 3 : 5000,
		.grace = 2 * (uint64_t)w->interval_ms + 1000,
		.last_rx = now_ms(),
	};
	struct pollfd pfd[2] = {
		{ .fd = nl_fd(nl), .events = POLLIN },
		{ .fd = sfd, .events = POLLIN },
	};
	bool lost_noted = false;

	for (;;) {
		uint64_t now;
		int ret = poll(pfd, 2, poll_timeout(&c, now_ms()));

		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0) {
			cli_err(w->cmd, "poll failed", "%s", strerror(errno));
			return MDC_EXIT_LOCAL;
		}
		if (pfd[1].revents) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) > 0 || errno != EAGAIN)
				return MDC_EXIT_OK;
		}
		if (pfd[0].revents) {
			ret = receive(w, nl, &c, &lost_noted);
			if (ret < 0)
				return MDC_EXIT_OK;	/* --count reached */
			if (ret != MDC_EXIT_OK)
				return ret;
		}
		now = now_ms();
		if (w->count && !c.done_at && watch_nr_done(w))
			c.done_at = now;
		if (!c.stall_noted && now - c.last_rx >= c.stall) {
			cli_err(w->cmd, "note",
				"no snapshot from the memdiag module for %" PRIu64 " s; still waiting",
				(now - c.last_rx) / 1000);
			c.stall_noted = true;
		}
		if (c.done_at && now >= c.done_at + c.grace) {
			char list[128];

			unfinished(w, list, sizeof(list));
			cli_err(w->cmd, "note",
				"stopping: socket %s sent too few snapshots for --count %" PRIu64
				" while the others were done", list, w->count);
			return MDC_EXIT_OK;
		}
	}
}

/* Join the monitor group; exit codes as for a refused request. */
static int subscribe(const char *cmd, struct nl *nl,
		     const struct nl_family *fam)
{
	const struct nl_mcgrp *grp = nl_family_mcgrp(fam, MEMDIAG_MCGRP_MONITOR);
	struct nl_error e;

	if (!grp) {
		cli_err(cmd, "the loaded memdiag module is too old",
			"it has no '" MEMDIAG_MCGRP_MONITOR "' multicast group: use the module built with this %s",
			PROG);
		return MDC_EXIT_PROTO;
	}
	/* room for bursts of notifications from many sockets (best effort) */
	nl_set_rcvbuf(nl, 1 << 20);
	if (nl_subscribe(nl, grp->id, &e) == 0)
		return MDC_EXIT_OK;
	if (e.err == EPERM || e.err == EACCES) {
		cli_err(cmd, "permission denied",
			"cannot join the memdiag '" MEMDIAG_MCGRP_MONITOR "' multicast group: %s",
			strerror(e.err));
		cli_err(cmd, "hint",
			"joining it needs CAP_SYS_ADMIN, whatever unprivileged_read says; without it, poll memdiagctl snapshot");
		return MDC_EXIT_PERM;
	}
	cli_err(cmd, "cannot join the memdiag '" MEMDIAG_MCGRP_MONITOR "' multicast group",
		"%s", strerror(e.err));
	return e.err == ENOMEM ? MDC_EXIT_LOCAL : MDC_EXIT_KERNEL;
}

/* get-info, and what it says about the options and the counters. */
/*
 * The prefetchers' names for the prefetch column, when they can be
 * switched here; without them the column shows bit masks.
 */
static void prefetch_names(struct watch *w, struct nl *nl,
			   const struct nl_family *fam,
			   const struct info_summary *sum)
{
	struct nlmsghdr *req, *reply = NULL;
	struct pf_state st;
	struct nl_error e;
	size_t i;

	if (!sum->cap[MEMDIAG_CAPABILITY_PREFETCH_CONTROL].available ||
	    !nl_family_has_op(fam, MEMDIAG_CMD_PREFETCH_GET))
		return;
	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_PREFETCH_GET,
			   MEMDIAG_FAMILY_VERSION, 0);
	/* one CPU is enough for the list */
	if (sum->nr_socket)
		mnl_attr_put_u32(req, MEMDIAG_A_PREFETCH_SOCKET, sum->socket[0]);
	if (nl_do(nl, req, &reply, &e) == 0 &&
	    pf_state_parse(w->cmd, reply, &st) == MDC_EXIT_OK) {
		for (i = 0; i < st.nr_pf && i < MNL_ARRAY_SIZE(w->pf_name); i++)
			snprintf(w->pf_name[i], sizeof(w->pf_name[i]), "%s",
				 st.pf[i].name);
		w->nr_pf = i;
		pf_state_free(&st);
	}
	free(reply);
}

static int setup(struct watch *w, struct nl *nl, const struct nl_family *fam,
		 struct info_summary *sum)
{
	int rc = MDC_EXIT_OK;

	if (!w->all)
		rc = info_check_socket(w->cmd, sum, w->socket);
	if (rc == MDC_EXIT_OK)
		rc = watch_init(w, sum);
	if (rc == MDC_EXIT_OK)
		prefetch_names(w, nl, fam, sum);
	return rc;
}

int cmd_watch(const struct opts *gopts, int argc, char **argv)
{
	struct watch w = { .cmd = "watch", .out = stdout };
	struct info_summary sum = { 0 };
	uint32_t id, core_mode;
	struct cli_error err;
	struct nl_family fam;
	sigset_t mask;
	struct nl nl;
	int rc, sfd;

	rc = parse_options(&w, gopts, argc, argv);
	if (rc < 0)
		return MDC_EXIT_OK;	/* --help */
	if (rc != MDC_EXIT_OK)
		return rc;

	/*
	 * From here on SIGINT and SIGTERM wait in the signalfd. They stay
	 * blocked until exit, so that a second Ctrl-C during the cleanup
	 * cannot turn the clean exit into a death by signal.
	 */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0 ||
	    (sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		cli_err(w.cmd, "cannot set up signal handling", "%s",
			strerror(errno));
		return MDC_EXIT_LOCAL;
	}

	md_open(&nl, &fam, &sum, &err);
	rc = cli_report(w.cmd, &err);
	if (rc != MDC_EXIT_OK)
		goto out_sig;
	w.family = fam.id;
	rc = setup(&w, &nl, &fam, &sum);
	if (rc == MDC_EXIT_OK)
		rc = subscribe(w.cmd, &nl, &fam);
	if (rc == MDC_EXIT_OK) {
		session_start(&nl, &fam, w.interval_ms, &id, &core_mode, &err);
		rc = cli_report(w.cmd, &err);
	}
	if (rc == MDC_EXIT_OK) {
		struct nl_error e;

		if (core_mode == MEMDIAG_CORE_MODE_NONE) {
			char why[400];

			snprintf(why, sizeof(why),
				 "the core counters are not counted in this session (core-mode none)%s%s",
				 sum.core_mode_reason[0] ? ": " : "",
				 sum.core_mode_reason);
			explain(&w, EMPTY_CORE, why);
			explain(&w, EMPTY_OFFCORE, why);
		}
		baseline(&w, &nl, &fam);
		rc = w.rc;
		if (rc == MDC_EXIT_OK)
			rc = watch_loop(&w, &nl, sfd);
		/*
		 * Leave the group and empty the queue first, so that the
		 * stop's ack cannot be lost to a full receive buffer.
		 */
		nl_unsubscribe(&nl, nl_family_mcgrp(&fam, MEMDIAG_MCGRP_MONITOR)->id,
			       &e);
		nl_drain(&nl);
		session_stop(&nl, &fam, id, &err);
		/* a failed stop is a warning: the exit code stays */
		cli_report(w.cmd, &err);
	}
	info_summary_free(&sum);
	watch_free(&w);
	nl_family_free(&fam);
	nl_close(&nl);
out_sig:
	close(sfd);
	return rc;
}
