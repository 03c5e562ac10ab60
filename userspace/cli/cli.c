// SPDX-License-Identifier: GPL-2.0
/* cli.c - how memdiagctl commands report failures and reach the module. */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <linux/memdiag.h>

#include "cli.h"
#include "conn.h"

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

void cli_info(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

int cli_report(const char *cmd, const struct cli_error *err)
{
	if (err->warning[0])
		cli_err(cmd, "warning from the memdiag module", "%s",
			err->warning);
	if (err->code == MDC_EXIT_OK)
		return MDC_EXIT_OK;
	cli_err(cmd, err->what, "%s", err->detail);
	if (err->hint[0])
		cli_err(cmd, "hint", "%s", err->hint);
	return err->code;
}

void cli_error_phrase(const struct cli_error *err, char *buf, size_t size)
{
	snprintf(buf, size, "%s: %s%s%s%s", err->what, err->detail,
		 err->hint[0] ? " (" : "", err->hint, err->hint[0] ? ")" : "");
}

int cli_nl_fail(const char *cmd, const char *what, const struct nl_error *e,
		attr_name_fn attr_name)
{
	struct cli_error err;

	cli_error_init(&err);
	cli_error_nl(&err, what, e, attr_name);
	return cli_report(cmd, &err);
}

void cli_nl_warn(const char *cmd, const struct nl_error *e)
{
	if (e->msg[0])
		cli_err(cmd, "warning from the memdiag module", "%s", e->msg);
}

int cli_check_proto(const char *cmd, uint32_t version)
{
	struct cli_error err;

	cli_error_init(&err);
	md_check_proto(version, &err);
	return cli_report(cmd, &err);
}

int cli_no_family(const char *cmd, bool loaded)
{
	struct cli_error err;

	cli_error_init(&err);
	md_no_family(loaded, &err);
	return cli_report(cmd, &err);
}

int cli_connect(const char *cmd, struct nl *nl, struct nl_family *fam)
{
	struct cli_error err;

	md_connect(nl, fam, &err);
	return cli_report(cmd, &err);
}

int cli_need_op(const char *cmd, const struct nl_family *fam, uint32_t op,
		const char *name)
{
	struct cli_error err;

	cli_error_init(&err);
	md_need_op(fam, op, name, &err);
	return cli_report(cmd, &err);
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

/* Where -o FILE's output is written until it is complete: beside FILE. */
static int output_tmp_name(char *buf, size_t size, const char *path)
{
	int n = snprintf(buf, size, "%s.memdiag-%ld.tmp", path, (long)getpid());

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/*
 * A FILE that exists and is no plain regular file (a symbolic link such as
 * /dev/stdout, a device, a FIFO) is written in place: renaming over it
 * would replace the link, device or pipe rather than write through it.
 */
static bool output_in_place(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

int cli_open_output(const char *cmd, const char *path, FILE **out)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd;

	if (!path)
		return MDC_EXIT_OK;
	if (output_in_place(path)) {
		f = fopen(path, "we");	/* O_CLOEXEC: not for a command stat runs */
		if (!f)
			goto fail;
		*out = f;
		return MDC_EXIT_OK;
	}
	if (output_tmp_name(tmp, sizeof(tmp), path) < 0) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		goto fail;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		goto fail;
	}
	*out = f;
	return MDC_EXIT_OK;
fail:
	cli_err(cmd, "option '--output'", "cannot open '%s': %s", path,
		strerror(errno));
	return MDC_EXIT_LOCAL;
}

int cli_close_output(const char *cmd, const char *path, FILE *f, bool keep)
{
	char tmp[PATH_MAX];
	bool direct, failed;

	if (!path || !f)
		return MDC_EXIT_OK;
	direct = output_tmp_name(tmp, sizeof(tmp), path) < 0 ||
		 access(tmp, F_OK) != 0;
	failed = ferror(f) != 0;
	if (fclose(f) == EOF)
		failed = true;
	if (direct)
		return failed && keep ? MDC_EXIT_LOCAL : MDC_EXIT_OK;
	if (keep && !failed && rename(tmp, path) == 0)
		return MDC_EXIT_OK;
	if (keep)
		cli_err(cmd, "cannot write output", "%s: %s; '%s' is left as it was",
			path, strerror(errno ? errno : EIO), path);
	unlink(tmp);
	return keep ? MDC_EXIT_LOCAL : MDC_EXIT_OK;
}

int cli_name_list(const char *cmd, const char *opt, const char *s,
		  const char *const *names, unsigned int nr, unsigned int *mask)
{
	char buf[128], *tok, *save = NULL;
	unsigned int i;

	*mask = 0;
	if (!*s || strlen(s) >= sizeof(buf) || s[strlen(s) - 1] == ',')
		return cli_usage(cmd, "option '%s': '%s' is not a comma list of names",
				 opt, s);
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < nr && strcmp(tok, names[i]); i++)
			;
		if (i == nr)
			return cli_usage(cmd, "option '%s': unknown '%s' (one of: %s%s%s%s%s)",
					 opt, tok, names[0], nr > 1 ? ", " : "",
					 nr > 1 ? names[1] : "", nr > 2 ? ", " : "",
					 nr > 2 ? names[2] : "");
		if (*mask & (1u << i))
			return cli_usage(cmd, "option '%s': '%s' given twice",
					 opt, tok);
		*mask |= 1u << i;
	}
	return MDC_EXIT_OK;
}
