// SPDX-License-Identifier: GPL-2.0
/* cli.c - how memdiagctl commands report failures and reach the module. */

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/memdiag.h>

#include "cli.h"

static void vreport(const char *cmd, const char *what, const char *fmt,
		    va_list ap) __attribute__((format(printf, 3, 0)));

static void vreport(const char *cmd, const char *what, const char *fmt,
		    va_list ap)
{
	fputs(PROG ": ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	fprintf(stderr, "%s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_err(const char *cmd, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(cmd, what, fmt, ap);
	va_end(ap);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	cli_err(cmd, what, "see '" PROG "%s%s --help'", cmd ? " " : "",
		cmd ? cmd : "");
	return MDC_EXIT_USAGE;
}

int cli_bad_option(const char *cmd, int c, char **argv)
{
	/*
	 * optind is past the rejected argument, except within a cluster of
	 * short options ("-jx"), where optopt names the culprit anyway.
	 */
	const char *opt = argv[optind - 1];
	bool is_long = !strncmp(opt, "--", 2);
	char shortopt[3] = { '-', (char)optopt, '\0' };

	if (c == ':')
		return cli_usage(cmd, "option '%s' needs a value",
				 optopt && !is_long ? shortopt : opt);
	if (!optopt)	/* how getopt_long() marks an unknown long option */
		return cli_usage(cmd, "unknown option '%s'", opt);
	if (is_long && strchr(opt, '='))
		return cli_usage(cmd, "option '%s' takes no value", opt);
	return cli_usage(cmd, "unknown option '%s'", shortopt);
}

/* " (offending attribute 'x')" and the like, from the extended ack. */
static void describe_attrs(const struct nl_error *e, attr_name_fn attr_name,
			   char *buf, size_t size)
{
	const char *name = NULL;
	size_t len = 0;
	int n = 0;

	buf[0] = '\0';
	if (e->bad_type >= 0) {
		name = attr_name ? attr_name((unsigned int)e->bad_type) : NULL;
		if (name)
			n = snprintf(buf, size, " (offending attribute %s'%s')",
				     e->bad_inside ? "inside " : "", name);
		else
			n = snprintf(buf, size, " (offending attribute %stype %d)",
				     e->bad_inside ? "inside " : "",
				     e->bad_type);
	} else if (e->bad_offs >= 0) {
		n = snprintf(buf, size,
			     " (offending attribute at byte %ld of the request)",
			     e->bad_offs);
	}
	if (n > 0)
		len = (size_t)n < size ? (size_t)n : size - 1;
	if (e->miss_type < 0)
		return;
	name = attr_name && !e->miss_nested ?
	       attr_name((unsigned int)e->miss_type) : NULL;
	if (name)
		snprintf(buf + len, size - len, " (missing attribute '%s')",
			 name);
	else
		snprintf(buf + len, size - len,
			 " (missing attribute type %ld%s)", e->miss_type,
			 e->miss_nested ? " in a nested set" : "");
}

int cli_nl_fail(const char *cmd, const char *what, const struct nl_error *e,
		attr_name_fn attr_name)
{
	const char *text = e->msg[0] ? e->msg : strerror(e->err);
	char where[160];

	if (e->kernel && (e->err == EPERM || e->err == EACCES)) {
		cli_err(cmd, "permission denied", "%s", text);
		cli_err(cmd, "hint",
			"run as root, grant CAP_PERFMON (e.g. 'setcap cap_perfmon+ep %s'), or load the module with unprivileged_read=1",
			PROG);
		return MDC_EXIT_PERM;
	}
	if (e->kernel && e->err == EPROTONOSUPPORT) {
		cli_err(cmd, "protocol version mismatch",
			"%s speaks protocol %u but the loaded memdiag module refused it (%s): use the %s built with that module",
			PROG, (unsigned int)MEMDIAG_FAMILY_VERSION, text, PROG);
		return MDC_EXIT_PROTO;
	}
	describe_attrs(e, attr_name, where, sizeof(where));
	if (e->msg[0])
		cli_err(cmd, what, "%s: %s%s", strerror(e->err), e->msg, where);
	else
		cli_err(cmd, what, "%s%s", strerror(e->err), where);
	return !e->kernel && e->err == ENOMEM ? MDC_EXIT_LOCAL : MDC_EXIT_KERNEL;
}

void cli_nl_warn(const char *cmd, const struct nl_error *e)
{
	if (e->msg[0])
		cli_err(cmd, "warning from the memdiag module", "%s", e->msg);
}

int cli_check_proto(const char *cmd, uint32_t version)
{
	if (version == MEMDIAG_FAMILY_VERSION)
		return MDC_EXIT_OK;
	cli_err(cmd, "protocol version mismatch",
		"%s speaks protocol %u but the loaded memdiag module speaks %u: use the %s built with that module",
		PROG, (unsigned int)MEMDIAG_FAMILY_VERSION, version, PROG);
	return MDC_EXIT_PROTO;
}

int cli_no_family(const char *cmd, bool loaded)
{
	const char *what = "generic netlink family '" MEMDIAG_FAMILY_NAME "' not found";

	if (loaded)
		cli_err(cmd, what,
			"memdiag.ko is loaded, but serves only the initial network namespace: run %s there (e.g. 'nsenter --net=/proc/1/ns/net %s ...')",
			PROG, PROG);
	else
		cli_err(cmd, what,
			"is memdiag.ko loaded? load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')");
	return MDC_EXIT_NO_MODULE;
}

int cli_connect(const char *cmd, struct nl *nl, struct nl_family *fam)
{
	struct nl_error e;
	int rc;

	if (nl_open(nl, &e) < 0) {
		cli_err(cmd, "cannot open a generic netlink socket", "%s",
			strerror(e.err));
		return e.err == ENOMEM ? MDC_EXIT_LOCAL : MDC_EXIT_KERNEL;
	}
	if (nl_family_get(nl, MEMDIAG_FAMILY_NAME, fam, &e) < 0) {
		nl_close(nl);
		if (e.kernel && e.err == ENOENT)
			return cli_no_family(cmd,
					     access("/sys/module/memdiag", F_OK) == 0);
		return cli_nl_fail(cmd,
				   "cannot look up generic netlink family '" MEMDIAG_FAMILY_NAME "'",
				   &e, NULL);
	}
	rc = cli_check_proto(cmd, fam->version);
	if (rc != MDC_EXIT_OK) {
		nl_family_free(fam);
		nl_close(nl);
	}
	return rc;
}

int cli_need_op(const char *cmd, const struct nl_family *fam, uint32_t op,
		const char *name)
{
	/* without a list of operations (none reported) there is no telling */
	if (!fam->nr_ops || nl_family_has_op(fam, op))
		return MDC_EXIT_OK;
	cli_err(cmd, "the loaded memdiag module is too old",
		"it has no %s operation: use the module built with this %s",
		name, PROG);
	return MDC_EXIT_PROTO;
}

int cli_output_end(const char *cmd, struct printer *p)
{
	if (print_end(p) == 0)
		return MDC_EXIT_OK;
	if (errno == EINVAL)
		cli_err(cmd, "internal error", "unbalanced JSON output, please report this bug");
	else
		cli_err(cmd, "cannot write output", "%s", strerror(errno));
	return MDC_EXIT_LOCAL;
}
