// SPDX-License-Identifier: GPL-2.0
/*
 * help.c - "memdiagctl run --help": what run does, its kernels and its
 * options, each from its table (run_kernels[]; run_copts[] and
 * run_kopts[], options.c), so the help cannot leave one out. The man
 * page says the same; tests/helpman.sh checks.
 */

#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "run/run.h"

/*
 * The kernels of run_kernels[], each name in the 14 columns before its
 * paragraph (on a line of its own when longer than those allow).
 */
static void run_help_kernels(FILE *f)
{
	size_t i;

	for (i = 0; i < run_nr_kernels; i++) {
		const struct run_kernel *k = run_kernels[i];
		const char *line = k->help, *nl;

		if (strlen(k->name) <= 10)
			fprintf(f, "  %-10s  ", k->name);
		else
			fprintf(f, "  %s\n%14s", k->name, "");
		while ((nl = strchr(line, '\n'))) {
			fprintf(f, "%.*s\n%14s", (int)(nl - line), line, "");
			line = nl + 1;
		}
		fprintf(f, "%s\n", line);
	}
}

/* "[--name ARG]" of each option, wrapped at 78 columns under the command */
static int usage_line(FILE *f, int col, const struct run_opt *o, size_t nr)
{
	const int indent = 22;	/* strlen("Usage: " PROG " run ") */
	size_t i, j;

	for (i = 0; i < nr; i = j) {
		char item[160];
		int n = 0;

		/* an option and its alternatives: one bracket */
		for (j = i; j < nr && (j == i || o[j].or_prev); j++)
			n += snprintf(item + n, sizeof(item) - (size_t)n,
				      "%s--%s%s%s", j == i ? "[" : " | ",
				      o[j].name, o[j].arg ? " " : "",
				      o[j].arg ? o[j].arg : "");
		if (col + 1 + n + 1 > 78) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%s]", item);
		col += n + 1;
	}
	return col;
}

/* One option's entry: "  -x, --name ARG" then its help from column 20. */
static void usage_option(FILE *f, const struct run_opt *o)
{
	const char *line = o->help, *nl;
	char head[64];

	if (o->val > 0 && o->val < 128)
		snprintf(head, sizeof(head), "  -%c, --%s%s%s", o->val, o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(head, sizeof(head), "      --%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	fprintf(f, "%-18s  ", head);
	while ((nl = strchr(line, '\n'))) {
		fprintf(f, "%.*s\n%20s", (int)(nl - line), line, "");
		line = nl + 1;
	}
	fprintf(f, "%s\n", line);
}

void run_usage(FILE *f)
{
	size_t i;
	int col;

	fputs("Usage: " PROG " run KERNEL", f);
	col = (int)strlen("Usage: " PROG " run KERNEL");
	col = usage_line(f, col, run_copts, run_nr_copts);
	col = usage_line(f, col, run_kopts, run_nr_kopts);
	fprintf(f, "%s[-j|--json] [-p|--pretty]\n",
		col + 26 > 78 ? "\n                      " : " ");
	fputs("\n"
	      "Run a memory micro-kernel on pinned threads, each on memory it\n"
	      "touched first, each measurement repeated at least --reps times and\n"
	      "until --min-time seconds were timed, and print the median, min and\n"
	      "max bandwidth or latency and the coefficient of variation (stddev/mean).\n"
	      "When the memdiag module is loaded and its counters can be read, each\n"
	      "result also gets, per socket, the DRAM bytes read and written, the\n"
	      "offcore DRAM read bytes and the L1 miss and load miss real latencies\n"
	      "(core cycles) over exactly the timed part; otherwise the run goes on\n"
	      "and says why there are no counters.\n"
	      "\n"
	      "Kernels:\n", f);
	run_help_kernels(f);
	fputs("\n"
	      "Options:\n", f);
	for (i = 0; i < run_nr_copts; i++)
		usage_option(f, &run_copts[i]);
	cli_opts_usage(f, CLI_OPT_JSON | CLI_OPT_HELP, 20, NULL);
	fputs("\n"
	      "Kernel options (a kernel refuses one it does not take):\n", f);
	for (i = 0; i < run_nr_kopts; i++)
		usage_option(f, &run_kopts[i]);
	fputs("\n"
	      "GB/s are 10^9 bytes/s. Progress (the size, phase and repetition\n"
	      "running, ~N s left for the whole run) goes to stderr only when\n"
	      "stdout is a terminal. -j and --csv begin with \"meta\": host name, CPU model,\n"
	      "kernel, memdiag version and commit, date and the exact command line.\n"
	      "\n"
	      "The head names the statistic each row shows: the median of the reps,\n"
	      "with min and max beside it. After the results, stderr\n"
	      "(and -j's \"warnings\") says which rows are noisy (CoV above 0.10:\n"
	      "rerun on a quiet machine or raise --min-time; -j: \"noisy\" per row) and\n"
	      "when a size meant for DRAM (latency: the largest; read-delay, stream,\n"
	      "traffic: all buffers) fits in the last-level cache sysfs gives for\n"
	      "CPU 0. loaded-latency repeats each delay --reps times and more until\n"
	      "--min-time at the idle cost of a flushed load (at most 64).\n"
	      "\n"
	      "Ctrl-C stops the run after the repetition running and prints the rows\n"
	      "whose measurement finished (latency's and throughput's sizes, stream's\n"
	      "ops, loaded-latency's delays, stencil's and transpose's variants, each\n"
	      "measured in turn; still valid JSON); a second Ctrl-C ends it at once.\n"
	      "\n"
	      "Exit status: 0 success, 1 usage error (a bad node or socket too), 6 a\n"
	      "kernel failed (out of memory, a verification failed), 130 interrupted\n"
	      "by Ctrl-C.\n",
	      f);
}
