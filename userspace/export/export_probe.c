// SPDX-License-Identifier: GPL-2.0
/*
 * export_probe.c - "memdiagctl export --probe": where the module's
 * counters are out of reach, the counter-free probe's sample every
 * interval (probe_sample.c), published as export_estimate.c renders it.
 * The chase runs on this thread, pinned to the curve's chase CPU as
 * "memdiagctl probe" does; scrapes copy the last text as in counter mode.
 */

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "calib_plan.h"
#include "cli.h"
#include "export_daemon.h"
#include "probe_sample.h"

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int export_probe_curve(struct exporter *x)
{
	bool bad_file;

	x->probe_curve = probe_curve_find(x->curve_path, x->est.socket,
					  &x->curve, x->probe_why,
					  sizeof(x->probe_why), &bad_file);
	if (bad_file) {
		/* x->probe_why names the file and what is wrong with it */
		cli_err("export", "cannot read the curves", "%s", x->probe_why);
		return MDC_EXIT_LOCAL;
	}
	if (x->probe_curve)
		export_estimate_curve_time(&x->est, x->curve.created);
	return MDC_EXIT_OK;
}

static int pin(const struct curve_socket *s)
{
	cpu_set_t set;

	if (!s)
		return 0;	/* no curve: any CPU measures the latency */
	CPU_ZERO(&set);
	CPU_SET(s->chase_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) == 0)
		return 0;
	cli_err("export", "cannot pin the chase", "CPU %u: %s", s->chase_cpu,
		strerror(errno));
	return -1;
}

/* Whether @sfd says stop (SIGINT, SIGTERM) within @timeout ms: 1, 0, -1. */
static int wait_signal(int sfd, int timeout)
{
	struct pollfd pfd = { .fd = sfd, .events = POLLIN };
	struct signalfd_siginfo si;
	int ret = poll(&pfd, 1, timeout);

	if (ret < 0)
		return errno == EINTR ? 0 : -1;
	if (ret == 0)
		return 0;
	if (read(sfd, &si, sizeof(si)) == sizeof(si) &&
	    si.ssi_signo != SIGPIPE)
		return 1;
	return 0;
}

int export_probe_run(struct exporter *x, int sfd)
{
	const struct curve_socket *s = x->probe_curve;
	const char *why = x->probe_why;
	struct probe_sample ps;
	struct kern_fchase fc;
	uint64_t next, now;
	int rc = MDC_EXIT_OK, st;

	if (s)
		export_note(x, "estimates from the curve of socket %u",
			    x->est.socket);
	else
		export_note(x, "no estimate, the latency only: %s", why);
	if (pin(s) < 0)
		return MDC_EXIT_LOCAL;
	if (kern_fchase_init(&fc, CALIB_CHASE_BYTES, PROBE_SEG, true, 11)) {
		cli_err("export", "cannot set up the chase", "out of memory");
		return MDC_EXIT_LOCAL;
	}
	/* the first chase pays for page faults and TLB fills: not served */
	probe_sample_take(&fc, s, why, NULL, &ps);
	next = now_ms();
	for (;;) {
		probe_sample_take(&fc, s, why, NULL, &ps);
		x->est.have = true;
		x->est.latency_ns = ps.pct.p50;
		x->est.noise_ns = ps.noise_ns;
		x->est.est = ps.est;
		x->est.samples++;
		x->est.cpu_sec += ps.cpu_sec;
		export_publish(x);
		/* the next sample one interval on; skip those already missed */
		next += x->interval_ms;
		if (next < now_ms())
			next = now_ms() + x->interval_ms;
		now = now_ms();
		st = wait_signal(sfd, next > now ? (int)(next - now) : 0);
		if (st < 0) {
			cli_err("export", "poll failed", "%s", strerror(errno));
			rc = MDC_EXIT_LOCAL;
		}
		if (st)
			break;
	}
	kern_fchase_free(&fc);
	return rc;
}
