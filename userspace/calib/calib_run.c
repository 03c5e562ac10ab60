// SPDX-License-Identifier: GPL-2.0
/*
 * calib_run.c - calibrate's measuring: the plan per socket, the time it
 * will take, the run with its progress bar and counters, and the curves
 * (calib_store.c keeps them).
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>

#include "calib_busy.h"
#include "calib_check.h"
#include "calib_cmd.h"
#include "calib_plan.h"
#include "calib_show.h"
#include "calib_store.h"
#include "cpulist.h"
#include "progress_line.h"
#include "counters/counters.h"

/* What the measuring of every socket shares. */
struct cal_state {
	const char *cmd;
	const struct cal_args *a;
	volatile sig_atomic_t *stop;
	struct counters rc;
	bool imc;		/* bandwidth from the counters */
	double load_sec;	/* a chased and flushed load, measured */
	double touch_sec;	/* first touch of a byte, measured */
	double cpu_share;	/* of a CPU a busy thread got just now, (0, 1] */
	/* the progress bar */
	bool tty;
	unsigned int done, total;
	double t0, est;
	unsigned int npt;
	const char *what;
};

/*
 * What one chased load (and its flush) and one first-touched byte cost
 * here, from a small chase: with calib_cpu_share(), enough to say how long
 * calibrating takes.
 */
/* Seconds to map and first-touch @bytes of small pages (the generators' kind). */
static double touch_sample(size_t bytes)
{
	double t0 = kern_now();
	char *p = kern_alloc(bytes, false);
	size_t i;

	if (p) {
		for (i = 0; i < bytes; i += 4096)
			p[i] = 1;
		kern_free(p, bytes);
	}
	return kern_now() - t0;
}

static void cal_measure_costs(struct cal_state *st)
{
	size_t bytes = 8u << 20;
	double t, best;
	int i;

	st->load_sec = kern_fchase_load_sec();
	/*
	 * The fastest of three: on the 480 MiB L3 Intel VM, right after the
	 * machine had idled, a sample took 8 to 15 times as long as the rest
	 * (19-42 ms against 2.4-2.8 ms for 8 MiB), once both of two in a row,
	 * and the estimate said 12-20 s for a calibration that took 3-4 s;
	 * the pool's own gigabytes did not pay it. A small touch is still
	 * faster than gigabytes of it here: twice as long.
	 */
	best = touch_sample(bytes);
	for (i = 1; i < 3; i++) {
		t = touch_sample(bytes);
		if (t < best)
			best = t;
	}
	st->touch_sec = 2 * best / (double)bytes;
}

static double cal_estimate(const struct cal_state *st,
			   const struct calib_plan *p)
{
	double bytes = (double)p->pool_bytes + (double)p->chase_bytes;

	/* under load a chased load costs more than idle: 1.5x */
	return (bytes * st->touch_sec + (double)p->npt * p->reps *
		calib_point_sec(p, st->load_sec * 1.5)) / st->cpu_share;
}

static void cal_bar(struct cal_state *st)
{
	double el = kern_now() - st->t0, frac, left;
	char bar[31], line[160];
	int i, n;

	frac = st->total ? (double)st->done / st->total : 1;
	n = (int)(frac * 30);
	for (i = 0; i < 30; i++)
		bar[i] = i < n ? '#' : '.';
	bar[30] = 0;
	left = frac > 0.02 ? el / frac - el : st->est - el;
	snprintf(line, sizeof(line), "%s [%s] %3.0f%%  %4.0f s left", st->what,
		 bar, frac * 100, left > 0 ? left : 0);
	progress_line_show(line);
	if (st->done == st->total)
		progress_line_end(true);
}

static void cal_mark(void *arg, enum kern_mark m, unsigned int rep,
		     unsigned int phase)
{
	struct cal_state *st = arg;

	if (st->imc)
		counters_mark(&st->rc, m == KERN_MARK_BEGIN,
			      rep * st->npt + phase);
	if (m == KERN_MARK_END) {
		st->done++;
		if (st->tty && !*st->stop)
			cal_bar(st);
	}
}

/*
 * With the counters, replace each sample's bytes and time by what the
 * memory controllers of socket @sock counted over it (slot @first + i):
 * the same statistics then run on true DRAM bytes.
 */
static void cal_use_imc(struct cal_state *st, size_t first, uint32_t sock,
			struct calib_sample *s, size_t n)
{
	const struct counters_slot *sl;
	const struct snap *sum;
	size_t i, j;

	for (i = 0; i < n; i++) {
		sl = &st->rc.slot[first + i];
		for (j = 0; j < st->rc.nr_sock && sl->sock[j].id != sock; j++)
			;
		if (sl->failed || j == st->rc.nr_sock || !sl->ns)
			continue;	/* kept: the kernels' own count */
		sum = &sl->sock[j].sum;
		s[i].gen.read = sum->v[MEMDIAG_A_SNAPSHOT_DRAM_READ_BYTES];
		s[i].gen.write = sum->v[MEMDIAG_A_SNAPSHOT_DRAM_WRITE_BYTES];
		s[i].chase_bytes = 0;
		s[i].sec = (double)sl->ns / 1e9;
	}
}

/* Summaries of every point of @p from the rep-major samples @s. */
static struct calib_summary *cal_summaries(const struct calib_plan *p,
					   const struct calib_sample *s)
{
	struct calib_summary *sum = calloc(p->npt, sizeof(*sum));
	unsigned int i;

	if (sum)
		for (i = 0; i < p->npt; i++)
			calib_summarize(s + i, p->reps, p->npt, &sum[i]);
	return sum;
}

/* Append the curves of @p's mixes to @out (prefetcher state @pf). */
static int cal_add_curves(struct curve_socket *out, const struct calib_plan *p,
			  const struct calib_summary *sum, enum curve_pf pf)
{
	struct curve_mix *m;
	unsigned int k;

	for (k = 0; k < KERN_NR_MIXES; k++) {
		m = realloc(out->mixes, (out->nr_mixes + 1) * sizeof(*m));
		if (!m)
			return -1;
		out->mixes = m;
		if (calib_curve(p, sum, (enum kern_mix)k, pf,
				&m[out->nr_mixes]) == 0)
			out->nr_mixes++;
	}
	return 0;
}

/* One socket in one prefetcher state: measure, and add its curves. */
static int cal_one(struct cal_state *st, const struct calib_socket *so,
		   const struct calib_plan *p, enum curve_pf pf,
		   struct curve_socket *out)
{
	struct calib_params prm = { 0 };
	struct calib_sample *s = NULL;
	struct calib_summary *sum = NULL;
	struct kern_cfg cfg = { 0 };
	const char **label = NULL;
	int *cpu = NULL, rc = MDC_EXIT_LOCAL;
	size_t n = (size_t)p->npt * p->reps, i, first = 0;
	char err[200], what[64];

	s = calloc(n, sizeof(*s));
	cpu = calloc(so->nr_cpu, sizeof(*cpu));
	label = calloc(n, sizeof(*label));
	if (!s || !cpu || !label) {
		cli_err(st->cmd, "out of memory", "%s", strerror(ENOMEM));
		goto out;
	}
	for (i = 0; i < so->nr_cpu; i++)
		cpu[i] = (int)so->cpu[i];
	for (i = 0; i < n; i++)
		label[i] = "point";
	if (st->imc)
		first = counters_next(&st->rc, n, label);
	cfg.nthreads = (unsigned int)so->nr_cpu;
	cfg.cpu = cpu;
	cfg.reps = p->reps;
	cfg.hugepages = true;
	cfg.mark = cal_mark;
	cfg.mark_arg = st;
	prm.pool_bytes = p->pool_bytes;
	prm.chase_bytes = p->chase_bytes;
	prm.seg = p->seg;
	prm.segs = (unsigned int)p->segs;
	prm.pt = p->pt;
	prm.npt = p->npt;
	prm.stop = st->stop;
	snprintf(what, sizeof(what), "socket %u, prefetch %s", so->id,
		 curve_pf_name(pf));
	st->what = what;
	st->npt = p->npt;
	if (calib_run(&cfg, &prm, s, err, sizeof(err))) {
		cli_err(st->cmd, "calibration failed", "%s", err);
		goto out;
	}
	if (*st->stop) {
		rc = MDC_EXIT_OK;
		goto out;
	}
	if (st->imc)
		cal_use_imc(st, first, so->id, s, n);
	sum = cal_summaries(p, s);
	if (!sum || cal_add_curves(out, p, sum, pf)) {
		cli_err(st->cmd, "out of memory", "%s", strerror(ENOMEM));
		goto out;
	}
	/* the idle chase of the first state measured is the socket's */
	if (!out->idle_latency_ns)
		out->idle_latency_ns = sum[0].latency_ns;
	rc = MDC_EXIT_OK;
out:
	free(sum);
	free(label);
	free(cpu);
	free(s);
	return rc;
}

/* The sockets to calibrate (--socket, or all), each with 2 CPUs or more. */
static int cal_select(struct cal_state *st, struct calib_socket *so,
		      size_t n, size_t *first, size_t *nsel)
{
	const struct cal_args *a = st->a;
	char list[128] = "";
	size_t i, len;

	*first = 0;
	*nsel = n;
	if (a->have_socket) {
		for (i = 0; i < n && so[i].id != a->socket; i++) {
			len = strlen(list);
			snprintf(list + len, sizeof(list) - len, "%s%u",
				 i ? ", " : "", so[i].id);
		}
		if (i == n) {
			for (; i < n; i++)
				;
			return cli_usage(st->cmd, "option '--socket': no socket %u here (this machine has: %s)",
					 a->socket, list[0] ? list : "none readable");
		}
		*first = i;
		*nsel = 1;
	}
	for (i = *first; i < *first + *nsel; i++) {
		struct calib_pf *pf;
		int rc;

		if (so[i].nr_cpu < 2) {
			cli_err(st->cmd, "nothing to calibrate",
				"socket %u has one CPU this process may use: the chase needs one and the traffic at least one more",
				so[i].id);
			return MDC_EXIT_UNAVAILABLE;
		}
		/* --prefetch: can they be switched? before promising a time */
		if (a->pf) {
			rc = calib_pf_open(st->cmd, so[i].id, &pf);
			if (rc)
				return rc;
			calib_pf_free(pf);
		}
	}
	return MDC_EXIT_OK;
}

/* The prefetcher states asked for, in order; 1 (unchanged) by default. */
static size_t cal_pf_states(const struct cal_args *a, enum curve_pf *pf)
{
	size_t n = 0;

	if (!a->pf)
		pf[n++] = CURVE_PF_UNCHANGED;
	if (a->pf & 1)
		pf[n++] = CURVE_PF_ON;
	if (a->pf & 2)
		pf[n++] = CURVE_PF_OFF;
	return n;
}

/*
 * After the curve: how starved its generators were, and the reference
 * reads its peak and 1-thread point are judged against. A failed read is
 * said and leaves the curve unchecked (judged without it).
 */
static void cal_check(struct cal_state *st, const struct calib_socket *so,
		      const struct calib_plan *p,
		      const struct calib_starve *starve,
		      struct curve_socket *out)
{
	char err[200];

	calib_starve_end(starve, &out->check);
	cli_info(st->cmd, "socket %u: checking the peak: read-delay over %.0f MiB on the %zu generator CPU%s%s",
		 so->id, (double)p->pool_bytes / 1048576.0,
		so->nr_cpu - 1, so->nr_cpu > 2 ? "s" : "",
		so->nr_cpu > 2 ? ", then on one" : "");
	if (calib_check_reads(so, p, &out->check, err, sizeof(err)))
		cli_err(st->cmd, "warning: the reference reads failed",
			"%s: the curve's peak is not checked", err);
}

/* Measure socket @so in every state of @pf into @out. */
static int cal_socket(struct cal_state *st, const struct calib_socket *so,
		      const struct calib_plan *plan, const enum curve_pf *pf,
		      size_t npf, struct curve_socket *out)
{
	struct calib_starve starve;
	struct calib_pf *ctl = NULL;
	char cpus[256];
	size_t k;
	int rc = MDC_EXIT_OK, rrc;

	cpulist_format(cpus, sizeof(cpus), so->cpu, so->nr_cpu);
	out->socket = so->id;
	out->cpus = strdup(cpus);
	out->chase_cpu = so->cpu[0];
	if (!out->cpus)
		return MDC_EXIT_LOCAL;
	if (pf[0] != CURVE_PF_UNCHANGED) {
		rc = calib_pf_open(st->cmd, so->id, &ctl);
		if (rc)
			return rc;
	}
	for (k = 0; k < npf && !rc && !*st->stop; k++) {
		if (ctl)
			rc = calib_pf_set(st->cmd, ctl, pf[k] == CURVE_PF_ON);
		if (rc)
			break;
		/* the first state's curves are the ones checked */
		if (!k)
			calib_starve_begin(&starve);
		rc = cal_one(st, so, plan, pf[k], out);
		if (!rc && !k && !*st->stop)
			cal_check(st, so, plan, &starve, out);
	}
	if (!rc && !*st->stop)
		curve_judge(out);
	if (ctl) {
		/* whatever happened above: put back what was found */
		rrc = calib_pf_close(st->cmd, ctl);
		if (!rc)
			rc = rrc;
	}
	return rc;
}

/* What the buffers may take: MemAvailable, or less with --max-memory. */
static uint64_t cal_budget(const struct cal_args *a, const char **from)
{
	uint64_t avail;

	if (!kern_mem_available(&avail)) {
		*from = a->max_memory ? "--max-memory" :
			"no limit known (no MemAvailable)";
		return a->max_memory ? a->max_memory : UINT64_MAX;
	}
	*from = "MemAvailable";
	if (a->max_memory && a->max_memory < avail) {
		*from = "--max-memory";
		return a->max_memory;
	}
	return avail;
}

/*
 * The plan of each of the @nsel sockets @so, printed through @pr (stderr
 * before a measurement, stdout for --plan) with its cost; the estimate of
 * all of them, or -1 (reported) when out of memory or over the budget.
 */
static double cal_plan_all(struct cal_state *st, const struct calib_socket *so,
			   size_t nsel, struct calib_plan *plan, size_t npf,
			   struct printer *pr)
{
	struct calib_opts co = { st->a->quick, st->a->mixes, st->a->reps };
	struct calib_plan_cost cost = { .npf = (unsigned int)npf };
	char why[512];
	double est = 0;
	size_t i;

	cost.budget = cal_budget(st->a, &cost.budget_from);
	/* every socket's plan checked before any is printed or measured */
	for (i = 0; i < nsel; i++) {
		if (calib_plan_make(&plan[i], &co, &so[i])) {
			cli_err(st->cmd, "out of memory", "%s", strerror(ENOMEM));
			return -1;
		}
		if (calib_plan_fits(&plan[i], cost.budget, cost.budget_from,
				    why, sizeof(why))) {
			cli_err(st->cmd, "not enough memory to calibrate",
				"socket %u: %s", so[i].id, why);
			return -1;
		}
	}
	print_open_array(pr, "plan");
	for (i = 0; i < nsel; i++) {
		cost.est_sec = cal_estimate(st, &plan[i]) * (double)npf;
		cost.llc_ratio = calib_plan_llc_ratio(&plan[i], &so[i]);
		est += cost.est_sec;
		st->total += plan[i].npt * plan[i].reps * (unsigned int)npf;
		calib_plan_show(pr, &so[i], &plan[i], &cost);
	}
	print_close_array(pr);
	return est;
}

int calib_main(const char *cmd, const struct opts *o,
	       const struct cal_args *a, volatile sig_atomic_t *stop)
{
	struct cal_state st = { .cmd = cmd, .a = a, .stop = stop };
	struct calib_socket *so = NULL;
	struct calib_plan *plan = NULL;
	struct curve c = { 0 };
	struct printer pr;
	enum curve_pf pf[2];
	size_t n, first = 0, nsel = 0, i, npf = cal_pf_states(a, pf);
	const char *live_pf;
	double est;
	int rc;

	/* the test hook, as "run" honours it: a fake machine's plan */
	n = calib_sockets(getenv("MEMDIAG_TEST_SYSFS_CPU"), &so);
	if (!n) {
		cli_err(cmd, "cannot read the CPU topology",
			"no online CPU with a physical_package_id under /sys/devices/system/cpu");
		return MDC_EXIT_LOCAL;
	}
	rc = cal_select(&st, so, n, &first, &nsel);
	if (rc)
		goto out;
	rc = calib_curve_dir_ok(cmd, a);
	if (rc)
		goto out;
	/* the sockets are alike: the first one's CPUs say how busy */
	st.cpu_share = a->plan_only ? 1 : calib_cpu_share(&so[first]);
	rc = MDC_EXIT_LOCAL;
	plan = calloc(nsel, sizeof(*plan));
	c.sockets = calloc(nsel, sizeof(*c.sockets));
	if (!plan || !c.sockets) {
		cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
		goto out;
	}
	/* --plan measures nothing: no counters to open */
	if (!a->plan_only)
		counters_open(&st.rc);
	st.imc = st.rc.on && st.rc.imc.available;
	c.source = st.imc ? CURVE_SRC_IMC : CURVE_SRC_KERNEL;
	if (!st.imc && !a->plan_only)
		cli_info(cmd, "counter-free: bandwidth from the generators' own byte counts (%s)",
			 st.rc.on ? st.rc.imc.reason : st.rc.reason);
	cal_measure_costs(&st);
	if (a->plan_only)
		print_init(&pr, stdout, o->json, o->pretty);
	else
		print_init(&pr, stderr, false, false);
	print_open_object(&pr, NULL);
	est = cal_plan_all(&st, so + first, nsel, plan, npf, &pr);
	print_close_object(&pr);
	if (est < 0) {
		/* nothing was printed: the plans are checked first */
		rc = MDC_EXIT_UNAVAILABLE;
		goto out;
	}
	if (a->plan_only) {
		rc = cli_output_end(cmd, &pr);
		goto out;
	}
	print_end(&pr);
	cli_info(cmd, "about %.0f s in all; Ctrl-C stops and stores nothing",
		 est);
	/* the estimate holds only while the machine stays as busy */
	if (st.cpu_share < 0.9)
		cli_info(cmd, "the machine is busy: a thread got %.0f %% of a CPU just now, and the estimate assumes it keeps that share",
			 st.cpu_share * 100);
	/*
	 * The state the "unchanged" curves are measured in, and the one
	 * --prefetch on,off puts back: read before anything is switched.
	 */
	live_pf = calib_pf_live(cmd);
	st.tty = progress_line_wanted();
	st.est = est;
	st.t0 = kern_now();
	for (i = 0; i < nsel && !*stop; i++) {
		rc = cal_socket(&st, &so[first + i], &plan[i], pf, npf,
				&c.sockets[i]);
		c.nr_sockets++;
		if (rc)
			goto out;
	}
	if (*stop) {
		cli_err(cmd, "interrupted", "nothing stored");
		rc = MDC_EXIT_OK;
		goto out;
	}
	cli_info(cmd, "took %.0f s", kern_now() - st.t0);
	curve_fp_collect(&c.fp, live_pf);
	rc = calib_store(cmd, a, o, &c);
out:
	counters_close(&st.rc);
	for (i = 0; plan && i < nsel; i++)
		calib_plan_free(&plan[i]);
	free(plan);
	curve_free(&c);
	calib_sockets_free(so, n);
	return rc;
}
