/* SPDX-License-Identifier: GPL-2.0 */
/* cli.h - memdiagctl's exit codes, error reports and module connection. */

#ifndef MEMDIAGCTL_CLI_H
#define MEMDIAGCTL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nl.h"
#include "print.h"

#define PROG "memdiagctl"

/* Documented in --help and memdiagctl(8); scripts depend on them. */
enum mdc_exit {
	MDC_EXIT_OK = 0,
	MDC_EXIT_USAGE = 1,	/* unknown command or option, bad value */
	MDC_EXIT_NO_MODULE = 2,	/* family "memdiag" not found */
	MDC_EXIT_PERM = 3,	/* EPERM/EACCES from the module */
	MDC_EXIT_PROTO = 4,	/* protocol version mismatch */
	MDC_EXIT_KERNEL = 5,	/* any other kernel or netlink error */
	MDC_EXIT_LOCAL = 6,	/* output not written, out of memory */
	MDC_EXIT_UNAVAILABLE = 7, /* no counter can be read on this machine */
	MDC_EXIT_VALIDATE = 8,	/* validate: a counter missed the traffic */
};

/* Options every command accepts, globally or after its name. */
struct opts {
	bool json;
	bool pretty;
};

/* Maps a request's attribute type to its spec name (or NULL). */
typedef const char *(*attr_name_fn)(unsigned int type);

/*
 * A failure as the helpers return it, for the caller to show: the CLI
 * prints it (cli_report()), "run" keeps it as the reason its counters are
 * null (cli_error_phrase()). As ethtool's nlsock keeps the extack for
 * whoever asked, the module's text is part of @detail.
 */
struct cli_error {
	int code;		/* enum mdc_exit; MDC_EXIT_OK: no failure */
	char what[128];		/* "get-info request failed" */
	char detail[512];	/* errno text, extack, offending attribute */
	char hint[256];		/* what to do about it, "" when nothing */
	char warning[256];	/* a warning the kernel acked with, or "" */
};

/* Clear @err: no failure, no warning. */
void cli_error_init(struct cli_error *err);

/* Fill in a failure; returns @code. */
int cli_error_set(struct cli_error *err, int code, const char *what,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * A failed request (@what: "get-info request failed"): the exit code its
 * errno maps to, the extack text and the offending attribute, named by
 * @attr_name when given. Returns the code.
 */
int cli_error_nl(struct cli_error *err, const char *what,
		 const struct nl_error *e, attr_name_fn attr_name);

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
 * -o FILE: open @path (created or truncated) into *@out; without @path
 * *@out stays. MDC_EXIT_LOCAL (reported, naming --output) when it fails.
 */
int cli_open_output(const char *cmd, const char *path, FILE **out);

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
