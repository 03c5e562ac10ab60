// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_top.c - "memdiagctl top": who uses each socket's DRAM bandwidth,
 * each interval, as groups (pods, services, cgroups) whose bytes add up
 * to the socket's own count, with "other" and "unattributed" shown.
 */

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "opts.h"
#include "parse.h"
#include "stop.h"
#include "top.h"
#include "verdict_cmd.h"

#define TOP_INTERVAL_MS_MIN 1000	/* resctrl updates its counts each second */
#define TOP_DEFAULT_K 10
#define TOP_DEFAULT_MAX 10000

void cmd_top_usage(FILE *f)
{
	fputs("Usage: " PROG " top [--by pod|service|cgroup] [--socket N] [--interval DUR]\n"
	      "                      [--count N] [--top K] [--max-groups N] [--no-attach]\n"
	      "                      [--curve FILE] [-j|--json] [-p|--pretty]\n"
	      "\n"
	      "Who uses each socket's DRAM bandwidth. Each interval, per socket: the\n"
	      "memory controllers' own bytes (the memdiag module) and the verdict, then\n"
	      "the K groups that moved the most bytes, from resctrl's memory bandwidth\n"
	      "monitoring (MBM; source \"mbm\"), with 'other' (every byte MBM saw\n"
	      "outside them) and 'unattributed' (socket - every group: IO and DMA,\n"
	      "kernel threads, MBM's own error). Nothing is scaled to fit. Without\n"
	      "MBM, the memdiag module's core estimate (source \"core_estimate\"):\n"
	      "each cgroup's DRAM fills, counted at every context switch that changes\n"
	      "cgroup; it misses prefetches and writebacks, which land in\n"
	      "'unattributed'.\n"
	      "\n"
	      "Groups follow the cgroup hierarchy (v2, or v1 where the host has only\n"
	      "that). As root, top puts the threads of each group that no monitoring\n"
	      "group holds into a memdiag-<pid>-<n> monitoring group under the thread's\n"
	      "own control group, and removes those groups when it stops; the groups\n"
	      "runc, cAdvisor or pqos made are reused as they are.\n"
	      "\n"
	      "Options:\n"
	      "  -b, --by KIND   pod (a Kubernetes pod; other cgroups as service, the\n"
	      "                  default), service (the systemd unit or Slurm job), or\n"
	      "                  cgroup (each cgroup on its own)\n"
	      "  -s, --socket N  only socket N\n"
	      "  -i, --interval DUR  seconds (2) or with s or ms; at least 1s, since\n"
	      "                  resctrl updates its counts once a second (default 1s)\n"
	      "  -n, --count N   stop after N intervals (default: until interrupted)\n"
	      "  -k, --top K     rows per socket (default 10)\n"
	      "      --max-groups N  groups followed at most; the rest are counted\n"
	      "                  (default 10000)\n"
	      "      --no-attach read only: make no monitoring group (threads in\n"
	      "                  none are counted in 'other')\n"
	      "      --curve FILE  the curve file of the verdict (default: calibrate's)\n",
	      f);
	cli_opts_usage(f, CLI_OPT_ALL, 18,
		       "one JSON object per socket and interval, a line each");
	fputs("\n"
	      "Exit status: 0; 1 usage; 6 output failed; 7 no per-group source on\n"
	      "this host, or it went away (resctrl unmounted): the reason is said.\n", f);
}

static const struct option top_options[] = {
	{ "by", required_argument, NULL, 'b' },
	{ "socket", required_argument, NULL, 's' },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'n' },
	{ "top", required_argument, NULL, 'k' },
	{ "max-groups", required_argument, NULL, 'M' },
	{ "no-attach", no_argument, NULL, 'A' },
	{ "curve", required_argument, NULL, 'C' },
	{ NULL, 0, NULL, 0 }
};

struct top_args {
	struct opts o;
	enum cg_by by;
	bool one;
	uint32_t socket;
	uint32_t interval_ms;
	uint64_t count, k, max;
	bool no_attach;
	const char *curve;
};

static int parse_number(const char *cmd, const char *opt, const char *s,
			uint64_t min, uint64_t max, uint64_t *v)
{
	char err[160];

	if (parse_uint(s, min, max, v, err, sizeof(err)) < 0)
		return cli_usage(cmd, "option '--%s': %s", opt, err);
	return MDC_EXIT_OK;
}

/* One option of top's own; an exit code. */
static int parse_one(const char *cmd, int c, struct top_args *ta)
{
	char err[160];
	uint64_t v;
	int by, rc = MDC_EXIT_OK;

	switch (c) {
	case 'b':
		by = cg_by_parse(optarg);
		if (by < 0)
			return cli_usage(cmd, "option '--by': '%s' is none of pod, service, cgroup",
					 optarg);
		ta->by = (enum cg_by)by;
		break;
	case 's':
		rc = parse_number(cmd, "socket", optarg, 0, UINT32_MAX, &v);
		ta->socket = (uint32_t)v;
		ta->one = true;
		break;
	case 'i':
		if (parse_interval_ms(optarg, &ta->interval_ms, err,
				      sizeof(err)) < 0)
			return cli_usage(cmd, "option '--interval': %s", err);
		if (ta->interval_ms < TOP_INTERVAL_MS_MIN)
			return cli_usage(cmd, "option '--interval': at least 1s: resctrl's counts change once a second");
		break;
	case 'n':
		rc = parse_number(cmd, "count", optarg, 1, UINT64_MAX,
				  &ta->count);
		break;
	case 'k':
		rc = parse_number(cmd, "top", optarg, 1, 1000, &ta->k);
		break;
	case 'M':
		rc = parse_number(cmd, "max-groups", optarg, 1, 1000000,
				  &ta->max);
		break;
	case 'A':
		ta->no_attach = true;
		break;
	case 'C':
		ta->curve = optarg;
		break;
	}
	return rc;
}

/* An exit code; -1 after --help. */
static int parse_options(const char *cmd, struct top_args *ta, int argc,
			 char **argv)
{
	struct cli_opts t;
	int c, rc;

	cli_opts_init(&t, CLI_OPT_ALL, ":b:s:i:n:k:", top_options);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		if (strchr("bsinkMAC", c)) {
			rc = parse_one(cmd, c, ta);
		} else {
			rc = cli_opts_common(cmd, c, argv, &ta->o,
					     cmd_top_usage);
			rc = rc == CLI_OPT_NEXT ? MDC_EXIT_OK : rc;
		}
		if (rc != MDC_EXIT_OK)
			return rc;
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	return MDC_EXIT_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t top_stop;

/* The sockets of one interval, each as its table. An exit code. */
static int show_all(const char *cmd, const struct top_args *ta,
		    const struct top_view *v, const struct attr *a,
		    const struct top_socket_src *ts)
{
	int rc = MDC_EXIT_OK;
	size_t s;

	if (v->tty && !v->json)
		fputs("\033[H\033[2J", stdout);	/* redraw, as top does */
	for (s = 0; rc == MDC_EXIT_OK && s < a->rc.nr_socket; s++) {
		const struct snap_judged *j;
		struct recon r;
		uint64_t bytes = 0;
		bool have;

		if (ta->one && a->rc.socket_id[s] != ta->socket)
			continue;
		j = top_socket_get(ts, a->rc.socket_id[s]);
		have = j && top_socket_bytes(j, &bytes);
		if (reconcile(a, s, have, bytes, ta->k, &r)) {
			cli_err(cmd, "out of memory", NULL);
			return MDC_EXIT_LOCAL;
		}
		rc = top_show(cmd, v, a, &r, j, ts->on ? "no valid interval yet" :
			      ts->why);
		recon_free(&r);
	}
	return rc;
}

static bool has_socket(const struct attr *a, uint32_t id)
{
	size_t s;

	for (s = 0; s < a->rc.nr_socket; s++)
		if (a->rc.socket_id[s] == id)
			return true;
	return false;
}

/* Sample every interval until --count or a signal. An exit code. */
static int loop(const char *cmd, const struct top_args *ta,
		struct top_view *v, struct attr *a, struct top_socket_src *ts)
{
	char why[ATTR_WHY];
	uint64_t n = 0;
	double last;
	int rc = MDC_EXIT_OK;

	last = now_s();
	while (rc == MDC_EXIT_OK && !top_stop && (!ta->count || n < ta->count)) {
		double t;

		snapshot_sleep_ms(ta->interval_ms);
		if (top_stop)
			break;
		if (attr_sample(a, why, sizeof(why))) {
			/* resctrl unmounted, the hierarchy gone: say, stop */
			cli_err(cmd, "stopped: the groups cannot be sampled any more",
				"%s", why);
			return MDC_EXIT_UNAVAILABLE;
		}
		top_socket_sample(ts);
		t = now_s();
		v->interval_s = t - last;
		last = t;
		rc = show_all(cmd, ta, v, a, ts);
		n++;
	}
	return rc;
}

/* No source of per-group numbers: one line, why and what top would show. */
static int unavailable(const char *cmd, const struct top_args *ta,
		       const char *attr_why, const struct top_socket_src *ts)
{
	cli_err(cmd, "no per-group numbers on this host",
		"%s; %s%s. Where resctrl counts DRAM bytes (Intel RDT, AMD PQoS), or the memdiag module counts DRAM fills per cgroup (its core estimate, Intel), top shows each %s's GB/s, its share of the socket's and what no group explains",
		attr_why, ts->on ? "the socket count is there ('" PROG " watch')" :
		"no socket count either: ", ts->on ? "" : ts->why,
		cg_by_name(ta->by));
	return MDC_EXIT_UNAVAILABLE;
}

int cmd_top(const struct opts *gopts, int argc, char **argv)
{
	const char *cmd = "top";
	struct top_args ta = {
		.o = *gopts, .by = CG_BY_POD, .interval_ms = 1000,
		.k = TOP_DEFAULT_K, .max = TOP_DEFAULT_MAX,
	};
	struct top_view v = { 0 };
	struct top_socket_src ts;
	struct top_core core = { 0 };
	char core_why[ATTR_WHY];
	struct verdict_src vs;
	struct cli_stop stop;
	char why[ATTR_WHY];
	struct winsize ws;
	struct attr a;
	int rc;

	rc = parse_options(cmd, &ta, argc, argv);
	if (rc != MDC_EXIT_OK)
		return rc < 0 ? MDC_EXIT_OK : rc;	/* -1: --help */
	rc = verdict_src_open_cmd(&vs, cmd, ta.curve);
	if (rc != MDC_EXIT_OK)
		return rc;
	top_socket_open(&ts, &vs);
	if (attr_open(&a, ta.by, !ta.no_attach && !geteuid(), ta.max, why,
		      sizeof(why)) &&
	    top_core_open(&core, &ts, &a, ta.by, ta.max, core_why,
			  sizeof(core_why))) {
		char both[2 * ATTR_WHY + 40];

		/* without the module its reason is said once, on its own */
		snprintf(both, sizeof(both), "%s%s%s", why,
			 ts.connected ? "; the module's core estimate: " : "",
			 ts.connected ? core_why : "");
		rc = unavailable(cmd, &ta, both, &ts);
		goto out_socket;
	}
	if (ta.one && !has_socket(&a, ta.socket)) {
		rc = cli_usage(cmd, "option '--socket': no socket %u in resctrl's domains",
			       ta.socket);
		goto out;
	}
	if (!ts.on)
		cli_err(cmd, "note", "no socket count, so no 'unattributed': %s",
			ts.why);
	v = (struct top_view){
		.json = ta.o.json, .pretty = ta.o.pretty, .by = ta.by,
		.tty = isatty(STDOUT_FILENO), .source = a.source,
	};
	if (v.tty && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws))
		v.width = ws.ws_col;
	cli_stop_catch(&stop, &top_stop);
	/* the baselines: the first interval ends one --interval later */
	if (attr_sample(&a, why, sizeof(why))) {
		cli_err(cmd, "cannot sample the groups", "%s", why);
		rc = MDC_EXIT_LOCAL;
	} else {
		top_socket_sample(&ts);
		rc = loop(cmd, &ta, &v, &a, &ts);
	}
	cli_stop_release(&stop);
out:
	attr_close(&a);
	top_core_close(&core);
out_socket:
	top_socket_close(&ts);
	verdict_src_close(&vs);
	return rc;
}
