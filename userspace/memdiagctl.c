// SPDX-License-Identifier: GPL-2.0
/* memdiagctl.c - entry point: global options, help and the command table. */

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <linux/memdiag.h>

#include "cmd.h"
#include "host_reach.h"
#include "opts.h"

#ifndef MEMDIAGCTL_VERSION
#define MEMDIAGCTL_VERSION "unknown"
#endif

struct command {
	const char *name;
	int (*run)(const struct opts *o, int argc, char **argv);
	void (*usage)(FILE *f);
	const char *help;
	/* the rest of @help from the code's own table, on the next line */
	void (*help_list)(char *buf, size_t size);
	/*
	 * Works without the module (marked '*' in the help): "" whole,
	 * "--opt" with that option; NULL: needs the module. The help and
	 * the "module not loaded" messages list these.
	 */
	const char *counter_free;
};

static int cmd_help(const struct opts *o, int argc, char **argv);
static void cmd_help_usage(FILE *f);

static const struct command commands[] = {
	{ "info", cmd_info, cmd_info_usage,
	  "show the processor, sockets, CPUs and capabilities", NULL, NULL },
	{ "watch", cmd_watch, cmd_watch_usage,
	  "print DRAM bandwidth and load latency per socket, each interval", NULL, NULL },
	{ "top", cmd_top, cmd_top_usage,
	  "show who uses each socket's bandwidth: pods, services, cgroups", NULL,
	  "" },
	{ "snapshot", cmd_snapshot, cmd_snapshot_usage,
	  "print the raw cumulative counters once", NULL, NULL },
	{ "prefetch", cmd_prefetch, cmd_prefetch_usage,
	  "show, switch off or on, and restore the hardware prefetchers", NULL, NULL },
	{ "stat", cmd_stat, cmd_stat_usage,
	  "run a command and print the counters over exactly its lifetime", NULL,
	  "--marker" },
	{ "export", cmd_export, cmd_export_usage,
	  "serve the counters as Prometheus metrics (HTTP, textfile)", NULL,
	  "--probe" },
	{ "validate", cmd_validate, cmd_validate_usage,
	  "check the counters against the traffic STREAM computes", NULL, NULL },
	{ "run", cmd_run, cmd_run_usage,
	  "run a memory micro-kernel, one of:", cmd_run_kernel_names, "" },
	{ "calibrate", cmd_calibrate, cmd_calibrate_usage,
	  "measure this machine's bandwidth-latency curves; --show prints them", NULL,
	  "" },
	{ "probe", cmd_probe, cmd_probe_usage,
	  "estimate memory pressure without counters: a short chase each interval", NULL,
	  "" },
	{ "plot", cmd_plot, cmd_plot_usage,
	  "draw the curves, and recorded samples on them, with gnuplot", NULL,
	  "" },
	{ "help", cmd_help, cmd_help_usage,
	  "show this help, or a command's", NULL, NULL },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * The commands that work without the module, from the table, into @buf:
 * "top, stat --marker, ..." (the list host_reach.h's messages give), or
 * with @quoted only those that need an option, as "'stat' with
 * --marker, ..." (the help's).
 */
static void counter_free_list(char *buf, size_t size, bool quoted)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NR_COMMANDS && n < size; i++) {
		const char *cf = commands[i].counter_free;
		const char *sep = n ? ", " : "";

		if (!cf || (quoted && !cf[0]))
			continue;
		if (quoted)
			n += snprintf(buf + n, size - n, "%s'%s' with %s", sep,
				      commands[i].name, cf);
		else
			n += snprintf(buf + n, size - n, "%s%s%s%s", sep,
				      commands[i].name, cf[0] ? " " : "", cf);
	}
}

/* @text's words, on lines of at most @width columns */
static void fputs_wrapped(const char *text, int width, FILE *f)
{
	int col = 0;

	while (*text) {
		int len = (int)strcspn(text, " ");

		if (col && col + 1 + len > width) {
			fputc('\n', f);
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, text);
		col += len;
		text += len + strspn(text + len, " ");
	}
	fputc('\n', f);
}

static void usage(FILE *f)
{
	char text[768], cf[256];
	size_t i;

	fputs("Usage: " PROG " [OPTIONS] COMMAND [COMMAND OPTIONS]\n"
	      "       " PROG " help [COMMAND]\n"
	      "\n", f);
	counter_free_list(cf, sizeof(cf), true);
	snprintf(text, sizeof(text),
		 "Memory bandwidth and latency of x86 servers. With the memdiag kernel "
		 "module: DRAM bandwidth and load latency counters and hardware "
		 "prefetcher control. Without it (a virtual machine, a kernel that "
		 "cannot load modules, an unsupported processor), the commands marked "
		 "'*' still work, on counter-free measurements (%s).", cf);
	fputs_wrapped(text, 70, f);
	fputs("\n"
	      "Options:\n", f);
	cli_opts_usage(f, CLI_OPT_ALL, 18, "print JSON instead of text");
	fputs("  -V, --version   print the version and protocol version and exit\n"
	      "\n"
	      "Commands:\n", f);
	for (i = 0; i < NR_COMMANDS; i++) {
		char list[256];

		fprintf(f, "  %-14s%c %s\n", commands[i].name,
			commands[i].counter_free ? '*' : ' ', commands[i].help);
		if (!commands[i].help_list)
			continue;
		commands[i].help_list(list, sizeof(list));
		fprintf(f, "  %-14s  %s\n", "", list);
	}
	fputs("\n"
	      "Run '" PROG " COMMAND --help' for a command's options.\n"
	      "\n"
	      "Exit status:\n"
	      "  0  success\n"
	      "  1  usage error: unknown command or option, bad value\n"
	      "  2  the memdiag module is not loaded (or not in this network namespace)\n"
	      "  3  permission denied: needs CAP_PERFMON, or unprivileged_read=1\n"
	      "  4  protocol version mismatch between " PROG " and the module\n"
	      "  5  any other kernel or netlink error\n"
	      "  6  local error: the output could not be written, out of memory\n"
	      "  7  nothing to measure: no counter is available on this machine\n"
	      "  8  validate: a counter does not see the traffic it should\n"
	      "'stat' exits with the status of the command it ran (see its --help).\n",
	      f);
}

static void cmd_help_usage(FILE *f)
{
	fputs("Usage: " PROG " help [COMMAND]\n"
	      "\n"
	      "Without COMMAND, list the options, commands and exit codes;\n"
	      "with it, show that command's help (as '" PROG " COMMAND --help').\n",
	      f);
}

static int cmd_help(const struct opts *o, int argc, char **argv)
{
	const struct command *c;

	(void)o;
	if (argc == 1) {
		usage(stdout);
		return MDC_EXIT_OK;
	}
	if (argc > 2)
		return cli_usage("help", "unexpected argument '%s'", argv[2]);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		cmd_help_usage(stdout);
		return MDC_EXIT_OK;
	}
	c = find_command(argv[1]);
	if (!c) {
		cli_err(argv[1], "unknown command",
			"see '" PROG " help' for the list");
		return MDC_EXIT_USAGE;
	}
	c->usage(stdout);
	return MDC_EXIT_OK;
}

/* A full disk or a closed pipe must not pass for success. */
static int finish(int rc)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (rc != MDC_EXIT_OK)
		return rc;
	cli_err(NULL, "cannot write output", "%s",
		strerror(errno ? errno : EIO));
	return MDC_EXIT_LOCAL;
}

static const struct option options[] = {
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

int main(int argc, char **argv)
{
	static char counter_free[256];
	const struct command *c;
	struct opts o = { 0 };
	struct cli_opts t;
	int opt, rc;

	/* the messages that say what works without the module say it so */
	counter_free_list(counter_free, sizeof(counter_free), false);
	host_reach_set_counter_free(counter_free);
	/* '+': stop at the command name; the rest is the command's */
	cli_opts_init(&t, CLI_OPT_ALL, "+:V", options);
	while ((opt = cli_opts_next(&t, argc, argv)) != -1) {
		switch (opt) {
		case 'V':
			printf(PROG " %s (memdiag protocol %u)\n",
			       MEMDIAGCTL_VERSION,
			       (unsigned int)MEMDIAG_FAMILY_VERSION);
			return finish(MDC_EXIT_OK);
		default:
			rc = cli_opts_common(NULL, opt, argv, &o, usage);
			if (rc == CLI_OPT_HELP_SHOWN)
				return finish(MDC_EXIT_OK);
			if (rc != CLI_OPT_NEXT)
				return rc;
		}
	}
	if (optind >= argc)
		return cli_usage(NULL, "no command given");
	c = find_command(argv[optind]);
	if (!c) {
		cli_err(argv[optind], "unknown command",
			"see '" PROG " help' for the list");
		return MDC_EXIT_USAGE;
	}
	return finish(c->run(&o, argc - optind, argv + optind));
}
