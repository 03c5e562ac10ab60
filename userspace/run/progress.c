// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - the progress line of "memdiagctl run" (on a terminal
 * only: a pipe or a file gets the results alone) and the test hook that
 * stops a run as Ctrl-C would.
 */

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
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

void run_progress_text(char *buf, size_t size, const char *kernel,
		       const char *what, const struct kern_progress *pr)
{
	size_t o = 0;

	if (!size)
		return;
	buf[0] = '\0';
	o = add(buf, size, o, "%s%s%s: ", kernel, what && *what ? " " : "",
		what ? what : "");
	if (pr->by_phase && pr->nphases > 1)
		o = add(buf, size, o, "phase %u/%u%s%s, ", pr->phase + 1,
			pr->nphases, pr->name ? " " : "",
			pr->name ? pr->name : "");
	else if (pr->name)
		o = add(buf, size, o, "%s, ", pr->name);
	o = add(buf, size, o, "repetition %u of ~%u", pr->rep, pr->reps);
	/* whole seconds: a tenth would flicker with every repetition */
	if (pr->left_sec >= 1)
		add(buf, size, o, ", ~%.0f s left", pr->left_sec);
	else if (pr->left_sec >= 0)
		add(buf, size, o, ", <1 s left");
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
	char line[160];

	if (rp->tty) {
		run_progress_text(line, sizeof(line), rp->name, rp->what, pr);
		fprintf(stderr, "\r\033[K%s", line);
		if (pr->done && (!pr->by_phase ||
				 pr->phase + 1 == pr->nphases))
			fprintf(stderr, "\r\033[K");
	}
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
	rp->tty = isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
	if (s && !parse_uint(s, 1, UINT32_MAX, &n, err, sizeof(err)))
		rp->sigint_after = (unsigned int)n;
}

void run_progress_what(const struct kern_cfg *cfg, const char *what)
{
	struct run_progress *rp = cfg->progress_arg;

	if (cfg->progress == run_progress && rp)
		snprintf(rp->what, sizeof(rp->what), "%s", what);
}
