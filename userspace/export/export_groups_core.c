// SPDX-License-Identifier: GPL-2.0
/*
 * export_groups_core.c - the exporter's groups from the memdiag module's
 * core estimate, where resctrl has no MBM, over a groups connection of
 * their own (groups_conn_open(): the exporter's is subscribed to the
 * snapshots), made when the exporter finds the module and closed when it
 * loses it.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export_groups.h"
#include "groups.h"
#include "parse.h"

/* attr's reader: group-get's entries as attr_core_entry. */
static int core_read(void *ctx, struct attr_core_entry **e, size_t *n,
		     char *why, size_t size)
{
	struct export_groups *g = ctx;
	struct group_bytes *gb;
	struct cli_error err;
	size_t i;

	if (!g->gc.connected) {
		snprintf(why, size, "the memdiag module is not connected");
		return -ENOTCONN;
	}
	if (groups_read(&g->gc.nl, &g->gc.fam, &gb, n, &err) != MDC_EXIT_OK) {
		cli_error_phrase(&err, why, size);
		return -EIO;
	}
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

/* g->why: no MBM, and why no core estimate either. */
static void no_core(struct export_groups *g, const char *why)
{
	snprintf(g->why, sizeof(g->why),
		 "no resctrl MBM (%.110s), and no core estimate: %.160s",
		 g->mbm_why, why);
}

void export_groups_connect(struct export_groups *g,
			   const struct info_summary *sum)
{
	char why[ATTR_WHY];
	struct cli_error err;

	if (!g->core || g->gc.connected)
		return;
	if (groups_conn_open(&g->gc, INTERVAL_MS_MAX, &err) != MDC_EXIT_OK) {
		cli_error_phrase(&err, why, sizeof(why));
		no_core(g, why);
		return;
	}
	if (g->opened) {
		attr_core_rebase(&g->a);
		g->rebase = true;
	} else if (attr_open_core(&g->a, CG_BY_POD, EXPORT_GROUPS_MAX_GROUPS,
				  sum->socket, sum->nr_socket, core_read, g,
				  why, sizeof(why))) {
		no_core(g, why);
		export_groups_disconnect(g);
		return;
	}
	g->opened = g->on = true;
}

void export_groups_disconnect(struct export_groups *g)
{
	groups_conn_close(&g->gc);
	if (g->core)
		g->on = false;
}
