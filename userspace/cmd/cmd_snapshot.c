// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_snapshot.c - "memdiagctl snapshot": the raw cumulative counters,
 * read twice a window apart (snapshot_show.c prints them).
 */

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "cmd.h"
#include "conn.h"
#include "info_show.h"
#include "names.h"
#include "opts.h"
#include "parse.h"
#include "snapshot.h"
#include "snapshot_collect.h"
#include "snapshot_show.h"
#include "snapshot_verdict.h"
#include "verdict_cmd.h"

/*
 * The session a snapshot needs runs at the longest interval there is, so
 * that it never makes another client's session publish more often.
 */
#define SNAPSHOT_SESSION_MS INTERVAL_MS_MAX
#define SNAPSHOT_WINDOW_MS 200	/* > the 100 ms a shared sample may be old */

void cmd_snapshot_usage(FILE *f)
{
	fputs("Usage: " PROG " snapshot [--socket N | --all] [--channels] [--window DUR]\n"
	      "                           [--curve FILE] [--df-channels LIST]\n"
	      "                           [-j|--json] [-p|--pretty]\n"
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
	      "                  naming it (exit 6), before the module is looked for\n"
	      "      --df-channels LIST  AMD Zen 2/3: the DRAM channels (0-3, 0,2,5;\n"
	      "                  at most 4) counted all the time, not in turns, as\n"
	      "                  watch --df-channels; refused (exit 5) while the\n"
	      "                  running sessions count another set\n",
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
	{ "df-channels", required_argument, NULL, 'D' },
	{ NULL, 0, NULL, 0 }
};

/* snapshot's options. */
struct snap_args {
	struct opts o;
	bool all;		/* every socket, or only @socket */
	uint32_t socket;
	bool channels;
	uint32_t window_ms;	/* between the two readings */
	const char *curve_path;	/* --curve, or NULL */
	uint32_t df_channels;	/* --df-channels mask; 0: not asked */
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
		case 'D':
			if (parse_channel_set(optarg, 32, &sa->df_channels,
					      err, sizeof(err)) < 0)
				return cli_usage(cmd, "option '--df-channels': %s", err);
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
		const struct snapshot_collect *first,
		const struct snapshot_collect *col,
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
	struct snapshot_collect col = { NULL, 0 }, first = { NULL, 0 };
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
		session_start(&nl, &fam, SNAPSHOT_SESSION_MS, sa.df_channels,
			      &id, NULL, &cerr);
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
		rc = snapshot_request(cmd, &nl, &fam, sa.all, sa.socket, true, &first);
		if (rc == MDC_EXIT_OK) {
			snapshot_sleep_ms(sa.window_ms);
			rc = snapshot_request(cmd, &nl, &fam, sa.all, sa.socket, true,
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
	snapshot_collect_free(&first);
	snapshot_collect_free(&col);
	nl_family_free(&fam);
	nl_close(&nl);
	return rc;
}
