// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_collect.c - snapshot replies kept as they came, for snapshot's
 * two readings and each of top's intervals.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "cli.h"
#include "cmd.h"
#include "names.h"
#include "snapshot_collect.h"
static int collect_msg(const struct nlmsghdr *nlh, void *data)
{
	struct snapshot_collect *c = data;
	struct nlmsghdr **msgs, *copy;

	msgs = realloc(c->msgs, (c->nr + 1) * sizeof(*msgs));
	if (!msgs)
		return MNL_CB_ERROR;
	c->msgs = msgs;
	copy = malloc(nlh->nlmsg_len);
	if (!copy)
		return MNL_CB_ERROR;
	memcpy(copy, nlh, nlh->nlmsg_len);
	c->msgs[c->nr++] = copy;
	return MNL_CB_OK;
}

void snapshot_collect_free(struct snapshot_collect *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		free(c->msgs[i]);
	free(c->msgs);
}

void snapshot_sleep_ms(uint32_t ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Read the counters: do for one socket, dump for all. An exit code. */
int snapshot_request(const char *cmd, struct nl *nl,
		     const struct nl_family *fam, bool all, uint32_t socket,
		     bool channels, struct snapshot_collect *c)
{
	struct nlmsghdr *req;
	struct nl_error e;

	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_SNAPSHOT,
			   MEMDIAG_FAMILY_VERSION, all ? NLM_F_DUMP : 0);
	if (!all)
		mnl_attr_put_u32(req, MEMDIAG_A_SNAPSHOT_SOCKET, socket);
	if (channels)
		mnl_attr_put(req, MEMDIAG_A_SNAPSHOT_CHANNELS, 0, NULL);
	if (nl_exchange(nl, req, collect_msg, c, &e) < 0)
		return cli_nl_fail(cmd, "snapshot request failed", &e,
				   name_snapshot_attr);
	cli_nl_warn(cmd, &e);
	if (!all && !c->nr) {
		cli_err(cmd, "snapshot request failed",
			"the memdiag module acknowledged without a reply");
		return MDC_EXIT_KERNEL;
	}
	return MDC_EXIT_OK;
}

