// SPDX-License-Identifier: GPL-2.0
/*
 * calib_store.c - where calibrate keeps its curves: the --curve FILE's
 * directory checked before minutes of measuring, and the file written
 * with the other sockets of this machine's earlier file kept.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calib_show.h"
#include "calib_store.h"

#ifndef MEMDIAGCTL_VERSION
#define MEMDIAGCTL_VERSION "unknown"
#endif

/* Merge the other sockets of the stored file when it is this machine's. */
static void cal_keep_others(const char *path, struct curve *c)
{
	char why[CURVE_WHY_SIZE];
	struct curve old;
	struct curve_socket *s;
	size_t i;

	if (curve_load(path, &old, why, sizeof(why)) ||
	    old.source != c->source ||
	    curve_fp_compare(&old.fp, &c->fp, why, sizeof(why))) {
		curve_free(&old);
		return;
	}
	for (i = 0; i < old.nr_sockets; i++) {
		if (curve_socket_find(c, old.sockets[i].socket))
			continue;
		s = realloc(c->sockets, (c->nr_sockets + 1) * sizeof(*s));
		if (!s)
			break;
		c->sockets = s;
		/* moved: the old file gives its socket up */
		s[c->nr_sockets++] = old.sockets[i];
		memset(&old.sockets[i], 0, sizeof(old.sockets[i]));
	}
	curve_free(&old);
}

int calib_store(const char *cmd, const struct cal_args *a,
		const struct opts *o, struct curve *c)
{
	char path[512], why[CURVE_WHY_SIZE], now[32];
	struct printer p;
	time_t t = time(NULL);
	struct tm tm;

	if (a->curve) {
		snprintf(path, sizeof(path), "%s", a->curve);
	} else if (curve_default_path(path, sizeof(path))) {
		cli_err(cmd, "nowhere to store the curves",
			"%s: set HOME or XDG_STATE_HOME, or give --curve FILE",
			strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	/* the default state directory only: a --curve FILE's must exist */
	if (!a->curve && curve_make_dirs(path)) {
		cli_err(cmd, "cannot store the curves",
			"%s: cannot create its directory: %s", path,
			strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	c->version = CURVE_VERSION;
	c->created = strdup(now);
	c->tool_version = strdup(MEMDIAGCTL_VERSION);
	cal_keep_others(path, c);
	if (!c->created || !c->tool_version ||
	    curve_save(path, c, why, sizeof(why))) {
		cli_err(cmd, "cannot store the curves", "%s",
			c->created && c->tool_version ? why : strerror(ENOMEM));
		return MDC_EXIT_LOCAL;
	}
	print_init(&p, stdout, o->json, o->pretty);
	print_open_object(&p, NULL);
	calib_show(&p, c, path, false, 0);
	print_close_object(&p);
	return cli_output_end(cmd, &p);
}

/*
 * --curve FILE's directory exists and is writable, checked before the
 * measuring (minutes) rather than when storing: a mistyped path is an
 * error with the path, and no directory is made for it.
 */
int calib_curve_dir_ok(const char *cmd, const struct cal_args *a)
{
	char dir[PATH_MAX], *slash;

	if (!a->curve || a->plan_only)
		return MDC_EXIT_OK;
	if (snprintf(dir, sizeof(dir), "%s", a->curve) >= (int)sizeof(dir)) {
		cli_err(cmd, "option '--curve'", "%.64s...: path too long", a->curve);
		return MDC_EXIT_LOCAL;
	}
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (access(dir, W_OK | X_OK)) {
		cli_err(cmd, "option '--curve'", "cannot store '%s': directory '%s': %s",
			a->curve, dir, strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	return MDC_EXIT_OK;
}
