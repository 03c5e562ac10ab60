// SPDX-License-Identifier: GPL-2.0
/*
 * stencil.c - "memdiagctl run stencil": Jacobi and Gauss-Seidel sweeps,
 * threaded and wavefront, verified; MLUP/s beside the paper's model, the
 * bandwidth (an in-process STREAM triad, or --model-gbps) over the bytes
 * each update moves.
 */

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/cache.h"
#include "run/pages.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

#define MIN_SWEEPS 8		/* per repetition, rounded up to the groups' */
#define MODEL_REPS 3		/* triad repetitions; the best one counts */

/* The largest n with n^3 doubles in @bytes. */
static size_t grid_n(uint64_t bytes)
{
	uint64_t sites = bytes / sizeof(double), n;

	n = (uint64_t)cbrt((double)sites);
	while (n * n * n > sites)
		n--;
	while ((n + 1) * (n + 1) * (n + 1) <= sites)
		n++;
	return (size_t)n;
}

/* The first CPU of a sysfs shared_cpu_list ("0-3,8"). */
static bool take_first_cpu(FILE *f, void *out)
{
	return fscanf(f, "%d", (int *)out) == 1;
}

/*
 * The first CPU sharing @cpu's last-level cache (the highest cache level
 * sysfs lists for it), which names that cache; -1 when unknown.
 */
static int llc_of(int cpu)
{
	int id = -1;

	kern_llc_read(NULL, (unsigned int)cpu, "shared_cpu_list", take_first_cpu,
		      &id);
	return id;
}

/*
 * The paper's thread groups: the threads that share a last-level cache.
 * Orders @cpu (a copy of the threads' CPUs) so each group's are adjacent,
 * @perm[i] being the thread whose CPU is now at i, and returns the number
 * of groups; 1 (CPUs kept in order) when the caches hold unequal numbers
 * of the threads, since a wavefront needs groups of one size.
 */
static unsigned int llc_groups(int *cpu, unsigned int *perm, unsigned int n,
			       bool *unequal)
{
	int *llc = malloc(n * sizeof(*llc)), *orig = malloc(n * sizeof(*orig));
	unsigned int *count = calloc(n, sizeof(*count));
	unsigned int i, j, g = 0, o = 0;
	int *ids = malloc(n * sizeof(*ids));

	for (i = 0; i < n; i++)
		perm[i] = i;
	if (!llc || !orig || !count || !ids) {
		g = 1;
		goto out;
	}
	memcpy(orig, cpu, n * sizeof(*cpu));
	for (i = 0; i < n; i++) {
		llc[i] = llc_of(cpu[i]);
		for (j = 0; j < g && ids[j] != llc[i]; j++)
			;
		if (j == g)
			ids[g++] = llc[i];
		count[j]++;
	}
	for (j = 1; j < g; j++)
		if (count[j] != count[0]) {
			g = 1;
			*unequal = true;
			goto out;
		}
	/* stable: by cache in order of first appearance, then as listed */
	for (j = 0; j < g; j++)
		for (i = 0; i < n; i++)
			if (llc[i] == ids[j]) {
				perm[o] = i;
				cpu[o++] = orig[i];
			}
out:
	free(llc);
	free(orig);
	free(count);
	free(ids);
	return g;
}

/*
 * --variant: method-schedule names ("gs-wavefront") into bit
 * 2 * method + schedule of @mask, or a usage error listing them.
 */
static int parse_variants(const char *cmd, const char *s, unsigned int *mask)
{
	char buf[STENCIL_NR_METHODS * STENCIL_NR_SCHEDULES][32];
	const char *names[STENCIL_NR_METHODS * STENCIL_NR_SCHEDULES];
	unsigned int v;

	for (v = 0; v < STENCIL_NR_METHODS * STENCIL_NR_SCHEDULES; v++) {
		snprintf(buf[v], sizeof(buf[v]), "%s-%s",
			 stencil_method_name[v / STENCIL_NR_SCHEDULES],
			 stencil_schedule_name[v % STENCIL_NR_SCHEDULES]);
		names[v] = buf[v];
	}
	return run_parse_names(cmd, "--variant", "stencil variant", s, names,
			       STENCIL_NR_METHODS * STENCIL_NR_SCHEDULES, true,
			       mask);
}

/* The model's bandwidth: STREAM triad with write-allocate, best of 3. */
static int model_triad(const struct kern_cfg *cfg, size_t bytes, double *gbps,
		       char *err, size_t errsz)
{
	/* normal stores: the stencil's stores write-allocate too */
	struct stream_opts o = { .isa = stream_isa_best(), .nt = false };
	struct kern_cfg c = *cfg;
	struct stream_result sr;

	c.reps = MODEL_REPS;
	c.min_time = 0;		/* exactly MODEL_REPS: a calibration, not a result */
	c.progress = NULL;
	c.node = c.mem_node = NULL;
	if (stream_run(&c, bytes, &o, &sr, err, errsz))
		return -1;
	if (!sr.verified) {
		snprintf(err, errsz, "the STREAM run for the model failed validation");
		return -1;
	}
	*gbps = sr.traffic_gbps[STREAM_TRIAD].max;
	return 0;
}

/* The stencil's own options; 0 is "not given" for the numbers. */
struct stencil_args {
	const char *variant;	/* --variant, checked by parse_variants() */
	uint64_t sweeps;	/* --sweeps */
	unsigned int barrier;	/* --barrier, enum stencil_barrier */
	uint64_t groups;	/* --groups */
	double model_gbps;	/* --model-gbps */
};

static const struct run_param stencil_params[] = {
	{ .opt = "variant", .parse = run_param_string,
	  .offset = offsetof(struct stencil_args, variant) },
	{ .opt = "sweeps", .parse = run_param_uint,
	  .offset = offsetof(struct stencil_args, sweeps),
	  .min = 1, .max = 100000 },
	{ .opt = "barrier", .parse = run_param_enum,
	  .offset = offsetof(struct stencil_args, barrier),
	  .what = "barrier", .names = stencil_barrier_name,
	  .nr_names = STENCIL_NR_BARRIERS },
	{ .opt = "groups", .parse = run_param_uint,
	  .offset = offsetof(struct stencil_args, groups),
	  .min = 1, .max = KERN_MAX_THREADS },
	{ .opt = "model-gbps", .parse = run_param_gbps,
	  .offset = offsetof(struct stencil_args, model_gbps) },
	{ NULL }
};

static const struct stencil_args stencil_default = { .barrier = STENCIL_SPIN };

#define NR_VARIANTS (STENCIL_NR_METHODS * STENCIL_NR_SCHEDULES)

/* One stencil run: what is set up, then what it measured. */
struct stencil_run {
	unsigned int variants;	/* bit 2 * method + schedule */
	unsigned int nt, groups, gsize;
	bool unequal;		/* caches hold unequal numbers of threads */
	size_t n;
	double mbytes, model;
	struct stencil_params prm;
	struct kern_cfg c;	/* the threads in cache-group order */
	int *cpu, *node, *mem_node;
	unsigned int *perm;	/* perm[i]: the thread now at i */
	unsigned int done;	/* variants measured (before Ctrl-C) */
	struct stencil_result r[NR_VARIANTS];
	size_t slot[NR_VARIANTS];
	char label[NR_VARIANTS][32];
};

static void stencil_free(struct stencil_run *st)
{
	free(st->cpu);
	free(st->perm);
	free(st->node);
	free(st->mem_node);
}

/* The checks of the options against the threads and the grid. */
static int stencil_check(const char *cmd, const struct run_args *a,
			 struct stencil_run *st)
{
	const struct stencil_args *o = a->opts;
	int rc;

	st->variants = 0xf;
	if (o->variant) {
		rc = parse_variants(cmd, o->variant, &st->variants);
		if (rc != MDC_EXIT_OK)
			return rc;
	}
	if (o->groups && a->threads % o->groups)
		return cli_usage(cmd, "option '--groups': %" PRIu64 " threads do not make %" PRIu64 " groups of equal size: use a divisor of --threads",
				 a->threads, o->groups);
	st->n = grid_n(a->size[0]);
	if (st->n < 3 || st->n - 2 < st->nt)
		return cli_usage(cmd, "option '--size': a grid of %zu^3 is too small for %u threads: it needs n - 2 >= threads, so at least %" PRIu64 " bytes",
				 st->n, st->nt,
				 (uint64_t)(st->nt + 2) * (st->nt + 2) *
				 (st->nt + 2) * sizeof(double));
	return MDC_EXIT_OK;
}

/* Groups, sweeps, barrier and the model's bandwidth; an exit code. */
static int stencil_setup(const char *cmd, const struct run_args *a,
			 const struct kern_cfg *cfg, struct stencil_run *st)
{
	const struct stencil_args *o = a->opts;
	unsigned int i, nt = st->nt;
	char err[256];

	st->cpu = malloc(nt * sizeof(*st->cpu));
	st->perm = malloc(nt * sizeof(*st->perm));
	st->node = malloc(nt * sizeof(*st->node));
	st->mem_node = malloc(nt * sizeof(*st->mem_node));
	if (!st->cpu || !st->perm || !st->node || !st->mem_node) {
		cli_err(cmd, "stencil failed", "out of memory");
		return MDC_EXIT_LOCAL;
	}
	memcpy(st->cpu, cfg->cpu, nt * sizeof(*st->cpu));
	if (!o->groups) {
		st->groups = llc_groups(st->cpu, st->perm, nt, &st->unequal);
	} else {
		st->groups = (unsigned int)o->groups;
		for (i = 0; i < nt; i++)
			st->perm[i] = i;
	}
	st->gsize = nt / st->groups;	/* groups <= threads <= n - 2 */
	st->c = *cfg;
	st->c.cpu = st->cpu;
	st->c.node = st->node;
	st->c.mem_node = st->mem_node;
	st->prm.n = st->n;
	st->prm.barrier = (enum stencil_barrier)o->barrier;
	st->prm.groups = st->groups;
	/* whole passes of the wavefront, at least MIN_SWEEPS */
	st->prm.sweeps = o->sweeps ? (unsigned int)o->sweeps :
			 (MIN_SWEEPS + st->gsize - 1) / st->gsize * st->gsize;
	st->mbytes = (double)st->n * st->n * st->n * sizeof(double);
	st->model = o->model_gbps;
	if (!o->model_gbps && model_triad(&st->c, (size_t)st->mbytes,
					  &st->model, err, sizeof(err))) {
		if (run_interrupted)	/* no variant measured: nothing printed */
			return MDC_EXIT_OK;
		cli_err(cmd, "stencil failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	return MDC_EXIT_OK;
}

/*
 * Each variant asked for, each verified against serial sweeps; after
 * Ctrl-C those done (st->done) stay. An exit code.
 */
static int stencil_measure(const char *cmd, const struct run_args *a,
			   struct stencil_run *st)
{
	const char *lp;
	char err[256];
	unsigned int v;

	/* the same grid and sweeps: the same work each */
	run_progress_plan(&st->c, (unsigned int)__builtin_popcount(st->variants),
			  NULL);
	for (v = 0; v < NR_VARIANTS && !run_interrupted; v++) {
		if (!(st->variants & (1u << v)))
			continue;
		st->prm.method = (enum stencil_method)(v / 2);
		st->prm.schedule = (enum stencil_schedule)(v % 2);
		snprintf(st->label[v], sizeof(st->label[v]), "%s-%s",
			 stencil_method_name[v / 2],
			 stencil_schedule_name[v % 2]);
		lp = st->label[v];
		st->slot[v] = counters_next(a->counters, 1, &lp);
		run_progress_what(&st->c, lp);
		if (stencil_run(&st->c, &st->prm, &st->r[v], err,
				sizeof(err))) {
			if (run_interrupted)
				break;
			cli_err(cmd, "stencil failed", "%s", err);
			return MDC_EXIT_LOCAL;
		}
		st->done |= 1u << v;
	}
	return MDC_EXIT_OK;
}

static void stencil_head(struct printer *p, const struct run_args *a,
			 const struct stencil_run *st)
{
	const struct stencil_args *o = a->opts;

	run_print_head(p, a);
	print_u64(p, PRINT_ANY, "n", "grid %" PRIu64, (uint64_t)st->n);
	if (st->mbytes >= 1 << 20)
		print_textf(p, "^3 doubles (%.1f MiB per grid), ",
			    st->mbytes / (1 << 20));
	else
		print_textf(p, "^3 doubles (%.1f KiB per grid), ",
			    st->mbytes / (1 << 10));
	print_uint(p, PRINT_ANY, "sweeps", "%u sweeps per rep", st->prm.sweeps);
	print_string(p, PRINT_ANY, "barrier", ", %s barrier",
		     stencil_barrier_name[st->prm.barrier]);
	print_uint(p, PRINT_ANY, "groups", ", wavefront: %u group", st->groups);
	print_textf(p, "%s of ", st->groups == 1 ? "" : "s");
	print_uint(p, PRINT_ANY, "group_size", "%u thread", st->gsize);
	print_textf(p, "%s", st->gsize == 1 ? "" : "s");
	print_textf(p, " (%s)\n", o->groups ? "--groups" : st->unequal ?
		    "one: the last-level caches hold unequal numbers of the threads" :
		    "threads sharing a last-level cache");
	print_double(p, PRINT_ANY, "model_gbps", "model: %.2f GB/s", st->model);
	print_string(p, PRINT_ANY, "model_source", " (%s)\n",
		     o->model_gbps ? "--model-gbps" :
		     "STREAM triad with write-allocate, best of 3, same threads and size");
	print_textf(p, "%-17s %9s %9s %9s %7s %6s %8s %9s %8s %8s %6s\n",
		    "variant", "MLUP/s", "min", "max", "cov", "B/LUP", "GB/s",
		    "model", "verified", "pages", "reps");
}

static void stencil_row(struct printer *p, const struct run_args *a,
			const struct stencil_run *st, unsigned int v)
{
	const struct stencil_result *r = &st->r[v];

	run_result_open(p, a, (uint64_t)st->mbytes, &r->timed);
	print_string(p, PRINT_ANY, "variant", "%-17s", st->label[v]);
	print_string(p, PRINT_JSON, "method", "%s", stencil_method_name[v / 2]);
	print_string(p, PRINT_JSON, "schedule", "%s",
		     stencil_schedule_name[v % 2]);
	print_uint(p, PRINT_JSON, "sweeps_per_pass", "%u", r->group_size);
	print_double(p, PRINT_ANY, "mlups", " %9.1f", r->mlups.median);
	run_stats_json(p, "mlups", &r->mlups);
	print_double(p, PRINT_TEXT, NULL, " %9.1f", r->mlups.min);
	print_double(p, PRINT_TEXT, NULL, " %9.1f", r->mlups.max);
	run_print_cov(p, " %7.4f", r->mlups.cov, st->label[v]);
	print_double(p, PRINT_JSON, "bytes_per_lup", "%f", r->bytes_per_lup);
	print_double(p, PRINT_ANY, "traffic_bytes_per_lup", " %6.1f",
		     r->traffic_bytes_per_lup);
	print_double(p, PRINT_JSON, "gbps", "%f",
		     r->mlups.median * r->bytes_per_lup / 1e3);
	print_double(p, PRINT_ANY, "traffic_gbps", " %8.2f",
		     r->mlups.median * r->traffic_bytes_per_lup / 1e3);
	print_double(p, PRINT_ANY, "model_mlups", " %9.1f",
		     st->model * 1e3 / r->traffic_bytes_per_lup);
	print_bool(p, PRINT_ANY, "verified", " %8s", r->verified);
	run_print_pages(p, &r->pages);
	print_uint(p, PRINT_TEXT, NULL, " %6u\n", r->timed.reps);
	print_u64(p, PRINT_JSON, "mismatches", "%" PRIu64, r->mismatches);
	print_double(p, PRINT_JSON, "max_abs_diff", "%g", r->max_abs_diff);
	run_result_close(p, a, st->slot[v]);
}

static int stencil_main(const char *cmd, struct printer *p,
			const struct run_args *a, const struct kern_cfg *cfg,
			bool *printed)
{
	struct stencil_run *st = calloc(1, sizeof(*st));
	struct run_pages_miss miss = { 0 };
	char sz[32], what[48];
	bool all_ok = true;
	unsigned int i, v;
	int rc;

	if (!st) {
		cli_err(cmd, "stencil failed", "out of memory");
		return MDC_EXIT_LOCAL;
	}
	st->nt = cfg->nthreads;
	rc = stencil_check(cmd, a, st);
	if (rc == MDC_EXIT_OK)
		rc = stencil_setup(cmd, a, cfg, st);
	if (rc == MDC_EXIT_OK)
		rc = stencil_measure(cmd, a, st);
	if (rc != MDC_EXIT_OK || !st->done)
		goto out;	/* failed, or Ctrl-C before a variant was done */
	/* the head shows the threads in the order the user gave them */
	for (i = 0; i < st->nt; i++) {
		cfg->node[st->perm[i]] = st->node[i];
		cfg->mem_node[st->perm[i]] = st->mem_node[i];
	}
	stencil_head(p, a, st);
	*printed = true;
	print_open_array(p, "results");
	for (v = 0; v < NR_VARIANTS; v++) {
		if (!(st->done & (1u << v)))
			continue;
		stencil_row(p, a, st, v);
		all_ok = all_ok && st->r[v].verified;
		run_pages_miss_add(&miss, &st->r[v].pages, st->label[v]);
	}
	print_close_array(p);
	/* each variant has grids of its own: one warning names those short */
	run_fmt_size(sz, sizeof(sz), a->size[0]);
	snprintf(what, sizeof(what), "stencil %s", sz);
	run_pages_miss_check(a, &miss, what);
	print_textf(p, "B/LUP: memory traffic per update in the paper's model (a load and a store\n"
		    "per pass, and the write-allocate of a second grid); GB/s = MLUP/s x B/LUP;\n"
		    "model = bandwidth / B/LUP (MLUP/s); verified: bitwise equal to serial sweeps\n");
	counters_text(p, a->counters, "variant");
	if (!all_ok) {
		cli_err(cmd, "stencil results failed validation",
			"a variant differs from the serial sweeps: see the output");
		rc = MDC_EXIT_LOCAL;
	}
out:
	stencil_free(st);
	free(st);
	return rc;
}

/* one grid (the paper's 200^3 is 61M), N = cbrt(size / 8) */
const struct run_kernel run_stencil = {
	/* its paragraph of run --help, lines of at most 59 columns */
	.help =
		"3D 7-point Jacobi and Gauss-Seidel sweeps, threaded\n"
		"and with wavefront temporal blocking, verified bitwise\n"
		"against serial sweeps: MLUP/s beside the paper's model\n"
		"(bandwidth / bytes per update) (--size: one grid of\n"
		"n^3 doubles, n = cbrt(size / 8); default 64M, n = 203)",
	.name = "stencil", .default_size = 64ull << 20,
	.no_whole = "its threads share the grids and meet after every plane",
	.params = stencil_params, .opts_size = sizeof(struct stencil_args),
	.opts_default = &stencil_default, .run = stencil_main,
};
