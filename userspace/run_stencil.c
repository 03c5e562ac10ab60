// SPDX-License-Identifier: GPL-2.0
/*
 * run_stencil.c - "memdiagctl run stencil": Jacobi and Gauss-Seidel sweeps,
 * threaded and wavefront, verified; MLUP/s beside the paper's model, the
 * bandwidth (an in-process STREAM triad, or --model-gbps) over the bytes
 * each update moves.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

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

/*
 * The first CPU sharing @cpu's last-level cache (the highest cache level
 * sysfs lists for it), which names that cache; -1 when unknown.
 */
static int llc_of(int cpu)
{
	int idx, level, best = -1, id = -1, first;
	char path[128];
	FILE *f;

	for (idx = 0; idx < 16; idx++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 cpu, idx);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fscanf(f, "%d", &level) != 1)
			level = -1;
		fclose(f);
		if (level < best)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
			 cpu, idx);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%d", &first) == 1) {
			best = level;
			id = first;
		}
		fclose(f);
	}
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

int run_stencil(const char *cmd, struct printer *p, const struct run_args *a,
		const struct kern_cfg *cfg, bool *printed)
{
	struct stencil_result r[STENCIL_NR_METHODS * STENCIL_NR_SCHEDULES];
	unsigned int variants = 0xf;
	unsigned int nt = cfg->nthreads, groups, gsize, i, v, m;
	double *ref[STENCIL_NR_METHODS] = { NULL, NULL };
	int *cpu = NULL, *node = NULL, *mem_node = NULL;
	struct stencil_params prm;
	unsigned int *perm = NULL;
	double gbps, model, mbytes;
	bool all_ok = true, auto_groups = !a->have_groups, unequal = false;
	char err[256], name[64];
	struct kern_cfg c = *cfg;
	char label[4][32];
	const char *lp;
	size_t slot[4] = { 0 };
	size_t n = grid_n(a->size[0]);
	int rc = MDC_EXIT_LOCAL;

	if (a->variant) {
		rc = parse_variants(cmd, a->variant, &variants);
		if (rc != MDC_EXIT_OK)
			return rc;
		rc = MDC_EXIT_LOCAL;
	}
	if (n < 3 || n - 2 < nt)
		return cli_usage(cmd, "option '--size': a grid of %zu^3 is too small for %u threads: it needs n - 2 >= threads, so at least %" PRIu64 " bytes",
				 n, nt, (uint64_t)(nt + 2) * (nt + 2) * (nt + 2) * sizeof(double));
	cpu = malloc(nt * sizeof(*cpu));
	perm = malloc(nt * sizeof(*perm));
	node = malloc(nt * sizeof(*node));
	mem_node = malloc(nt * sizeof(*mem_node));
	if (!cpu || !perm || !node || !mem_node) {
		cli_err(cmd, "stencil failed", "out of memory");
		goto out;
	}
	memcpy(cpu, cfg->cpu, nt * sizeof(*cpu));
	if (auto_groups) {
		groups = llc_groups(cpu, perm, nt, &unequal);
	} else {
		groups = (unsigned int)a->groups;
		for (i = 0; i < nt; i++)
			perm[i] = i;
	}
	gsize = nt / groups;	/* groups <= threads <= n - 2: a block each */
	c.cpu = cpu;
	c.node = node;
	c.mem_node = mem_node;
	memset(&prm, 0, sizeof(prm));
	prm.n = n;
	prm.barrier = a->have_barrier ? a->barrier : STENCIL_SPIN;
	prm.groups = groups;
	/* whole passes of the wavefront, at least MIN_SWEEPS */
	prm.sweeps = a->have_sweeps ? (unsigned int)a->sweeps :
		     (MIN_SWEEPS + gsize - 1) / gsize * gsize;
	mbytes = (double)n * n * n * sizeof(double);
	if (a->have_model_gbps) {
		model = a->model_gbps;
	} else if (model_triad(&c, (size_t)mbytes, &model, err,
			       sizeof(err))) {
		cli_err(cmd, "stencil failed", "%s", err);
		goto out;
	}
	for (m = 0; m < STENCIL_NR_METHODS; m++) {
		if (!(variants & (3u << (2 * m))))
			continue;
		ref[m] = stencil_reference(n, (enum stencil_method)m,
					   (uint64_t)prm.sweeps * cfg->reps);
		if (!ref[m]) {
			cli_err(cmd, "stencil failed", "out of memory");
			goto out;
		}
	}
	for (v = 0; v < 4; v++) {
		if (!(variants & (1u << v)))
			continue;
		prm.method = (enum stencil_method)(v / 2);
		prm.schedule = (enum stencil_schedule)(v % 2);
		snprintf(label[v], sizeof(label[v]), "%s-%s",
			 stencil_method_name[v / 2],
			 stencil_schedule_name[v % 2]);
		lp = label[v];
		slot[v] = run_counters_next(a->counters, 1, &lp);
		if (stencil_run(&c, &prm, ref[v / 2], &r[v], err,
				sizeof(err))) {
			cli_err(cmd, "stencil failed", "%s", err);
			goto out;
		}
		all_ok = all_ok && r[v].verified;
	}
	/* the head shows the threads in the order the user gave them */
	for (i = 0; i < nt; i++) {
		cfg->node[perm[i]] = node[i];
		cfg->mem_node[perm[i]] = mem_node[i];
	}
	run_print_head(p, a);
	*printed = true;
	print_u64(p, PRINT_ANY, "n", "grid %" PRIu64, (uint64_t)n);
	if (mbytes >= 1 << 20)
		print_textf(p, "^3 doubles (%.1f MiB per grid), ",
			    mbytes / (1 << 20));
	else
		print_textf(p, "^3 doubles (%.1f KiB per grid), ",
			    mbytes / (1 << 10));
	print_uint(p, PRINT_ANY, "sweeps", "%u sweeps per rep", prm.sweeps);
	print_string(p, PRINT_ANY, "barrier", ", %s barrier",
		     stencil_barrier_name[prm.barrier]);
	print_uint(p, PRINT_ANY, "groups", ", wavefront: %u group", groups);
	print_textf(p, "%s of ", groups == 1 ? "" : "s");
	print_uint(p, PRINT_ANY, "group_size", "%u thread", gsize);
	print_textf(p, "%s", gsize == 1 ? "" : "s");
	print_textf(p, " (%s)\n", !auto_groups ? "--groups" : unequal ?
		    "one: the last-level caches hold unequal numbers of the threads" :
		    "threads sharing a last-level cache");
	print_double(p, PRINT_ANY, "model_gbps",
		     "model: %.2f GB/s", model);
	print_string(p, PRINT_ANY, "model_source", " (%s)\n",
		     a->have_model_gbps ? "--model-gbps" :
		     "STREAM triad with write-allocate, best of 3, same threads and size");
	print_textf(p, "%-17s %9s %9s %9s %7s %6s %8s %9s %8s\n", "variant",
		    "MLUP/s", "min", "max", "cov", "B/LUP", "GB/s",
		    "model", "verified");
	print_open_array(p, "results");
	for (v = 0; v < 4; v++) {
		if (!(variants & (1u << v)))
			continue;
		snprintf(name, sizeof(name), "%s-%s",
			 stencil_method_name[v / 2],
			 stencil_schedule_name[v % 2]);
		gbps = r[v].mlups.median * r[v].traffic_bytes_per_lup / 1e3;
		print_open_object(p, NULL);
		run_result_common(p, a, (uint64_t)mbytes);
		print_string(p, PRINT_ANY, "variant", "%-17s", name);
		print_string(p, PRINT_JSON, "method", "%s",
			     stencil_method_name[v / 2]);
		print_string(p, PRINT_JSON, "schedule", "%s",
			     stencil_schedule_name[v % 2]);
		print_uint(p, PRINT_JSON, "sweeps_per_pass", "%u",
			   r[v].group_size);
		print_double(p, PRINT_ANY, "mlups", " %9.1f",
			     r[v].mlups.median);
		run_stats_json(p, "mlups", &r[v].mlups);
		print_double(p, PRINT_TEXT, NULL, " %9.1f", r[v].mlups.min);
		print_double(p, PRINT_TEXT, NULL, " %9.1f", r[v].mlups.max);
		print_double(p, PRINT_ANY, "cov", " %7.4f", r[v].mlups.cov);
		print_double(p, PRINT_JSON, "bytes_per_lup", "%f",
			     r[v].bytes_per_lup);
		print_double(p, PRINT_ANY, "traffic_bytes_per_lup", " %6.1f",
			     r[v].traffic_bytes_per_lup);
		print_double(p, PRINT_JSON, "gbps", "%f", r[v].mlups.median *
			     r[v].bytes_per_lup / 1e3);
		print_double(p, PRINT_ANY, "traffic_gbps", " %8.2f", gbps);
		print_double(p, PRINT_ANY, "model_mlups", " %9.1f",
			     model * 1e3 / r[v].traffic_bytes_per_lup);
		print_bool(p, PRINT_ANY, "verified", " %8s\n", r[v].verified);
		print_u64(p, PRINT_JSON, "mismatches", "%" PRIu64,
			  r[v].mismatches);
		print_double(p, PRINT_JSON, "max_abs_diff", "%g",
			     r[v].max_abs_diff);
		run_counters_json(p, a->counters, slot[v]);
		print_close_object(p);
	}
	print_close_array(p);
	print_textf(p, "B/LUP: memory traffic per update in the paper's model (a load and a store\n"
		    "per pass, and the write-allocate of a second grid); GB/s = MLUP/s x B/LUP;\n"
		    "model = bandwidth / B/LUP (MLUP/s); verified: bitwise equal to serial sweeps\n");
	run_counters_text(p, a->counters, "variant");
	rc = MDC_EXIT_OK;
	if (!all_ok) {
		cli_err(cmd, "stencil results failed validation",
			"a variant differs from the serial sweeps: see the output");
		rc = MDC_EXIT_LOCAL;
	}
out:
	free(ref[0]);
	free(ref[1]);
	free(cpu);
	free(perm);
	free(node);
	free(mem_node);
	return rc;
}
