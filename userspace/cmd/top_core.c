// SPDX-License-Identifier: GPL-2.0
/*
 * top_core.c - top's groups where resctrl has no MBM: the memdiag
 * module's core estimate (group-get), over the connection top_socket.c
 * opened, in a session of its own that asks for groups.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "groups.h"
#include "parse.h"
#include "top.h"

/* attr's reader: group-get's entries as attr_core_entry. */
static int core_read(void *ctx, struct attr_core_entry **e, size_t *n,
		     char *why, size_t size)
{
	struct top_core *c = ctx;
	struct group_bytes *g;
	struct cli_error err;
	size_t i;

	if (groups_read(&c->ts->nl, &c->ts->fam, &g, n, &err) != MDC_EXIT_OK) {
		cli_error_phrase(&err, why, size);
		return -EIO;
	}
	*e = malloc((*n ? *n : 1) * sizeof(**e));
	if (!*e) {
		free(g);
		snprintf(why, size, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < *n; i++)
		(*e)[i] = (struct attr_core_entry){ g[i].socket, g[i].cgroup_id,
						    g[i].bytes };
	free(g);
	return 0;
}

int top_core_open(struct top_core *c, struct top_socket_src *ts,
		  struct attr *a, enum cg_by by, size_t max, char *why,
		  size_t size)
{
	struct cli_error err;
	int ret;

	*c = (struct top_core){ .ts = ts };
	if (!ts->connected) {
		snprintf(why, size, "%s", ts->why);
		return -ENODEV;
	}
	/* the longest interval: never makes another session publish more */
	if (session_start_groups(&ts->nl, &ts->fam, INTERVAL_MS_MAX,
				 &c->session, &err) != MDC_EXIT_OK) {
		cli_error_phrase(&err, why, size);
		return -EOPNOTSUPP;
	}
	c->on = true;
	/* the sockets get-info lists, as the module's snapshots have them */
	ret = attr_open_core(a, by, max, ts->sock_id, ts->nr_sock, core_read,
			     c, why, size);
	if (ret)
		top_core_close(c);
	return ret;
}

void top_core_close(struct top_core *c)
{
	struct cli_error err;

	if (c->on)
		session_stop(&c->ts->nl, &c->ts->fam, c->session, &err);
	c->on = false;
}
