// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_probe.c - "memdiagctl probe": counter-free memory pressure. Every
 * interval a few milliseconds of flushed pointer chase on one CPU; its
 * latency placed on the socket's calibrated curve (probe.c) estimates how
 * loaded this host's memory is, whoever loads it. Its own CPU time is
 * measured and printed with every sample.
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calib_plan.h"
#include "cmd.h"
#include "stop.h"
#include "opts.h"
#include "parse.h"
#include "probe_sample.h"

void cmd_probe_usage(FILE *f)
{
	fputs("Usage: " PROG " probe [--interval D] [--count N] [--socket N] [--cpu N]\n"
	      "                      [--curve FILE] [-j|--json] [-p|--pretty]\n"
	      "\n"
	      "Counter-free memory pressure, for VMs and machines whose counters are\n"
	      "out of reach: every interval, a pointer chase of 8 x 512 loads (a few\n"
	      "milliseconds) over lines flushed from the caches first, on one CPU;\n"
	      "the median latency of its segments (p90 and p99 beside it: of 8\n"
	      "segments both are the slowest) is placed on the socket's curve\n"
	      "(read-only mix; '" PROG " calibrate' makes it) to estimate the DRAM\n"
	      "load that explains it (any process's, a neighbour VM's too), its\n"
	      "utilization of the sustainable peak, the stress and the label\n"
	      "(idle, ok, latency-rising, bandwidth-bound, saturated). Each sample\n"
	      "also says what it cost: the probe's CPU time over the interval.\n"
	      "Without a curve, or with one made on another machine, the latency is\n"
	      "still printed and the estimate is null with the reason.\n"
	      "\n"
	      "Options:\n"
	      "  -i, --interval D  time between samples: seconds (\"1\", \"0.5\") or\n"
	      "                    with a unit (\"500ms\"); default 1s\n"
	      "  -c, --count N     stop after N samples (default: until Ctrl-C)\n"
	      "  --socket N        the curve of socket N (default 0)\n"
	      "  --cpu N           chase on CPU N (default: the curve's chase CPU)\n"
	      "  --curve FILE      read FILE instead of the stored curves\n",
	      f);
	cli_opts_usage(f, CLI_OPT_ALL, 20,
		       "one JSON object per sample and line");
	fputs("\n"
	      "Exit status: 0 done or stopped by Ctrl-C; 1 bad option; 6 the chase\n"
	      "could not be set up (memory, CPU) or the --curve FILE cannot be read\n"
	      "(missing, truncated, not a curve file).\n", f);
}

struct probe_args {
	uint32_t interval_ms;
	uint64_t count;
	uint32_t socket;
	bool have_cpu;
	uint32_t cpu;
	const char *curve;
};

enum { OPT_SOCKET = 256, OPT_CPU, OPT_CURVE };

static const struct option probe_options[] = {
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "socket", required_argument, NULL, OPT_SOCKET },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "curve", required_argument, NULL, OPT_CURVE },
	{ NULL, 0, NULL, 0 }
};

static int parse_args(struct probe_args *a, struct opts *o, int argc,
		      char **argv)
{
	struct cli_opts t;
	const char *cmd = argv[0];
	char err[160];
	uint64_t v;
	int c, rc;

	memset(a, 0, sizeof(*a));
	a->interval_ms = 1000;
	cli_opts_init(&t, CLI_OPT_ALL, ":i:c:", probe_options);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		switch (c) {
		case 'i':
			if (parse_interval_ms(optarg, &a->interval_ms, err,
					      sizeof(err)))
				return cli_usage(cmd, "option '--interval': %s", err);
			break;
		case 'c':
			if (parse_uint(optarg, 1, UINT64_MAX, &a->count, err,
				       sizeof(err)))
				return cli_usage(cmd, "option '--count': %s", err);
			break;
		case OPT_SOCKET:
			if (parse_uint(optarg, 0, UINT32_MAX, &v, err, sizeof(err)))
				return cli_usage(cmd, "option '--socket': %s", err);
			a->socket = (uint32_t)v;
			break;
		case OPT_CPU:
			if (parse_uint(optarg, 0, CALIB_MAX_CPUS - 1, &v, err,
				       sizeof(err)))
				return cli_usage(cmd, "option '--cpu': %s", err);
			a->have_cpu = true;
			a->cpu = (uint32_t)v;
			break;
		case OPT_CURVE:
			if (!*optarg)
				return cli_usage(cmd, "option '--curve': empty file name");
			a->curve = optarg;
			break;
		default:
			rc = cli_opts_common(cmd, c, argv, o, cmd_probe_usage);
			if (rc != CLI_OPT_NEXT)
				return rc;	/* -1 after --help */
			break;
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	return MDC_EXIT_OK;
}

/*
 * --socket N names a socket this machine has (sysfs, as calibrate reads
 * it): else a usage error listing them, rather than a probe that runs
 * on socket 0's CPU and calls it socket N.
 */
static int probe_check_socket(const char *cmd, const struct probe_args *a)
{
	struct calib_socket *so = NULL;
	char list[128] = "";
	size_t i, n, len;

	n = calib_sockets(getenv("MEMDIAG_TEST_SYSFS_CPU"), &so);
	for (i = 0; i < n; i++) {
		if (so[i].id == a->socket)
			break;
		len = strlen(list);
		snprintf(list + len, sizeof(list) - len, "%s%u", i ? ", " : "",
			 so[i].id);
	}
	calib_sockets_free(so, n);
	if (n && i < n)
		return MDC_EXIT_OK;
	return cli_usage(cmd, "option '--socket': no socket %u here (this machine has: %s)",
			 a->socket, list[0] ? list : "none readable");
}

static volatile sig_atomic_t probe_stop;

/* A number, or '-' in text and null in JSON when there is none. */
static void num(struct printer *p, const char *key, const char *fmt,
		const char *dash, bool have, double v)
{
	if (have) {
		print_double(p, PRINT_ANY, key, fmt, v);
		return;
	}
	print_string(p, PRINT_TEXT, NULL, dash, "-");
	print_string(p, PRINT_JSON, key, "%s", NULL);
}

/* One sample: a line of text, or one JSON document per line as watch. */
static int probe_print(const char *cmd, const struct opts *o, double t,
		       const struct kern_pct *lat, double noise,
		       const struct probe_est *e, double cost)
{
	struct printer pr, *p = &pr;

	print_init(p, stdout, o->json, o->pretty);
	print_open_object(p, NULL);
	print_double(p, PRINT_ANY, "time_s", "%8.1f", t);
	print_double(p, PRINT_ANY, "latency_ns", " %8.1f", lat->p50);
	print_double(p, PRINT_JSON, "latency_p50_ns", "%f", lat->p50);
	print_double(p, PRINT_ANY, "latency_p90_ns", " %8.1f", lat->p90);
	print_double(p, PRINT_ANY, "latency_p99_ns", " %8.1f", lat->p99);
	print_double(p, PRINT_ANY, "noise_ns", " %8.1f", noise);
	num(p, "estimated_bandwidth_gbps", " %9.2f", " %9s", e->valid,
	    e->bandwidth_gbps);
	num(p, "utilization", " %6.2f", " %6s", e->valid, e->utilization);
	num(p, "stress", " %6.2f", " %6s", e->valid, e->stress);
	print_string(p, PRINT_ANY, "label", " %-16s",
		     !e->valid ? NULL : e->label_known ?
		     verdict_label_name(e->label) : "unknown");
	print_double(p, PRINT_ANY, "cost_cpu_percent", " %6.3f", cost);
	print_bool(p, PRINT_JSON, "counter_free", "%s", true);
	print_string(p, PRINT_JSON, "estimate_reason", "%s",
		     e->valid ? NULL : e->reason);
	print_string(p, PRINT_JSON, "label_reason", "%s",
		     e->valid && !e->label_known ? e->label_reason : NULL);
	print_textf(p, "\n");
	print_close_object(p);
	return cli_output_end(cmd, p);
}

/*
 * The text header: where the chase runs, which curve, and how far that
 * curve's latency rises at all (an estimate is only as fine as the rise
 * is large against the probe's noise).
 */
static void probe_head(const struct probe_args *a,
		       const struct curve_socket *s, const char *why)
{
	char note[CURVE_WHY_SIZE];
	struct probe_est e;

	printf("counter-free probe on CPU %d, socket %u: ", sched_getcpu(),
	       a->socket);
	probe_place(s, CURVE_PF_UNCHANGED, 1, &e);
	if (s && !e.valid)
		probe_place(s, CURVE_PF_ON, 1, &e);
	if (!s)
		printf("no estimate (%s)\n", why);
	else if (e.valid)
		printf("curve idle %.1f ns, %.1f ns at its peak of %.2f GB/s, at most %.1f ns\n",
		       e.idle_latency_ns, e.peak_latency_ns, e.peak_gbps,
		       e.max_latency_ns);
	else
		printf("no estimate (%s)\n", e.reason);
	if (s && !curve_reliable(s))
		printf("%s: labels are \"unknown\"\n",
		       curve_quality_note(s, note, sizeof(note)));
	printf("%8s %8s %8s %8s %8s %9s %6s %6s %-16s %6s\n", "time_s",
	       "lat_ns", "p90", "p99", "noise_ns", "est_GB/s", "util", "stress",
	       "label", "cost%");
}

/* Pin to the chase CPU: the default is the curve's, else socket 0's first. */
static int probe_pin(const char *cmd, const struct probe_args *a,
		     const struct curve_socket *s)
{
	uint32_t cpu = a->have_cpu ? a->cpu : s ? s->chase_cpu : 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		if (a->have_cpu)
			return cli_usage(cmd, "option '--cpu': cannot run on CPU %u: %s",
					 cpu, strerror(errno));
		cli_err(cmd, "cannot pin the chase", "CPU %u: %s", cpu,
			strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	return MDC_EXIT_OK;
}

/*
 * The next sample's time, one interval after the last; when that is past
 * already (the machine was busy), one interval from now: a probe skips
 * the samples it missed rather than taking them in a burst.
 */
static void probe_next(struct timespec *next, uint32_t ms)
{
	struct timespec now;

	next->tv_nsec += (long)(ms % 1000) * 1000000L;
	next->tv_sec += ms / 1000 + next->tv_nsec / 1000000000L;
	next->tv_nsec %= 1000000000L;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > next->tv_sec ||
	    (now.tv_sec == next->tv_sec && now.tv_nsec > next->tv_nsec)) {
		*next = now;
		probe_next(next, ms);
	}
}

static int probe_loop(const char *cmd, const struct opts *o,
		      const struct probe_args *a,
		      const struct curve_socket *s, const char *why)
{
	double seg_ns[PROBE_SEGS], t0, cost, cost_sum = 0, cost_max = 0;
	struct probe_sample ps;
	struct timespec next;
	struct kern_fchase fc;
	uint64_t n = 0;
	int rc = MDC_EXIT_OK;

	if (kern_fchase_init(&fc, CALIB_CHASE_BYTES, PROBE_SEG, true, 11)) {
		cli_err(cmd, "cannot set up the chase", "out of memory");
		return MDC_EXIT_LOCAL;
	}
	if (!o->json)
		probe_head(a, s, why);
	/*
	 * A first chase after start-up pays for page faults, TLB fills and
	 * a clock ramping up: measured and thrown away, never reported.
	 */
	kern_fchase_run(&fc, PROBE_SEGS, &probe_stop, NULL, seg_ns, NULL);
	clock_gettime(CLOCK_MONOTONIC, &next);
	t0 = kern_now();
	while (!probe_stop && (!a->count || n < a->count)) {
		probe_sample_take(&fc, s, why, &probe_stop, &ps);
		cost = ps.cpu_sec * 1e5 / a->interval_ms;
		cost_sum += cost;
		cost_max = fmax(cost_max, cost);
		if (probe_stop)
			break;
		rc = probe_print(cmd, o, kern_now() - t0, &ps.pct, ps.noise_ns,
				 &ps.est, cost);
		if (rc)
			break;
		n++;
		if (a->count && n == a->count)
			break;
		probe_next(&next, a->interval_ms);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
				       NULL) == EINTR && !probe_stop)
			;
	}
	kern_fchase_free(&fc);
	if (!o->json && n && !rc)
		printf("probe: %llu samples of %d loads each; its own cost: %.3f %% of one CPU at a %u ms interval (at most %.3f %%)\n",
		       (unsigned long long)n, PROBE_SEGS * PROBE_SEG,
		       cost_sum / (double)n, a->interval_ms, cost_max);
	return rc;
}

int cmd_probe(const struct opts *gopts, int argc, char **argv)
{
	const char *cmd = argv[0];
	const struct curve_socket *s;
	struct cli_stop stop;
	char why[CURVE_WHY_SIZE] = "";
	struct probe_args a;
	struct opts o = *gopts;
	struct curve c;
	bool bad_file;
	int rc;

	rc = parse_args(&a, &o, argc, argv);
	if (rc)
		return rc < 0 ? MDC_EXIT_OK : rc;
	rc = probe_check_socket(cmd, &a);
	if (rc)
		return rc;
	s = probe_curve_find(a.curve, a.socket, &c, why, sizeof(why),
			     &bad_file);
	if (bad_file) {
		cli_err(cmd, "cannot read the curves", "%s", why);
		curve_free(&c);
		return MDC_EXIT_LOCAL;
	}
	rc = probe_pin(cmd, &a, s);
	if (rc) {
		curve_free(&c);
		return rc;
	}
	cli_stop_catch(&stop, &probe_stop);
	rc = probe_loop(cmd, &o, &a, s, why);
	cli_stop_release(&stop);
	curve_free(&c);
	return rc;
}
