// SPDX-License-Identifier: GPL-2.0
/*
 * unit_watch_group.c - unit tests: "watch --group PATH" (watch_group.c)
 * over a fake resctrl and cgroup tree, fed canned snapshots: the cgroup
 * and those below it as one group, its bytes as GB/s and a share of the
 * socket's, reusing the monitoring group a runtime made.
 */

#include "fake_tree.h"
#include "helpers.h"
#include "units.h"
#include "watch_group.h"

#define HEX "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789"

FIXTURE(watch_group) {
	char *root;
};

FIXTURE_SETUP(watch_group)
{
	self->root = ft_make();
	ASSERT_NE(NULL, self->root);
	ft_resctrl(self->root, 1, 1, 0);
	ft_file(self->root, "sys/fs/resctrl/tasks", "500\n501\n502\n");
	/* runc put the service's container in a group of its own */
	ft_file(self->root, "sys/fs/resctrl/mon_groups/" HEX "/tasks", "500\n501\n");
	ft_mbm(self->root, "mon_groups/" HEX, 0, -1, "0");
	ft_file(self->root, "sys/fs/cgroup/app.slice/web.service/cgroup.threads",
		"500\n");
	ft_file(self->root, "sys/fs/cgroup/app.slice/web.service/worker/cgroup.threads",
		"501\n");
	ft_file(self->root, "sys/fs/cgroup/other.slice/cgroup.threads", "502\n");
	ft_file(self->root, "sys/fs/cgroup/cgroup.threads", "%s", "");
}

FIXTURE_TEARDOWN(watch_group)
{
	ft_remove(self->root);
}

TEST_F(watch_group, subtree_bytes_beside_the_socket)
{
	struct watch_group g;
	struct info_summary sum;
	struct snap a, b;
	struct wrun r;
	char *out, *err, *p;
	double gbps = 0, share = 0;
	struct timespec pause = { 0, 600000000 };

	ASSERT_EQ(0, watch_group_open(&g, "watch", "/app.slice", NULL));
	canned_summary(&sum);
	canned_pair(0, &a, &b);
	wrun_start(&r, true, &sum);
	r.w.grp = &g;
	wrun_feed(&r, &a);
	/* the service and its worker moved 3 GB meanwhile */
	ft_mbm(self->root, "mon_groups/" HEX, 0, -1, "3000000000");
	nanosleep(&pause, NULL);	/* over half the canned 1 s interval */
	wrun_feed(&r, &b);
	wrun_end(&r, &out, &err);
	p = strstr(out, "\"group_gbps\":");
	if (p)
		gbps = strtod(p + 13, NULL);
	p = strstr(out, "\"group_share_percent\":");
	if (p)
		share = strtod(p + 22, NULL);
	/* 3 GB over the 0.6 s or a little more between the two samples */
	ok(gbps > 2.5 && gbps <= 5.0 && fabs(share - 100 * gbps / 32) < 0.01,
	   "the subtree's bytes as GB/s (%g) and its share of the socket's 32 GB/s (%g %%)",
	   gbps, share);
	ok(strstr(out, "\"group\":\"/app.slice\",\"group_source\":\"mbm\"") != NULL,
	   "the group and its source named in the row");
	if (!p)
		diag("out", out);
	free(out);
	free(err);
	watch_group_close(&g);
}
