// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - "memdiagctl run": the micro-kernels of kernels/ (memory read
 * benchmark with NOP delays, STREAM, pointer-chase latency) on pinned
 * threads, N repetitions summarized as median, min, max and CoV.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kernels/kernel.h"
#include "cmd.h"
#include "cpulist.h"
#include "parse.h"

#define RUN_DEFAULT_REPS 5
#define RUN_MAX_REPS 1000
#define RUN_MAX_SIZES 16
#define RUN_MIN_SIZE 4096ull
#define RUN_MAX_SIZE (1ull << 40)
#define RUN_MAX_DELAY 1000000000ull

enum run_kernel { K_READ_DELAY, K_STREAM, K_LATENCY, K_NR };

static const char *const kernel_name[K_NR] = {
	"read-delay", "stream", "latency"
};

/* read-delay: far larger than any LLC here; stream: per array */
static const uint64_t default_size[K_NR] = { 1ull << 30, 256ull << 20, 0 };
static const uint64_t default_lat_sizes[] = {
	16ull << 10, 256ull << 10, 8ull << 20, 256ull << 20
};

static const char counters_text[] =
	"counters: unavailable (not integrated with the memdiag module yet)\n";

void cmd_run_usage(FILE *f)
{
	fputs("Usage: " PROG " run KERNEL [--threads N] [--cpus LIST] [--size SIZE]\n"
	      "                      [--delay N] [--reps N] [--hugepages]\n"
	      "                      [-j|--json] [-p|--pretty]\n"
	      "\n"
	      "Run a memory micro-kernel on pinned threads, each on memory it\n"
	      "touched first, --reps times, and print the median, min and max\n"
	      "bandwidth or latency and the coefficient of variation (stddev/mean).\n"
	      "Needs no module: the counters are not integrated with it yet.\n"
	      "\n"
	      "Kernels:\n"
	      "  read-delay  the memory read benchmark of Helm & Taura: reads the\n"
	      "              first 8 bytes of each 64-byte record, --delay NOPs\n"
	      "              after every four; GB/s counts 64 bytes per record\n"
	      "              (--size: the whole array, split among the threads;\n"
	      "              default 1G)\n"
	      "  stream      STREAM copy, scale, add, triad, verified; gbps counts\n"
	      "              the bytes the kernel names (16 or 24 per element),\n"
	      "              traffic_gbps adds the write-allocate (24 or 32)\n"
	      "              (--size: each of the three arrays, split among the\n"
	      "              threads; default 256M)\n"
	      "  latency     pointer chase over a random cycle of 64-byte lines:\n"
	      "              ns and TSC cycles per load, per working-set size\n"
	      "              (--size: a comma list, per thread; default\n"
	      "              16K,256K,8M,256M)\n"
	      "\n"
	      "Options:\n"
	      "  -t, --threads N   threads (default: the number of --cpus, or 1)\n"
	      "  -c, --cpus LIST   CPUs to pin the threads to, e.g. 0-3,8 (default:\n"
	      "                    the first CPUs this process may run on)\n"
	      "  -s, --size SIZE   bytes, or a number with K, M or G (64K, 1M, 1G)\n"
	      "  -d, --delay N     NOPs after every four reads (read-delay only;\n"
	      "                    default 0)\n"
	      "  -r, --reps N      repetitions (default 5)\n"
	      "  -H, --hugepages   ask for transparent hugepages (MADV_HUGEPAGE)\n"
	      "  -j, --json        print one JSON document\n"
	      "  -p, --pretty      indent the JSON output (implies --json)\n"
	      "\n"
	      "GB/s are 10^9 bytes/s. Progress goes to stderr only when stdout is\n"
	      "a terminal.\n",
	      f);
}

static const struct option run_options[] = {
	{ "threads", required_argument, NULL, 't' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "size", required_argument, NULL, 's' },
	{ "delay", required_argument, NULL, 'd' },
	{ "reps", required_argument, NULL, 'r' },
	{ "hugepages", no_argument, NULL, 'H' },
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct run_args {
	enum run_kernel kernel;
	uint64_t threads;
	bool have_threads;
	int *cpu;		/* --cpus, then the threads' CPUs */
	size_t nr_cpu;
	bool have_cpus;
	uint64_t size[RUN_MAX_SIZES];
	size_t nr_size;
	uint64_t delay;
	bool have_delay;
	uint64_t reps;
	bool hugepages;
};

/* "64K", "1M", "1G" (binary multiples) or plain bytes. */
static int parse_size(const char *s, uint64_t *v, char *err, size_t size)
{
	uint64_t n = 0, mul = 1;
	size_t i;

	for (i = 0; s[i] >= '0' && s[i] <= '9'; i++) {
		if (n > RUN_MAX_SIZE)	/* out of range anyway; no wrap */
			continue;
		n = n * 10 + (uint64_t)(s[i] - '0');
	}
	if (i && s[i] && !s[i + 1]) {
		switch (s[i]) {
		case 'k': case 'K':
			mul = 1ull << 10;
			break;
		case 'm': case 'M':
			mul = 1ull << 20;
			break;
		case 'g': case 'G':
			mul = 1ull << 30;
			break;
		default:
			mul = 0;
		}
		i++;
	}
	if (!i || s[i] || !mul) {
		snprintf(err, size,
			 "'%s' is not a size: use bytes or a number with K, M or G (64K, 1M, 1G)",
			 s);
		return -1;
	}
	if (n > RUN_MAX_SIZE / mul || n * mul < RUN_MIN_SIZE ||
	    n * mul > RUN_MAX_SIZE) {
		snprintf(err, size, "'%s' is out of range: it must be from 4K to 1024G",
			 s);
		return -1;
	}
	*v = n * mul;
	return 0;
}

/* A comma list of sizes into a->size. */
static int parse_sizes(const char *s, struct run_args *a, char *err,
		       size_t size)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int rc = 0;

	if (!copy) {
		snprintf(err, size, "out of memory");
		return -1;
	}
	a->nr_size = 0;
	if (!*s || s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,")) {
		snprintf(err, size, "'%s' is not a list of sizes", s);
		rc = -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		if (a->nr_size == RUN_MAX_SIZES) {
			snprintf(err, size, "more than %d sizes", RUN_MAX_SIZES);
			rc = -1;
		} else {
			rc = parse_size(tok, &a->size[a->nr_size++], err, size);
		}
	}
	free(copy);
	return rc;
}

/* "0-3,8" into a->cpu; each must be a CPU this process may run on. */
static int parse_cpus(const char *s, struct run_args *a, char *err,
		      size_t size, const cpu_set_t *allowed)
{
	const char *q = s;
	uint64_t lo, hi, c;
	char *end;
	size_t i;

	a->nr_cpu = 0;
	free(a->cpu);
	a->cpu = calloc(CPU_SETSIZE, sizeof(*a->cpu));
	if (!a->cpu) {
		snprintf(err, size, "out of memory");
		return -1;
	}
	for (;;) {
		if (*q < '0' || *q > '9')
			goto bad;
		errno = 0;
		lo = strtoull(q, &end, 10);
		hi = lo;
		q = end;
		if (*q == '-') {
			q++;
			if (*q < '0' || *q > '9')
				goto bad;
			hi = strtoull(q, &end, 10);
			q = end;
		}
		if (errno || hi < lo)
			goto bad;
		for (c = lo; c <= hi; c++) {
			if (c >= CPU_SETSIZE || !CPU_ISSET((int)c, allowed)) {
				snprintf(err, size,
					 "CPU %" PRIu64 " is not online or not allowed for this process",
					 c);
				return -1;
			}
			for (i = 0; i < a->nr_cpu; i++)
				if (a->cpu[i] == (int)c) {
					snprintf(err, size,
						 "CPU %" PRIu64 " is listed twice", c);
					return -1;
				}
			a->cpu[a->nr_cpu++] = (int)c;
		}
		if (!*q)
			return 0;
		if (*q++ != ',')
			goto bad;
	}
bad:
	snprintf(err, size, "'%s' is not a CPU list (like 0-3,8)", s);
	return -1;
}

static int parse_args(struct run_args *a, struct opts *o, int argc,
		      char **argv)
{
	const char *cmd = "run";
	const char *kname;
	cpu_set_t allowed;
	long online;
	char err[200];
	int c, k, i;

	memset(a, 0, sizeof(*a));
	a->reps = RUN_DEFAULT_REPS;
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
		cli_err(cmd, "cannot read the CPUs this process may use", "%s",
			strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:c:s:d:r:Hjph", run_options,
				NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_uint(optarg, 1, KERN_MAX_THREADS, &a->threads,
				       err, sizeof(err)) < 0)
				return cli_usage(cmd, "option '--threads': %s", err);
			a->have_threads = true;
			break;
		case 'c':
			if (parse_cpus(optarg, a, err, sizeof(err), &allowed) < 0)
				return cli_usage(cmd, "option '--cpus': %s", err);
			a->have_cpus = true;
			break;
		case 's':
			if (parse_sizes(optarg, a, err, sizeof(err)) < 0)
				return cli_usage(cmd, "option '--size': %s", err);
			break;
		case 'd':
			if (parse_uint(optarg, 0, RUN_MAX_DELAY, &a->delay, err,
				       sizeof(err)) < 0)
				return cli_usage(cmd, "option '--delay': %s", err);
			a->have_delay = true;
			break;
		case 'r':
			if (parse_uint(optarg, 1, RUN_MAX_REPS, &a->reps, err,
				       sizeof(err)) < 0)
				return cli_usage(cmd, "option '--reps': %s", err);
			break;
		case 'H':
			a->hugepages = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'p':
			o->json = o->pretty = true;
			break;
		case 'h':
			cmd_run_usage(stdout);
			return -1;
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage(cmd, "no kernel given: read-delay, stream or latency");
	kname = argv[optind++];
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	for (k = 0; k < K_NR && strcmp(kname, kernel_name[k]); k++)
		;
	if (k == K_NR)
		return cli_usage(cmd, "unknown kernel '%s': use read-delay, stream or latency",
				 kname);
	a->kernel = (enum run_kernel)k;
	if (a->have_delay && a->kernel != K_READ_DELAY)
		return cli_usage(cmd, "option '--delay': kernel '%s' has no delay (only read-delay has)",
				 kname);
	if (a->nr_size > 1 && a->kernel != K_LATENCY)
		return cli_usage(cmd, "option '--size': kernel '%s' takes one size (only latency takes a list)",
				 kname);
	if (!a->nr_size) {
		if (a->kernel == K_LATENCY) {
			for (i = 0; i < 4; i++)
				a->size[i] = default_lat_sizes[i];
			a->nr_size = 4;
		} else {
			a->size[0] = default_size[a->kernel];
			a->nr_size = 1;
		}
	}
	online = sysconf(_SC_NPROCESSORS_ONLN);
	if (a->have_threads && online > 0 && a->threads > (uint64_t)online)
		return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the %ld online CPUs",
				 a->threads, online);
	if (a->have_threads && a->have_cpus && a->threads > a->nr_cpu)
		return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the CPUs --cpus lists (%zu)",
				 a->threads, a->nr_cpu);
	if (!a->have_threads)
		a->threads = a->have_cpus ? a->nr_cpu : 1;
	if (!a->have_cpus) {
		a->cpu = calloc(a->threads, sizeof(*a->cpu));
		if (!a->cpu) {
			cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
			return MDC_EXIT_LOCAL;
		}
		for (i = 0; i < CPU_SETSIZE && a->nr_cpu < a->threads; i++)
			if (CPU_ISSET(i, &allowed))
				a->cpu[a->nr_cpu++] = i;
		if (a->nr_cpu < a->threads)
			return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the CPUs this process may use (%zu)",
					 a->threads, a->nr_cpu);
	}
	a->nr_cpu = a->threads;
	return MDC_EXIT_OK;
}

static void progress(void *arg, unsigned int rep, unsigned int reps)
{
	fprintf(stderr, "\r%s: repetition %u/%u%s", (const char *)arg, rep,
		reps, rep == reps ? "\r\033[K" : "");
}

/* "64M" when it is a whole multiple, else bytes. */
static void fmt_size(char *buf, size_t size, uint64_t v)
{
	if (v >= (1ull << 30) && !(v % (1ull << 30)))
		snprintf(buf, size, "%" PRIu64 "G", v >> 30);
	else if (v >= (1ull << 20) && !(v % (1ull << 20)))
		snprintf(buf, size, "%" PRIu64 "M", v >> 20);
	else if (v >= (1ull << 10) && !(v % (1ull << 10)))
		snprintf(buf, size, "%" PRIu64 "K", v >> 10);
	else
		snprintf(buf, size, "%" PRIu64, v);
}

static void print_head(struct printer *p, const struct run_args *a)
{
	uint32_t cpu[KERN_MAX_THREADS];
	char list[256];
	size_t i;

	for (i = 0; i < a->nr_cpu; i++)
		cpu[i] = (uint32_t)a->cpu[i];
	cpulist_format(list, sizeof(list), cpu, a->nr_cpu);
	print_open_object(p, NULL);
	print_string(p, PRINT_ANY, "kernel", "kernel %s", kernel_name[a->kernel]);
	print_u64(p, PRINT_ANY, "threads", ", %" PRIu64 " thread", a->threads);
	print_textf(p, "%s", a->threads == 1 ? "" : "s");
	print_string(p, PRINT_TEXT, NULL, " on CPU %s", list);
	print_open_array(p, "cpus");
	for (i = 0; i < a->nr_cpu; i++)
		print_uint(p, PRINT_JSON, NULL, "%u", cpu[i]);
	print_close_array(p);
	print_u64(p, PRINT_ANY, "reps", ", %" PRIu64 " rep", a->reps);
	print_textf(p, "%s", a->reps == 1 ? "" : "s");
	print_bool(p, PRINT_ANY, "hugepages", ", hugepages: %s", a->hugepages);
	if (a->kernel == K_READ_DELAY)
		print_u64(p, PRINT_ANY, "delay", ", delay %" PRIu64 " NOPs", a->delay);
	print_textf(p, "\n");
}

/* The keys every result has, in the same order. */
static void result_common(struct printer *p, const struct run_args *a,
			  uint64_t size)
{
	print_string(p, PRINT_JSON, "kernel", "%s", kernel_name[a->kernel]);
	print_u64(p, PRINT_JSON, "threads", "%" PRIu64, a->threads);
	print_u64(p, PRINT_JSON, "size_bytes", "%" PRIu64, size);
	print_u64(p, PRINT_JSON, "reps", "%" PRIu64, a->reps);
}

static void stats_json(struct printer *p, const char *prefix,
		       const struct kern_stats *s)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_min", prefix);
	print_double(p, PRINT_JSON, key, "%f", s->min);
	snprintf(key, sizeof(key), "%s_max", prefix);
	print_double(p, PRINT_JSON, key, "%f", s->max);
}

static int run_read_delay(const char *cmd, struct printer *p,
			  const struct run_args *a, const struct kern_cfg *cfg,
			  bool *printed)
{
	struct read_delay_result r;
	char err[200], sz[32];

	if (read_delay_run(cfg, a->size[0], a->delay, &r, err, sizeof(err))) {
		cli_err(cmd, "read-delay failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	fmt_size(sz, sizeof(sz), a->size[0]);
	print_head(p, a);
	*printed = true;
	print_textf(p, "%-8s %10s %10s %10s %8s\n", "size", "GB/s", "min",
		    "max", "cov");
	print_open_array(p, "results");
	print_open_object(p, NULL);
	result_common(p, a, a->size[0]);
	print_string(p, PRINT_TEXT, NULL, "%-8s", sz);
	print_u64(p, PRINT_JSON, "delay", "%" PRIu64, a->delay);
	print_double(p, PRINT_ANY, "gbps", " %10.2f", r.gbps.median);
	stats_json(p, "gbps", &r.gbps);
	print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps.min);
	print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps.max);
	/* reads only: what is named is what moves */
	print_double(p, PRINT_JSON, "traffic_gbps", "%f", r.gbps.median);
	print_double(p, PRINT_ANY, "cov", " %8.4f\n", r.gbps.cov);
	print_string(p, PRINT_JSON, "verified", "%s", NULL);
	print_u64(p, PRINT_JSON, "records", "%" PRIu64, r.records);
	print_close_object(p);
	print_close_array(p);
	return MDC_EXIT_OK;
}

static int run_stream(const char *cmd, struct printer *p,
		      const struct run_args *a, const struct kern_cfg *cfg,
		      bool *printed)
{
	struct stream_result r;
	char err[200], sz[32];
	int op;

	if (stream_run(cfg, a->size[0], &r, err, sizeof(err))) {
		cli_err(cmd, "stream failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	fmt_size(sz, sizeof(sz), a->size[0]);
	print_head(p, a);
	*printed = true;
	print_string(p, PRINT_TEXT, NULL, "%s per array\n", sz);
	print_textf(p, "%-6s %10s %10s %10s %13s %8s\n", "op", "GB/s", "min",
		    "max", "traffic_GB/s", "cov");
	print_open_array(p, "results");
	for (op = 0; op < STREAM_NR_OPS; op++) {
		print_open_object(p, NULL);
		result_common(p, a, a->size[0]);
		print_string(p, PRINT_ANY, "op", "%-6s", stream_op_name[op]);
		print_double(p, PRINT_ANY, "gbps", " %10.2f", r.gbps[op].median);
		stats_json(p, "gbps", &r.gbps[op]);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps[op].min);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps[op].max);
		print_double(p, PRINT_ANY, "traffic_gbps", " %13.2f",
			     r.traffic_gbps[op].median);
		print_double(p, PRINT_ANY, "cov", " %8.4f\n", r.gbps[op].cov);
		print_bool(p, PRINT_JSON, "verified", "%s", r.verified);
		print_close_object(p);
	}
	print_close_array(p);
	print_bool(p, PRINT_TEXT, NULL, "verified: %s", r.verified);
	print_textf(p, " (average relative error a %.3g, b %.3g, c %.3g; limit 1e-13)\n",
		    r.avg_rel_err[0], r.avg_rel_err[1], r.avg_rel_err[2]);
	if (r.verified)
		return MDC_EXIT_OK;
	cli_err(cmd, "stream results failed validation",
		"average relative error above 1e-13: see the output");
	return MDC_EXIT_LOCAL;
}

static int run_latency(const char *cmd, struct printer *p,
		       const struct run_args *a, const struct kern_cfg *cfg,
		       bool *printed)
{
	struct latency_result r[RUN_MAX_SIZES];
	char err[200], sz[32];
	double ghz = kern_tsc_ghz();
	size_t i;

	for (i = 0; i < a->nr_size; i++) {
		if (latency_run(cfg, a->size[i], &r[i], err, sizeof(err))) {
			cli_err(cmd, "latency failed", "%s", err);
			return MDC_EXIT_LOCAL;
		}
	}
	print_head(p, a);
	*printed = true;
	print_textf(p, "%-8s %10s %10s %10s %8s %12s\n", "size", "ns/load",
		    "min", "max", "cov", "cycles/load");
	print_open_array(p, "results");
	for (i = 0; i < a->nr_size; i++) {
		fmt_size(sz, sizeof(sz), a->size[i]);
		print_open_object(p, NULL);
		result_common(p, a, a->size[i]);
		print_string(p, PRINT_TEXT, NULL, "%-8s", sz);
		/* a chase moves one line per load, but that is no bandwidth */
		print_string(p, PRINT_JSON, "gbps", "%s", NULL);
		print_string(p, PRINT_JSON, "traffic_gbps", "%s", NULL);
		print_double(p, PRINT_ANY, "ns_per_load", " %10.2f", r[i].ns.median);
		stats_json(p, "ns_per_load", &r[i].ns);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r[i].ns.min);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r[i].ns.max);
		print_double(p, PRINT_ANY, "cov", " %8.4f", r[i].ns.cov);
		print_double(p, PRINT_ANY, "cycles_per_load", " %12.1f\n",
			     ghz > 0 ? r[i].ns.median * ghz : NAN);
		print_string(p, PRINT_JSON, "verified", "%s", NULL);
		print_u64(p, PRINT_JSON, "loads", "%" PRIu64, r[i].loads);
		print_close_object(p);
	}
	print_close_array(p);
	print_double(p, PRINT_ANY, "tsc_ghz", "cycles: TSC cycles at %.3f GHz\n",
		     ghz > 0 ? ghz : NAN);
	return MDC_EXIT_OK;
}

int cmd_run(const struct opts *gopts, int argc, char **argv)
{
	static int (*const run[K_NR])(const char *, struct printer *,
				      const struct run_args *,
				      const struct kern_cfg *, bool *) = {
		run_read_delay, run_stream, run_latency
	};
	const char *cmd = "run";
	struct opts o = *gopts;
	struct kern_cfg cfg;
	struct run_args a;
	struct printer p;
	bool printed = false;
	int rc, orc;

	rc = parse_args(&a, &o, argc, argv);
	if (rc < 0) {		/* --help */
		free(a.cpu);
		return MDC_EXIT_OK;
	}
	if (rc != MDC_EXIT_OK) {
		free(a.cpu);
		return rc;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.nthreads = (unsigned int)a.threads;
	cfg.cpu = a.cpu;
	cfg.reps = (unsigned int)a.reps;
	cfg.hugepages = a.hugepages;
	if (isatty(STDOUT_FILENO) && isatty(STDERR_FILENO)) {
		cfg.progress = progress;
		cfg.progress_arg = (void *)(uintptr_t)kernel_name[a.kernel];
	}
	print_init(&p, stdout, o.json, o.pretty);
	rc = run[a.kernel](cmd, &p, &a, &cfg, &printed);
	free(a.cpu);
	if (!printed)
		return rc;	/* the kernel failed: reported, nothing printed */
	/* the counters: honest about their absence */
	print_string(&p, PRINT_JSON, "counters", "%s", NULL);
	print_textf(&p, "%s", counters_text);
	print_close_object(&p);
	orc = cli_output_end(cmd, &p);
	return rc != MDC_EXIT_OK ? rc : orc;
}
