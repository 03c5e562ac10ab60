// SPDX-License-Identifier: GPL-2.0
/* cmd_snapshot.c - "memdiagctl snapshot": the raw cumulative counters. */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "cmd.h"
#include "names.h"
#include "opts.h"
#include "parse.h"
#include "snapshot.h"
#include "snapshot_verdict.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The session a snapshot needs runs at the longest interval there is, so
 * that it never makes another client's session publish more often.
 */
#define SNAPSHOT_SESSION_MS INTERVAL_MS_MAX
#define SNAPSHOT_WINDOW_MS 200	/* > the 100 ms a shared sample may be old */

/*
 * The scalar attributes, in the spec's order: the table's rows (labelled
 * with the spec's names) and the JSON keys (Documentation/json.rst: the
 * spec name in snake_case, but DRAM bytes are read_bytes and write_bytes
 * as in watch and run, whose values are differences of these, and the
 * prefetch bitmasks end in _mask, as watch's prefetch_disabled is a list
 * of names).
 */
static const struct snap_row {
	unsigned int attr;
	const char *key;
} snap_rows[] = {
	{ MEMDIAG_A_SNAPSHOT_TIME_NS, "time_ns" },
	{ MEMDIAG_A_SNAPSHOT_IMC_EPOCH, "imc_epoch" },
	{ MEMDIAG_A_SNAPSHOT_DRAM_READ_BYTES, "read_bytes" },
	{ MEMDIAG_A_SNAPSHOT_DRAM_WRITE_BYTES, "write_bytes" },
	{ MEMDIAG_A_SNAPSHOT_DRAM_RDWR_BYTES, "rdwr_bytes" },
	{ MEMDIAG_A_SNAPSHOT_CORE_EPOCH, "core_epoch" },
	{ MEMDIAG_A_SNAPSHOT_NR_CPUS, "nr_cpus" },
	{ MEMDIAG_A_SNAPSHOT_INSTRUCTIONS, "instructions" },
	{ MEMDIAG_A_SNAPSHOT_CYCLES, "cycles" },
	{ MEMDIAG_A_SNAPSHOT_REF_CYCLES, "ref_cycles" },
	{ MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS, "l1d_pend_miss" },
	{ MEMDIAG_A_SNAPSHOT_L1_MISS, "l1_miss" },
	{ MEMDIAG_A_SNAPSHOT_LFB_HIT, "lfb_hit" },
	{ MEMDIAG_A_SNAPSHOT_L1_MISS_ANY, "l1_miss_any" },
	{ MEMDIAG_A_SNAPSHOT_OFFCORE_DRAM_READS, "offcore_dram_reads" },
	{ MEMDIAG_A_SNAPSHOT_MAB_OCCUPANCY, "mab_occupancy" },
	{ MEMDIAG_A_SNAPSHOT_MAB_ALLOCATIONS, "mab_allocations" },
	{ MEMDIAG_A_SNAPSHOT_L3_EPOCH, "l3_epoch" },
	{ MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_LATENCY_CYCLES,
	  "l3_sampled_dram_latency_cycles" },
	{ MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_REQUESTS, "l3_sampled_dram_requests" },
	{ MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED, "prefetch_disabled_mask" },
	{ MEMDIAG_A_SNAPSHOT_PREFETCH_MIXED, "prefetch_mixed_mask" },
	{ MEMDIAG_A_SNAPSHOT_PREFETCH_CHANGED, "prefetch_changed" },
};

#define LABEL_W 30	/* "l3-sampled-dram-latency-cycles" */
#define VALUE_W 20	/* UINT64_MAX */

struct snap_msg {
	const struct nlmsghdr *nlh;
	struct snap s;
	struct snap_channel *ch;
	size_t nr_ch;
	struct snap_judged *j;	/* the verdict, when asked for */
};

static int read_channels(struct snap_msg *m)
{
	const struct nlattr *attr;

	m->ch = calloc(m->s.nr_channels ? m->s.nr_channels : 1,
		       sizeof(*m->ch));
	if (!m->ch)
		return -1;
	mnl_attr_for_each(attr, m->nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) == MEMDIAG_A_SNAPSHOT_CHANNEL &&
		    m->nr_ch < m->s.nr_channels)
			snap_channel_parse(attr, &m->ch[m->nr_ch++]);
	return 0;
}

/* The channel ids any socket reported, ascending, without repeats. */
static size_t channel_ids(const struct snap_msg *m, size_t nr, uint32_t *ids)
{
	size_t n = 0, i, j, k;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < m[i].nr_ch; j++) {
			uint32_t id = m[i].ch[j].id;

			if (!(m[i].ch[j].have & (1u << MEMDIAG_A_CHANNEL_ID)))
				continue;
			for (k = 0; k < n && ids[k] < id; k++)
				;
			if (k < n && ids[k] == id)
				continue;
			memmove(&ids[k + 1], &ids[k], (n - k) * sizeof(*ids));
			ids[k] = id;
			n++;
		}
	}
	return n;
}

static const struct snap_channel *find_channel(const struct snap_msg *m,
					       uint32_t id)
{
	size_t i;

	for (i = 0; i < m->nr_ch; i++)
		if ((m->ch[i].have & (1u << MEMDIAG_A_CHANNEL_ID)) &&
		    m->ch[i].id == id)
			return &m->ch[i];
	return NULL;
}

/*
 * One counter of one socket, the one call both renderings go through: a
 * cell of the table in text ('-' when absent), "key":value in JSON (the
 * key left out when absent). prefetch_changed is a JSON boolean.
 */
static void cell(struct printer *p, const char *key, bool have, uint64_t v)
{
	if (!have) {
		print_textf(p, " %*s", VALUE_W, "-");
		return;
	}
	if (!strcmp(key, "prefetch_changed")) {
		print_bool(p, PRINT_JSON, key, "%s", v);
		print_u64(p, PRINT_TEXT, NULL, " %20" PRIu64, v);
		return;
	}
	print_u64(p, PRINT_ANY, key, " %20" PRIu64, v);
}

static void row_cell(struct printer *p, const struct snap *s,
		     const struct snap_row *row)
{
	cell(p, row->key, snap_has(s, row->attr), s->v[row->attr]);
}

/* The channel counters, in the spec's order, and their JSON keys. */
static const struct snap_row chan_rows[] = {
	{ MEMDIAG_A_CHANNEL_READ_BYTES, "read_bytes" },
	{ MEMDIAG_A_CHANNEL_WRITE_BYTES, "write_bytes" },
	{ MEMDIAG_A_CHANNEL_RDWR_BYTES, "rdwr_bytes" },
	{ MEMDIAG_A_CHANNEL_COUNTED_NS, "counted_ns" },
};

static uint64_t chan_attr(const struct snap_channel *c, unsigned int attr)
{
	switch (attr) {
	case MEMDIAG_A_CHANNEL_READ_BYTES:
		return c->read_bytes;
	case MEMDIAG_A_CHANNEL_WRITE_BYTES:
		return c->write_bytes;
	case MEMDIAG_A_CHANNEL_RDWR_BYTES:
		return c->rdwr_bytes;
	default:
		return c->counted_ns;
	}
}

/* Counter @row of channel @c, when reported. */
static void channel_cell(struct printer *p, const struct snap_channel *c,
			 const struct snap_row *row)
{
	bool have = c && (c->have & (1u << row->attr));

	cell(p, row->key, have, have ? chan_attr(c, row->attr) : 0);
}

/* Whether any socket's channel @id reported counter @row. */
static bool chan_row_used(const struct snap_msg *m, size_t nr, uint32_t id,
			  const struct snap_row *row)
{
	const struct snap_channel *c;
	size_t i;

	for (i = 0; i < nr; i++) {
		c = find_channel(&m[i], id);
		if (c && (c->have & (1u << row->attr)))
			return true;
	}
	return false;
}

/* Counters as rows, sockets as columns, like perf stat's per-socket mode. */
static void print_text(struct printer *p, const struct snap_msg *m, size_t nr,
		       bool channels, const uint32_t *ids, size_t nr_ids)
{
	char head[32];
	size_t i, r;
	int w;

	print_textf(p, "%-*s", LABEL_W, "");
	for (i = 0; i < nr; i++) {
		snprintf(head, sizeof(head), "socket %" PRIu64,
			 m[i].s.v[MEMDIAG_A_SNAPSHOT_SOCKET]);
		print_textf(p, " %*s", VALUE_W, head);
	}
	print_textf(p, "\n");
	for (r = 0; r < ARRAY_SIZE(snap_rows); r++) {
		print_textf(p, "%-*s", LABEL_W, name_snapshot_attr(snap_rows[r].attr));
		for (i = 0; i < nr; i++)
			row_cell(p, &m[i].s, &snap_rows[r]);
		print_textf(p, "\n");
	}
	for (r = 0; channels && r < nr_ids; r++) {
		for (w = 0; w < (int)ARRAY_SIZE(chan_rows); w++) {
			if (!chan_row_used(m, nr, ids[r], &chan_rows[w]))
				continue;
			snprintf(head, sizeof(head), "channel %u %s", ids[r],
				 name_channel_attr(chan_rows[w].attr));
			print_textf(p, "%-*s", LABEL_W, head);
			for (i = 0; i < nr; i++)
				channel_cell(p, find_channel(&m[i], ids[r]),
					     &chan_rows[w]);
			print_textf(p, "\n");
		}
	}
}

/* An array of one object per socket; absent counters are absent keys. */
static void print_json(struct printer *p, const struct snap_msg *m, size_t nr,
		       bool channels, enum curve_source src)
{
	const struct snap_channel *c;
	size_t i, r, w;

	print_open_array(p, NULL);
	for (i = 0; i < nr; i++) {
		print_open_object(p, NULL);
		print_u64(p, PRINT_JSON, "socket", "%" PRIu64,
			  m[i].s.v[MEMDIAG_A_SNAPSHOT_SOCKET]);
		for (r = 0; r < ARRAY_SIZE(snap_rows); r++)
			row_cell(p, &m[i].s, &snap_rows[r]);
		if (channels) {
			print_open_array(p, "channels");
			for (r = 0; r < m[i].nr_ch; r++) {
				c = &m[i].ch[r];
				print_open_object(p, NULL);
				if (c->have & (1u << MEMDIAG_A_CHANNEL_ID))
					print_uint(p, PRINT_JSON, "id", "%u",
						   c->id);
				for (w = 0; w < ARRAY_SIZE(chan_rows); w++)
					if (c->have & (1u << chan_rows[w].attr))
						channel_cell(p, c, &chan_rows[w]);
				print_close_object(p);
			}
			print_close_array(p);
		}
		if (m[i].j)
			snapshot_judged_print(p, m[i].j, src);
		print_close_object(p);
	}
	print_close_array(p);
}

static int by_socket(const void *a, const void *b)
{
	uint64_t x = ((const struct snap_msg *)a)->s.v[MEMDIAG_A_SNAPSHOT_SOCKET];
	uint64_t y = ((const struct snap_msg *)b)->s.v[MEMDIAG_A_SNAPSHOT_SOCKET];

	return x < y ? -1 : x > y;
}

/* The verdict block under the table. */
static void print_text_judged(struct printer *p, const struct snap_msg *m,
			      size_t nr, enum curve_source src)
{
	size_t i;

	print_textf(p, "\n%s\n", SNAPSHOT_VERDICT_HEADER);
	for (i = 0; i < nr; i++)
		snapshot_judged_print(p, m[i].j, src);
}

int snapshot_show(const char *cmd, struct printer *p,
		  const struct nlmsghdr *const *msgs, size_t nr, bool channels)
{
	return snapshot_show_judged(cmd, p, msgs, nr, channels, NULL);
}

int snapshot_show_judged(const char *cmd, struct printer *p,
			 const struct nlmsghdr *const *msgs, size_t nr,
			 bool channels, const struct snapshot_window *w)
{
	enum curve_source src = w ? w->vs->curve.source : CURVE_SRC_IMC;
	struct snap_msg *m;
	uint32_t *ids = NULL;
	size_t i, nr_ids = 0, total_ch = 0;
	char why[160];
	int rc = MDC_EXIT_OK;

	m = calloc(nr ? nr : 1, sizeof(*m));
	if (!m)
		goto nomem;
	for (i = 0; i < nr; i++) {
		m[i].nlh = msgs[i];
		if (snap_parse(msgs[i], &m[i].s, why, sizeof(why)) < 0) {
			cli_err(cmd, "malformed snapshot reply from the memdiag module",
				"%s", why);
			rc = MDC_EXIT_KERNEL;
			goto out;
		}
		if (read_channels(&m[i]) < 0)
			goto nomem;
		if (w) {
			m[i].j = malloc(sizeof(*m[i].j));
			if (!m[i].j)
				goto nomem;
			snapshot_judge(w->before, w->nr_before, msgs[i],
				       w->tsc_khz, w->vs, m[i].j);
		}
		total_ch += m[i].nr_ch;
	}
	qsort(m, nr, sizeof(*m), by_socket);
	if (p->json) {
		print_json(p, m, nr, channels, src);
	} else {
		ids = calloc(total_ch ? total_ch : 1, sizeof(*ids));
		if (!ids)
			goto nomem;
		nr_ids = channel_ids(m, nr, ids);
		print_text(p, m, nr, channels, ids, nr_ids);
		if (w)
			print_text_judged(p, m, nr, src);
	}
	goto out;
nomem:
	cli_err(cmd, "cannot read the snapshot reply", "%s", strerror(ENOMEM));
	rc = MDC_EXIT_LOCAL;
out:
	for (i = 0; m && i < nr; i++) {
		free(m[i].ch);
		free(m[i].j);
	}
	free(m);
	free(ids);
	return rc;
}

void cmd_snapshot_usage(FILE *f)
{
	fputs("Usage: " PROG " snapshot [--socket N | --all] [--channels] [--window DUR]\n"
	      "                           [--curve FILE] [-j|--json] [-p|--pretty]\n"
	      "\n"
	      "Start a session, read the raw cumulative counters of one socket or of\n"
	      "every socket once, and stop the session: DRAM read and write bytes\n"
	      "(with --channels per memory channel), the counters' epochs, and the\n"
	      "core counters summed over the socket's CPUs. The counters count from\n"
	      "when the first of the running sessions started. A counter the module\n"
	      "does not have is '-' in the table and absent from the JSON. To turn\n"
	      "counters into rates and latencies, use '" PROG " watch'.\n"
	      "\n"
	      "The counters are read twice, --window apart: below the table (in JSON,\n"
	      "in each socket's object) the window's bandwidth, load miss real latency\n"
	      "and the verdict on this machine's curves, as watch shows it (util%,\n"
	      "exp_ns, stress, verdict; see watch --help and memdiagctl(8)). Per-channel\n"
	      "bytes name a channel carrying far more than its share.\n"
	      "\n"
	      "Options:\n"
	      "  -s, --socket N  only socket N\n"
	      "  -a, --all       every socket (the default)\n"
	      "  -c, --channels  add each memory channel's read and write bytes\n"
	      "  -w, --window DUR  time between the two readings: seconds (0.5) or\n"
	      "                  with s or ms (200ms), 1ms to 60s (default 200ms)\n"
	      "      --curve FILE  the curve file (default: the calibrate's); one that\n"
	      "                  is missing, truncated or no curve file is an error\n"
	      "                  naming it (exit 6), before the module is looked for\n",
	      f);
	cli_opts_usage(f, CLI_OPT_ALL, 18,
		       "print a JSON array with one object per socket; its keys\n"
		       "are the netlink spec's attribute names in snake_case");
}

static const struct option snapshot_options[] = {
	{ "socket", required_argument, NULL, 's' },
	{ "all", no_argument, NULL, 'a' },
	{ "channels", no_argument, NULL, 'c' },
	{ "window", required_argument, NULL, 'w' },
	{ "curve", required_argument, NULL, 'C' },
	{ NULL, 0, NULL, 0 }
};

struct collect {
	struct nlmsghdr **msgs;
	size_t nr;
};

static int collect_msg(const struct nlmsghdr *nlh, void *data)
{
	struct collect *c = data;
	struct nlmsghdr **msgs, *copy;

	msgs = realloc(c->msgs, (c->nr + 1) * sizeof(*msgs));
	if (!msgs)
		return MNL_CB_ERROR;
	c->msgs = msgs;
	copy = malloc(nlh->nlmsg_len);
	if (!copy)
		return MNL_CB_ERROR;
	memcpy(copy, nlh, nlh->nlmsg_len);
	c->msgs[c->nr++] = copy;
	return MNL_CB_OK;
}

static void collect_free(struct collect *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		free(c->msgs[i]);
	free(c->msgs);
}

static void sleep_ms(uint32_t ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Read the counters: do for one socket, dump for all. An exit code. */
static int request(const char *cmd, struct nl *nl, const struct nl_family *fam,
		   bool all, uint32_t socket, bool channels, struct collect *c)
{
	struct nlmsghdr *req;
	struct nl_error e;

	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_SNAPSHOT,
			   MEMDIAG_FAMILY_VERSION, all ? NLM_F_DUMP : 0);
	if (!all)
		mnl_attr_put_u32(req, MEMDIAG_A_SNAPSHOT_SOCKET, socket);
	if (channels)
		mnl_attr_put(req, MEMDIAG_A_SNAPSHOT_CHANNELS, 0, NULL);
	if (nl_exchange(nl, req, collect_msg, c, &e) < 0)
		return cli_nl_fail(cmd, "snapshot request failed", &e,
				   name_snapshot_attr);
	cli_nl_warn(cmd, &e);
	if (!all && !c->nr) {
		cli_err(cmd, "snapshot request failed",
			"the memdiag module acknowledged without a reply");
		return MDC_EXIT_KERNEL;
	}
	return MDC_EXIT_OK;
}

/* snapshot's options. */
struct snap_args {
	struct opts o;
	bool all;		/* every socket, or only @socket */
	uint32_t socket;
	bool channels;
	uint32_t window_ms;	/* between the two readings */
	const char *curve_path;	/* --curve, or NULL */
};

/* The options into @sa: an exit code, -1 after --help. */
static int parse_options(const char *cmd, struct snap_args *sa, int argc,
			 char **argv)
{
	struct cli_opts t;
	bool one = false;
	char err[160];
	uint64_t v;
	int c, rc;

	cli_opts_init(&t, CLI_OPT_ALL, ":s:acw:", snapshot_options);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		switch (c) {
		case 's':
			if (parse_uint(optarg, 0, UINT32_MAX, &v, err,
				       sizeof(err)) < 0)
				return cli_usage(cmd, "option '--socket': %s", err);
			sa->socket = (uint32_t)v;
			one = true;
			break;
		case 'a':
			sa->all = true;
			break;
		case 'c':
			sa->channels = true;
			break;
		case 'w':
			if (parse_interval_ms(optarg, &sa->window_ms, err,
					      sizeof(err)) < 0)
				return cli_usage(cmd, "option '--window': %s", err);
			break;
		case 'C':
			sa->curve_path = optarg;
			break;
		default:
			rc = cli_opts_common(cmd, c, argv,
					     &sa->o, cmd_snapshot_usage);
			if (rc != CLI_OPT_NEXT)
				return rc;	/* -1 after --help */
			break;
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	if (one && sa->all)
		return cli_usage(cmd, "options '--socket' and '--all' exclude each other");
	sa->all = !one;
	return MDC_EXIT_OK;
}

/* Print the second reading @col and the verdict since @first. */
static int show(const char *cmd, const struct snap_args *sa,
		const struct collect *first, const struct collect *col,
		uint32_t tsc_khz, const struct verdict_src *vs)
{
	struct snapshot_window win;
	struct printer p;
	int rc;

	/* after the module: without it a curve cannot help */
	if (!vs->usable)
		cli_err(cmd, "note", "no verdict: %s", vs->reason);
	win = (struct snapshot_window){
		.before = (const struct nlmsghdr *const *)first->msgs,
		.nr_before = first->nr, .tsc_khz = tsc_khz, .vs = vs,
	};
	print_init(&p, stdout, sa->o.json, sa->o.pretty);
	rc = snapshot_show_judged(cmd, &p,
				  (const struct nlmsghdr *const *)col->msgs,
				  col->nr, sa->channels, &win);
	if (rc == MDC_EXIT_OK)
		rc = cli_output_end(cmd, &p);
	return rc;
}

int cmd_snapshot(const struct opts *gopts, int argc, char **argv)
{
	const char *cmd = "snapshot";
	struct snap_args sa = { .o = *gopts, .window_ms = SNAPSHOT_WINDOW_MS };
	struct collect col = { NULL, 0 }, first = { NULL, 0 };
	struct info_summary sum;
	struct cli_error cerr, denied;
	struct verdict_src vs;
	struct nl_family fam;
	uint32_t tsc_khz;
	bool own = false;
	struct nl nl;
	uint32_t id;
	int rc;

	rc = parse_options(cmd, &sa, argc, argv);
	if (rc != MDC_EXIT_OK)
		return rc < 0 ? MDC_EXIT_OK : rc;	/* -1: --help */
	/* a bad --curve FILE is the caller's mistake: said before the module */
	rc = verdict_src_open_cmd(&vs, cmd, sa.curve_path);
	if (rc != MDC_EXIT_OK)
		return rc;
	md_open(&nl, &fam, &sum, &cerr);
	rc = cli_report(cmd, &cerr);
	if (rc != MDC_EXIT_OK) {
		verdict_src_close(&vs);
		return rc;
	}
	if (!sa.all)
		rc = info_check_socket(cmd, &sum, sa.socket);
	tsc_khz = sum.tsc_khz;
	info_summary_free(&sum);
	if (rc == MDC_EXIT_OK) {
		session_start(&nl, &fam, SNAPSHOT_SESSION_MS, &id, NULL, &cerr);
		/*
		 * Readers allowed only by unprivileged_read may not start a
		 * session but are served while another one runs: try anyway,
		 * and give the refusal only if that fails too.
		 */
		own = cerr.code == MDC_EXIT_OK;
		if (cerr.code != MDC_EXIT_PERM)
			rc = cli_report(cmd, &cerr);
		else
			denied = cerr;
	}
	if (rc == MDC_EXIT_OK) {
		/* channels always: the verdict names an imbalanced one */
		rc = request(cmd, &nl, &fam, sa.all, sa.socket, true, &first);
		if (rc == MDC_EXIT_OK) {
			sleep_ms(sa.window_ms);
			rc = request(cmd, &nl, &fam, sa.all, sa.socket, true,
				     &col);
		}
		if (own) {
			session_stop(&nl, &fam, id, &cerr);
			cli_report(cmd, &cerr);	/* a warning at most */
		} else if (rc != MDC_EXIT_OK) {
			rc = cli_report(cmd, &denied);
		}
	}
	if (rc == MDC_EXIT_OK)
		rc = show(cmd, &sa, &first, &col, tsc_khz, &vs);
	verdict_src_close(&vs);
	collect_free(&first);
	collect_free(&col);
	nl_family_free(&fam);
	nl_close(&nl);
	return rc;
}
