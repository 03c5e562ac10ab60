/* SPDX-License-Identifier: GPL-2.0 */
/* cli.h - memdiagctl's exit codes, error reports and module connection. */

#ifndef MEMDIAGCTL_CLI_H
#define MEMDIAGCTL_CLI_H

#include <stdbool.h>
#include <stdint.h>

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
};

/* Options every command accepts, globally or after its name. */
struct opts {
	bool json;
	bool pretty;
};

/* Maps a request's attribute type to its spec name (or NULL). */
typedef const char *(*attr_name_fn)(unsigned int type);

/* "memdiagctl: CMD: WHAT: DETAIL" on stderr; @cmd and @fmt may be NULL. */
void cli_err(const char *cmd, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A usage error pointing to the right --help; returns MDC_EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Report getopt_long()'s '?' or ':' for the option it just rejected. */
int cli_bad_option(const char *cmd, int c, char **argv);

/*
 * Report a failed request (@what: "get-info request failed") and return the
 * exit code its errno maps to; the module's extack text is part of it.
 */
int cli_nl_fail(const char *cmd, const char *what, const struct nl_error *e,
		attr_name_fn attr_name);

/* Print a warning the kernel attached to a successful ack, if any. */
void cli_nl_warn(const char *cmd, const struct nl_error *e);

/* MDC_EXIT_PROTO (with the message) unless @version is ours. */
int cli_check_proto(const char *cmd, uint32_t version);

/*
 * Report that the memdiag family is absent; @loaded says whether the module
 * is (then this process is in another network namespace). Returns
 * MDC_EXIT_NO_MODULE.
 */
int cli_no_family(const char *cmd, bool loaded);

/*
 * Open a socket, resolve the memdiag family and check its version before
 * anything is sent. Returns MDC_EXIT_OK or the exit code of the failure,
 * already reported; on success the caller closes both.
 */
int cli_connect(const char *cmd, struct nl *nl, struct nl_family *fam);

/*
 * MDC_EXIT_PROTO (reported) when @fam lacks operation @op (@name): a module
 * older than this memdiagctl but of the same protocol version.
 */
int cli_need_op(const char *cmd, const struct nl_family *fam, uint32_t op,
		const char *name);

/* Finish @p; MDC_EXIT_LOCAL (reported) when the output was not written. */
int cli_output_end(const char *cmd, struct printer *p);

#endif /* MEMDIAGCTL_CLI_H */
