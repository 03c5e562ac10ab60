// SPDX-License-Identifier: GPL-2.0
/*
 * loaded_latency.c - "memdiagctl run loaded-latency": latency under load
 * measured as calibrate measures it (calib_run()): the flushed chase on
 * the first CPU while every other CPU runs the traffic generator over
 * one shared pool of at least four times their last-level cache, one row
 * per delay: the chase's segment latencies (median, p90, p99) and the
 * bandwidth the generators' own byte counts give.
 */

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_plan.h"
#include "run/pages.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

struct loaded_latency_args {
	struct run_list delay;	/* --delay, a comma list */
	const char *mix;	/* --mix read|2:1|1:1 */
};

static const struct run_param loaded_latency_params[] = {
	{ .opt = "delay", .parse = run_param_list,
	  .offset = offsetof(struct loaded_latency_args, delay),
	  .min = 0, .max = RUN_MAX_DELAY, .max_items = RUN_MAX_LIST },
	{ .opt = "mix", .parse = run_param_string,
	  .offset = offsetof(struct loaded_latency_args, mix) },
	{ NULL }
};

/* from flat out to nearly idle, as MLC's table goes */
static const struct loaded_latency_args loaded_latency_default = {
	.delay = { .v = { 0, 20, 50, 100, 200, 500, 1000, 2000, 5000, 20000 },
		   .n = 10 },
};

/* What the run keeps for its marks and for printing. */
struct ll_state {
	const struct kern_cfg *cfg;	/* the run's: counters, progress */
	const unsigned long *delay;
	unsigned int ndelay, per;	/* delays; repeats of each */
	double t0;			/* the first point's start */
	char name[32];			/* the progress line's "delay N" */
};

/* One row: a delay's repeats summarized as calibrate summarizes a point. */
struct ll_row {
	unsigned long delay;
	struct calib_summary sum;	/* latency, p90, p99, traffic GB/s */
	struct kern_stats ns;		/* min, max of the repeats' medians */
	struct kern_stats gbps;		/* the generators' bytes alone */
	struct kern_timed timed;
};

/*
 * calib_run()'s points are the delays' repeats in a row (phase i is
 * delay i / per): the run's counters get one slot per delay, and the
 * progress line a delay's repetitions, as a by-phase kernel's.
 */
static void ll_mark(void *arg, enum kern_mark m, unsigned int rep,
		    unsigned int phase)
{
	struct ll_state *st = arg;
	const struct kern_cfg *cfg = st->cfg;
	unsigned int d = phase / st->per, r = phase % st->per + 1;
	struct kern_progress pr = { .phase = d, .nphases = st->ndelay,
				    .rep = r, .reps = st->per,
				    .by_phase = true, .done = r == st->per };
	double pace;

	(void)rep;	/* always 0: one repetition of every point */
	if (m == KERN_MARK_BEGIN && !phase)
		st->t0 = kern_now();
	if (cfg->mark)
		cfg->mark(cfg->mark_arg, m, 0, d);
	/* a stopped run's remaining points end at once: nothing to show */
	if (m != KERN_MARK_END || !cfg->progress || run_interrupted)
		return;
	pace = (kern_now() - st->t0) / (phase + 1);
	pr.pace_sec = pace;
	pr.left_sec = pace * (st->ndelay * st->per - phase - 1);
	snprintf(st->name, sizeof(st->name), "delay %lu", st->delay[d]);
	pr.name = st->name;
	cfg->progress(cfg->progress_arg, &pr);
}

/*
 * Repeats of each delay: --reps, and more until --min-time would be
 * timed at the idle cost of a flushed load (under load a load costs
 * more, so at least that); at most what calib_summarize() takes.
 */
static unsigned int ll_repeats(const struct run_args *a,
			       const struct calib_plan *p)
{
	double point = calib_point_sec(p, kern_fchase_load_sec());
	uint64_t n = a->reps;

	if (a->min_time > 0 && point > 0 && a->min_time / point > (double)n)
		n = (uint64_t)ceil(a->min_time / point);
	return n > CALIB_MAX_REPEATS ? CALIB_MAX_REPEATS : (unsigned int)n;
}

/*
 * The plan over the run's CPUs, its pool from their caches (calibrate's
 * rule), or --size when that is larger: an exit code (reported).
 */
static int ll_plan(const char *cmd, const struct run_args *a,
		   const struct kern_cfg *cfg, const unsigned long *delay,
		   unsigned int n, enum kern_mix mix, struct calib_plan *p)
{
	struct calib_socket *so;
	unsigned int per = 1;
	char sz[32], need[32];
	int pass, rc;

	if (calib_socket_of(getenv("MEMDIAG_TEST_SYSFS_CPU"), cfg->cpu,
			    cfg->nthreads, &so)) {
		cli_err(cmd, "out of memory", "cannot plan the run");
		return MDC_EXIT_LOCAL;
	}
	/* once to learn the point's length, once with its repeats */
	for (pass = 0, rc = 0; pass < 2 && !rc; pass++) {
		calib_plan_free(p);
		rc = calib_plan_delays(p, so, delay, n, per, mix);
		if (!rc)
			per = ll_repeats(a, p);
	}
	calib_sockets_free(so, 1);
	if (rc) {
		cli_err(cmd, "out of memory", "cannot plan the run");
		return MDC_EXIT_LOCAL;
	}
	if (a->size_given && a->size[0] < p->pool_bytes) {
		run_fmt_size(sz, sizeof(sz), a->size[0]);
		run_fmt_size(need, sizeof(need), p->pool_bytes);
		return cli_usage(cmd, "option '--size': %s is under the %s the generators' pool needs (%u x the last-level cache of their CPUs, so that no point is served from the cache): leave --size out, or give more",
				 sz, need, CALIB_LLC_TIMES);
	}
	/* more than MemAvailable: kern_alloc()'s budget refuses it */
	if (a->size_given)
		p->pool_bytes = a->size[0];
	return MDC_EXIT_OK;
}

/* Delay @d's row from its @per samples @s; false when it was cut short. */
static bool ll_row(const struct calib_sample *s, unsigned int per,
		   unsigned long delay, struct ll_row *r)
{
	double ns[CALIB_MAX_REPEATS], gbps[CALIB_MAX_REPEATS];
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->delay = delay;
	for (i = 0; i < per; i++) {
		if (s[i].stopped)
			return false;
		ns[i] = s[i].ns;
		gbps[i] = s[i].sec > 0 ? (double)(s[i].gen.read +
						  s[i].gen.write) /
					 s[i].sec / 1e9 : 0;
		r->timed.sec += s[i].sec;
	}
	r->timed.reps = per;
	r->timed.parts = 1;	/* each repetition one chase, one phase */
	calib_summarize(s, per, 1, &r->sum);
	kern_stats(ns, per, &r->ns);
	kern_stats(gbps, per, &r->gbps);
	return true;
}

/* The head's lines: what was chased and how, and what loaded it. */
static void ll_head(struct printer *p, const struct run_args *a,
		    const struct kern_cfg *cfg, const struct calib_plan *pl,
		    const struct kern_pages *pg, enum kern_mix mix)
{
	uint64_t page = kern_pages_size(pg);
	char chase[32], pool[32], llc[32], pgsz[32] = "?";

	run_print_head(p, a);
	run_fmt_size(chase, sizeof(chase), pl->chase_bytes);
	run_fmt_size(pool, sizeof(pool), pl->pool_bytes);
	run_fmt_size(llc, sizeof(llc), pl->llc_bytes);
	if (page)
		run_fmt_size(pgsz, sizeof(pgsz), page);
	print_textf(p, "pointer chase on CPU %d over %s in %s pages (huge pages asked for), every line flushed (clflush) before its segment of %zu loads is chased; the median, p90 and p99 of its segments per row\n",
		    cfg->cpu[0], chase, pgsz, pl->seg);
	print_string(p, PRINT_ANY, "mix", "%s", kern_mix_name[mix]);
	print_textf(p, " traffic from %u generator%s over one pool of %s (%s%s x the %s last-level cache of their CPUs), as calibrate measures\n",
		    cfg->nthreads - 1, cfg->nthreads == 2 ? "" : "s", pool,
		    a->size_given ? "--size, >= " : "",
		    a->size_given ? "4" : "at least 4", llc);
	print_u64(p, PRINT_JSON, "pool_bytes", "%" PRIu64, pl->pool_bytes);
	print_u64(p, PRINT_JSON, "chase_bytes", "%" PRIu64,
		  (uint64_t)pl->chase_bytes);
	print_u64(p, PRINT_JSON, "llc_bytes", "%" PRIu64, pl->llc_bytes);
	print_textf(p, "%8s %10s %8s %8s %10s %10s %8s %8s %10s %8s %10s %8s %6s\n",
		    "delay", "ns/load", "p90", "p99", "min", "max", "cov",
		    "cycles", "GB/s", "GB/s_cov", "traffic", "pages", "reps");
}

/* One row per delay measured (all, or those before Ctrl-C). */
static void ll_print(struct printer *p, const struct run_args *a,
		     const struct calib_plan *pl, const struct ll_row *r,
		     unsigned int n, const struct kern_pages *pg, size_t slot)
{
	double ghz = kern_tsc_ghz(), cyc;
	struct run_args huge = *a;
	char row[64];
	unsigned int i;

	print_open_array(p, "results");
	for (i = 0; i < n; i++) {
		cyc = ghz > 0 ? r[i].sum.latency_ns * ghz : NAN;
		run_result_open(p, a, pl->pool_bytes, &r[i].timed);
		print_u64(p, PRINT_ANY, "delay", "%8" PRIu64,
			  (uint64_t)r[i].delay);
		print_double(p, PRINT_ANY, "ns_per_load", " %10.2f",
			     r[i].sum.latency_ns);
		print_double(p, PRINT_JSON, "ns_per_load_p50", "%f",
			     r[i].sum.latency_ns);
		print_double(p, PRINT_ANY, "ns_per_load_p90", " %8.1f",
			     r[i].sum.latency_p90_ns);
		print_double(p, PRINT_ANY, "ns_per_load_p99", " %8.1f",
			     r[i].sum.latency_p99_ns);
		run_stats_json(p, "ns_per_load", &r[i].ns);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r[i].ns.min);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r[i].ns.max);
		snprintf(row, sizeof(row), "loaded-latency delay %lu",
			 r[i].delay);
		run_print_cov(p, " %8.4f", r[i].sum.cov, row);
		print_double(p, PRINT_ANY, "cycles_per_load", " %8.1f", cyc);
		print_double(p, PRINT_ANY, "gbps", " %10.2f",
			     r[i].gbps.median);
		run_stats_json(p, "gbps", &r[i].gbps);
		print_double(p, PRINT_ANY, "gbps_cov", " %8.4f",
			     r[i].gbps.cov);
		print_double(p, PRINT_ANY, "traffic_gbps", " %10.2f",
			     r[i].sum.bandwidth_gbps);
		print_double(p, PRINT_JSON, "read_gbps", "%f",
			     r[i].sum.read_gbps);
		print_double(p, PRINT_JSON, "write_gbps", "%f",
			     r[i].sum.write_gbps);
		/* the same chase for every delay: the same pages */
		run_print_pages(p, pg);
		print_uint(p, PRINT_TEXT, NULL, " %6u\n", r[i].timed.reps);
		print_uint(p, PRINT_JSON, "repeats_kept", "%u",
			   r[i].sum.repeats);
		print_string(p, PRINT_JSON, "verified", "%s", NULL);
		print_u64(p, PRINT_JSON, "loads", "%" PRIu64,
			  (uint64_t)(pl->seg * pl->segs));
		run_result_close(p, a, slot + i);
	}
	print_close_array(p);
	/* the chase always asks for huge pages, as calibrate's does */
	huge.hugepages = true;
	run_check_hugepages(&huge, pg, "loaded-latency's chase");
	counters_text(p, a->counters, "delay");
	print_double(p, PRINT_ANY, "tsc_ghz",
		     "ns/load, p90, p99: the chase's segments; GB/s: the generators' own bytes, traffic: with the chase's, over each repeat's time; cycles: TSC cycles at %.3f GHz\n",
		     ghz > 0 ? ghz : NAN);
}

/* Run @pl with the run's CPUs and counters: the samples, or NULL. */
static struct calib_sample *ll_measure(const char *cmd,
				       const struct kern_cfg *cfg,
				       const struct calib_plan *pl,
				       struct ll_state *st,
				       struct kern_pages *pg)
{
	struct calib_sample *s = calloc(pl->npt, sizeof(*s));
	struct calib_params prm = {
		.pool_bytes = pl->pool_bytes, .chase_bytes = pl->chase_bytes,
		.seg = pl->seg, .segs = (unsigned int)pl->segs,
		.pt = pl->pt, .npt = pl->npt, .stop = &run_interrupted,
		.chase_pages = pg,
	};
	struct kern_cfg c = *cfg;
	char err[200];

	if (!s) {
		cli_err(cmd, "out of memory", "no room for the samples");
		return NULL;
	}
	c.reps = 1;
	c.min_time = 0;
	c.hugepages = true;	/* the chase's; the pool never asks */
	c.progress = NULL;	/* ll_mark() shows it per delay */
	c.mark = ll_mark;
	c.mark_arg = st;
	/* a stop ends the chase between segments; the run itself ends */
	c.stop = NULL;
	if (calib_run(&c, &prm, s, err, sizeof(err))) {
		cli_err(cmd, "loaded-latency failed", "%s", err);
		free(s);
		return NULL;
	}
	return s;
}

static int loaded_latency_main(const char *cmd, struct printer *p,
			       const struct run_args *a,
			       const struct kern_cfg *cfg, bool *printed)
{
	const struct loaded_latency_args *o = a->opts;
	unsigned long delay[RUN_MAX_LIST];
	char label[RUN_MAX_LIST][24];
	const char *lp[RUN_MAX_LIST];
	struct ll_state st = { .cfg = cfg, .delay = delay };
	struct calib_plan pl = { 0 };
	struct kern_pages pg = { 0 };
	struct calib_sample *s;
	struct ll_row r[RUN_MAX_LIST];
	unsigned int i, n, done, mixes = 1u << KERN_MIX_READ;
	enum kern_mix mix = KERN_MIX_READ;
	size_t slot;
	int rc;

	n = (unsigned int)o->delay.n;
	for (i = 0; i < n; i++)
		delay[i] = (unsigned long)o->delay.v[i];
	if (cfg->nthreads < 2)
		return cli_usage(cmd, "option '--threads': kernel 'loaded-latency' needs at least 2 threads (one chases pointers, the others load the memory), e.g. --threads 2");
	if (o->mix) {
		rc = run_parse_names(cmd, "--mix", "mix", o->mix, kern_mix_name,
				     KERN_NR_MIXES, false, &mixes);
		if (rc)
			return rc;
		for (i = 0; i < KERN_NR_MIXES; i++)
			if (mixes & (1u << i))
				mix = (enum kern_mix)i;
	}
	rc = ll_plan(cmd, a, cfg, delay, n, mix, &pl);
	if (rc)
		goto out;
	for (i = 0; i < n; i++) {
		snprintf(label[i], sizeof(label[i]), "%lu", delay[i]);
		lp[i] = label[i];
	}
	st.ndelay = n;
	st.per = pl.npt / n;
	/* each delay is a phase of the run: a slot each */
	slot = counters_next(a->counters, n, lp);
	/* one run: its time left is the whole run's */
	run_progress_plan(cfg, 1, NULL);
	s = ll_measure(cmd, cfg, &pl, &st, &pg);
	rc = MDC_EXIT_LOCAL;
	if (!s)
		goto out;
	rc = MDC_EXIT_OK;
	for (done = 0; done < n; done++)
		if (!ll_row(s + done * st.per, st.per, delay[done], &r[done]))
			break;
	free(s);
	if (!done)	/* Ctrl-C before the first delay was measured */
		goto out;
	ll_head(p, a, cfg, &pl, &pg, mix);
	ll_print(p, a, &pl, r, done, &pg, slot);
	*printed = true;
out:
	calib_plan_free(&pl);
	return rc;
}

/* 0: the pool is sized from the CPUs' last-level caches (ll_plan()) */
const struct run_kernel run_loaded_latency = {
	/* its paragraph of run --help, lines of at most 59 columns */
	.help =
		"latency under load, measured as calibrate measures\n"
		"it: the flushed chase (64M in huge pages, every line\n"
		"flushed before its segment of 512 loads) on the\n"
		"first CPU while the other threads run the traffic\n"
		"generator (--mix read, default, 2:1 or 1:1) over one\n"
		"shared pool, once per --delay: one row per delay with\n"
		"the median, p90 and p99 of the chase's segments, the\n"
		"generators' GB/s by their own byte count, and with\n"
		"the chase's (traffic) (2 threads or more, default\n"
		"every CPU; --size: the pool, at least 4 x the last-\n"
		"level cache of the threads' CPUs, which is the\n"
		"default; --delay: a comma list, default\n"
		"0,20,50,100,200,500,1000,2000,5000,20000)",
	.name = "loaded-latency", .default_size = 0,
	.no_whole = "its generators run exactly as long as its chase",
	.all_cpus = true, .params = loaded_latency_params,
	.opts_size = sizeof(struct loaded_latency_args),
	.opts_default = &loaded_latency_default, .run = loaded_latency_main,
};
