// SPDX-License-Identifier: GPL-2.0
/*
 * harness.c - pinned threads, first-touched buffers placed (place.c) on
 * the NUMA node of the thread's CPU or the one asked for, each thread's
 * repetitions run by repeat.c; the clocks and statistics are timing.c's.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#include "kernel.h"
#include "repeat.h"

struct run {
	const struct kern_cfg *cfg;
	const struct kern_ops *ops;
	void *ctx;
	struct kern_loop loop;
	struct kern_bar loop_bar;	/* around each timed call */
	pthread_barrier_t bar;		/* around setup and teardown */
	pthread_mutex_t lock;
	pthread_cond_t gate;
	int go;			/* 1: all threads started, -1: give up */
	int failed;		/* some thread could not pin or set up */
	char err[256];	/* a refusal with its numbers fits */
};

struct worker {
	struct run *run;
	unsigned int tid;
	pthread_t th;
};

/* Keep the first failure: @oom says which. */
static void fail(struct run *r, bool oom, unsigned int tid, int cpu)
{
	pthread_mutex_lock(&r->lock);
	if (!r->failed) {
		r->failed = 1;
		if (oom) {
			char why[200];

			kern_oom(why, sizeof(why));
			snprintf(r->err, sizeof(r->err),
				 "thread %u (CPU %d): %s", tid, cpu, why);
		}
		else
			snprintf(r->err, sizeof(r->err),
				 "thread %u cannot be pinned to CPU %d: %s",
				 tid, cpu, strerror(errno));
	}
	pthread_mutex_unlock(&r->lock);
}

/* Pin the caller to its CPU and set it up: 1, or 0 (fail() says why). */
static int pin_and_setup(struct run *r, unsigned int tid)
{
	const struct kern_cfg *cfg = r->cfg;
	int cpu = cfg->cpu[tid], node;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		fail(r, false, tid, cpu);
		return 0;
	}
	/* pinned: the node is the CPU's for good */
	node = kern_place_begin(cfg);
	if (cfg->node)
		cfg->node[tid] = node;
	if (r->ops->setup(r->ctx, tid) < 0) {
		fail(r, true, tid, cpu);
		return 0;
	}
	if (cfg->mem_node)
		cfg->mem_node[tid] = kern_place_first_node();
	return 1;
}

static void *worker(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	int ok, failed;

	/* the barriers count every thread: wait until all exist */
	pthread_mutex_lock(&r->lock);
	while (!r->go)
		pthread_cond_wait(&r->gate, &r->lock);
	failed = r->go < 0;
	pthread_mutex_unlock(&r->lock);
	if (failed)
		return NULL;
	ok = pin_and_setup(r, w->tid);
	pthread_barrier_wait(&r->bar);
	pthread_mutex_lock(&r->lock);
	failed = r->failed;
	pthread_mutex_unlock(&r->lock);
	if (!failed) {
		kern_loop_run(&r->loop, w->tid);
		/*
		 * Teardown may touch memory (stream verifies its arrays): not
		 * before the last mark is done.
		 */
		pthread_barrier_wait(&r->bar);
	}
	if (ok && r->ops->teardown)
		r->ops->teardown(r->ctx, w->tid);
	return NULL;
}

/* Start the threads and wait for them; how many were started. */
static unsigned int run_threads(struct run *r, struct worker *w, char *err,
				size_t errsz)
{
	unsigned int i, started = 0, n = r->cfg->nthreads;
	int rc;

	for (i = 0; i < n; i++) {
		w[i].run = r;
		w[i].tid = i;
		rc = pthread_create(&w[i].th, NULL, worker, &w[i]);
		if (rc) {
			snprintf(err, errsz, "cannot start thread %u: %s", i,
				 strerror(rc));
			break;
		}
		started++;
	}
	pthread_mutex_lock(&r->lock);
	r->go = started < n ? -1 : 1;
	pthread_cond_broadcast(&r->gate);
	pthread_mutex_unlock(&r->lock);
	for (i = 0; i < started; i++)
		pthread_join(w[i].th, NULL);
	return started;
}

/*
 * How long the timed loop's threads spin at its barrier before they
 * sleep: longer than thread 0's bookkeeping and marks between two calls
 * and than most imbalance between threads at the end of a call, short
 * enough that a partner which is minutes behind costs little.
 */
#define LOOP_SPIN_SEC 2e-3

/* Whether every thread has a CPU of its own: only then may they spin. */
static bool cpus_distinct(const struct kern_cfg *cfg)
{
	unsigned int i, j;

	for (i = 0; i < cfg->nthreads; i++)
		for (j = 0; j < i; j++)
			if (cfg->cpu[i] == cfg->cpu[j])
				return false;
	return true;
}

int kern_run_timed(const struct kern_cfg *cfg, const struct kern_ops *ops,
		   void *ctx, struct kern_times *t, char *err, size_t errsz)
{
	struct worker *w;
	struct run r;
	unsigned int started;

	if (kern_times_init(t, ops) < 0) {
		snprintf(err, errsz, "no phase, too many values or out of memory");
		return -1;
	}
	if (!cfg->nthreads || cfg->nthreads > KERN_MAX_THREADS || !cfg->reps) {
		snprintf(err, errsz, "bad thread or repetition count");
		return -1;
	}
	if (cfg->timing == KERN_TIMING_WHOLE &&
	    (!ops->whole || (!ops->by_phase && ops->nphases > 1))) {
		snprintf(err, errsz, "this kernel cannot be timed whole");
		return -1;
	}
	memset(&r, 0, sizeof(r));
	r.cfg = cfg;
	r.ops = ops;
	r.ctx = ctx;
	r.loop.cfg = cfg;
	r.loop.ops = ops;
	r.loop.ctx = ctx;
	r.loop.times = t;
	r.loop.bar = &r.loop_bar;
	r.loop.parts = 1;
	r.loop.whole = cfg->timing == KERN_TIMING_WHOLE;
	r.loop.wait_before = INFINITY;
	kern_bar_init(&r.loop_bar, cfg->nthreads,
		      cpus_distinct(cfg) ? LOOP_SPIN_SEC : 0);
	w = calloc(cfg->nthreads, sizeof(*w));
	r.loop.done_at = calloc(cfg->nthreads, sizeof(*r.loop.done_at));
	r.loop.start_at = calloc(cfg->nthreads, sizeof(*r.loop.start_at));
	if (!w || !r.loop.done_at || !r.loop.start_at) {
		free(w);
		free(r.loop.done_at);
		free(r.loop.start_at);
		kern_oom(err, errsz);
		return -1;
	}
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.gate, NULL);
	pthread_barrier_init(&r.bar, NULL, cfg->nthreads);
	started = run_threads(&r, w, err, errsz);
	if (started == cfg->nthreads) {
		if (r.failed)
			snprintf(err, errsz, "%s", r.err);
		else if (r.loop.oom)
			kern_oom(err, errsz);
		else if (r.loop.stopped)
			snprintf(err, errsz, "interrupted");
	}
	pthread_barrier_destroy(&r.bar);
	pthread_cond_destroy(&r.gate);
	pthread_mutex_destroy(&r.lock);
	free(w);
	free(r.loop.done_at);
	free(r.loop.start_at);
	return started < cfg->nthreads || r.failed || r.loop.oom ||
	       r.loop.stopped ? -1 : 0;
}

double kern_tsc_ghz(void)
{
#if HAVE_TSC
	double t0, t1;
	uint64_t c0, c1;

	t0 = kern_now();
	c0 = __rdtsc();
	do
		t1 = kern_now();
	while (t1 - t0 < 0.05);
	c1 = __rdtsc();
	return (double)(c1 - c0) / ((t1 - t0) * 1e9);
#else
	return 0;
#endif
}

int kern_run(const struct kern_cfg *cfg, const struct kern_ops *ops,
	     void *ctx, double *sec, char *err, size_t errsz)
{
	struct kern_cfg fixed = *cfg;
	struct kern_times t;
	unsigned int rep, ph;
	int rc;

	if (ops->by_phase || ops->nvals) {
		snprintf(err, errsz, "%s() keeps times only", __func__);
		return -1;
	}
	fixed.min_time = 0;	/* exactly cfg->reps repetitions */
	rc = kern_run_timed(&fixed, ops, ctx, &t, err, errsz);
	for (ph = 0; !rc && ph < ops->nphases; ph++)
		for (rep = 0; rep < cfg->reps; rep++)
			sec[rep * ops->nphases + ph] = t.ph[ph].sec[rep];
	kern_times_free(&t);
	return rc;
}
