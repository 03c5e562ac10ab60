// SPDX-License-Identifier: GPL-2.0
/*
 * validate_groups.c - "validate --groups": resctrl's MBM against the
 * memory controllers, as the kernel's resctrl MBM selftest checks them.
 * A read loop over 250 MB (run read-delay) runs pinned on this CPU in a
 * monitoring group of its own for five seconds; each second the group's
 * bytes and the socket's are read; the first second is dropped and the
 * means must agree within 8 % on an otherwise idle socket.
 *
 * Without MBM the module's core estimate is checked the same way, the
 * loop in a cgroup of its own (stat_core.c), once with the prefetchers
 * off, where it must agree, and once with them on, where the gap is what
 * it misses (the L2 prefetchers' fills) and is shown, not judged.
 */

#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib_cmd.h"
#include "mbm_judge.h"
#include "stat.h"
#include "stat_group.h"
#include "top.h"
#include "validate_groups.h"

#define VG_SECONDS 5

/* The socket (physical package) of @cpu, or -1. */
static int cpu_socket(int cpu)
{
	char path[128];
	int pkg = -1;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 cpu);
	f = fopen(path, "re");
	if (f && fscanf(f, "%d", &pkg) != 1)
		pkg = -1;
	if (f)
		fclose(f);
	return pkg;
}

static size_t socket_index(const struct resctrl *r, int id)
{
	size_t s;

	for (s = 0; s < r->nr_socket; s++)
		if ((int)r->socket_id[s] == id)
			return s;
	return 0;
}

/* Five seconds of both counts; the loop stopped. An exit code. */
static int measure(const char *cmd, struct stat_group *sg,
		   struct top_socket_src *ts, int cpu, int socket,
		   double *own, double *imc)
{
	char cpus[16], why[300];
	/* execvp() takes char *const[]: words of our own, not literals */
	char exe[] = "/proc/self/exe", run[] = "run", kernel[] = "read-delay",
	     threads[] = "--threads", one[] = "1", cpus_opt[] = "--cpus",
	     size_opt[] = "--size", size[] = "250M", time_opt[] = "--min-time",
	     seconds[] = "30";
	char *argv[] = { exe, run, kernel, threads, one, cpus_opt, cpus,
			 size_opt, size, time_opt, seconds, NULL };
	uint64_t bytes[RC_MAX_SOCKETS];
	struct stat_child ch;
	size_t s = socket_index(&sg->rc, socket), i;

	snprintf(cpus, sizeof(cpus), "%d", cpu);
	if (stat_child_start(&ch, argv, stat_group_attach, sg, why,
			     sizeof(why)) < 0 || ch.exec_errno) {
		cli_err(cmd, "cannot run the read loop", "%s", why);
		return MDC_EXIT_LOCAL;
	}
	if (!sg->on) {
		kill(ch.pid, SIGTERM);
		stat_child_wait(&ch, -1);
		stat_child_close(&ch);
		cli_err(cmd, "cannot validate the groups' bytes", "%s", sg->why);
		return MDC_EXIT_UNAVAILABLE;
	}
	stat_group_delta(sg, bytes);	/* the baselines */
	top_socket_sample(ts);
	for (i = 0; i < VG_SECONDS; i++) {
		const struct snap_judged *j;
		uint64_t sb = 0;

		sleep(1);
		own[i] = stat_group_delta(sg, bytes) ? NAN : (double)bytes[s];
		top_socket_sample(ts);
		j = top_socket_get(ts, (uint32_t)socket);
		imc[i] = j && top_socket_bytes(j, &sb) ? (double)sb : NAN;
	}
	kill(ch.pid, SIGTERM);
	stat_child_wait(&ch, -1);
	stat_child_close(&ch);
	return MDC_EXIT_OK;
}

/*
 * One run's seconds and judgment into @p's open object; whether it
 * passed. @judged false: the gap is shown, not judged.
 */
static bool show_run(struct printer *p, const char *own_name,
		     const double *own, const double *imc, bool judged)
{
	double diff;
	bool pass = mbm_judge(own, imc, VG_SECONDS, MBM_JUDGE_DROP,
			      MBM_JUDGE_TOLERANCE_PCT, &diff);
	char key[32];
	size_t i;

	snprintf(key, sizeof(key), "%s_bytes", own_name);
	print_textf(p, "second  %-8s  imc_GB\n", own_name);
	print_open_array(p, "seconds");
	for (i = 0; i < VG_SECONDS; i++) {
		print_open_object(p, NULL);
		print_uint(p, PRINT_ANY, "second", "%6u", (unsigned int)i + 1);
		verdict_num(p, key, "  %8.3f", "  %8s", own[i] / 1e9);
		verdict_num(p, "imc_bytes", "  %8.3f", "  %8s", imc[i] / 1e9);
		print_bool(p, PRINT_ANY, "dropped", "%s\n", i < MBM_JUDGE_DROP);
		print_close_object(p);
	}
	print_close_array(p);
	print_textf(p, "|%s - IMC| / IMC: ", own_name);
	verdict_num(p, "diff_percent", "%.1f %%", "%s", diff);
	print_double(p, PRINT_ANY, "tolerance_percent", " (tolerance %g %%)",
		     MBM_JUDGE_TOLERANCE_PCT);
	if (!judged) {
		print_string(p, PRINT_JSON, "pass", "%s", NULL);
		print_textf(p, ": not judged\n");
		return true;
	}
	print_bool(p, PRINT_JSON, "pass", "%s", pass);
	print_textf(p, ": %s\n", pass ? "PASS" : "FAIL");
	return pass;
}

/* The result's object opened, with where the loop ran (no newline). */
static void open_result(struct printer *p, const struct opts *o, int cpu,
			int socket)
{
	print_init(p, stdout, o->json, o->pretty);
	print_open_object(p, NULL);
	print_uint(p, PRINT_ANY, "cpu", "read loop on CPU %u", (unsigned int)cpu);
	print_uint(p, PRINT_ANY, "socket", ", socket %u", (unsigned int)socket);
}

static int show_mbm(const char *cmd, const struct opts *o, const double *mbm,
		    const double *imc, int cpu, int socket)
{
	struct printer p;
	bool pass;
	int rc;

	open_result(&p, o, cpu, socket);
	print_textf(&p, "\n");
	pass = show_run(&p, "mbm", mbm, imc, true);
	print_close_object(&p);
	rc = cli_output_end(cmd, &p);
	if (rc == MDC_EXIT_OK && !pass)
		cli_err(cmd, "FAIL", "resctrl's MBM and the memory controllers disagree by more than %g %% (on an otherwise idle socket; with Sub-NUMA Clustering Intel's MBM may be inaccurate)",
			MBM_JUDGE_TOLERANCE_PCT);
	return rc != MDC_EXIT_OK ? rc : pass ? MDC_EXIT_OK : MDC_EXIT_VALIDATE;
}

/* The prefetcher states the core estimate is checked in. */
struct core_run {
	const char *prefetch;	/* off, on, unchanged */
	bool judged;
	double own[VG_SECONDS], imc[VG_SECONDS];
};

/* Run the loop in each state (prefetchers put back after). An exit code. */
static int core_runs(const char *cmd, struct stat_group *sg,
		     struct top_socket_src *ts, int cpu, int socket,
		     struct core_run *r, size_t *nr)
{
	struct calib_pf *pf = NULL;
	char why[256];
	size_t i;
	int rc = MDC_EXIT_OK, rrc;

	*nr = 1;
	r[0] = (struct core_run){ .prefetch = "unchanged" };
	if (!calib_pf_can(cmd, why, sizeof(why)))
		cli_err(cmd, "note", "the prefetchers stay as they are, so the core estimate is not judged: %s",
			why);
	else if (calib_pf_open(cmd, CALIB_PF_ALL, &pf) == MDC_EXIT_OK) {
		r[0] = (struct core_run){ .prefetch = "off", .judged = true };
		r[1] = (struct core_run){ .prefetch = "on" };
		*nr = 2;
	}
	for (i = 0; i < *nr && rc == MDC_EXIT_OK; i++) {
		if (pf)
			rc = calib_pf_set(cmd, pf, i == 1);
		if (rc == MDC_EXIT_OK)
			rc = measure(cmd, sg, ts, cpu, socket, r[i].own,
				     r[i].imc);
	}
	if (pf) {
		rrc = calib_pf_close(cmd, pf);	/* puts back what it found */
		if (rc == MDC_EXIT_OK)
			rc = rrc;
	}
	return rc;
}

static int show_core(const char *cmd, const struct opts *o,
		     const struct core_run *r, size_t nr, int cpu, int socket)
{
	bool pass = true, judged = false;
	struct printer p;
	size_t i;
	int rc;

	open_result(&p, o, cpu, socket);
	print_string(&p, PRINT_ANY, "source", ", the module's %s (no resctrl MBM)\n",
		     attr_source_name(ATTR_SOURCE_CORE_ESTIMATE));
	print_open_array(&p, "runs");
	for (i = 0; i < nr; i++) {
		print_open_object(&p, NULL);
		print_string(&p, PRINT_ANY, "prefetch", "prefetchers %s:\n",
			     r[i].prefetch);
		pass &= show_run(&p, "group", r[i].own, r[i].imc, r[i].judged);
		judged |= r[i].judged;
		print_close_object(&p);
	}
	print_close_array(&p);
	print_close_object(&p);
	rc = cli_output_end(cmd, &p);
	if (rc != MDC_EXIT_OK)
		return rc;
	if (!pass) {
		cli_err(cmd, "FAIL", "with the prefetchers off, the core estimate and the memory controllers disagree by more than %g %% (on an otherwise idle socket)",
			MBM_JUDGE_TOLERANCE_PCT);
		return MDC_EXIT_VALIDATE;
	}
	return judged ? MDC_EXIT_OK : MDC_EXIT_UNAVAILABLE;
}

int validate_groups(const char *cmd, const struct opts *o)
{
	double mbm[VG_SECONDS], imc[VG_SECONDS];
	struct core_run runs[2];
	struct top_socket_src ts;
	struct verdict_src vs;
	struct stat_group sg;
	int cpu = sched_getcpu(), socket = cpu_socket(cpu), rc;
	uint32_t id = (uint32_t)socket;
	cpu_set_t one;
	size_t nr;

	stat_group_open(&sg, NULL);	/* MBM first */
	verdict_src_open(&vs, NULL);	/* unused: no verdict is shown */
	top_socket_open(&ts, &vs);
	if (!ts.on) {
		if (sg.on)
			cli_err(cmd, "cannot validate MBM against the memory controllers",
				"%s", ts.why);
		else
			cli_err(cmd, "cannot validate MBM", "%s; nor the core estimate: %s",
				sg.why, ts.why);
		rc = sg.on ? MDC_EXIT_NO_MODULE : MDC_EXIT_UNAVAILABLE;
		goto out;
	}
	if (!sg.on && !stat_group_open_core(&sg, &ts.nl, &ts.fam, &id, 1)) {
		cli_err(cmd, "cannot validate the groups' bytes", "%s", sg.why);
		rc = geteuid() ? MDC_EXIT_PERM : MDC_EXIT_UNAVAILABLE;
		goto out;
	}
	/* stay on this CPU: the loop runs here, its socket is judged */
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
	if (sg.source == ATTR_SOURCE_MBM) {
		rc = measure(cmd, &sg, &ts, cpu, socket, mbm, imc);
		stat_group_end(&sg);
		if (rc == MDC_EXIT_OK)
			rc = show_mbm(cmd, o, mbm, imc, cpu, socket);
	} else {
		rc = core_runs(cmd, &sg, &ts, cpu, socket, runs, &nr);
		if (rc == MDC_EXIT_OK)
			rc = show_core(cmd, o, runs, nr, cpu, socket);
	}
out:
	/* first: the core estimate's session is on ts's connection */
	stat_group_close(&sg);
	top_socket_close(&ts);
	verdict_src_close(&vs);
	return rc;
}
