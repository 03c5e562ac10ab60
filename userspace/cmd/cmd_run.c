// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - "memdiagctl run": the micro-kernels of kernels/ (memory read
 * benchmark with NOP delays, STREAM, pointer-chase latency, loaded
 * latency, stencils, load throughput, transpose) on pinned threads, N
 * repetitions summarized as median, min, max and CoV.
 */

#include <errno.h>
#include <stddef.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cpulist.h"
#include "csv.h"
#include "opts.h"
#include "parse.h"
#include "run/place.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

#define RUN_DEFAULT_REPS 5
#define RUN_MAX_REPS 1000
#define RUN_MAX_MIN_TIME 3600.0	/* seconds: an hour per measurement */

volatile sig_atomic_t run_interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	run_interrupted = 1;
}

/* Ctrl-C: finish the phase running, print what is done; twice: die. */
static void catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

/*
 * After Ctrl-C: the head and an empty "results" when the kernel printed
 * nothing (its one measurement did not finish), so JSON stays valid; the
 * document then has "interrupted": true and the warning.
 */
static void interrupted(struct printer *p,
			const struct run_args *a, bool *printed)
{
	if (!*printed) {
		run_print_head(p, a);
		print_open_array(p, "results");
		print_close_array(p);
		*printed = true;
	}
	/* a warning, so that it is in -j's "warnings" as well as on stderr */
	run_warn("interrupted: the results finished before Ctrl-C are printed; the rest did not run");
}

void cmd_run_kernel_names(char *buf, size_t size)
{
	run_kernel_list(buf, size, NULL, NULL);
}

void cmd_run_usage(FILE *f)
{
	run_usage(f);
}

/* Everything parse_args() collects before the kernel is known. */
struct run_parse {
	struct run_args *a;
	struct opts *o;
	cpu_set_t allowed;	/* the CPUs this process may use */
	bool have_threads, have_cpus, help, csv;
	struct run_place place;	/* --node, --socket */
	const char *given[16];	/* run_kopts[i]'s value, NULL: not given */
};

/*
 * The getopt_long() tables: the options every kernel takes (run_copts[]),
 * every kernel option of run_kopts[] (which kernel takes those is checked
 * once the kernel is known), then the options of every command. -1 if
 * they do not fit.
 */
static int build_options(struct cli_opts *t)
{
	struct option opt[CLI_OPTS_OWN_MAX + 1];
	size_t i, n = 0;

	if (run_nr_copts + run_nr_kopts > CLI_OPTS_OWN_MAX)
		return -1;
	for (i = 0; i < run_nr_copts; i++, n++) {
		opt[n].name = run_copts[i].name;
		opt[n].has_arg = run_copts[i].has_arg;
		opt[n].flag = NULL;
		opt[n].val = run_copts[i].val;
	}
	for (i = 0; i < run_nr_kopts; i++, n++) {
		opt[n].name = run_kopts[i].name;
		opt[n].has_arg = run_kopts[i].has_arg;
		opt[n].flag = NULL;
		opt[n].val = run_kopts[i].val ? run_kopts[i].val :
			     RUN_OPT_KERNEL + (int)i;
	}
	memset(&opt[n], 0, sizeof(opt[n]));
	return cli_opts_init(t, CLI_OPT_ALL, ":t:c:s:d:r:H", opt);
}

/* "0-3,8" into a->cpu; each must be a CPU this process may run on. */
static int parse_cpus(const char *s, struct run_args *a, char *err,
		      size_t size, const cpu_set_t *allowed)
{
	uint32_t *cpu;
	size_t i, n;

	a->nr_cpu = 0;
	free(a->cpu);
	a->cpu = NULL;
	if (cpulist_parse(s, allowed, &cpu, &n, err, size) < 0)
		return -1;
	a->cpu = calloc(n, sizeof(*a->cpu));
	if (!a->cpu) {
		free(cpu);
		snprintf(err, size, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		a->cpu[i] = (int)cpu[i];
	a->nr_cpu = n;
	free(cpu);
	return 0;
}

/* Option @c with @arg: an exit code. */
static int read_option(const char *cmd, struct run_parse *st, int c,
		       const char *arg, char **argv)
{
	struct run_args *a = st->a;
	char err[200];
	size_t i;

	switch (c) {
	case 't':
		if (parse_uint(arg, 1, KERN_MAX_THREADS, &a->threads, err,
			       sizeof(err)) < 0)
			return cli_usage(cmd, "option '--threads': %s", err);
		st->have_threads = true;
		return MDC_EXIT_OK;
	case 'c':
		if (parse_cpus(arg, a, err, sizeof(err), &st->allowed) < 0)
			return cli_usage(cmd, "option '--cpus': %s", err);
		st->have_cpus = true;
		return MDC_EXIT_OK;
	case 's':
		if (run_parse_list(arg, "sizes", RUN_MAX_SIZES, run_parse_size,
				   NULL, a->size, &a->nr_size, err,
				   sizeof(err)) < 0)
			return cli_usage(cmd, "option '--size': %s", err);
		return MDC_EXIT_OK;
	case 'r':
		if (parse_uint(arg, 1, RUN_MAX_REPS, &a->reps, err,
			       sizeof(err)) < 0)
			return cli_usage(cmd, "option '--reps': %s", err);
		return MDC_EXIT_OK;
	case RUN_OPT_MIN_TIME:
		if (parse_seconds(arg, RUN_MAX_MIN_TIME, &a->min_time, err,
				  sizeof(err)) < 0)
			return cli_usage(cmd, "option '--min-time': %s", err);
		return MDC_EXIT_OK;
	case 'H':
		a->hugepages = true;
		return MDC_EXIT_OK;
	case RUN_OPT_CSV:
		st->csv = true;
		return MDC_EXIT_OK;
	case RUN_OPT_NODE:
	case RUN_OPT_SOCKET:
		return run_place_option(cmd, c == RUN_OPT_SOCKET, arg, &st->place);
	case RUN_OPT_MEMBIND:
		return run_membind_option(cmd, arg, &a->membind);
	case RUN_OPT_TIMING:
		return run_timing_option(cmd, arg, &a->timing);
	case 'h':	/* "run KERNEL --help" shows the kernel's: later */
		st->help = true;
		return MDC_EXIT_OK;
	}
	for (i = 0; i < run_nr_kopts; i++) {
		if (c == (run_kopts[i].val ? run_kopts[i].val :
			  RUN_OPT_KERNEL + (int)i)) {
			/* a flag's value is "" */
			st->given[i] = arg ? arg : "";
			return MDC_EXIT_OK;
		}
	}
	/* -j, -p, or a bad option */
	c = cli_opts_common(cmd, c, argv, st->o, cmd_run_usage);
	return c == CLI_OPT_NEXT ? MDC_EXIT_OK : c;
}

/*
 * The kernel named after the options; "run KERNEL --help" fails for a
 * kernel this build lacks (scripts ask). -1 after --help.
 */
static int pick_kernel(const char *cmd, struct run_parse *st, int argc,
		       char **argv)
{
	const char *kname = optind < argc ? argv[optind] : NULL;
	char names[256];
	size_t k;

	run_kernel_list(names, sizeof(names), NULL, NULL);
	for (k = 0; kname && k < run_nr_kernels &&
	     strcmp(kname, run_kernels[k]->name); k++)
		;
	if (kname && k == run_nr_kernels)
		return cli_usage(cmd, "unknown kernel '%s': use %s", kname,
				 names);
	if (st->help) {
		cmd_run_usage(stdout);
		return -1;
	}
	if (!kname)
		return cli_usage(cmd, "no kernel given: %s", names);
	if (optind + 1 < argc)
		return cli_usage(cmd, "unexpected argument '%s'",
				 argv[optind + 1]);
	st->a->kernel = run_kernels[k];
	return MDC_EXIT_OK;
}

static bool takes_size_list(const struct run_kernel *k, const void *arg)
{
	(void)arg;
	return k->size_list;
}

/* --size against the kernel, or its default sizes. */
static int pick_sizes(const char *cmd, struct run_args *a)
{
	const struct run_kernel *k = a->kernel;
	char names[256];
	size_t i;

	if (a->nr_size > 1 && !k->size_list) {
		run_kernel_list(names, sizeof(names), takes_size_list, NULL);
		return cli_usage(cmd, "option '--size': kernel '%s' takes one size (only %s %s a list)",
				 k->name, names,
				 strchr(names, ' ') ? "take" : "takes");
	}
	if (!a->nr_size && k->default_sizes) {
		for (i = 0; k->default_sizes[i]; i++)
			a->size[i] = k->default_sizes[i];
		a->nr_size = i;
	} else if (!a->nr_size) {
		a->size[0] = k->default_size;
		a->nr_size = 1;
	}
	return MDC_EXIT_OK;
}

/* --threads and --cpus against each other and the machine: a->cpu. */
static int pick_cpus(const char *cmd, struct run_parse *st)
{
	struct run_args *a = st->a;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int allowed, rc;
	size_t i;

	rc = run_place_cpus(cmd, &st->place, st->have_cpus,
			    st->have_threads ? a->threads : 0, &st->allowed);
	if (rc != MDC_EXIT_OK)
		return rc;
	if (st->place.opt)
		online = CPU_COUNT(&st->allowed);
	allowed = CPU_COUNT(&st->allowed);
	if (st->have_threads && online > 0 && a->threads > (uint64_t)online)
		return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the %ld online CPUs",
				 a->threads, online);
	if (st->have_threads && st->have_cpus && a->threads > a->nr_cpu)
		return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the CPUs --cpus lists (%zu)",
				 a->threads, a->nr_cpu);
	if (!st->have_threads && st->have_cpus)
		a->threads = a->nr_cpu;
	else if (!st->have_threads)
		a->threads = a->kernel->all_cpus && allowed > 1 ?
			     (allowed > KERN_MAX_THREADS ? KERN_MAX_THREADS :
			      (uint64_t)allowed) : 1;
	if (!st->have_cpus) {
		a->cpu = calloc(a->threads, sizeof(*a->cpu));
		if (!a->cpu) {
			cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
			return MDC_EXIT_LOCAL;
		}
		for (i = 0; i < CPU_SETSIZE && a->nr_cpu < a->threads; i++)
			if (CPU_ISSET(i, &st->allowed))
				a->cpu[a->nr_cpu++] = (int)i;
		if (a->nr_cpu < a->threads)
			return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the CPUs this process may use (%zu)",
					 a->threads, a->nr_cpu);
	}
	a->nr_cpu = a->threads;
	return MDC_EXIT_OK;
}

/* The options into @a (a->opts malloc()ed); -1 after --help. */
static int parse_args(struct run_args *a, struct opts *o, bool *csv, int argc,
		      char **argv)
{
	const char *cmd = "run";
	struct cli_opts options;
	struct run_parse st = { .a = a, .o = o };
	void *kopts;
	int c, rc;

	_Static_assert(sizeof(st.given) / sizeof(st.given[0]) >= 10,
		       "run_parse.given is shorter than run_kopts");
	memset(a, 0, sizeof(*a));
	a->reps = RUN_DEFAULT_REPS;
	a->min_time = RUN_DEFAULT_MIN_TIME;
	a->membind = -1;
	if (sched_getaffinity(0, sizeof(st.allowed), &st.allowed) < 0) {
		cli_err(cmd, "cannot read the CPUs this process may use", "%s",
			strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	if (build_options(&options) < 0) {
		cli_err(cmd, "internal error",
			"more options than the getopt table holds");
		return MDC_EXIT_LOCAL;
	}
	while ((c = cli_opts_next(&options, argc, argv)) != -1) {
		rc = read_option(cmd, &st, c, optarg, argv);
		if (rc != MDC_EXIT_OK)
			return rc;
	}
	rc = pick_kernel(cmd, &st, argc, argv);
	if (rc != MDC_EXIT_OK)
		return rc;
	if (st.csv && o->json)
		return cli_usage(cmd, "options '--csv' and '--json' exclude each other");
	*csv = st.csv;
	if (a->membind >= 0 && a->kernel->no_membind)
		return cli_usage(cmd, "option '--membind': kernel '%s' cannot bind its memory: %s",
				 a->kernel->name, a->kernel->no_membind);
	if (a->timing == KERN_TIMING_WHOLE && a->kernel->no_whole)
		return cli_usage(cmd, "option '--timing': kernel '%s' cannot be timed whole: %s",
				 a->kernel->name, a->kernel->no_whole);
	kopts = calloc(1, a->kernel->opts_size ? a->kernel->opts_size : 1);
	if (!kopts) {
		cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
		return MDC_EXIT_LOCAL;
	}
	a->opts = kopts;
	rc = run_apply_params(cmd, a->kernel, st.given, kopts);
	a->size_given = a->nr_size > 0;
	snprintf(a->cpus_opt, sizeof(a->cpus_opt), "%s",
		 st.have_cpus ? "--cpus" : st.place.opt ? st.place.opt :
		 st.have_threads ? "--threads" : "");
	if (rc == MDC_EXIT_OK)
		rc = pick_sizes(cmd, a);
	if (rc == MDC_EXIT_OK)
		rc = pick_cpus(cmd, &st);
	return rc;
}

static void mark(void *arg, enum kern_mark m, unsigned int rep,
		 unsigned int phase)
{
	(void)rep;	/* repetitions of a phase add up in one slot */
	counters_mark(arg, m == KERN_MARK_BEGIN, phase);
}

static void args_free(struct run_args *a)
{
	free(a->cpu);
	free(a->node);
	free(a->mem_node);
	free((void *)a->opts);
}

/*
 * --csv: the kernel prints its JSON into memory, csv.c turns the document
 * into the table, so the columns cannot drift from -j's keys.
 */
struct csv_out {
	bool on;
	char *buf;
	size_t len;
	FILE *mem;
};

static FILE *csv_begin(struct csv_out *co, bool csv)
{
	co->on = csv;
	if (!csv)
		return stdout;
	co->mem = open_memstream(&co->buf, &co->len);
	return co->mem;
}

/* The table on stdout when @emit; an exit code. */
static int csv_end(const char *cmd, struct csv_out *co, bool emit)
{
	int rc = MDC_EXIT_OK;

	if (!co->on)
		return rc;
	if (fclose(co->mem) == EOF) {
		cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
		rc = MDC_EXIT_LOCAL;
	} else if (emit && csv_table(stdout, co->buf, "results") < 0) {
		cli_err(cmd, "internal error", "the results are no table, please report this bug");
		rc = MDC_EXIT_LOCAL;
	} else if (emit && (fflush(stdout) == EOF || ferror(stdout))) {
		cli_err(cmd, "cannot write output", "%s", strerror(errno ? errno : EIO));
		rc = MDC_EXIT_LOCAL;
	}
	free(co->buf);
	return rc;
}

int cmd_run(const struct opts *gopts, int argc, char **argv)
{
	const char *cmd = "run";
	struct opts o = *gopts;
	struct counters counters;
	struct run_progress prog;
	struct kern_cfg cfg;
	struct run_args a;
	struct csv_out co = { 0 };
	struct printer p;
	bool printed = false, csv = false;
	FILE *out;
	size_t i;
	int rc, orc;

	rc = parse_args(&a, &o, &csv, argc, argv);
	if (rc == MDC_EXIT_OK) {
		a.node = malloc(a.nr_cpu * sizeof(*a.node));
		a.mem_node = malloc(a.nr_cpu * sizeof(*a.mem_node));
		if (!a.node || !a.mem_node) {
			cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
			rc = MDC_EXIT_LOCAL;
		}
	}
	if (rc != MDC_EXIT_OK) {
		args_free(&a);
		return rc < 0 ? MDC_EXIT_OK : rc;	/* -1: --help */
	}
	for (i = 0; i < a.nr_cpu; i++)
		a.node[i] = a.mem_node[i] = -1;
	memset(&cfg, 0, sizeof(cfg));
	cfg.nthreads = (unsigned int)a.threads;
	cfg.node = a.node;
	cfg.mem_node = a.mem_node;
	cfg.cpu = a.cpu;
	cfg.reps = (unsigned int)a.reps;
	cfg.min_time = a.min_time;
	cfg.timing = a.timing;
	cfg.hugepages = a.hugepages;
	cfg.bind = a.membind >= 0;
	cfg.bind_node = cfg.bind ? (unsigned int)a.membind : 0;
	run_progress_init(&prog, a.kernel->name);
	if (prog.tty || prog.sigint_after) {
		cfg.progress = run_progress;
		cfg.progress_arg = &prog;
	}
	/* before the kernel allocates: the session is not timed */
	counters_open(&counters);
	a.counters = &counters;
	if (counters.on) {
		cfg.mark = mark;
		cfg.mark_arg = &counters;
	}
	out = csv_begin(&co, csv);
	if (!out) {
		cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
		counters_close(&counters);
		args_free(&a);
		return MDC_EXIT_LOCAL;
	}
	print_init(&p, out, o.json || csv, o.pretty);
	cfg.stop = &run_interrupted;
	catch_sigint();
	rc = a.kernel->run(cmd, &p, &a, &cfg, &printed);
	signal(SIGINT, SIG_DFL);
	if (run_interrupted) {
		interrupted(&p, &a, &printed);
		rc = RUN_EXIT_INTERRUPTED;
	}
	/* every kernel's, from its last run: --membind's check */
	if (printed)
		run_check_membind(&a, a.kernel->name);
	counters_close(&counters);
	args_free(&a);
	orc = MDC_EXIT_OK;
	if (printed) {	/* else the kernel failed: reported, nothing printed */
		/* a partial document says so: a script cannot count rows */
		print_bool(&p, PRINT_JSON, "interrupted", NULL,
			   run_interrupted != 0);
		run_warn_json(&p);
		print_close_object(&p);
		orc = cli_output_end(cmd, &p);
	}
	run_warn_flush(cmd);	/* after the results, so they stay in view */
	if (csv_end(cmd, &co, printed && orc == MDC_EXIT_OK) != MDC_EXIT_OK)
		orc = MDC_EXIT_LOCAL;
	return rc != MDC_EXIT_OK ? rc : orc;
}
