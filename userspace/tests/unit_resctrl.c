// SPDX-License-Identifier: GPL-2.0
/*
 * unit_resctrl.c - unit tests: resctrl as attribution's MBM source
 * (resctrl_*.c) over fake trees: Intel without and with SNC, AMD's
 * mbm_event mode with fewer counters than groups, the values a counter
 * file can hold, and the groups memdiag reuses, makes, sweeps and removes.
 */

#include "fake_tree.h"
#include "helpers.h"
#include "mbm_judge.h"
#include "resctrl.h"
#include "units.h"

#define RC "sys/fs/resctrl"
#define HEX64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

FIXTURE(resctrl) {
	char *root;
	struct resctrl r;
	char why[RC_WHY];
};

FIXTURE_SETUP(resctrl)
{
	self->root = ft_make();
	ASSERT_NE(NULL, self->root);
}

FIXTURE_TEARDOWN(resctrl)
{
	resctrl_close(&self->r);
	ft_remove(self->root);
}

TEST_F(resctrl, values)
{
	uint64_t v = 0;

	ok(rc_parse_value("123", &v) == RC_VALUE_OK && v == 123, "a number");
	ok(rc_parse_value("18446744073709551615", &v) == RC_VALUE_OK &&
	   v == UINT64_MAX, "the largest 64-bit value");
	ok(rc_parse_value("18446744073709551616", &v) == RC_VALUE_GARBAGE,
	   "beyond 64 bits is garbage, not a wrapped number");
	ok(rc_parse_value("Unavailable", &v) == RC_VALUE_UNAVAILABLE &&
	   rc_parse_value("Unassigned", &v) == RC_VALUE_UNASSIGNED &&
	   rc_parse_value("Error", &v) == RC_VALUE_ERROR, "resctrl's words");
	ok(rc_parse_value("12x", &v) == RC_VALUE_GARBAGE &&
	   rc_parse_value("-1", &v) == RC_VALUE_GARBAGE &&
	   rc_parse_value("", &v) == RC_VALUE_GARBAGE, "garbage");
}

TEST_F(resctrl, not_mounted)
{
	ft_file(self->root, "proc/self/mountinfo",
		"25 1 0:22 / /sys rw - sysfs sysfs rw\n");
	ok(resctrl_open(&self->r, self->why, sizeof(self->why)) == -ENOENT,
	   "no resctrl in the mount table: -ENOENT");
	ok(strstr(self->why, "not mounted") &&
	   strstr(self->why, "mount -t resctrl"),
	   "the reason says what to do: %s", self->why);
}

TEST_F(resctrl, no_mbm)
{
	ft_resctrl(self->root, 2, 1, 0);
	ft_file(self->root, RC "/info/L3_MON/mon_features", "llc_occupancy\n");
	ok(resctrl_open(&self->r, self->why, sizeof(self->why)) ==
	   -EOPNOTSUPP && strstr(self->why, "mbm_total_bytes"),
	   "occupancy only: no DRAM bytes, said: %s", self->why);
}

/* Read the root group's bytes per socket since the last call. */
static void read_root(struct resctrl *r, struct rc_counter *st,
		      uint64_t *bytes, struct rc_read_stats *rs)
{
	memset(bytes, 0, RC_MAX_SOCKETS * sizeof(*bytes));
	rc_read_group(r, "", st, bytes, rs);
}

TEST_F(resctrl, intel_two_sockets)
{
	struct rc_counter st[4] = { 0 };
	struct rc_read_stats rs = { 0 };
	uint64_t b[RC_MAX_SOCKETS];

	ft_resctrl(self->root, 2, 1, 0);
	ASSERT_EQ(0, resctrl_open(&self->r, self->why, sizeof(self->why)));
	ok(self->r.nr_dom == 2 && self->r.nr_socket == 2 &&
	   self->r.num_rmids == 224 && !self->r.assign_mode,
	   "two domains on two sockets, 224 RMIDs");
	ft_mbm(self->root, "", 0, -1, "1000");
	ft_mbm(self->root, "", 1, -1, "5000");
	read_root(&self->r, st, b, &rs);
	ok(!b[0] && !b[1], "the first read is the baseline");
	ft_mbm(self->root, "", 0, -1, "3000");
	ft_mbm(self->root, "", 1, -1, "5100");
	read_root(&self->r, st, b, &rs);
	ok(b[self->r.dom[0].socket] == 2000 && b[self->r.dom[1].socket] == 100,
	   "each domain's delta on its socket: %" PRIu64 " %" PRIu64,
	   b[0], b[1]);
	ft_mbm(self->root, "", 0, -1, "10");	/* went down: recreated */
	read_root(&self->r, st, b, &rs);
	ok(rs.resets == 1 && b[self->r.dom[0].socket] == 0,
	   "a counter that went down is a reset, never a negative rate");
	ft_mbm(self->root, "", 0, -1, "110");
	read_root(&self->r, st, b, &rs);
	ok(b[self->r.dom[0].socket] == 100, "and counts on from its new value");
}

TEST_F(resctrl, words_and_wrap)
{
	struct rc_counter st[2] = { 0 };
	struct rc_read_stats rs = { 0 };
	uint64_t b[RC_MAX_SOCKETS];

	ft_resctrl(self->root, 1, 1, 0);
	ASSERT_EQ(0, resctrl_open(&self->r, self->why, sizeof(self->why)));
	ft_mbm(self->root, "", 0, -1, "18446744073709551615");
	read_root(&self->r, st, b, &rs);
	ft_mbm(self->root, "", 0, -1, "5");
	read_root(&self->r, st, b, &rs);
	ok(b[0] == 0 && rs.resets == 1,
	   "a 64-bit wrap is a reset, not 6 bytes nor 2^64 of them");
	ft_mbm(self->root, "", 0, -1, "Unavailable");
	read_root(&self->r, st, b, &rs);
	ft_mbm(self->root, "", 0, -1, "500");
	read_root(&self->r, st, b, &rs);
	ok(b[0] == 0 && rs.unavailable == 1,
	   "after Unavailable the next number is a new baseline");
	ft_mbm(self->root, "", 0, -1, "Unassigned");
	read_root(&self->r, st, b, &rs);
	ft_mbm(self->root, "", 0, -1, "garbage\x01");
	read_root(&self->r, st, b, &rs);
	ok(rs.unassigned == 1 && rs.garbage == 1 && b[0] == 0,
	   "Unassigned and garbage counted, no bytes");
	memset(b, 0, sizeof(b));
	ok(rc_read_group(&self->r, "gone", st, b, &rs) == -ENOENT,
	   "a group whose files are gone: -ENOENT");
}

TEST_F(resctrl, snc_sub_domains)
{
	struct rc_counter st[4] = { 0 };
	struct rc_read_stats rs = { 0 };
	uint64_t b[RC_MAX_SOCKETS];

	ft_resctrl(self->root, 1, 1, 2);
	ASSERT_EQ(0, resctrl_open(&self->r, self->why, sizeof(self->why)));
	ok(self->r.dom[0].nr_sub == 2 && rc_nr_counters(&self->r) == 2,
	   "SNC: two mon_sub_L3 nodes in the domain");
	read_root(&self->r, st, b, &rs);
	ft_mbm(self->root, "", 0, 0, "700");
	ft_mbm(self->root, "", 0, 1, "300");
	/* the top-level file's zero (upstream 594902c986e2) is not read */
	ft_mbm(self->root, "", 0, -1, "0");
	read_root(&self->r, st, b, &rs);
	ok(b[0] == 1000, "the socket is the sum of its SNC nodes: %" PRIu64,
	   b[0]);
}

TEST_F(resctrl, amd_assignable_counters)
{
	struct rc_groups gs;
	int a, b;

	ft_resctrl(self->root, 2, 2, 0);
	ft_file(self->root, RC "/info/L3_MON/mbm_assign_mode",
		"[mbm_event]\ndefault\n");
	ft_file(self->root, RC "/info/L3_MON/num_mbm_cntrs", "0=32;1=2\n");
	ft_file(self->root, RC "/info/L3_MON/available_mbm_cntrs",
		"0=30;1=1\n");
	ASSERT_EQ(0, resctrl_open(&self->r, self->why, sizeof(self->why)));
	ok(self->r.assign_mode && self->r.num_cntrs == 2 &&
	   self->r.avail_cntrs == 1 && self->r.nr_socket == 1,
	   "mbm_event mode, the fewest counters of any domain");
	rc_groups_init(&gs, &self->r, &ft_fsops);
	ASSERT_EQ(0, rc_groups_list(&gs));
	a = rc_group_make(&gs, 0);
	ft_fail_assign = ENOSPC;
	b = rc_group_make(&gs, 0);
	ok(a > 0 && b > 0 && gs.st.no_cntr == 1,
	   "more groups than counters: the group without one is counted");
	rc_groups_remove_ours(&gs);
	rc_groups_free(&gs);
}

static int count_tid(pid_t tid, int g, void *arg)
{
	int *where = arg;

	if (tid == 42)
		*where = g;
	return 0;
}

TEST_F(resctrl, groups_reused_swept_removed)
{
	char dead[64], mine[64], path[4096];
	struct rc_groups gs;
	int g, where = -1;
	size_t i, runc = 0, cadv = 0, pqos = 0;

	ft_resctrl(self->root, 1, 1, 0);
	ft_file(self->root, RC "/g1/tasks", "42\n");
	ft_file(self->root, RC "/g1/mon_groups/" HEX64 "/tasks", "42\n");
	ft_file(self->root, RC "/mon_groups/cadvisor-web/tasks", "%s", "");
	ft_file(self->root, RC "/mon_groups/pqos-7/tasks", "%s", "");
	/* pid 2^22 + 1 is beyond pid_max: a memdiag that is gone */
	snprintf(dead, sizeof(dead), RC "/mon_groups/memdiag-4194305-0/tasks");
	ft_file(self->root, dead, "%s", "");
	snprintf(mine, sizeof(mine), "proc/%d/status", (int)getpid());
	ft_file(self->root, mine, "x\n");
	ASSERT_EQ(0, resctrl_open(&self->r, self->why, sizeof(self->why)));
	rc_groups_init(&gs, &self->r, &ft_fsops);
	ASSERT_EQ(0, rc_groups_list(&gs));
	for (i = 0; i < gs.nr; i++) {
		runc += gs.g[i].owner == RC_OWNER_RUNC;
		cadv += gs.g[i].owner == RC_OWNER_CADVISOR;
		pqos += gs.g[i].owner == RC_OWNER_PQOS;
	}
	ok(gs.nr == 6 && runc == 1 && cadv == 1 && pqos == 1,
	   "root, g1 and four monitoring groups, their makers known (%zu)",
	   gs.nr);
	rc_groups_tids(&gs, count_tid, &where);
	ok(where >= 0 && !strcmp(gs.g[where].dir, "g1/mon_groups/" HEX64),
	   "a thread's monitoring group wins over its control group");
	rc_groups_sweep(&gs);
	snprintf(path, sizeof(path), "%s/" RC "/mon_groups/memdiag-4194305-0",
		 self->root);
	ok(gs.st.swept == 1 && access(path, F_OK),
	   "a killed memdiag's group is swept; the others stay");
	g = rc_group_make(&gs, 1);
	ok(g > 0 && !strncmp(gs.g[g].dir, "g1/mon_groups/memdiag-", 22),
	   "made under the thread's own control group: %s", gs.g[g].dir);
	ok(rc_group_add_tid(&gs, g, 42) == 0, "a thread written");
	ft_fail_tasks = ESRCH;
	ok(rc_group_add_tid(&gs, g, 43) == -ESRCH && gs.st.esrch == 1,
	   "a thread that exited meanwhile: ESRCH counted, harmless");
	ft_fail_tasks = EINVAL;
	ok(rc_group_add_tid(&gs, g, 44) == -EINVAL && gs.st.refused == 1,
	   "a refused tasks write is counted with its errno");
	ft_fail_mkdir = ENOSPC;
	ok(rc_group_make(&gs, 0) == -ENOSPC && gs.st.enospc == 1,
	   "no RMID free: ENOSPC counted");
	ft_fail_mkdir = EBUSY;
	ok(rc_group_make(&gs, 0) == -EBUSY && gs.st.ebusy == 1,
	   "RMIDs in limbo: EBUSY counted");
	snprintf(path, sizeof(path), "%s/" RC "/%s", self->root, gs.g[g].dir);
	rc_groups_remove_ours(&gs);
	ok(access(path, F_OK) && gs.nr == 7,
	   "memdiag's own group removed at the end");
	snprintf(path, sizeof(path), "%s/" RC "/g1/mon_groups/" HEX64,
		 self->root);
	ok(!access(path, F_OK), "runc's group left as it was");
	rc_groups_free(&gs);
}

TEST_F(resctrl, mbm_judge)
{
	double imc[5] = { 9e9, 1e9, 1e9, 1e9, 1e9 };
	double in[5] = { 1e9, 1.07e9, 1.07e9, 1.07e9, 1.07e9 };
	double out[5] = { 1e9, 1.09e9, 1.09e9, 1.09e9, 1.09e9 };
	double d;

	ok(mbm_judge(in, imc, 5, MBM_JUDGE_DROP, MBM_JUDGE_TOLERANCE_PCT, &d) &&
	   fabs(d - 7) < 1e-9,
	   "7 %% apart, the first second (9 GB on the IMC) dropped: pass (%g)", d);
	ok(!mbm_judge(out, imc, 5, MBM_JUDGE_DROP, MBM_JUDGE_TOLERANCE_PCT,
		      &d) && fabs(d - 9) < 1e-9, "9 %% apart: fail (%g)", d);
	ok(!mbm_judge(in, imc, 1, MBM_JUDGE_DROP, MBM_JUDGE_TOLERANCE_PCT,
		      &d) && isnan(d), "nothing left after the drop: no verdict");
}
