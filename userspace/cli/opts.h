/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - the options every command takes after its name (-j/--json,
 * -p/--pretty, -h/--help): one table, from which each command's
 * getopt_long() tables, its handling of them and its --help lines come.
 */

#ifndef MEMDIAGCTL_OPTS_H
#define MEMDIAGCTL_OPTS_H

#include <getopt.h>
#include <stdio.h>

#include "cli.h"

/* Which of the common options a command takes (a mask). */
enum {
	CLI_OPT_JSON = 1u << 0,		/* -j/--json and -p/--pretty */
	CLI_OPT_HELP = 1u << 1,		/* -h/--help */
	CLI_OPT_ALL = CLI_OPT_JSON | CLI_OPT_HELP,
};

/*
 * What cli_opts_common() found, besides MDC_EXIT_USAGE: -1 is what the
 * commands' option parsers return after --help, NEXT is no exit code.
 */
enum {
	CLI_OPT_HELP_SHOWN = -1,	/* --help printed: exit 0 */
	CLI_OPT_NEXT = 256,		/* a common option, taken: parse on */
};

#define CLI_OPTS_OWN_MAX 24	/* a command's own long options, at most */

/* getopt_long()'s two tables for one command. */
struct cli_opts {
	struct option lopts[CLI_OPTS_OWN_MAX + 4];
	char shorts[80];
};

/*
 * Fill @t: the command's own short options @own_short (with the ':' or
 * "+:" prefix) and long options @own (NULL-name terminated, may be NULL),
 * then the common options of @mask; and start getopt afresh from argv[1]
 * (optind 0), silent (opterr 0: cli_bad_option() says it our way).
 * Returns 0, or -1 when @own does not fit (a programming error: the
 * caller reports it).
 */
int cli_opts_init(struct cli_opts *t, unsigned int mask, const char *own_short,
		  const struct option *own);

/* getopt_long() over @t's tables. */
static inline int cli_opts_next(const struct cli_opts *t, int argc,
				char **argv)
{
	return getopt_long(argc, argv, t->shorts, t->lopts, NULL);
}

/*
 * @c, a getopt_long() result that none of the command's own options took:
 * -j and -p set @o (NULL when the command was set up without CLI_OPT_JSON:
 * getopt_long() never returns them then), -h prints @usage on stdout;
 * anything else is reported as a bad option (cli_bad_option()). Returns
 * CLI_OPT_NEXT, CLI_OPT_HELP_SHOWN or MDC_EXIT_USAGE.
 */
int cli_opts_common(const char *cmd, int c, char **argv, struct opts *o,
		    void (*usage)(FILE *f));

/*
 * The --help lines of the common options in @mask, each description at
 * column @col. @json_help, when not NULL, is what -j prints (its lines
 * after the first are indented to @col); otherwise "print one JSON
 * document".
 */
void cli_opts_usage(FILE *f, unsigned int mask, int col,
		    const char *json_help);

#endif /* MEMDIAGCTL_OPTS_H */
