// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_stat.c - "memdiagctl stat -- CMD": the counters over exactly one
 * command's lifetime, as perf stat: a session and a snapshot of every
 * socket right before the fork, another right after the exit, and with
 * --interval a timeline (watch's rows) while it runs. The command's exit
 * status is stat's.
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "meta.h"
#include "opts.h"
#include "parse.h"
#include "counters/counters.h"
#include "stat.h"
#include "stat_group.h"
#include "stat_marker.h"
#include "watch.h"

#define SCOPE_NOTE "counts are socket-wide: every process on the socket adds to them, not only the command"

struct stat_cfg {
	const char *cmd;
	bool json, pretty, csv, timestamp, marker;
	bool one;
	uint32_t socket;
	uint32_t interval_ms;	/* 0: no timeline */
	const char *path;	/* -o */
	FILE *out;
	char **argv;		/* the command */
};

void cmd_stat_usage(FILE *f)
{
	fputs("Usage: " PROG " stat [--socket N] [--interval DUR [--timestamp]]\n"
	      "                       [--marker] [-j|--csv] [-o FILE] [--] CMD [ARGS...]\n"
	      "\n"
	      "Run CMD and print, per socket, what the counters counted over exactly\n"
	      "its lifetime: DRAM read and write bytes and GB/s (the memory\n"
	      "controllers), offcore DRAM read bytes and the L1 miss and load miss real\n"
	      "latencies (the core PMU), as 'run' prints them; '-' (null in JSON) with\n"
	      "the reason where a counter is missing. A session starts before the\n"
	      "command, the counters are read right before the fork and right after\n"
	      "the exit.\n"
	      "\n"
	      "The counts are socket-wide: the memory controllers and the summed core\n"
	      "counters see every process on the socket, not only CMD (as likwid-perfctr\n"
	      "and pcm-memory). Without the module or without counters CMD runs all\n"
	      "the same and stat says why there are no counts. CMD's own bytes come\n"
	      "beside them where resctrl counts DRAM bytes (MBM) and stat runs as\n"
	      "root: CMD starts in a monitoring group of its own (its threads and\n"
	      "children inherit it), removed when it exits; 'own' in the JSON, with\n"
	      "the reason where there is none. Without MBM they are the memdiag\n"
	      "module's core estimate (source core_estimate): CMD starts in a\n"
	      "cgroup2 cgroup of its own, memdiag-stat-PID, removed when it exits.\n"
	      "\n"
	      "The results go to stderr (as perf stat's and time's), so that CMD's own\n"
	      "output stays alone on stdout; -o FILE writes them to FILE instead.\n"
	      "Ctrl-C reaches CMD; stat waits for it and reports. SIGTERM and SIGHUP\n"
	      "sent to stat are passed on to CMD.\n"
	      "\n"
	      "Options:\n"
	      "  -s, --socket N          only socket N\n"
	      "  -i, --interval DUR      also print watch's row for each socket every DUR\n"
	      "                          while CMD runs (1ms to 60s; 2, 1.5s, 500ms)\n"
	      "  -m, --marker            also one row per region CMD marks with\n"
	      "                          libmemdiag-marker (memdiag_marker_start/stop):\n"
	      "                          calls, time and the counters over its calls\n"
	      "                          (socket-wide too); CMD finds the file to\n"
	      "                          report to in $MEMDIAG_MARKER_FILE\n"
	      "  -T, --timestamp         begin each text row of the timeline with its wall\n"
	      "                          clock, ISO 8601 (JSON and CSV have time_unix_ns)\n",
	      f);
	cli_opts_usage(f, CLI_OPT_JSON, 26,
		       "JSON: one document; with --interval one object\n"
		       "per line per socket and interval, then the\n"
		       "result (the object with \"command\")");
	fputs("      --csv               CSV: a header row, one row per socket, each\n"
	      "                          with -j's meta.* (host, CPU, kernel, version,\n"
	      "                          commit, date, argv); with\n"
	      "                          --interval the timeline's rows (watch --csv)\n"
	      "                          come first, then an empty line\n"
	      "  -o, --output FILE       write the results to FILE, replaced when CMD\n"
	      "                          has run (an older FILE stays otherwise)\n",
	      f);
	cli_opts_usage(f, CLI_OPT_HELP, 26, NULL);
	fputs("\n"
	      "Exit status: CMD's own; 128 + N when signal N killed it; 126 when CMD\n"
	      "could not be executed, 127 when it was not found (as the shell).\n"
	      "Before CMD runs: 1 for a usage error, 6 when FILE cannot be opened.\n",
	      f);
}

enum { OPT_CSV = 256 };

static const struct option stat_options[] = {
	{ "socket", required_argument, NULL, 's' },
	{ "interval", required_argument, NULL, 'i' },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "timestamp", no_argument, NULL, 'T' },
	{ "marker", no_argument, NULL, 'm' },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 }
};

/* MDC_EXIT_OK, an exit code, or -1 for --help. */
static int parse_options(struct stat_cfg *s, const struct opts *g, int argc,
			 char **argv)
{
	struct opts o = *g;
	struct cli_opts t;
	char err[200];
	uint64_t v;
	int c, rc;

	cli_opts_init(&t, CLI_OPT_ALL, "+:s:i:Tmo:", stat_options);
	/* '+': CMD's own options are CMD's, with or without "--" */
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		switch (c) {
		case 's':
			if (parse_uint(optarg, 0, UINT32_MAX, &v, err,
				       sizeof(err)) < 0)
				return cli_usage(s->cmd, "option '--socket': %s", err);
			s->socket = (uint32_t)v;
			s->one = true;
			break;
		case 'i':
			if (parse_interval_ms(optarg, &s->interval_ms, err,
					      sizeof(err)) < 0)
				return cli_usage(s->cmd, "option '--interval': %s", err);
			break;
		case OPT_CSV:
			s->csv = true;
			break;
		case 'T':
			s->timestamp = true;
			break;
		case 'm':
			s->marker = true;
			break;
		case 'o':
			s->path = optarg;
			break;
		default:
			rc = cli_opts_common(s->cmd, c, argv,
					     &o, cmd_stat_usage);
			if (rc != CLI_OPT_NEXT)
				return rc;	/* -1 after --help */
			break;
		}
	}
	s->json = o.json;
	s->pretty = o.pretty;
	if (s->csv && s->json)
		return cli_usage(s->cmd, "options '--csv' and '--json' exclude each other");
	if (optind >= argc)
		return cli_usage(s->cmd, "no command given: put it after the options, as 'stat -- CMD ARGS'");
	s->argv = argv + optind;
	return MDC_EXIT_OK;
}

/* The counter sockets must not outlive stat in a child that daemonizes. */
static void cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	if (fl >= 0)
		fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

/* The --interval timeline: watch's engine fed by snapshot requests. */
struct timeline {
	bool on;
	struct watch w;
	struct nl nl;
	struct nl_family fam;
};

static void timeline_open(struct timeline *t, const struct stat_cfg *s)
{
	struct info_summary sum;
	struct cli_error err;

	memset(t, 0, sizeof(*t));
	t->w.cmd = s->cmd;
	t->w.out = s->out;
	t->w.json = s->json;
	t->w.pretty = s->pretty;
	t->w.csv = s->csv;
	t->w.timestamp = s->timestamp;
	t->w.interval_ms = s->interval_ms;
	t->w.threshold = 0;	/* the verdict, no fixed threshold (as watch) */
	t->w.all = !s->one;
	t->w.socket = s->socket;
	if (md_open(&t->nl, &t->fam, &sum, &err) != MDC_EXIT_OK)
		return;		/* the result says why there are no counts */
	cloexec(nl_fd(&t->nl));
	t->w.family = t->fam.id;
	if (watch_init(&t->w, &sum) == MDC_EXIT_OK) {
		t->on = true;
		/* the baseline: the first row comes one interval later */
		watch_baseline(&t->w, &t->nl, &t->fam);
	} else {
		nl_family_free(&t->fam);
		nl_close(&t->nl);
	}
	info_summary_free(&sum);
}

static void timeline_close(struct timeline *t)
{
	if (!t->on)
		return;
	watch_free(&t->w);
	nl_family_free(&t->fam);
	nl_close(&t->nl);
	t->on = false;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Wait for the command, a timeline row each interval when there is one. */
static void wait_command(struct stat_child *ch, struct timeline *t,
			 uint32_t interval_ms)
{
	uint64_t next = mono_ms() + interval_ms;

	if (!t->on) {
		stat_child_wait(ch, -1);
		return;
	}
	for (;;) {
		uint64_t now = mono_ms();

		if (now >= next) {
			watch_baseline(&t->w, &t->nl, &t->fam);
			next += interval_ms;
			if (next <= now)	/* a stall: do not catch up */
				next = now + interval_ms;
			continue;
		}
		if (stat_child_wait(ch, (int)(next - now)))
			return;
	}
}

static void print_command(struct printer *p, char **argv)
{
	size_t i;

	print_open_array(p, "command");
	for (i = 0; argv[i]; i++) {
		print_string(p, PRINT_JSON, NULL, "%s", argv[i]);
		print_textf(p, "%s%s", i ? " " : "", argv[i]);
	}
	print_close_array(p);
}

static void print_result(const struct stat_cfg *s, const struct stat_child *ch,
			 const struct stat_group *own,
			 const struct counters *c, size_t slot,
			 const struct stat_marker *m)
{
	uint64_t start_ns = (uint64_t)ch->start_real.tv_sec * 1000000000 +
			    (uint64_t)ch->start_real.tv_nsec;
	struct printer p;

	print_init(&p, s->out, s->json, s->pretty);
	print_open_object(&p, NULL);
	meta_print(&p);
	print_textf(&p, PROG " stat: '");
	print_command(&p, s->argv);
	print_textf(&p, "' ");
	print_uint(&p, PRINT_JSON, "exit_status", "%u", (unsigned int)ch->exit_code);
	if (ch->signal) {
		print_textf(&p, "was killed by signal %d (%s; exit status %d)",
			    ch->signal, strsignal(ch->signal), ch->exit_code);
		print_uint(&p, PRINT_JSON, "signal", "%u", (unsigned int)ch->signal);
	} else {
		print_textf(&p, "exited %d", ch->exit_code);
		print_string(&p, PRINT_JSON, "signal", "%s", NULL);
	}
	print_double(&p, PRINT_ANY, "elapsed_s", " after %.3f s\n",
		     stat_child_elapsed(ch));
	print_u64(&p, PRINT_JSON, "start_time_unix_ns", "%" PRIu64, start_ns);
	if (s->one)
		print_uint(&p, PRINT_JSON, "socket", "%u", s->socket);
	else
		print_string(&p, PRINT_JSON, "socket", "%s", NULL);
	/* what every count covers: the whole socket, not the command */
	print_string(&p, PRINT_JSON, "scope", "%s", "socket");
	print_textf(&p, "note: " SCOPE_NOTE "\n");
	counters_json(&p, c, slot);
	stat_marker_print(&p, m, c);
	counters_text(&p, c, m->on ? "cmd/region" : "cmd");
	stat_group_print(&p, own, stat_child_elapsed(ch));
	print_close_object(&p);
	cli_output_end(s->cmd, &p);
}

static void print_csv(const struct stat_cfg *s, const struct stat_child *ch,
		      const struct counters *c, size_t slot,
		      const struct stat_marker *m)
{
	const char *reason = counters_reason(c, slot);
	char *mhead = NULL, *mrow = NULL, *head = NULL, *lead = NULL;

	/* the archive metadata of -j's "meta", as run --csv has it */
	if (meta_csv(&mhead, &mrow) < 0 ||
	    asprintf(&head, "exit_status,elapsed_s,%s", mhead) < 0)
		head = NULL;
	if (head && asprintf(&lead, "%d,%.6f,%s", ch->exit_code,
			     stat_child_elapsed(ch), mrow) < 0)
		lead = NULL;
	free(mhead);
	free(mrow);
	if (!lead) {
		free(head);
		cli_err(s->cmd, "out of memory", "%s", strerror(ENOMEM));
		return;
	}
	counters_csv(s->out, c, slot, head, lead);
	free(head);
	free(lead);
	if (reason)
		cli_err(s->cmd, "note", "no counts: %s", reason);
	/* the regions' table after an empty line, as the timeline's */
	if (m->on && (fputs("\n", s->out) == EOF ||
		      stat_marker_csv(s->out, m, c) < 0))
		cli_err(s->cmd, "internal error", "the regions are no table, please report this bug");
	if (fflush(s->out) == EOF || ferror(s->out))
		cli_err(s->cmd, "cannot write output", "%s", strerror(errno ? errno : EIO));
}

/* Keep only --socket N; a usage error when the module has no such socket. */
static int only_socket(const struct stat_cfg *s, struct counters *c)
{
	char list[256] = "";
	size_t i, len = 0;

	if (!s->one || !c->on || counters_only(c, s->socket) == 0)
		return MDC_EXIT_OK;
	for (i = 0; i < c->nr_sock && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%u",
					i ? "," : "", c->sock_id[i]);
	return cli_usage(s->cmd, "option '--socket': no socket %u: the sockets are %s",
			 s->socket, list);
}

int cmd_stat(const struct opts *gopts, int argc, char **argv)
{
	static const char *const labels[] = { "cmd" };
	struct stat_cfg s = { .cmd = "stat" };
	struct counters c;
	struct stat_child ch;
	struct timeline t = { 0 };
	struct stat_marker m = { 0 };
	struct stat_group own;
	bool printed = false;
	char why[300];
	size_t slot;
	int rc;

	rc = parse_options(&s, gopts, argc, argv);
	if (rc < 0)
		return MDC_EXIT_OK;	/* --help */
	if (rc != MDC_EXIT_OK)
		return rc;
	s.out = stderr;
	rc = cli_open_output(s.cmd, s.path, &s.out);
	if (rc != MDC_EXIT_OK)
		return rc;
	counters_open(&c);
	stat_group_open(&own, &c);
	c.span = "the command's lifetime";
	if (c.on)
		cloexec(nl_fd(&c.nl));
	rc = only_socket(&s, &c);
	if (rc != MDC_EXIT_OK)
		goto out;
	if (s.interval_ms && c.on)
		timeline_open(&t, &s);
	slot = counters_next(&c, 1, labels);
	if (s.marker && stat_marker_begin(&m, why, sizeof(why)) < 0) {
		cli_err(s.cmd, "option '--marker'", "%s", why);
		rc = MDC_EXIT_LOCAL;
		goto out;
	}
	fflush(NULL);	/* nothing buffered may be written twice */
	counters_mark(&c, true, 0);
	if (stat_child_start(&ch, s.argv, stat_group_attach, &own, why,
			     sizeof(why)) < 0) {
		cli_err(s.cmd, "cannot run the command", "%s", why);
		rc = MDC_EXIT_LOCAL;
		goto out;
	}
	wait_command(&ch, &t, s.interval_ms);
	counters_mark(&c, false, 0);
	stat_group_end(&own);
	stat_child_close(&ch);
	rc = ch.exit_code;
	if (ch.exec_errno) {
		/* nothing ran, so there is nothing to count */
		cli_err(s.cmd, "cannot run the command", "%s", why);
		goto out;
	}
	stat_marker_read(&m, &c);
	if (m.bad[0])
		cli_err(s.cmd, "note", "a line of the regions' file is no result of libmemdiag-marker: '%s'",
			m.bad);
	if (s.csv && t.w.rows)
		fputs("\n", s.out);	/* the timeline's table ends */
	if (s.csv)
		print_csv(&s, &ch, &c, slot, &m);
	else
		print_result(&s, &ch, &own, &c, slot, &m);
	printed = true;
out:
	stat_marker_end(&m);
	timeline_close(&t);
	stat_group_close(&own);
	counters_close(&c);
	if (s.out != stderr &&
	    cli_close_output(s.cmd, s.path, s.out, printed) != MDC_EXIT_OK &&
	    rc == MDC_EXIT_OK)
		rc = MDC_EXIT_LOCAL;
	return rc;
}
