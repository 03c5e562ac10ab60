// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - the progress line of "memdiagctl run" (on a terminal
 * only: a pipe or a file gets the results alone) and the test hook that
 * stops a run as Ctrl-C would.
 */

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "progress_line.h"
#include "run/progress.h"

/* snprintf() at @off of @buf, never past its end; the new offset. */
static size_t add(char *buf, size_t size, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t add(char *buf, size_t size, size_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (off >= size)
		return off;
	va_start(ap, fmt);
	n = vsnprintf(buf + off, size - off, fmt, ap);
	va_end(ap);
	return n < 0 ? off : off + (size_t)n;
}

double run_progress_left(const struct run_progress *rp,
			 const struct kern_progress *pr, bool *whole)
{
	unsigned int cur = rp->runs_done, j;
	double left = pr->left_sec, w;

	*whole = cur < rp->nruns;
	if (!*whole || left < 0)
		return left;
	for (j = cur + 1; j < rp->nruns; j++) {
		if (!(pr->pace_sec > 0))
			return -1;	/* a later run, and no pace to guess it by */
		w = rp->equal || !(rp->work[cur] > 0) ? 1 :
		    rp->work[j] / rp->work[cur];
		/* each phase: --reps at least, and --min-time */
		left += pr->nphases * fmax(rp->min_time,
					   rp->reps * pr->pace_sec * w);
	}
	return left;
}

void run_progress_text(char *buf, size_t size, const struct run_progress *rp,
		       const struct kern_progress *pr)
{
	const char *what = rp->what;
	bool whole;
	double left = run_progress_left(rp, pr, &whole);
	const char *in = whole ? "" : " in this measurement";
	size_t o = 0;

	if (!size)
		return;
	buf[0] = '\0';
	o = add(buf, size, o, "%s%s%s: ", rp->name, *what ? " " : "", what);
	if (pr->by_phase && pr->nphases > 1)
		o = add(buf, size, o, "phase %u/%u%s%s, ", pr->phase + 1,
			pr->nphases, pr->name ? " " : "",
			pr->name ? pr->name : "");
	else if (pr->name)
		o = add(buf, size, o, "%s, ", pr->name);
	o = add(buf, size, o, "repetition %u of ~%u", pr->rep, pr->reps);
	/* whole seconds: a tenth would flicker with every repetition */
	if (left >= 1)
		add(buf, size, o, ", ~%.0f s left%s", left, in);
	else if (left >= 0)
		add(buf, size, o, ", <1 s left%s", in);
}

/*
 * The test hook MEMDIAG_TEST_SIGINT_AFTER=N raises SIGINT once N
 * measurements (a phase measured by itself, or all of a run's) are
 * complete, as a Ctrl-C at that moment would: the tests of the rows
 * printed after Ctrl-C need no race with the clock.
 */
void run_progress(void *arg, const struct kern_progress *pr)
{
	struct run_progress *rp = arg;
	bool last = pr->done && (!pr->by_phase ||
				 pr->phase + 1 == pr->nphases);
	char line[192];

	if (rp->tty) {
		run_progress_text(line, sizeof(line), rp, pr);
		progress_line_show(line);
		if (last)
			progress_line_end(false);
	}
	/* the run is over: the plan's next one comes */
	rp->runs_done += last;
	if (pr->done && ++rp->done == rp->sigint_after)
		raise(SIGINT);
}

void run_progress_init(struct run_progress *rp, const char *name)
{
	const char *s = getenv("MEMDIAG_TEST_SIGINT_AFTER");
	uint64_t n;
	char err[64];

	memset(rp, 0, sizeof(*rp));
	rp->name = name;
	rp->tty = progress_line_wanted();
	if (s && !parse_uint(s, 1, UINT32_MAX, &n, err, sizeof(err)))
		rp->sigint_after = (unsigned int)n;
}

void run_progress_what(const struct kern_cfg *cfg, const char *what)
{
	struct run_progress *rp = cfg->progress_arg;

	if (cfg->progress == run_progress && rp)
		snprintf(rp->what, sizeof(rp->what), "%s", what);
}

void run_progress_plan(const struct kern_cfg *cfg, unsigned int nruns,
		       const double *work)
{
	struct run_progress *rp = cfg->progress_arg;
	unsigned int i;

	if (cfg->progress != run_progress || !rp)
		return;
	rp->runs_done = 0;
	rp->reps = cfg->reps;
	rp->min_time = cfg->min_time;
	rp->equal = !work;
	/* more than it can list: the running one only, and said so */
	rp->nruns = work && nruns > RUN_PROGRESS_MAX_RUNS ? 0 : nruns;
	for (i = 0; work && i < rp->nruns; i++)
		rp->work[i] = work[i];
}
