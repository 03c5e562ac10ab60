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
#include "info_show.h"
#include "names.h"
#include "opts.h"
#include "parse.h"
#include "prefetch.h"
#include "snapshot.h"
#include "verdict_cmd.h"
#include "watch.h"

void cmd_watch_usage(FILE *f)
{
	fputs("Usage: " PROG " watch [--socket N | --all] [--interval DUR] [--count K]\n"
	      "                        [--curve FILE] [--threshold CYCLES] [--timestamp]\n"
	      "                        [--df-channels LIST] [--group PATH]\n"
	      "                        [-j|--json|--csv] [-p|--pretty] [-o FILE]\n"
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
	      "               (AMD: MAB occupancy / MAB allocations)\n"
	      "  lmr_lat_cyc  load miss real latency: L1D_PEND_MISS.PENDING /\n"
	      "               (L1 misses + fill buffer hits); on Sapphire, Emerald\n"
	      "               and Granite Rapids / MEM_LOAD_COMPLETED.L1_MISS_ANY\n"
	      "  lmr_lat_ns   the same in ns, at the core frequency of the interval\n"
	      "  l3_lat_ns    AMD Zen 2 to 5 only: the DRAM latency the L3 sampled\n"
	      "               (10 x l3_xi_sampled_latency / its requests; Zen 2/3:\n"
	      "               every L3 miss, 16 x xi_sys_fill_latency /\n"
	      "               xi_ccx_sdp_req1), in ns at the TSC frequency\n"
	      "  sat          with --threshold only: yes when lmr_lat_cyc exceeds it\n"
	      "  ch_imb       the busiest memory channel's bytes / the mean channel's\n"
	      "               (1.00: even)\n"
	      "  busy_ch      that channel\n"
	      "  prefetch     prefetcher state: on, off, N/M off; ~ mixed, * changed\n"
	      "  grp_GB/s     with --group: the cgroup's DRAM bandwidth on the socket\n"
	      "               (resctrl MBM or the module's core estimate, the\n"
	      "               cgroup and those below it)\n"
	      "  grp%         that over tot_GB/s\n"
	      "  util%        bandwidth / the sustainable peak of this machine's curve\n"
	      "               at this read/write mix (memdiagctl calibrate)\n"
	      "  exp_ns       the curve's latency at this bandwidth\n"
	      "  stress       0..1: how far latency climbed from idle to the curve's max\n"
	      "  verdict      idle, ok, latency-rising, bandwidth-bound or saturated,\n"
	      "               then any flag: measured latency far from the curve's, a\n"
	      "               memory channel carrying far more than its share\n"
	      "               (Documentation/curves.rst); without a curve that fits\n"
	      "               this machine '-' and the reason on stderr\n"
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
	      "      --curve FILE        the curve file (default: the calibrate's,\n"
	      "                          see memdiagctl(8))\n"
	      "  -t, --threshold CYCLES  the old fixed saturation threshold of\n"
	      "                          lmr_lat_cyc (300 was the default; it means\n"
	      "                          something else on every machine)\n"
	      "  -T, --timestamp         begin each text row with the wall clock of its\n"
	      "                          end, ISO 8601 local time (2026-11-24T10:15:30.250+01:00)\n"
	      "      --df-channels LIST  AMD Zen 2/3: count these DRAM channels (0-3,\n"
	      "                          0,2,5; at most 4) all the time, not every channel\n"
	      "                          in turns: theirs exact, the others unmeasured,\n"
	      "                          no socket total (tot_GB/s '-')\n"
	      "      --group PATH        add the DRAM bandwidth of the cgroup PATH (as\n"
	      "                          /proc/PID/cgroup names it) and those below it,\n"
	      "                          from resctrl's MBM (as root its threads go into\n"
	      "                          memdiag monitoring groups, as top does), else\n"
	      "                          from the module's core estimate (exit 7 where\n"
	      "                          neither counts)\n",
	      f);
	cli_opts_usage(f, CLI_OPT_JSON, 26,
		       "one JSON object per line per socket and interval;\n"
		       "time_ns is CLOCK_MONOTONIC, time_unix_ns the wall\n"
		       "clock (ns since 1970, UTC)");
	fputs("      --csv               CSV: a header row of the JSON keys, then one row\n"
	      "                          per socket and interval (null: empty; lists: a;b;\n"
	      "                          the verdict's keys as verdict_KEY columns)\n"
	      "  -o, --output FILE       write the rows to FILE, replaced when watch\n"
	      "                          ends and only if it printed a row\n",
	      f);
	cli_opts_usage(f, CLI_OPT_HELP, 26, NULL);
}

enum { WATCH_OPT_CSV = 256, WATCH_OPT_DF_CHANNELS, WATCH_OPT_GROUP };

static const struct option watch_options[] = {
	{ "socket", required_argument, NULL, 's' },
	{ "all", no_argument, NULL, 'a' },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "threshold", required_argument, NULL, 't' },
	{ "timestamp", no_argument, NULL, 'T' },
	{ "curve", required_argument, NULL, 'C' },
	{ "csv", no_argument, NULL, WATCH_OPT_CSV },
	{ "output", required_argument, NULL, 'o' },
	{ "df-channels", required_argument, NULL, WATCH_OPT_DF_CHANNELS },
	{ "group", required_argument, NULL, WATCH_OPT_GROUP },
	{ NULL, 0, NULL, 0 }
};

static int parse_options(struct watch *w, const struct opts *gopts, int argc,
			 char **argv, const char **path, const char **group)
{
	struct opts o = *gopts;
	struct cli_opts t;
	bool one = false, all = false;
	char err[200];
	uint64_t v;
	int c, rc;

	w->interval_ms = WATCH_DEFAULT_INTERVAL_MS;
	cli_opts_init(&t, CLI_OPT_ALL, ":s:ai:c:t:To:", watch_options);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
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
		case 'T':
			w->timestamp = true;
			break;
		case 'C':
			w->curve_path = optarg;
			break;
		case WATCH_OPT_CSV:
			w->csv = true;
			break;
		case WATCH_OPT_DF_CHANNELS:
			if (parse_channel_set(optarg, 32, &w->df_channels, err,
					      sizeof(err)) < 0)
				return cli_usage(w->cmd, "option '--df-channels': %s", err);
			break;
		case 'o':
			*path = optarg;
			break;
		case WATCH_OPT_GROUP:
			*group = optarg;
			break;
		default:
			rc = cli_opts_common(w->cmd, c, argv,
					     &o, cmd_watch_usage);
			if (rc != CLI_OPT_NEXT)
				return rc;	/* -1 after --help */
			break;
		}
	}
	w->json = o.json;
	w->pretty = o.pretty;
	if (optind < argc)
		return cli_usage(w->cmd, "unexpected argument '%s'", argv[optind]);
	if (one && all)
		return cli_usage(w->cmd, "options '--socket' and '--all' exclude each other");
	if (w->csv && w->json)
		return cli_usage(w->cmd, "options '--csv' and '--json' exclude each other");
	w->all = !one;
	return MDC_EXIT_OK;
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

/*
 * From here on SIGINT and SIGTERM wait in the signalfd returned. They stay
 * blocked until exit, so that a second Ctrl-C during the cleanup cannot
 * turn the clean exit into a death by signal. -1 (reported) on failure.
 */
static int block_signals(const char *cmd)
{
	sigset_t mask;
	int sfd;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0 ||
	    (sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		cli_err(cmd, "cannot set up signal handling", "%s",
			strerror(errno));
		return -1;
	}
	return sfd;
}

/* The session: start it, print its samples until the end, stop it. */
static int watch_session(struct watch *w, struct nl *nl,
			 const struct nl_family *fam,
			 const struct info_summary *sum, int sfd)
{
	uint32_t id, core_mode;
	struct cli_error err;
	struct nl_error e;
	int rc;

	session_start(nl, fam, w->interval_ms, w->df_channels, &id, &core_mode,
		      &err);
	rc = cli_report(w->cmd, &err);
	if (rc != MDC_EXIT_OK)
		return rc;
	if (core_mode == MEMDIAG_CORE_MODE_NONE)
		watch_no_core(w, sum->core_mode_reason);
	watch_baseline(w, nl, fam);
	rc = w->rc;
	if (rc == MDC_EXIT_OK)
		rc = watch_loop(w, nl, sfd);
	/*
	 * Leave the group and empty the queue first, so that the stop's ack
	 * cannot be lost to a full receive buffer.
	 */
	nl_unsubscribe(nl, nl_family_mcgrp(fam, MEMDIAG_MCGRP_MONITOR)->id, &e);
	nl_drain(nl);
	session_stop(nl, fam, id, &err);
	/* a failed stop is a warning: the exit code stays */
	cli_report(w->cmd, &err);
	return rc;
}

int cmd_watch(const struct opts *gopts, int argc, char **argv)
{
	struct watch w = { .cmd = "watch", .out = stdout };
	const char *path = NULL, *group = NULL;
	struct watch_group grp = { 0 };
	struct info_summary sum = { 0 };
	struct verdict_src vs;
	struct cli_error err;
	struct nl_family fam;
	struct nl nl;
	int rc, sfd;

	rc = parse_options(&w, gopts, argc, argv, &path, &group);
	if (rc < 0)
		return MDC_EXIT_OK;	/* --help */
	if (rc == MDC_EXIT_OK)
		rc = cli_open_output(w.cmd, path, &w.out);
	if (rc != MDC_EXIT_OK)
		return rc;
	/* a curve FILE named that cannot be read: an error, before the module */
	rc = verdict_src_open_cmd(&vs, w.cmd, w.curve_path);
	if (rc != MDC_EXIT_OK) {
		cli_close_output(w.cmd, path, w.out, false);
		return rc;
	}
	w.vs = &vs;

	sfd = block_signals(w.cmd);
	if (sfd < 0) {
		cli_close_output(w.cmd, path, w.out, false);
		verdict_src_close(&vs);
		return MDC_EXIT_LOCAL;
	}

	md_open(&nl, &fam, &sum, &err);
	rc = cli_report(w.cmd, &err);
	if (rc != MDC_EXIT_OK)
		goto out_sig;
	/* after the module: without it a curve cannot help */
	if (!vs.usable)
		cli_err(w.cmd, "note", "no verdict: %s", vs.reason);
	w.family = fam.id;
	if (group) {
		rc = watch_group_open(&grp, w.cmd, group, &sum);
		w.grp = rc == MDC_EXIT_OK ? &grp : NULL;
	}
	if (rc == MDC_EXIT_OK)
		rc = setup(&w, &nl, &fam, &sum);
	if (rc == MDC_EXIT_OK)
		rc = subscribe(w.cmd, &nl, &fam);
	if (rc == MDC_EXIT_OK)
		rc = watch_session(&w, &nl, &fam, &sum, sfd);
	info_summary_free(&sum);
	watch_group_close(&grp);
	watch_free(&w);
	nl_family_free(&fam);
	nl_close(&nl);
out_sig:
	close(sfd);
	/* rows printed are kept, also when the module went away after them */
	if (cli_close_output(w.cmd, path, w.out, rc == MDC_EXIT_OK || w.rows) !=
	    MDC_EXIT_OK && rc == MDC_EXIT_OK)
		rc = MDC_EXIT_LOCAL;
	verdict_src_close(&vs);
	return rc;
}
