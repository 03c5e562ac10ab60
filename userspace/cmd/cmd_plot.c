// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plot.c - "memdiagctl plot": the stored curves of one socket (a line
 * per mix and prefetcher state, the sustainable peak marked) and, from a
 * "watch -j" or "probe -j" recording, its samples on top and a bandwidth
 * and latency timeline; drawn by gnuplot into SVG and PNG.
 */

#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calib_show.h"
#include "cmd.h"
#include "curve.h"
#include "opts.h"
#include "parse.h"

void cmd_plot_usage(FILE *f)
{
	fputs("Usage: " PROG " plot [--curve FILE] [--socket N] [--samples FILE]\n"
	      "                     [-o|--output PREFIX] [--format LIST]\n"
	      "\n"
	      "Draw the stored bandwidth-latency curves of one socket with gnuplot:\n"
	      "one line per read/write mix and prefetcher state, starting at the\n"
	      "idle latency, the sustainable peak of each marked. With --samples, a\n"
	      "recording of '" PROG " -j watch' (DRAM GB/s against the load miss real\n"
	      "latency) or of '" PROG " -j probe' (estimated GB/s against the chased\n"
	      "latency) is drawn on top, and a second picture shows its bandwidth and\n"
	      "latency over time.\n"
	      "\n"
	      "Options:\n"
	      "  --curve FILE    the curves to draw (default: the stored ones)\n"
	      "  --socket N      the socket (default: the first in the file)\n"
	      "  --samples FILE  a watch -j or probe -j recording, one JSON object\n"
	      "                  per line\n"
	      "  -o, --output PREFIX  write PREFIX-curves.svg/.png and with --samples\n"
	      "                  PREFIX-timeline.svg/.png (default: memdiag)\n"
	      "  --format LIST   svg, png or svg,png (default svg,png)\n", f);
	cli_opts_usage(f, CLI_OPT_HELP, 18, NULL);
	fputs("\n"
	      "Exit status: 0 drawn; 1 bad option; 6 no curve, an unreadable\n"
	      "recording, or gnuplot missing or failing (install gnuplot-nox).\n",
	      f);
}

struct plot_args {
	const char *curve, *samples, *prefix;
	bool have_socket;
	uint32_t socket;
	bool svg, png;
};

/* One sample of a recording: bandwidth, latency, time. */
struct plot_sample {
	double gbps, ns, t;
};

/* What the pictures say beside the data. */
struct plot_view {
	const char *stale;	/* why the curve is stale, "" when it is not */
	bool estimated;		/* probe samples: bandwidth placed on the curve */
	double max_gbps, max_ns;	/* of the samples, for their ranges */
	double span_s;		/* from the first sample to the last */
};

enum { OPT_CURVE = 256, OPT_SOCKET, OPT_SAMPLES, OPT_FORMAT };

static const struct option plot_options[] = {
	{ "curve", required_argument, NULL, OPT_CURVE },
	{ "socket", required_argument, NULL, OPT_SOCKET },
	{ "samples", required_argument, NULL, OPT_SAMPLES },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 }
};

static int parse_args(struct plot_args *a, int argc, char **argv)
{
	struct cli_opts t;
	const char *cmd = argv[0];
	char err[160];
	uint64_t v;
	int c, rc;

	memset(a, 0, sizeof(*a));
	a->prefix = "memdiag";
	a->svg = a->png = true;
	cli_opts_init(&t, CLI_OPT_HELP, ":o:", plot_options);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		switch (c) {
		case OPT_CURVE:
			a->curve = optarg;
			break;
		case OPT_SOCKET:
			if (parse_uint(optarg, 0, UINT32_MAX, &v, err, sizeof(err)))
				return cli_usage(cmd, "option '--socket': %s", err);
			a->have_socket = true;
			a->socket = (uint32_t)v;
			break;
		case OPT_SAMPLES:
			a->samples = optarg;
			break;
		case OPT_FORMAT:
			a->svg = !strcmp(optarg, "svg") || !strcmp(optarg, "svg,png") ||
				 !strcmp(optarg, "png,svg");
			a->png = !strcmp(optarg, "png") || !strcmp(optarg, "svg,png") ||
				 !strcmp(optarg, "png,svg");
			if (!a->svg && !a->png)
				return cli_usage(cmd, "option '--format': '%s' is not svg, png or svg,png",
						 optarg);
			break;
		case 'o':
			if (!*optarg || strlen(optarg) > 400)
				return cli_usage(cmd, "option '-o': give a prefix of 1 to 400 characters");
			a->prefix = optarg;
			break;
		default:
			rc = cli_opts_common(cmd, c, argv,
					     NULL, cmd_plot_usage);
			if (rc != CLI_OPT_NEXT)
				return rc;	/* -1 after --help */
			break;
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	return MDC_EXIT_OK;
}

static bool get_num(struct json_object *o, const char *key, double *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) ||
	    (!json_object_is_type(x, json_type_double) &&
	     !json_object_is_type(x, json_type_int)))
		return false;
	*v = json_object_get_double(x);
	return isfinite(*v);
}

/*
 * The samples of @socket in a watch -j (total_gbps, load miss real
 * latency, time_ns) or probe -j (estimated bandwidth, chased latency,
 * time_s) recording; records without both numbers (an idle socket, a
 * probe without an estimate) are skipped and counted, and said.
 */
static int read_samples(const char *cmd, const char *path, uint32_t socket,
			struct plot_sample **out, size_t *n,
			struct plot_view *v)
{
	struct plot_sample s, *t;
	struct json_object *o;
	char line[8192];
	size_t lineno = 0, skipped = 0, probes = 0;
	double sock;
	FILE *f = fopen(path, "r");

	*out = NULL;
	*n = 0;
	if (!f) {
		cli_err(cmd, "cannot read the samples", "%s: %s", path,
			strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[strspn(line, " \t\r\n")] == 0)
			continue;
		o = json_tokener_parse(line);
		if (!o || !json_object_is_type(o, json_type_object)) {
			json_object_put(o);
			fclose(f);
			cli_err(cmd, "cannot read the samples",
				"%s:%zu: not a JSON object (record with '" PROG " -j watch' or '-j probe')",
				path, lineno);
			return MDC_EXIT_LOCAL;
		}
		if (get_num(o, "socket", &sock) && sock != socket) {
			json_object_put(o);
			continue;
		}
		if (json_object_object_get_ex(o, "estimated_bandwidth_gbps", NULL))
			probes++;
		if ((get_num(o, "total_gbps", &s.gbps) &&
		     get_num(o, "load_miss_real_latency_ns", &s.ns) &&
		     get_num(o, "time_ns", &s.t) && ((s.t /= 1e9), true)) ||
		    (get_num(o, "estimated_bandwidth_gbps", &s.gbps) &&
		     get_num(o, "latency_ns", &s.ns) && get_num(o, "time_s", &s.t))) {
			t = realloc(*out, (*n + 1) * sizeof(*t));
			if (!t) {
				json_object_put(o);
				fclose(f);
				cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
				return MDC_EXIT_LOCAL;
			}
			*out = t;
			t[(*n)++] = s;
			v->max_gbps = fmax(v->max_gbps, s.gbps);
			v->max_ns = fmax(v->max_ns, s.ns);
		} else {
			skipped++;
		}
		json_object_put(o);
	}
	fclose(f);
	v->estimated = probes > 0;
	if (*n)
		v->span_s = (*out)[*n - 1].t - (*out)[0].t;
	if (skipped)
		cli_err(cmd, "note", "%s: %zu of %zu records of socket %u skipped: without %s (%s)",
			path, skipped, skipped + *n, socket,
			v->estimated ? "an estimated bandwidth and a latency" :
			"a bandwidth and a latency",
			v->estimated ? "no curve, a stale one or a noisy sample" :
			"an idle socket or no counters");
	return MDC_EXIT_OK;
}

static int by_bandwidth(const void *a, const void *b)
{
	const struct curve_point *x = *(const struct curve_point *const *)a;
	const struct curve_point *y = *(const struct curve_point *const *)b;

	return x->bandwidth_gbps < y->bandwidth_gbps ? -1 :
	       x->bandwidth_gbps > y->bandwidth_gbps;
}

/*
 * A mix's points in bandwidth order (measured in order of intensity, a
 * bent-back point would draw a zig-zag), each with its latency's spread
 * over the repeats (cov x latency) for the error bars.
 */
static void write_points(FILE *f, const struct curve_mix *m)
{
	const struct curve_point *pt[64];
	size_t j, n = m->nr_points < 64 ? m->nr_points : 64;

	for (j = 0; j < n; j++)
		pt[j] = &m->points[j];
	qsort(pt, n, sizeof(pt[0]), by_bandwidth);
	for (j = 0; j < n; j++)
		fprintf(f, "%g %g %g\n", pt[j]->bandwidth_gbps,
			pt[j]->latency_ns, pt[j]->latency_ns * pt[j]->cov);
}

/* Each curve a block of the data file: the idle latency, then its points. */
static int write_data(const char *dir, const struct curve_socket *s,
		      const struct plot_sample *smp, size_t nsmp)
{
	char path[512];
	FILE *f, *g;
	size_t i;
	const struct curve_mix *m;

	snprintf(path, sizeof(path), "%s/curves.dat", dir);
	f = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/peaks.dat", dir);
	g = fopen(path, "w");
	if (!f || !g) {
		if (f)
			fclose(f);
		if (g)
			fclose(g);
		return -1;
	}
	for (i = 0; i < s->nr_mixes; i++) {
		m = &s->mixes[i];
		fprintf(f, "0 %g 0\n", s->idle_latency_ns);
		write_points(f, m);
		fprintf(f, "\n\n");
		fprintf(g, "%g %g\n", m->points[m->peak_index].bandwidth_gbps,
			m->points[m->peak_index].latency_ns);
	}
	fclose(g);
	if (fclose(f))
		return -1;
	if (!nsmp)
		return 0;
	snprintf(path, sizeof(path), "%s/samples.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	for (i = 0; i < nsmp; i++)
		fprintf(f, "%g %g %g\n", smp[i].gbps, smp[i].ns,
			smp[i].t - smp[0].t);
	return fclose(f) ? -1 : 0;
}

/* The gnuplot commands of one picture in one format. */
static void script_curves(FILE *f, const char *dir, const struct curve *c,
			  const struct curve_socket *s, bool samples,
			  const struct plot_view *v)
{
	const char *model = c->fp.v[CURVE_FP_CPU_MODEL_NAME];
	char buf[16], name[128];
	size_t i, k;

	snprintf(name, sizeof(name), "%s", model ? model : "unknown processor");
	for (k = 0; name[k]; k++)
		if (name[k] == '\'' || name[k] == '\\' || name[k] == '"')
			name[k] = ' ';
	fprintf(f, "set title \"socket %u, %s: %s%s%s\" noenhanced\n", s->socket,
		name, c->source == CURVE_SRC_KERNEL ?
		"counter-free (bytes counted by the traffic kernels)" :
		"the memory controllers' counters",
		v->stale[0] ? "\\nSTALE: " : "", v->stale);
	fprintf(f, "set xlabel \"DRAM bandwidth (GB/s)\\nerror bars: the latency spread over the repeats (CoV x latency)\" noenhanced\n"
		   "set ylabel 'pointer-chase latency (ns)'\n"
		   "set key outside right top noenhanced\nset grid\n"
		   "set xrange [0:*]\nset yrange [0:*]\nunset y2tics\nunset y2label\n"
		   );
	fprintf(f, "plot ");
	for (i = 0; i < s->nr_mixes; i++)
		fprintf(f, "'%s/curves.dat' index %zu using 1:2:3 with yerrorlines lw 2 pt 7 ps 0.6 title '%s, prefetch %s', ",
			dir, i, calib_mix_label(s->mixes[i].read_fraction, buf,
						sizeof(buf)),
			curve_pf_name(s->mixes[i].prefetch));
	fprintf(f, "'%s/peaks.dat' using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb 'black' title 'sustainable peak'",
		dir);
	if (samples)
		fprintf(f, ", '%s/samples.dat' using 1:2 with points pt 1 ps 1 lc rgb '#d62728' title '%s'",
			dir, v->estimated ?
			"probe samples (bandwidth estimated on this curve)" :
			"watch samples (bandwidth counted)");
	fprintf(f, "\n");
}

/*
 * The samples over time. The ranges are set from the data, not left to
 * gnuplot: an all-zero series would make it warn of an empty range.
 */
static void script_timeline(FILE *f, const char *dir,
			    const struct plot_view *v)
{
	const char *bw = v->estimated ?
		"estimated bandwidth (GB/s, placed on the curve)" :
		"DRAM bandwidth (GB/s, counted)";

	fprintf(f, "set title \"%s samples over time%s%s\" noenhanced\n"
		   "set xlabel 'time (s)'\nset ylabel '%s' noenhanced\n"
		   "set y2label 'latency (ns)'\nset y2tics\nset ytics nomirror\n"
		   "set xrange [0:%g]\nset yrange [0:%g]\nset y2range [0:%g]\nset key outside right top noenhanced\nset grid\n",
		v->estimated ? "probe" : "watch",
		v->stale[0] && v->estimated ? "\\nSTALE curve: " : "",
		v->estimated ? v->stale : "", bw,
		v->span_s > 0 ? v->span_s : 1, v->max_gbps > 0 ? v->max_gbps * 1.1 : 1,
		v->max_ns > 0 ? v->max_ns * 1.1 : 1);
	fprintf(f, "plot '%s/samples.dat' using 3:1 with linespoints pt 7 ps 0.5 title '%s', '%s/samples.dat' using 3:2 axes x1y2 with linespoints pt 5 ps 0.5 title 'latency'\n",
		dir, v->estimated ? "estimated bandwidth" : "bandwidth", dir);
}

/* Run gnuplot on @script: an exit code, reported. */
static int run_gnuplot(const char *cmd, const char *script)
{
	int st;
	pid_t pid = fork();

	if (pid < 0) {
		cli_err(cmd, "cannot run gnuplot", "%s", strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	if (!pid) {
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		cli_err(cmd, "gnuplot failed",
			WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
			"gnuplot is not installed: apt-get install gnuplot-nox" :
			"see its messages above");
		return MDC_EXIT_LOCAL;
	}
	return MDC_EXIT_OK;
}

static int draw(const char *cmd, const struct plot_args *a, const char *dir,
		const struct curve *c, const struct curve_socket *s,
		bool samples, const struct plot_view *v)
{
	static const char *const ext[2] = { "svg", "png" };
	static const char *const term[2] = {
		"svg size 960,600 dynamic font 'sans,12'",
		"pngcairo size 960,600 font 'sans,10'",
	};
	char script[512], done[2048] = "";
	unsigned int k;
	size_t len;
	FILE *f;
	int rc;

	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	f = fopen(script, "w");
	if (!f) {
		cli_err(cmd, "cannot write the gnuplot script", "%s", strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	for (k = 0; k < 2; k++) {
		if (!(k ? a->png : a->svg))
			continue;
		fprintf(f, "set terminal %s\nset output '%s-curves.%s'\n",
			term[k], a->prefix, ext[k]);
		script_curves(f, dir, c, s, samples, v);
		len = strlen(done);
		snprintf(done + len, sizeof(done) - len, "%s-curves.%s\n",
			 a->prefix, ext[k]);
		if (!samples)
			continue;
		fprintf(f, "set output '%s-timeline.%s'\n", a->prefix, ext[k]);
		script_timeline(f, dir, v);
		len = strlen(done);
		snprintf(done + len, sizeof(done) - len, "%s-timeline.%s\n",
			 a->prefix, ext[k]);
	}
	fclose(f);
	rc = run_gnuplot(cmd, script);
	/* what was written, once it was */
	if (!rc)
		fputs(done, stdout);
	return rc;
}

int cmd_plot(const struct opts *o, int argc, char **argv)
{
	const char *cmd = argv[0];
	char used[512], why[CURVE_WHY_SIZE], dir[] = "/tmp/memdiag-plot.XXXXXX";
	char stale[CURVE_WHY_SIZE];
	struct plot_view view = { 0 };
	size_t k;
	const struct curve_socket *s;
	struct plot_sample *smp = NULL;
	struct plot_args a;
	struct curve c;
	size_t nsmp = 0;
	int rc;

	(void)o;
	rc = parse_args(&a, argc, argv);
	if (rc)
		return rc < 0 ? MDC_EXIT_OK : rc;
	if (strchr(a.prefix, '\'')) /* it goes into gnuplot's quotes */
		return cli_usage(cmd, "option '-o': no quote in the prefix, please");
	if (curve_find_load(a.curve, &c, used, sizeof(used), why, sizeof(why))) {
		curve_free(&c);
		cli_err(cmd, "nothing to draw", "%s", why);
		return MDC_EXIT_LOCAL;
	}
	s = a.have_socket ? curve_socket_find(&c, a.socket) :
	    c.nr_sockets ? &c.sockets[0] : NULL;
	if (!s) {
		cli_err(cmd, "no curve to draw", "%s has none for socket %u",
			used, a.socket);
		curve_free(&c);
		return MDC_EXIT_LOCAL;
	}
	if (curve_stale(&c, stale, sizeof(stale)))
		cli_err(cmd, "note", "%s: %s: its numbers may not be this machine's now; the pictures say so",
			used, stale);
	else
		stale[0] = '\0';
	/* it goes into gnuplot's double quotes, which read escapes */
	for (k = 0; stale[k]; k++)
		if (stale[k] == '\'' || stale[k] == '\\' || stale[k] == '"')
			stale[k] = ' ';
	view.stale = stale;
	if (a.samples)
		rc = read_samples(cmd, a.samples, s->socket, &smp, &nsmp, &view);
	if (!rc && !mkdtemp(dir)) {
		cli_err(cmd, "cannot make a temporary directory", "%s",
			strerror(errno));
		rc = MDC_EXIT_LOCAL;
	} else if (!rc) {
		if (write_data(dir, s, smp, nsmp)) {
			cli_err(cmd, "cannot write the plot data", "%s: %s", dir,
				strerror(errno));
			rc = MDC_EXIT_LOCAL;
		} else {
			rc = draw(cmd, &a, dir, &c, s, nsmp > 0, &view);
		}
		/* the script and the data only lived for gnuplot */
		snprintf(used, sizeof(used), "rm -rf '%s'", dir);
		if (system(used))
			rc = rc ? rc : MDC_EXIT_LOCAL;
	}
	free(smp);
	curve_free(&c);
	return rc;
}
