// SPDX-License-Identifier: GPL-2.0
/*
 * validate_groups.c - "validate --groups": resctrl's MBM against the
 * memory controllers, as the kernel's resctrl MBM selftest checks them.
 * A read loop over 250 MB (run read-delay) runs pinned on this CPU in a
 * monitoring group of its own for five seconds; each second the group's
 * bytes and the socket's are read; the first second is dropped and the
 * means must agree within 8 % on an otherwise idle socket.
 */

#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mbm_judge.h"
#include "stat.h"
#include "stat_group.h"
#include "top.h"

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
		   double *mbm, double *imc)
{
	char cpus[16], why[300];
	/* execvp() takes char *const[]: words of our own, not literals */
	char exe[] = "/proc/self/exe", run[] = "run", kernel[] = "read-delay",
	     threads[] = "--threads", one[] = "1", cpus_opt[] = "--cpus",
	     size_opt[] = "--size", size[] = "250M", time_opt[] = "--min-time",
	     seconds[] = "30";
	char *argv[] = { exe, run, kernel, threads, one, cpus_opt, cpus,
			 size_opt, size, time_opt, seconds, NULL };
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
		cli_err(cmd, "cannot validate MBM", "%s", sg->why);
		return MDC_EXIT_UNAVAILABLE;
	}
	top_socket_sample(ts);
	for (i = 0; i < VG_SECONDS; i++) {
		const struct snap_judged *j;
		uint64_t bytes[RC_MAX_SOCKETS] = { 0 }, sb = 0;
		struct stat_group *g = sg;

		sleep(1);
		rc_read_group(&g->rc, g->gs.g[g->g].dir, g->gs.g[g->g].state,
			      bytes, &g->rs);
		top_socket_sample(ts);
		j = top_socket_get(ts, (uint32_t)socket);
		mbm[i] = (double)bytes[s];
		imc[i] = j && top_socket_bytes(j, &sb) ? (double)sb : NAN;
	}
	kill(ch.pid, SIGTERM);
	stat_child_wait(&ch, -1);
	stat_child_close(&ch);
	return MDC_EXIT_OK;
}

static int show(const char *cmd, const struct opts *o, const double *mbm,
		const double *imc, int cpu, int socket)
{
	struct printer p;
	double diff;
	bool pass = mbm_judge(mbm, imc, VG_SECONDS, MBM_JUDGE_DROP,
			      MBM_JUDGE_TOLERANCE_PCT, &diff);
	size_t i;
	int rc;

	print_init(&p, stdout, o->json, o->pretty);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "cpu", "read loop on CPU %u", (unsigned int)cpu);
	print_uint(&p, PRINT_ANY, "socket", ", socket %u\n", (unsigned int)socket);
	print_textf(&p, "second  mbm_GB    imc_GB\n");
	print_open_array(&p, "seconds");
	for (i = 0; i < VG_SECONDS; i++) {
		print_open_object(&p, NULL);
		print_uint(&p, PRINT_ANY, "second", "%6u", (unsigned int)i + 1);
		verdict_num(&p, "mbm_bytes", "  %8.3f", "  %8s", mbm[i] / 1e9);
		verdict_num(&p, "imc_bytes", "  %8.3f", "  %8s", imc[i] / 1e9);
		print_bool(&p, PRINT_ANY, "dropped", "%s\n", i < MBM_JUDGE_DROP);
		print_close_object(&p);
	}
	print_close_array(&p);
	verdict_num(&p, "diff_percent", "|MBM - IMC| / IMC: %.1f %%", "|MBM - IMC| / IMC: %s", diff);
	print_double(&p, PRINT_ANY, "tolerance_percent", " (tolerance %g %%)",
		     MBM_JUDGE_TOLERANCE_PCT);
	print_bool(&p, PRINT_JSON, "pass", "%s", pass);
	print_textf(&p, ": %s\n", pass ? "PASS" : "FAIL");
	print_close_object(&p);
	rc = cli_output_end(cmd, &p);
	if (rc == MDC_EXIT_OK && !pass)
		cli_err(cmd, "FAIL", "resctrl's MBM and the memory controllers disagree by more than %g %% (on an otherwise idle socket; with Sub-NUMA Clustering Intel's MBM may be inaccurate)",
			MBM_JUDGE_TOLERANCE_PCT);
	return rc != MDC_EXIT_OK ? rc : pass ? MDC_EXIT_OK : MDC_EXIT_VALIDATE;
}

int validate_groups(const char *cmd, const struct opts *o)
{
	double mbm[VG_SECONDS], imc[VG_SECONDS];
	struct top_socket_src ts;
	struct verdict_src vs;
	struct stat_group sg;
	int cpu = sched_getcpu(), socket, rc;
	cpu_set_t one;

	stat_group_open(&sg, NULL);	/* MBM only */
	if (!sg.on) {
		cli_err(cmd, "cannot validate MBM", "%s", sg.why);
		stat_group_close(&sg);
		return geteuid() && sg.open ? MDC_EXIT_PERM : MDC_EXIT_UNAVAILABLE;
	}
	verdict_src_open(&vs, NULL);	/* unused: no verdict is shown */
	top_socket_open(&ts, &vs);
	if (!ts.on) {
		cli_err(cmd, "cannot validate MBM against the memory controllers",
			"%s", ts.why);
		rc = MDC_EXIT_NO_MODULE;
		goto out;
	}
	/* stay on this CPU: the loop runs here, its socket is judged */
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
	socket = cpu_socket(cpu);
	rc = measure(cmd, &sg, &ts, cpu, socket, mbm, imc);
	stat_group_end(&sg);
	if (rc == MDC_EXIT_OK)
		rc = show(cmd, o, mbm, imc, cpu, socket);
out:
	top_socket_close(&ts);
	verdict_src_close(&vs);
	stat_group_close(&sg);
	return rc;
}
