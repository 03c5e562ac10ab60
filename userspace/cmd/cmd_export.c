// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_export.c - "memdiagctl export": one session and one subscription to
 * the module's snapshots, turned into Prometheus metrics served over HTTP
 * (libmicrohttpd) and/or written to a node_exporter textfile directory.
 *
 * The sampler (this thread) renders the metrics after each snapshot and
 * publishes the text; a scrape only copies the last text under a mutex, so
 * scrapes never ask the module for anything, any number may run at once,
 * and a slow client holds up nobody (libmicrohttpd sends from its copy).
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cmd.h"
#include "conn.h"
#include "export_daemon.h"
#include "host_reach.h"
#include "opts.h"
#include "parse.h"
#include "snapshot.h"

#define EXPORT_DEFAULT_LISTEN "127.0.0.1:9473"
#define EXPORT_DEFAULT_TOP 10	/* groups per socket */

static enum MHD_Result respond(struct MHD_Connection *c, unsigned int status,
			       const char *type, const char *body, size_t len)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)body,
					    MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* libmicrohttpd's thread: GET /metrics copies the published text. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **ctx)
{
	static const char index[] =
		"<html><body><a href=\"/metrics\">memdiag metrics</a></body></html>\n";
	struct exporter *x = cls;
	enum MHD_Result ret;

	(void)version;
	(void)upload;
	(void)upload_size;
	(void)ctx;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return respond(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			       "only GET\n", 9);
	if (!strcmp(url, "/"))
		return respond(c, MHD_HTTP_OK, "text/html", index,
			       sizeof(index) - 1);
	if (strcmp(url, "/metrics"))
		return respond(c, MHD_HTTP_NOT_FOUND, "text/plain",
			       "not found: try /metrics\n", 24);
	pthread_mutex_lock(&x->lock);
	ret = respond(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8",
		      x->text ? x->text : "", x->text ? x->len : 0);
	pthread_mutex_unlock(&x->lock);
	return ret;
}

/* ADDR:PORT, [ADDR6]:PORT or :PORT (every address) to a socket address. */
static int parse_listen(const char *arg, struct addrinfo **ai, char *err,
			size_t size)
{
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
	};
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon = strrchr(arg, ':');
	char perr[128];
	uint64_t port;
	size_t hl;
	int rc;

	if (!colon || !colon[1]) {
		snprintf(err, size, "'%s' is not ADDR:PORT (e.g. 127.0.0.1:9473, [::1]:9473, :9473)", arg);
		return -1;
	}
	/*
	 * getaddrinfo() takes any number as a service and keeps its low 16
	 * bits (99999 listens on 34463): check the range first. Port 0
	 * would listen on a port nobody was told.
	 */
	if (parse_uint(colon + 1, 1, 65535, &port, perr, sizeof(perr)) < 0) {
		snprintf(err, size, "port %s", perr);
		return -1;
	}
	hl = (size_t)(colon - arg);
	if (hl >= 2 && arg[0] == '[' && arg[hl - 1] == ']') {
		arg++;
		hl -= 2;
	}
	if (hl >= sizeof(host)) {
		snprintf(err, size, "'%.*s' is not an IP address", (int)hl, arg);
		return -1;
	}
	memcpy(host, arg, hl);
	host[hl] = '\0';
	rc = getaddrinfo(hl ? host : NULL, colon + 1, &hints, ai);
	if (rc) {
		snprintf(err, size, "'%s': %s (an IP address and a port number)",
			 arg, gai_strerror(rc));
		return -1;
	}
	return 0;
}

static struct MHD_Daemon *start_http(struct exporter *x, struct addrinfo *ai)
{
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;

	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* one polling thread, non-blocking sends: slow clients just wait */
	return MHD_start_daemon(flags, 0, NULL, NULL, handle, x,
				MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				MHD_OPTION_CONNECTION_LIMIT, 64u,
				MHD_OPTION_CONNECTION_TIMEOUT, 10u,
				MHD_OPTION_END);
}

void cmd_export_usage(FILE *f)
{
	fputs("Usage: " PROG " export [--listen ADDR:PORT] [--textfile DIR]\n"
	      "                         [--interval DUR] [--threshold CYCLES]\n"
	      "                         [--curve FILE] [--probe] [--df-channels LIST]\n"
	      "                         [--top K]\n"
	      "\n"
	      "Serve memdiag's counters as Prometheus metrics on\n"
	      "http://ADDR:PORT/metrics, and/or write them to DIR/" EXPORT_TEXTFILE "\n"
	      "for node_exporter's textfile collector (atomically: a temporary file\n"
	      "renamed over it), after every snapshot, until SIGINT or SIGTERM.\n"
	      "One session and one subscription to the module's snapshots serve\n"
	      "every scrape: a scrape never asks the module for anything. When the\n"
	      "module goes away (rmmod) memdiag_up is 0 and the exporter connects\n"
	      "again when it is back. The metrics are in memdiagctl(8), EXPORT.\n"
	      "\n"
	      "Where the module cannot be loaded (a VM), --probe serves the\n"
	      "counter-free probe instead ('" PROG " probe'): its measured latency,\n"
	      "and the DRAM bandwidth, utilization and label that latency implies\n"
	      "on the calibrated curve, as memdiag_estimated_* series with the\n"
	      "curve's age, and memdiag_probe_mode 1 (no memdiag_up). Its cost:\n"
	      "64 MiB of memory and about a millisecond of one CPU per interval,\n"
	      "served as memdiag_probe_cpu_seconds_total.\n"
	      "\n"
	      "It listens on 127.0.0.1 only unless told otherwise: the metrics say\n"
	      "what this machine's memory is doing, and there is no authentication.\n"
	      "To let a Prometheus server on another host scrape it, give --listen\n"
	      "an address of this host and allow only that server in the firewall.\n"
	      "\n"
	      "Options:\n"
	      "  -l, --listen ADDR:PORT  serve HTTP here: 127.0.0.1:9473, [::1]:9473,\n"
	      "                          or :9473 for every address (default\n"
	      "                          " EXPORT_DEFAULT_LISTEN ", unless only --textfile is given)\n"
	      "  -f, --textfile DIR      write DIR/" EXPORT_TEXTFILE " after every snapshot\n"
	      "  -i, --interval DUR      the session's interval (default 1s; 1ms to 60s)\n"
	      "  -t, --threshold CYCLES  also serve memdiag_saturated: 1 when the load\n"
	      "                          miss real latency exceeds CYCLES (default:\n"
	      "                          none; the verdict on the calibrated curve\n"
	      "                          is the signal, as in watch)\n"
	      "  -C, --curve FILE        the calibrated curve for the verdict metrics\n"
	      "                          (default: the user's, then\n"
	      "                          /var/lib/memdiag/curve.json; none: no verdict);\n"
	      "                          a FILE missing, truncated or no curve file is\n"
	      "                          an error naming it (exit 6), before the module\n"
	      "                          is looked for or the port opened\n"
	      "      --probe             serve the counter-free probe's estimates, not\n"
	      "                          the module's counters (interval at least\n"
	      "                          50ms)\n"
	      "      --df-channels LIST  AMD Zen 2/3: count these DRAM channels (0-3,\n"
	      "                          0,2,5; at most 4) all the time, not in turns:\n"
	      "                          theirs exact, the others unmeasured, no\n"
	      "                          memdiag_dram_rdwr_bytes_total\n"
	      "      --top K             per socket the K groups (pods, services;\n"
	      "                          resctrl's MBM, else the module's core\n"
	      "                          estimate) with the\n"
	      "                          most bytes in the last interval as\n"
	      "                          memdiag_group_dram_bytes_total, with\n"
	      "                          group=\"other\" and group=\"unattributed\"\n"
	      "                          (default 10, at most 100; 0: none); as root\n"
	      "                          it attaches threads as top does\n",
	      f);
	cli_opts_usage(f, CLI_OPT_HELP, 26, NULL);
}

/*
 * The calibrated curve for the verdict: a --curve FILE that cannot be read
 * is an error naming it (exit 6, as in every command that reads a curve);
 * without --curve, no file (or a stale one) only means no verdict, with
 * the reason in memdiag_verdict_available. Which curve serves is said once
 * the module is read (export_conn.c): without the module it cannot help.
 */
static int load_curve(struct exporter *x)
{
	char used[PATH_MAX], why[CURVE_WHY_SIZE];
	struct curve_fp now;

	if (curve_find_load(x->curve_path, &x->curve, used, sizeof(used), why,
			    sizeof(why)) < 0) {
		curve_free(&x->curve);
		if (x->curve_path) {
			cli_err("export", "cannot read the curves", "%s", why);
			return MDC_EXIT_LOCAL;
		}
		snprintf(x->st.curve_reason, sizeof(x->st.curve_reason), "%s", why);
		snprintf(x->curve_note, sizeof(x->curve_note), "no verdict: %s", why);
		return MDC_EXIT_OK;
	}
	curve_fp_collect(&now, NULL);
	if (curve_fp_compare(&x->curve.fp, &now, why, sizeof(why)) != 0) {
		snprintf(x->st.curve_reason, sizeof(x->st.curve_reason), "%s", why);
		snprintf(x->curve_note, sizeof(x->curve_note),
			 "no verdict from %.100s: %s", used, why);
	} else {
		x->st.curve = &x->curve;
		snprintf(x->curve_note, sizeof(x->curve_note),
			 "verdicts from the curve %.200s", used);
	}
	curve_fp_free(&now);
	return MDC_EXIT_OK;
}

/*
 * On a host that can never load the module (host_reach.h) waiting for it
 * serves only memdiag_up 0 forever: say so and what to run instead. Where
 * it can be loaded the exporter waits for it (systemd may start it first).
 */
static int module_reachable(void)
{
	struct cli_error err;

	if (!host_reach()->no_modules)
		return MDC_EXIT_OK;
	cli_error_init(&err);
	md_not_loaded(&err);
	snprintf(err.hint, sizeof(err.hint),
		 "serve the counter-free probe's estimates instead: " PROG " export --probe");
	return cli_report("export", &err);
}

static const struct option export_options[] = {
	{ "listen", required_argument, NULL, 'l' },
	{ "textfile", required_argument, NULL, 'f' },
	{ "interval", required_argument, NULL, 'i' },
	{ "threshold", required_argument, NULL, 't' },
	{ "curve", required_argument, NULL, 'C' },
	{ "probe", no_argument, NULL, 'P' },
	{ "df-channels", required_argument, NULL, 'D' },
	{ "top", required_argument, NULL, 'k' },
	{ NULL, 0, NULL, 0 }
};

static int parse_options(struct exporter *x, int argc, char **argv)
{
	struct cli_opts t;
	struct stat sb;
	char err[200];
	uint64_t top;
	int c, rc;

	x->interval_ms = WATCH_DEFAULT_INTERVAL_MS;
	x->threshold = 0;	/* none unless asked for, as watch */
	x->top = EXPORT_DEFAULT_TOP;
	cli_opts_init(&t, CLI_OPT_HELP, ":l:f:i:t:C:k:", export_options);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		switch (c) {
		case 'l':
			x->listen = optarg;
			break;
		case 'f':
			if (stat(optarg, &sb) < 0 || !S_ISDIR(sb.st_mode) ||
			    access(optarg, W_OK) < 0)
				return cli_usage("export",
						 "option '--textfile': '%s' is not a directory this user can write to",
						 optarg);
			x->textfile_dir = optarg;
			break;
		case 'i':
			if (parse_interval_ms(optarg, &x->interval_ms, err,
					      sizeof(err)) < 0)
				return cli_usage("export", "option '--interval': %s", err);
			break;
		case 't':
			if (parse_cycles(optarg, &x->threshold, err, sizeof(err)) < 0)
				return cli_usage("export", "option '--threshold': %s", err);
			break;
		case 'C':
			x->curve_path = optarg;
			break;
		case 'P':
			x->probe = true;
			break;
		case 'k':
			if (parse_uint(optarg, 0, EXPORT_GROUPS_MAX_K, &top, err,
				       sizeof(err)) < 0)
				return cli_usage("export", "option '--top': %s", err);
			x->top = (size_t)top;
			break;
		case 'D':
			if (parse_channel_set(optarg, 32, &x->df_channels, err,
					      sizeof(err)) < 0)
				return cli_usage("export", "option '--df-channels': %s", err);
			break;
		default:
			rc = cli_opts_common("export", c, argv,
					     NULL, cmd_export_usage);
			if (rc != CLI_OPT_NEXT)
				return rc;	/* -1 after --help */
			break;
		}
	}
	if (optind < argc)
		return cli_usage("export", "unexpected argument '%s'", argv[optind]);
	if (!x->listen && !x->textfile_dir)
		x->listen = EXPORT_DEFAULT_LISTEN;
	/* a chase takes a few ms: 50 ms apart at the most often */
	if (x->probe && x->interval_ms < 50)
		return cli_usage("export", "option '--interval': %u ms is below the 50ms --probe needs between its chases",
				 x->interval_ms);
	if (x->probe && x->df_channels)
		return cli_usage("export", "option '--df-channels': needs the module's counters, not --probe");
	if (x->probe && x->threshold > 0)
		return cli_usage("export", "option '--threshold': needs the module's latency counters, not --probe");
	return MDC_EXIT_OK;
}

int cmd_export(const struct opts *gopts, int argc, char **argv)
{
	struct exporter x = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct MHD_Daemon *d = NULL;
	struct addrinfo *ai = NULL;
	char err[300];
	sigset_t mask;
	int rc, sfd;

	(void)gopts;
	rc = parse_options(&x, argc, argv);
	if (rc < 0)
		return MDC_EXIT_OK;	/* --help */
	if (rc != MDC_EXIT_OK)
		return rc;
	if (x.listen && parse_listen(x.listen, &ai, err, sizeof(err)) < 0)
		return cli_usage("export", "option '--listen': %s", err);

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGPIPE);
	if (pthread_sigmask(SIG_BLOCK, &mask, NULL) != 0 ||
	    (sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		cli_err("export", "cannot set up signal handling", "%s",
			strerror(errno));
		freeaddrinfo(ai);
		return MDC_EXIT_LOCAL;
	}
	export_init(&x.st, (uint64_t)x.interval_ms * 1000000, x.threshold);
	/* a bad --curve FILE is the caller's mistake: said before the module */
	rc = x.probe ? export_probe_curve(&x) : load_curve(&x);
	if (rc == MDC_EXIT_OK && !x.probe)
		rc = module_reachable();
	if (rc != MDC_EXIT_OK)
		goto out;
	if (!x.probe) {
		/* as root it attaches threads; the packaged unit reads only */
		export_groups_open(&x.groups, x.top, !geteuid());
	}
	export_publish(&x);
	if (ai) {
		/* threads started now inherit the blocked signals */
		d = start_http(&x, ai);
		if (!d) {
			cli_err("export", "cannot listen", "on %s: %s (option '--listen')",
				x.listen, strerror(errno ? errno : EADDRINUSE));
			rc = MDC_EXIT_LOCAL;
			goto out;
		}
		cli_err("export", "note", "serving http://%s/metrics", x.listen);
	}
	rc = x.probe ? export_probe_run(&x, sfd) : export_run(&x, sfd);
	if (d)
		MHD_stop_daemon(d);
out:
	export_groups_close(&x.groups);
	freeaddrinfo(ai);
	close(sfd);
	free(x.text);
	curve_free(&x.curve);
	return rc;
}
