/* SPDX-License-Identifier: GPL-2.0 */
/*
 * error.h - a failure as a value: the exit code and the text the caller
 * shows (cli_report()) or keeps (cli_error_phrase()). Below both the
 * command line (cli/) and the connection (netlink/), so that neither
 * needs the other to describe what went wrong.
 */

#ifndef MEMDIAGCTL_ERROR_H
#define MEMDIAGCTL_ERROR_H

#include "nl.h"

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

#endif
