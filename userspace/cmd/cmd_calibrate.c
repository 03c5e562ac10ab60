// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_calibrate.c - "memdiagctl calibrate": per socket, the pointer chase
 * on one CPU under traffic from all the others at rising intensity, per
 * read/write mix (and prefetcher state), stored as curves
 * (Documentation/curves.rst); "--show" prints the stored ones.
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calib_cmd.h"
#include "calib_plan.h"
#include "calib_show.h"
#include "cmd.h"
#include "stop.h"
#include "cpulist.h"
#include "opts.h"
#include "parse.h"
#include "run/run.h"

void cmd_calibrate_usage(FILE *f)
{
	fputs("Usage: " PROG " calibrate [--socket N] [--mix LIST] [--prefetch LIST]\n"
	      "                          [--quick] [--reps N] [--curve FILE]\n"
	      "                          [--max-memory SIZE] [--plan]\n"
	      "                          [-j|--json] [-p|--pretty]\n"
	      "       " PROG " calibrate --show [--socket N] [--curve FILE]\n"
	      "\n"
	      "Measure this machine's bandwidth-latency curves, per socket: a pointer\n"
	      "chase on the socket's first CPU (every line flushed from the caches\n"
	      "before it is chased, so each load goes to DRAM) while the other CPUs\n"
	      "run the read-delay traffic generator at rising intensity (threads x\n"
	      "NOP delay), per read/write mix; each point repeated, outliers dropped,\n"
	      "the coefficient of variation kept, the sustainable peak marked and\n"
	      "the points past it kept. The generators share one buffer of at least\n"
	      "four times the socket's last-level cache (sysfs), split among the\n"
	      "threads of each point, so every point's traffic is DRAM traffic.\n"
	      "Bandwidth comes from the memory controllers'\n"
	      "counters when the memdiag module can count them, otherwise from the\n"
	      "generators' own byte counts (counter-free; the file says which).\n"
	      "Prints how long it will take first; Ctrl-C stops, stores nothing and\n"
	      "puts the prefetchers back. The curves go to /var/lib/memdiag/curve.json\n"
	      "(root) or $XDG_STATE_HOME/memdiag/curve.json (Documentation/curves.rst).\n"
	      "\n"
	      "Options:\n"
	      "  --socket N       only socket N (default: every socket)\n"
	      "  --mix LIST       read/write mixes, a comma list of read (reads only),\n"
	      "                   2:1 and 1:1 (DRAM reads:writes, write-allocate\n"
	      "                   counted); default read,2:1,1:1\n"
	      "  --prefetch LIST  on, off or on,off: curves with the hardware\n"
	      "                   prefetchers switched on and/or off (needs the\n"
	      "                   module's prefetcher control; restored afterwards,\n"
	      "                   also on Ctrl-C); default: as they are\n"
	      "  --quick          a coarse curve: 5 delays, 256 chase segments per\n"
	      "                   point, well under a minute per socket\n"
	      "  --reps N         repeats per point, 3 to 64 (default 3, 5 without\n"
	      "                   --quick)\n"
	      "  --curve FILE     write (or with --show read) FILE instead; its\n"
	      "                   directory must exist\n"
	      "  --max-memory SIZE  the most the buffers may take (default:\n"
	      "                   MemAvailable); a plan that needs more is refused\n"
	      "  --plan           print the plan (points, threads, bytes each point\n"
	      "                   sweeps, memory, time) and exit, measuring nothing\n"
	      "  --show           print the stored curves as a table and exit\n",
	      f);
	cli_opts_usage(f, CLI_OPT_ALL, 19, "print JSON");
	fputs("\n"
	      "Exit status: 0 stored (or shown); 1 bad option; 2 --prefetch without\n"
	      "the memdiag module; 3 --prefetch without the privilege; 6 the file\n"
	      "could not be written or read; 7 nothing to calibrate (a socket with one\n"
	      "CPU), not enough memory for the plan, or no prefetcher control for\n"
	      "--prefetch; 128+N killed by signal\n"
	      "N (nothing stored).\n", f);
}

static volatile sig_atomic_t cal_stop;

enum { OPT_SOCKET = 256, OPT_MIX, OPT_PREFETCH, OPT_QUICK, OPT_REPS,
       OPT_CURVE, OPT_SHOW, OPT_MAX_MEMORY, OPT_PLAN };

static const struct option cal_options[] = {
	{ "socket", required_argument, NULL, OPT_SOCKET },
	{ "mix", required_argument, NULL, OPT_MIX },
	{ "prefetch", required_argument, NULL, OPT_PREFETCH },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "reps", required_argument, NULL, OPT_REPS },
	{ "curve", required_argument, NULL, OPT_CURVE },
	{ "show", no_argument, NULL, OPT_SHOW },
	{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
	{ "plan", no_argument, NULL, OPT_PLAN },
	{ NULL, 0, NULL, 0 }
};

static const char *const pf_names[] = { "on", "off" };

static int parse_args(struct cal_args *a, struct opts *o, int argc,
		      char **argv)
{
	struct cli_opts t;
	const char *cmd = argv[0];
	char err[160];
	uint64_t v;
	int c, rc;

	memset(a, 0, sizeof(*a));
	a->mixes = (1u << KERN_NR_MIXES) - 1;
	cli_opts_init(&t, CLI_OPT_ALL, ":", cal_options);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		switch (c) {
		case OPT_SOCKET:
			if (parse_uint(optarg, 0, UINT32_MAX, &v, err, sizeof(err)))
				return cli_usage(cmd, "option '--socket': %s", err);
			a->have_socket = true;
			a->socket = (uint32_t)v;
			break;
		case OPT_MIX:
			rc = cli_name_list(cmd, "--mix", optarg, kern_mix_name,
					   KERN_NR_MIXES, &a->mixes);
			if (rc)
				return rc;
			break;
		case OPT_PREFETCH:
			rc = cli_name_list(cmd, "--prefetch", optarg, pf_names, 2,
					   &a->pf);
			if (rc)
				return rc;
			break;
		case OPT_QUICK:
			a->quick = true;
			break;
		case OPT_REPS:
			if (parse_uint(optarg, 3, 64, &v, err, sizeof(err)))
				return cli_usage(cmd, "option '--reps': %s (at least 3: outliers are dropped by the median)",
						 err);
			a->reps = (unsigned int)v;
			break;
		case OPT_CURVE:
			if (!*optarg)
				return cli_usage(cmd, "option '--curve': empty file name");
			a->curve = optarg;
			break;
		case OPT_SHOW:
			a->show = true;
			break;
		case OPT_MAX_MEMORY:
			if (run_parse_size(NULL, optarg, &v, err, sizeof(err)))
				return cli_usage(cmd, "option '--max-memory': %s", err);
			a->max_memory = v;
			break;
		case OPT_PLAN:
			a->plan_only = true;
			break;
		default:
			rc = cli_opts_common(cmd, c, argv,
					     o, cmd_calibrate_usage);
			if (rc != CLI_OPT_NEXT)
				return rc;	/* -1 after --help */
			break;
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	if (a->show && (a->quick || a->reps || a->pf || a->plan_only ||
			a->max_memory || a->mixes != (1u << KERN_NR_MIXES) - 1))
		return cli_usage(cmd, "option '--show' only takes --socket and --curve");
	if (!a->reps)
		a->reps = a->quick ? 3 : 5;
	return MDC_EXIT_OK;
}

static int cal_show(const char *cmd, const struct opts *o,
		    const struct cal_args *a)
{
	char used[512], why[CURVE_WHY_SIZE];
	struct printer p;
	struct curve c;
	int rc;

	if (curve_find_load(a->curve, &c, used, sizeof(used), why,
			    sizeof(why))) {
		curve_free(&c);
		/* @why names the file, or where it looked */
		cli_err(cmd, "cannot show the curves", "%s", why);
		return MDC_EXIT_LOCAL;
	}
	if (a->have_socket && !curve_socket_find(&c, a->socket)) {
		cli_err(cmd, "no curve for this socket",
			"%s has none for socket %u: run '" PROG " calibrate --socket %u'",
			used, a->socket, a->socket);
		curve_free(&c);
		return MDC_EXIT_LOCAL;
	}
	if (curve_stale(&c, why, sizeof(why)))
		cli_err(cmd, "note", "%s: %s: its numbers may not be this machine's now",
			used, why);
	print_init(&p, stdout, o->json, o->pretty);
	print_open_object(&p, NULL);
	calib_show(&p, &c, used, a->have_socket, a->socket);
	print_close_object(&p);
	rc = cli_output_end(cmd, &p);
	curve_free(&c);
	return rc;
}

int cmd_calibrate(const struct opts *gopts, int argc, char **argv)
{
	const char *cmd = argv[0];
	struct cal_args a;
	struct opts o = *gopts;
	struct cli_stop stop;
	int rc;

	rc = parse_args(&a, &o, argc, argv);
	if (rc)
		return rc < 0 ? MDC_EXIT_OK : rc;
	if (a.show)
		return cal_show(cmd, &o, &a);
	cli_stop_catch(&stop, &cal_stop);
	rc = calib_main(cmd, &o, &a, &cal_stop);
	cli_stop_release(&stop);
	if (cal_stop) {
		/* the prefetchers are back: die of the signal, as asked */
		fflush(stdout);
		raise((int)cal_stop);
	}
	return rc;
}
