// SPDX-License-Identifier: GPL-2.0
/*
 * repeat.c - the timed repetition loop every kernel runs in (harness.c's
 * threads call kern_loop_run()): which phase and repetition comes next,
 * until each measurement has at least cfg->reps repetitions and
 * cfg->min_time seconds timed in all (likwid-bench's -s), and the series
 * of times and kernel values that come out of it.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "repeat.h"

const char *const kern_timing_name[KERN_NR_TIMINGS] = {
	"repetition", "whole"
};

/* Whether phase @ph's measurement has run enough repetitions. */
static bool enough(const struct kern_loop *l, unsigned int ph)
{
	const struct kern_series *s = &l->times->ph[ph];

	if (s->reps >= KERN_MAX_REPS)
		return true;
	if (l->whole)	/* min_time sized each repetition instead */
		return s->reps >= l->cfg->reps;
	return s->reps >= l->cfg->reps && s->total >= l->cfg->min_time;
}

/* The repetitions phase @ph will have: what min-time asks, at least reps. */
static unsigned int estimate(const struct kern_loop *l, unsigned int ph)
{
	const struct kern_series *s = &l->times->ph[ph];
	double per, want = l->cfg->reps;

	if (s->reps && s->total > 0 && l->cfg->min_time > 0 && !l->whole) {
		per = s->total / s->reps;
		want = fmax(want, ceil(l->cfg->min_time / per));
	}
	return want > KERN_MAX_REPS ? KERN_MAX_REPS : (unsigned int)want;
}

/*
 * Lengthening a repetition (kern_ops.lengthen). Each repetition ends at
 * a barrier, so its time is the slowest thread's: when the threads'
 * pace varies from one body() call to the next (DRAM shared by many
 * cores, a vCPU the host slows for some milliseconds), every repetition
 * loses the spread, while a peer whose threads meet once per run
 * (likwid-bench) loses it once. More calls per repetition average the
 * spread out before the barrier. The first repetition of a phase whose
 * threads waited more than LENGTHEN_WAIT of their time is thrown away
 * and the calls per repetition doubled, while the longer repetition
 * stays under LENGTHEN_MAX_SEC (a repetition much longer than that is
 * preempted somewhere on a shared machine, and the run gets long) and
 * while doubling helps: a spread that averages out shrinks by about
 * 1/sqrt(2) a doubling, one that is steady (a vCPU slower than the
 * others all along) does not shrink, and longer repetitions cannot win
 * it back; a doubled repetition that waited more than LENGTHEN_KEEP of
 * the one before is kept.
 */
#define LENGTHEN_WAIT 0.02
#define LENGTHEN_KEEP 0.8
#define LENGTHEN_MAX_SEC 0.5
#define LENGTHEN_MAX_PARTS 1024u

/*
 * Whole timing (kern_cfg.timing): the threads meet once per repetition,
 * which is as many calls on each thread as last cfg->min_time, as
 * likwid-bench sizes its iterations to last -s. Each phase's first call
 * after the warm-up is one call, timed and thrown away; the calls are
 * then scaled to min_time with a margin (WHOLE_MARGIN), by at most
 * WHOLE_GROWTH at a time, and the sizing repeated until a repetition
 * lasts min_time. That count is kept for the phase, whatever later
 * repetitions take: fixed work per thread, as likwid-bench's -i.
 */
#define WHOLE_MARGIN 1.1
#define WHOLE_GROWTH 1024.0
#define WHOLE_MAX_PARTS (1u << 24)

/* Whether the call just timed (@sec) sized the phase's parts (above). */
static bool resized(struct kern_loop *l, double sec)
{
	double want;

	if (!l->whole || l->sized)
		return false;
	if (sec >= l->cfg->min_time || l->parts >= WHOLE_MAX_PARTS) {
		l->sized = true;
		return false;
	}
	want = ceil(WHOLE_MARGIN * l->cfg->min_time / fmax(sec, 1e-9) *
		    l->parts);
	want = fmin(want, WHOLE_GROWTH * l->parts);
	l->parts = want > WHOLE_MAX_PARTS ? WHOLE_MAX_PARTS :
		   (unsigned int)want;
	return true;
}

/*
 * Warming up (kern_ops.warm): the calls of a run's first WARM_SEC are
 * timed and thrown away. On the Ice Lake VM of kernels.rst the first few
 * hundred milliseconds of a two-thread stream run were slow and uneven
 * whatever ran on the CPUs before it (copy at L2: 106-130 GB/s and a
 * coefficient of variation of 0.3 in a 0.2 s measurement, 147-157 and
 * 0.02-0.06 after half a second thrown away), which a peer that times
 * one long run after a calibration (likwid-bench) hardly sees; STREAM
 * drops its first pass for the same reason. Not with counters, whose
 * marked spans must be the calls kept.
 */
#define WARM_SEC 0.5

/* Whether the call just timed (@sec) is thrown away to warm up (above). */
static bool warming(struct kern_loop *l, double sec)
{
	if (!l->ops->warm || l->cfg->mark || l->warmed >= WARM_SEC)
		return false;
	l->warmed += sec;
	return true;
}

/* Append one call's time, wait share and values to @s, the time and
 * values divided by its @parts; -1 when out of memory. */
static int series_push(struct kern_series *s, unsigned int nvals,
		       double sec, double wait, const double *val,
		       unsigned int parts)
{
	unsigned int cap = s->cap ? 2 * s->cap : 16, i;
	double *p;

	if (s->reps == s->cap) {
		p = realloc(s->sec, cap * sizeof(*p));
		if (!p)
			return -1;
		s->sec = p;
		p = realloc(s->wait, cap * sizeof(*p));
		if (!p)
			return -1;
		s->wait = p;
		if (nvals) {
			p = realloc(s->val, (size_t)cap * nvals * sizeof(*p));
			if (!p)
				return -1;
			s->val = p;
		}
		s->cap = cap;
	}
	s->sec[s->reps] = sec / parts;
	s->wait[s->reps] = wait;
	for (i = 0; i < nvals; i++)
		s->val[(size_t)s->reps * nvals + i] = val[i] / parts;
	s->reps++;
	s->total += sec;
	s->parts = parts;
	return 0;
}

/*
 * Whether the call of phase @ph just timed (@sec, @wait) is thrown away
 * for one of twice the parts (above). Never with counters marking the
 * calls, whose spans the kernel's byte counts must match; never for
 * phases that share repetitions (!by_phase with several), whose earlier
 * phases already kept a repetition of the old length.
 */
static bool lengthened(struct kern_loop *l, unsigned int ph, double sec,
		       double wait)
{
	const struct kern_ops *ops = l->ops;

	if (!ops->lengthen || l->whole || l->cfg->mark ||
	    l->cfg->nthreads < 2 ||
	    (!ops->by_phase && ops->nphases > 1))
		return false;
	if (l->times->ph[ph].reps)
		return false;
	if (!(wait > LENGTHEN_WAIT) || 2 * sec > LENGTHEN_MAX_SEC ||
	    l->parts >= LENGTHEN_MAX_PARTS ||
	    wait > LENGTHEN_KEEP * l->wait_before) {
		l->wait_before = INFINITY;	/* the next phase starts afresh */
		return false;
	}
	l->wait_before = wait;
	l->parts *= 2;
	return true;
}

/*
 * Seconds phase @ph has left: its repetitions to come at its pace so
 * far; one not yet started is guessed at @pace per repetition, as long
 * as --min-time or cfg->reps of them take. -1: no pace known.
 */
static double left_of(const struct kern_loop *l, unsigned int ph, double pace)
{
	const struct kern_series *s = &l->times->ph[ph];
	unsigned int want = estimate(l, ph);

	if (s->reps && s->total > 0)
		pace = s->total / s->reps;
	if (pace <= 0)
		return -1;
	if (!s->reps)
		return fmax(l->cfg->min_time, l->cfg->reps * pace);
	return want > s->reps ? (want - s->reps) * pace : 0;
}

/*
 * What the run has left after a call of phase @ph. By phase: this one's
 * repetitions and those of the phases after it. Else every repetition
 * runs every phase: the repetitions to come (@reps, the most any phase
 * needs, less those done) at the sum of the phases' paces.
 */
static double left_sec(const struct kern_loop *l, unsigned int ph,
		       unsigned int reps)
{
	const struct kern_series *s = &l->times->ph[ph];
	double pace = s->reps ? s->total / s->reps : 0, left = 0, t;
	unsigned int i;

	if (!l->ops->by_phase) {
		for (i = 0, pace = 0; i < l->ops->nphases; i++) {
			s = &l->times->ph[i];
			if (!s->reps)
				return -1;
			pace += s->total / s->reps;
		}
		return reps > s->reps ? (reps - s->reps) * pace : 0;
	}
	for (i = ph; i < l->ops->nphases; i++) {
		t = left_of(l, i, pace);
		if (t < 0)
			return -1;
		left += t;
	}
	return left;
}

/* Seconds per repetition of a phase, over every phase timed; -1: none. */
static double pace_sec(const struct kern_loop *l)
{
	double sec = 0;
	unsigned int i, reps = 0;

	for (i = 0; i < l->ops->nphases; i++) {
		sec += l->times->ph[i].total;
		reps += l->times->ph[i].reps;
	}
	return reps ? sec / reps : -1;
}

static void progress(struct kern_loop *l, unsigned int ph, bool done)
{
	struct kern_progress pr = { .phase = ph,
				    .nphases = l->ops->nphases,
				    .by_phase = l->ops->by_phase, .done = done };
	unsigned int i, e;

	if (!l->cfg->progress)
		return;
	pr.rep = l->times->ph[ph].reps;
	pr.reps = estimate(l, ph);
	for (i = 0; !pr.by_phase && i < pr.nphases; i++) {
		e = estimate(l, i);
		pr.reps = e > pr.reps ? e : pr.reps;
	}
	if (l->ops->phase_name && (pr.by_phase || pr.nphases == 1))
		pr.name = l->ops->phase_name(l->ctx, ph);
	pr.left_sec = left_sec(l, ph, pr.reps);
	pr.pace_sec = pace_sec(l);
	l->cfg->progress(l->cfg->progress_arg, &pr);
}

/*
 * Thread 0, once every thread has finished the call: keep its time and
 * values, then pick the next call (l->phase, l->rep) or end the loop.
 * Repetition-major: every phase once per repetition, until each phase
 * has enough. By phase: one phase until it has enough, then the next.
 */
static void finish_call(struct kern_loop *l, double sec, double wait)
{
	const struct kern_cfg *cfg = l->cfg;
	unsigned int ph = l->phase, nph = l->ops->nphases, i;
	double val[KERN_MAX_VALS] = { 0 };
	bool more = false;

	if (l->marked)
		cfg->mark(cfg->mark_arg, KERN_MARK_END, l->rep, ph);
	l->marked = false;
	if (l->ops->collect)
		l->ops->collect(l->ctx, ph, val);
	if (warming(l, sec))
		return;		/* the same repetition again, kept this time */
	if (resized(l, sec))
		return;		/* the same repetition again, whole */
	if (lengthened(l, ph, sec, wait))
		return;		/* the same repetition again, longer */
	if (series_push(&l->times->ph[ph], l->ops->nvals, sec, wait, val,
			l->parts) < 0) {
		l->oom = 1;
		l->end = 1;
		return;
	}
	if (l->ops->by_phase) {
		more = !enough(l, ph);
		progress(l, ph, !more);
		if (more) {
			l->rep++;
			return;
		}
		l->times->done = ph + 1;
		l->end = ph + 1 == nph;
		l->phase = ph + 1;
		l->rep = 0;
		if (l->whole) {	/* the next phase is sized on its own */
			l->parts = 1;
			l->sized = false;
		}
		return;
	}
	if (ph + 1 < nph) {
		l->phase = ph + 1;
		return;
	}
	for (i = 0; i < nph; i++)
		more = more || !enough(l, i);
	progress(l, ph, !more);
	if (!more)
		l->times->done = nph;
	l->end = !more;
	l->phase = 0;
	l->rep++;
}

static double wait_share(const struct kern_loop *l, double t0);
static double whole_sec(const struct kern_loop *l, double *wait);

/* Thread 0 at the barrier that ends a call: its time and wait kept. */
static void end_call(struct kern_loop *l, double t0)
{
	double sec, wait;

	if (l->whole) {
		sec = whole_sec(l, &wait);
	} else {
		sec = kern_now() - t0;
		wait = wait_share(l, t0);
	}
	finish_call(l, sec, wait);
}

void kern_loop_run(struct kern_loop *l, unsigned int tid)
{
	const struct kern_cfg *cfg = l->cfg;
	double t0 = 0;
	unsigned int k;

	for (;;) {
		/*
		 * The others are past the previous barrier and wait at the
		 * next one: nothing runs while thread 0 decides and marks.
		 */
		if (l->end)
			;	/* all measured: a stop now stops nothing */
		else if (!tid && cfg->stop && *cfg->stop)
			l->stopped = 1;
		else if (!tid && cfg->mark && (!l->whole || l->sized)) {
			/* a call that sizes a whole repetition is not kept */
			cfg->mark(cfg->mark_arg, KERN_MARK_BEGIN, l->rep,
				  l->phase);
			l->marked = true;
		}
		kern_bar_wait(l->bar);
		/* the barrier orders thread 0's decisions for all */
		if (l->stopped || l->end)
			break;
		t0 = kern_now();
		if (l->start_at)
			l->start_at[tid] = t0;
		for (k = 0; k < l->parts; k++)
			l->ops->body(l->ctx, tid, l->phase);
		if (l->done_at)
			l->done_at[tid] = kern_now();
		kern_bar_wait(l->bar);
		if (!tid)
			end_call(l, t0);
	}
}

/*
 * A whole-timed call's time: the slowest thread's own, from its start
 * past the barrier to its end, as likwid-bench keeps the slowest
 * thread's runtime; in @wait the share of the threads' time from the end
 * of each one's run to the end of the slowest one's (NAN with one).
 */
static double whole_sec(const struct kern_loop *l, double *wait)
{
	unsigned int i, n = l->cfg->nthreads;
	double span, slowest = 0, sum = 0;

	for (i = 0; i < n; i++)
		slowest = fmax(slowest, l->done_at[i] - l->start_at[i]);
	*wait = NAN;
	if (n < 2 || slowest <= 0)
		return slowest;
	for (i = 0; i < n; i++) {
		span = l->done_at[i] - l->start_at[i];
		sum += slowest - span;
	}
	*wait = sum / ((double)n * slowest);
	return slowest;
}

/*
 * The share of the threads' time in the call that began at @t0 spent
 * waiting for the slowest: each thread's wait from the end of its part
 * to the end of the slowest one's, over the threads times the slowest
 * one's time. NAN with one thread (or no record of the ends).
 */
static double wait_share(const struct kern_loop *l, double t0)
{
	unsigned int i, n = l->cfg->nthreads;
	double last = t0, sum = 0;

	if (n < 2 || !l->done_at)
		return NAN;
	for (i = 0; i < n; i++)
		if (l->done_at[i] > last)
			last = l->done_at[i];
	if (last <= t0)
		return NAN;
	for (i = 0; i < n; i++)
		sum += last - fmax(l->done_at[i], t0);
	return sum / ((double)n * (last - t0));
}

struct kern_timed kern_timed_of(const struct kern_series *s)
{
	struct kern_timed t = { s->reps, s->total, NAN, s->parts };
	struct kern_stats st;
	double *w;
	unsigned int i, n = 0;

	if (!s->reps || !s->wait)
		return t;
	w = malloc(s->reps * sizeof(*w));
	if (!w)
		return t;	/* no memory for the median: unknown */
	for (i = 0; i < s->reps; i++)
		if (!isnan(s->wait[i]))
			w[n++] = s->wait[i];
	if (n) {
		kern_stats(w, n, &st);
		t.wait = st.median;
	}
	free(w);
	return t;
}

int kern_times_init(struct kern_times *t, const struct kern_ops *ops)
{
	memset(t, 0, sizeof(*t));
	if (!ops->nphases || ops->nvals > KERN_MAX_VALS)
		return -1;
	t->ph = calloc(ops->nphases, sizeof(*t->ph));
	if (!t->ph)
		return -1;
	t->nphases = ops->nphases;
	t->nvals = ops->nvals;
	return 0;
}

void kern_times_free(struct kern_times *t)
{
	unsigned int i;

	for (i = 0; t->ph && i < t->nphases; i++) {
		free(t->ph[i].sec);
		free(t->ph[i].wait);
		free(t->ph[i].val);
	}
	free(t->ph);
	memset(t, 0, sizeof(*t));
}
