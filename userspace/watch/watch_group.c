// SPDX-License-Identifier: GPL-2.0
/*
 * watch_group.c - the columns of "watch --group PATH": the cgroup PATH
 * and every cgroup below it as one group, its threads in resctrl
 * monitoring groups (reused, or memdiag's as root), and its bytes per
 * socket each interval as GB/s and as a share of the socket's. Without
 * MBM its bytes are the memdiag module's core estimate, read over a
 * connection and a groups session of its own: watch's connection is
 * subscribed to snapshots, which would interleave with a dump's replies.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "groups.h"
#include "parse.h"
#include "watch_group.h"

#define WATCH_GROUP_MAX 10000	/* cgroups walked for the subtree */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* attr's reader: group-get's entries as attr_core_entry. */
static int core_read(void *ctx, struct attr_core_entry **e, size_t *n,
		     char *why, size_t size)
{
	struct watch_group *g = ctx;
	uint64_t t0 = now_ns();
	struct group_bytes *gb;
	struct cli_error err;
	size_t i;

	if (groups_read(&g->gc.nl, &g->gc.fam, &gb, n, &err) != MDC_EXIT_OK) {
		cli_error_phrase(&err, why, size);
		return -EIO;
	}
	/*
	 * Each CPU charged what it counted somewhere in the read, as its
	 * cross-call reached it: the middle errs by half the read at most.
	 */
	g->read_ns = t0 + (now_ns() - t0) / 2;
	*e = malloc((*n ? *n : 1) * sizeof(**e));
	if (!*e) {
		free(gb);
		snprintf(why, size, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < *n; i++)
		(*e)[i] = (struct attr_core_entry){ gb[i].socket,
						    gb[i].cgroup_id,
						    gb[i].bytes };
	free(gb);
	return 0;
}

/* The core estimate for @sum's sockets: 0, or -errno with @why. */
static int open_core(struct watch_group *g, const struct info_summary *sum,
		     char *why, size_t size)
{
	struct cli_error err;

	if (!sum) {
		snprintf(why, size, "the memdiag module is not connected");
		return -ENODEV;
	}
	if (groups_conn_open(&g->gc, INTERVAL_MS_MAX, &err) != MDC_EXIT_OK) {
		cli_error_phrase(&err, why, size);
		return -ENODEV;
	}
	return attr_open_core(&g->a, CG_BY_CGROUP, WATCH_GROUP_MAX,
			      sum->socket, sum->nr_socket, core_read, g, why,
			      size);
}

int watch_group_open(struct watch_group *g, const char *cmd, const char *path,
		     const struct info_summary *sum)
{
	char why[ATTR_WHY], core[ATTR_WHY];

	*g = (struct watch_group){ .path = path };
	if (path[0] != '/')
		return cli_usage(cmd, "option '--group': '%s' is no cgroup path (it starts with /, as in /proc/PID/cgroup)",
				 path);
	if (attr_open(&g->a, CG_BY_CGROUP, !geteuid(), WATCH_GROUP_MAX, why,
		      sizeof(why)) &&
	    open_core(g, sum, core, sizeof(core))) {
		cli_err(cmd, "option '--group': no per-group numbers on this host",
			"no resctrl MBM (%s), and no core estimate: %s", why,
			core);
		watch_group_close(g);
		return MDC_EXIT_UNAVAILABLE;
	}
	g->a.subtree = path;
	g->open = true;
	if (attr_sample(&g->a, why, sizeof(why))) {	/* the baselines */
		cli_err(cmd, "option '--group'", "%s", why);
		watch_group_close(g);
		return MDC_EXIT_LOCAL;
	}
	g->sampled_ns = g->read_ns ? g->read_ns : now_ns();
	return MDC_EXIT_OK;
}

/* Sample once per interval: when the last sample is over half one old. */
static void sample(struct watch_group *g, const struct interval *m)
{
	uint64_t now = now_ns();
	char why[ATTR_WHY];

	if (m->interval_ns && now - g->sampled_ns < m->interval_ns / 2)
		return;
	if (attr_sample(&g->a, why, sizeof(why)))
		return;
	/*
	 * the bytes are those up to the read, which comes last in a sample
	 * (after the walk of the hierarchy); the core estimate's reader
	 * timed its read itself
	 */
	now = g->read_ns ? g->read_ns : now_ns();
	g->seconds = (double)(now - g->sampled_ns) / 1e9;
	g->sampled_ns = now;
}

void watch_group_row(struct printer *p, struct watch_group *g,
		     const struct interval *m)
{
	double gbps = NAN, share = NAN;
	size_t s;

	sample(g, m);
	for (s = 0; s < g->a.rc.nr_socket; s++) {
		uint64_t bytes = 0;
		size_t i;

		if (g->a.rc.socket_id[s] != m->socket || g->seconds <= 0)
			continue;
		for (i = 0; i < g->a.nr; i++)
			bytes += g->a.g[i].delta[s];
		gbps = (double)bytes / g->seconds / 1e9;
		if (isfinite(m->total_gbps) && m->total_gbps > 0)
			share = 100 * gbps / m->total_gbps;
	}
	if (isfinite(gbps))
		print_double(p, PRINT_ANY, "group_gbps", "  %8.2f", gbps);
	else
		print_string(p, PRINT_ANY, "group_gbps", "  %8s", NULL);
	if (isfinite(share))
		print_double(p, PRINT_ANY, "group_share_percent", "  %4.0f", share);
	else
		print_string(p, PRINT_ANY, "group_share_percent", "  %4s", NULL);
	print_string(p, PRINT_JSON, "group", "%s", g->path);
	print_string(p, PRINT_JSON, "group_source", "%s",
		     attr_source_name(g->a.source));
}

void watch_group_close(struct watch_group *g)
{
	if (g->open)
		attr_close(&g->a);
	groups_conn_close(&g->gc);
	g->open = false;
}
