/* SPDX-License-Identifier: GPL-2.0 */
/* cli.h - error reports, options, the module connection; exit codes: error.h */

#ifndef MEMDIAGCTL_CLI_H
#define MEMDIAGCTL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "nl.h"
#include "print.h"

/* Options every command accepts, globally or after its name. */
struct opts {
	bool json;
	bool pretty;
};

/*
 * Show @err on stderr as "memdiagctl: CMD: WHAT: DETAIL" (and a "hint:"
 * line), after any warning; returns err->code.
 */
int cli_report(const char *cmd, const struct cli_error *err);

/* @err as one phrase, "WHAT: DETAIL (HINT)", for a reason in the output. */
void cli_error_phrase(const struct cli_error *err, char *buf, size_t size);

/* "memdiagctl: CMD: WHAT: DETAIL" on stderr; @cmd and @fmt may be NULL. */
void cli_err(const char *cmd, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * What a long command is doing, on stderr as "memdiagctl: CMD: TEXT":
 * calibrate's plan, checks and time taken.
 */
void cli_info(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A usage error pointing to the right --help; returns MDC_EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Report getopt_long()'s '?' or ':' for the option it just rejected. */
int cli_bad_option(const char *cmd, int c, char **argv);

/* cli_error_nl() and cli_report() in one, for a request made here. */
int cli_nl_fail(const char *cmd, const char *what, const struct nl_error *e,
		attr_name_fn attr_name);

/* Print a warning the kernel attached to a successful ack, if any. */
void cli_nl_warn(const char *cmd, const struct nl_error *e);

/*
 * The reporting forms of conn.h's md_check_proto(), md_no_family(),
 * md_connect() and md_need_op(): each shows the failure on stderr and
 * returns the exit code; on success cli_connect()'s caller closes both.
 */
int cli_check_proto(const char *cmd, uint32_t version);
int cli_no_family(const char *cmd, bool loaded);
int cli_connect(const char *cmd, struct nl *nl, struct nl_family *fam);
int cli_need_op(const char *cmd, const struct nl_family *fam, uint32_t op,
		const char *name);

/*
 * -o FILE: open a new file beside @path into *@out; without @path *@out
 * stays. FILE itself is not touched until cli_close_output() keeps the
 * output, so that a run that fails leaves no empty or cut-off FILE (and an
 * older FILE as it was). A FILE that is a symbolic link or no regular
 * file (/dev/stdout, a FIFO) is opened as it is. MDC_EXIT_LOCAL (reported, naming --output)
 * when it fails.
 */
int cli_open_output(const char *cmd, const char *path, FILE **out);

/*
 * Close what cli_open_output() opened for @path (nothing without @path):
 * with @keep, rename it to @path (MDC_EXIT_LOCAL, reported, when it was not
 * written); without, remove it.
 */
int cli_close_output(const char *cmd, const char *path, FILE *f, bool keep);

/* Finish @p; MDC_EXIT_LOCAL (reported) when the output was not written. */
int cli_output_end(const char *cmd, struct printer *p);

/*
 * A comma list of @names (@nr of them, at most 3 named in the error) into
 * a mask of their indexes: an exit code, a usage error naming option
 * @opt when a name is unknown or given twice.
 */
int cli_name_list(const char *cmd, const char *opt, const char *s,
		  const char *const *names, unsigned int nr, unsigned int *mask);

#endif /* MEMDIAGCTL_CLI_H */
