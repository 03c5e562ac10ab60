// SPDX-License-Identifier: GPL-2.0
/* error.c - fill in a struct cli_error, from a request's extack too. */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/memdiag.h>

#include "error.h"

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

void cli_error_init(struct cli_error *err)
{
	memset(err, 0, sizeof(*err));
}

int cli_error_set(struct cli_error *err, int code, const char *what,
		  const char *fmt, ...)
{
	va_list ap;

	err->code = code;
	snprintf(err->what, sizeof(err->what), "%s", what);
	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof(err->detail), fmt, ap);
	va_end(ap);
	err->hint[0] = '\0';
	return code;
}

static const char perm_hint[] =
	"run as root, grant CAP_PERFMON (e.g. 'setcap cap_perfmon+ep " PROG "'), or load the module with unprivileged_read=1";

int cli_error_nl(struct cli_error *err, const char *what,
		 const struct nl_error *e, attr_name_fn attr_name)
{
	const char *text = e->msg[0] ? e->msg : strerror(e->err);
	char where[160];

	if (e->kernel && (e->err == EPERM || e->err == EACCES)) {
		cli_error_set(err, MDC_EXIT_PERM, "permission denied", "%s", text);
		snprintf(err->hint, sizeof(err->hint), "%s", perm_hint);
		return err->code;
	}
	if (e->kernel && e->err == EPROTONOSUPPORT)
		return cli_error_set(err, MDC_EXIT_PROTO, "protocol version mismatch",
				     "%s speaks protocol %u but the loaded memdiag module refused it (%s): use the %s built with that module",
				     PROG, (unsigned int)MEMDIAG_FAMILY_VERSION,
				     text, PROG);
	describe_attrs(e, attr_name, where, sizeof(where));
	return cli_error_set(err, !e->kernel && e->err == ENOMEM ?
			     MDC_EXIT_LOCAL : MDC_EXIT_KERNEL, what,
			     "%s%s%s%s", strerror(e->err), e->msg[0] ? ": " : "",
			     e->msg, where);
}
