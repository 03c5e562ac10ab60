// SPDX-License-Identifier: GPL-2.0
/*
 * stat_group.c - "stat -- CMD"'s own bytes: with resctrl counting DRAM
 * bytes and root, the command starts in a memdiag monitoring group made
 * under stat's own control group (so it keeps its allocation), every
 * thread and child it makes inherits the group, and the group's
 * mbm_total_bytes per socket are its own bytes beside the socket's.
 * Without MBM, the command gets a cgroup of its own and its bytes are the
 * memdiag module's core estimate (stat_core.c), labelled so: the DRAM
 * fills its cores caused, without prefetch or writeback traffic.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "counters/counters.h"
#include "stat_group.h"

/* The MBM source; false with sg->why when it cannot be used. */
static bool open_mbm(struct stat_group *sg)
{
	if (resctrl_open(&sg->rc, sg->why, sizeof(sg->why)))
		return false;
	sg->open = true;
	if (geteuid()) {
		snprintf(sg->why, sizeof(sg->why),
			 "making the command's resctrl monitoring group needs root");
		return false;
	}
	rc_groups_init(&sg->gs, &sg->rc, &rc_fsops_real);
	if (rc_groups_list(&sg->gs)) {
		snprintf(sg->why, sizeof(sg->why), "cannot list resctrl's groups");
		return false;
	}
	rc_groups_sweep(&sg->gs);
	return true;
}

bool stat_group_open_core(struct stat_group *sg, struct nl *nl,
			  const struct nl_family *fam, const uint32_t *id,
			  size_t n)
{
	char why[ATTR_WHY], mbm[ATTR_WHY];
	size_t s;

	if (stat_core_open(&sg->core, nl, fam, why, sizeof(why))) {
		memcpy(mbm, sg->why, sizeof(mbm));
		snprintf(sg->why, sizeof(sg->why),
			 "no resctrl MBM (%.90s), and no core estimate: %.180s",
			 mbm, why);
		return false;
	}
	sg->source = ATTR_SOURCE_CORE_ESTIMATE;
	sg->on = true;
	/* the sockets: those the caller names */
	sg->rc.nr_socket = n < RC_MAX_SOCKETS ? n : RC_MAX_SOCKETS;
	for (s = 0; s < sg->rc.nr_socket; s++)
		sg->rc.socket_id[s] = id[s];
	return true;
}

void stat_group_open(struct stat_group *sg, struct counters *c)
{
	*sg = (struct stat_group){ .g = -1 };
	if (open_mbm(sg)) {
		sg->on = true;
		return;
	}
	if (sg->open) {
		resctrl_close(&sg->rc);
		sg->open = false;
	}
	memset(&sg->rc, 0, sizeof(sg->rc));
	/* no module: sg->why says why no MBM */
	if (c && c->on)
		stat_group_open_core(sg, &c->nl, &c->fam, c->sock_id,
				     c->nr_sock);
}

int stat_group_delta(struct stat_group *sg, uint64_t *bytes)
{
	uint64_t now[RC_MAX_SOCKETS];
	size_t s;
	int ret;

	if (sg->source == ATTR_SOURCE_MBM)
		return rc_read_group(&sg->rc, sg->gs.g[sg->g].dir,
				     sg->gs.g[sg->g].state, bytes, &sg->rs);
	ret = stat_core_read(&sg->core, sg->rc.socket_id, sg->rc.nr_socket,
			     now, sg->why, sizeof(sg->why));
	for (s = 0; !ret && s < sg->rc.nr_socket; s++) {
		bytes[s] = now[s] - sg->last[s];
		sg->last[s] = now[s];
	}
	return ret;
}

static int find_self(pid_t tid, int g, void *arg)
{
	int *ctrl = arg;

	if (tid == getpid())
		*ctrl = g;
	return 0;
}

int stat_group_attach(pid_t pid, void *arg)
{
	struct stat_group *sg = arg;
	int ctrl = 0, ret;

	if (!sg->on)
		return 0;
	if (sg->source == ATTR_SOURCE_CORE_ESTIMATE) {
		if (stat_core_attach(&sg->core, pid, sg->why, sizeof(sg->why)))
			sg->on = false;
		return 0;
	}
	/* stat's own group: the command's control group stays the same */
	rc_groups_tids(&sg->gs, find_self, &ctrl);
	if (sg->gs.g[ctrl].ctrl >= 0)
		ctrl = sg->gs.g[ctrl].ctrl;
	rc_lock(&sg->rc);
	sg->g = rc_group_make(&sg->gs, ctrl);
	ret = sg->g < 0 ? sg->g : rc_group_add_tid(&sg->gs, sg->g, pid);
	rc_unlock(&sg->rc);
	if (ret) {
		snprintf(sg->why, sizeof(sg->why),
			 "cannot put the command in a resctrl monitoring group: %s",
			 strerror(-ret));
		sg->on = false;
	}
	return 0;
}

void stat_group_end(struct stat_group *sg)
{
	if (sg->on && sg->source == ATTR_SOURCE_CORE_ESTIMATE) {
		sg->read = !stat_core_read(&sg->core, sg->rc.socket_id,
					   sg->rc.nr_socket, sg->bytes,
					   sg->why, sizeof(sg->why));
		return;
	}
	if (!sg->on || sg->g < 0)
		return;
	sg->read = !rc_read_group(&sg->rc, sg->gs.g[sg->g].dir,
				  sg->gs.g[sg->g].state, sg->bytes, &sg->rs);
	if (!sg->read)
		snprintf(sg->why, sizeof(sg->why),
			 "the command's monitoring group vanished");
	rc_groups_remove_ours(&sg->gs);
}

void stat_group_print(struct printer *p, const struct stat_group *sg,
		      double elapsed_s)
{
	const struct rc_read_stats *rs = &sg->rs;
	bool valid = sg->read && !rs->unavailable && !rs->unassigned &&
		     !rs->error && !rs->garbage && !rs->resets;
	size_t s;

	print_open_object(p, "own");
	if (!sg->read || !valid) {
		print_string(p, PRINT_JSON, "source", "%s", NULL);
		print_string(p, PRINT_ANY, "reason",
			     "own bytes: none: %s\n", sg->read ?
			     "resctrl's counter did not count all along (Unavailable, Unassigned or reset)" :
			     sg->why);
		print_close_object(p);
		return;
	}
	print_string(p, PRINT_ANY, "source", "own bytes (%s, the command and its children):",
		     attr_source_name(sg->source));
	print_open_array(p, "sockets");
	for (s = 0; s < sg->rc.nr_socket; s++) {
		print_open_object(p, NULL);
		print_uint(p, PRINT_ANY, "socket", " socket %u", sg->rc.socket_id[s]);
		print_u64(p, PRINT_ANY, "bytes", " %" PRIu64 " B", sg->bytes[s]);
		print_double(p, PRINT_ANY, "gbps", " (%.3f GB/s)",
			     elapsed_s > 0 ? (double)sg->bytes[s] / elapsed_s / 1e9 : 0);
		print_close_object(p);
	}
	print_close_array(p);
	print_textf(p, "\n");
	if (sg->source == ATTR_SOURCE_CORE_ESTIMATE)
		print_string(p, PRINT_ANY, "note", "note: own bytes %s\n",
			     "are an estimate: the DRAM fills the command's cores caused, without the prefetchers' and the writebacks' traffic, never scaled to the socket's count");
	print_close_object(p);
}

void stat_group_close(struct stat_group *sg)
{
	if (sg->source == ATTR_SOURCE_CORE_ESTIMATE)
		stat_core_close(&sg->core);
	if (sg->open) {
		rc_groups_free(&sg->gs);
		resctrl_close(&sg->rc);
	}
	sg->open = sg->on = false;
}
