// SPDX-License-Identifier: GPL-2.0
/*
 * unit_export_groups.c - unit tests: the exporter's per-group series
 * (export_groups.c) over a fake resctrl and cgroup tree with 10^3
 * services: at most K + 2 series per socket, the top group's bytes, and
 * "other" and "unattributed" adding up to the socket's count.
 */

#include "export_groups.h"
#include "fake_tree.h"
#include "helpers.h"
#include "units.h"

#define NR_SVC 1000

FIXTURE(export_groups) {
	char *root;
	struct export_groups g;
	struct export_state *st;
};

FIXTURE_SETUP(export_groups)
{
	char rel[256];
	FILE *tasks;
	int i;

	self->root = ft_make();
	ASSERT_NE(NULL, self->root);
	ft_resctrl(self->root, 2, 1, 0);
	snprintf(rel, sizeof(rel), "%s/sys/fs/resctrl/tasks", self->root);
	tasks = fopen(rel, "w");
	ASSERT_NE(NULL, tasks);
	for (i = 0; i < NR_SVC; i++) {
		snprintf(rel, sizeof(rel),
			 "sys/fs/cgroup/system.slice/svc%d.service/cgroup.threads",
			 i);
		ft_file(self->root, rel, "%d\n", 1000 + i);
		fprintf(tasks, "%d\n", 1000 + i);
	}
	fclose(tasks);
	ft_file(self->root, "sys/fs/cgroup/cgroup.threads", "%s", "");
	self->st = calloc(1, sizeof(*self->st));
	ASSERT_NE(NULL, self->st);
}

FIXTURE_TEARDOWN(export_groups)
{
	export_groups_close(&self->g);
	free(self->st);
	ft_remove(self->root);
}

/* The module's last interval of socket @i: @bytes read. */
static void module_interval(struct export_state *st, size_t i,
			    uint64_t bytes)
{
	struct export_socket *es = &st->sock[i];

	st->up = true;
	st->nr_sock = st->nr_sock > i + 1 ? st->nr_sock : i + 1;
	es->id = (uint32_t)i;
	es->have_m = true;
	es->m.valid = true;
	es->m.have_read_bytes = es->m.have_write_bytes = true;
	es->m.read_bytes = bytes;
	es->m.write_bytes = 0;
}

/* Each memdiag group's counter on socket 0: its service number * 1000. */
static uint64_t count(const char *root, const struct attr *a)
{
	char rel[4096], path[4096], line[32];
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < a->gs.nr; i++) {
		FILE *f;
		int tid;

		if (!a->gs.g[i].ours)
			continue;
		snprintf(path, sizeof(path), "%s/sys/fs/resctrl/%s/tasks",
			 root, a->gs.g[i].dir);
		f = fopen(path, "r");
		if (!f || !fgets(line, sizeof(line), f)) {
			if (f)
				fclose(f);
			continue;
		}
		fclose(f);
		tid = atoi(line);
		snprintf(rel, sizeof(rel), "%s", a->gs.g[i].dir);
		snprintf(line, sizeof(line), "%d", (tid - 1000) * 1000);
		ft_mbm(root, rel, 0, -1, line);
		sum += (uint64_t)(tid - 1000) * 1000;
	}
	return sum;
}

TEST_F(export_groups, top_k_other_unattributed)
{
	char *text = NULL, *p, want[128];
	size_t len = 0, series = 0, info = 0;
	struct timespec ts;
	uint64_t sum;
	FILE *f;

	export_groups_open(&self->g, 10, true);
	ASSERT_TRUE(self->g.on) TH_LOG("%s", self->g.why);
	self->g.a.gs.ops = &ft_fsops;
	export_groups_sample(&self->g, self->st);	/* baselines, attach */
	sum = count(self->root, &self->g.a);
	ok(sum == 999ull * 1000 * 1000 / 2,
	   "every service got its memdiag group: %" PRIu64, sum);
	snprintf(want, sizeof(want), "%" PRIu64, sum + 5000);
	ft_mbm(self->root, "", 0, -1, want);	/* 5000 bytes in no group */
	module_interval(self->st, 0, sum + 5000 + 7000);	/* 7000: IO */
	module_interval(self->st, 1, 0);
	/* within resctrl's second of the last sample: not read again */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	self->g.sampled_ms = (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	export_groups_sample(&self->g, self->st);
	ok(self->g.samples == 1, "a second sample within the second skipped");
	self->g.sampled_ms = 0;		/* as if the second had passed */
	export_groups_sample(&self->g, self->st);
	f = open_memstream(&text, &len);
	export_groups_render(&self->g, f);
	fclose(f);
	for (p = text; (p = strstr(p, "\nmemdiag_group_dram_bytes_total{")); p++)
		series++;
	for (p = text; (p = strstr(p, "\nmemdiag_group_info{")); p++)
		info++;
	ok(series == 14 && info == 10,
	   "10^3 groups: socket 0 has its 10 + other + unattributed, socket 1 (idle) other and unattributed: %zu series, %zu info",
	   series, info);
	ok(strstr(text, "memdiag_group_dram_bytes_total{socket=\"0\",group=\"svc999.service\",source=\"mbm\"} 999000\n") != NULL,
	   "the top group's bytes");
	/* other: every group beyond the top 10 (0..989), plus the 5000 */
	snprintf(want, sizeof(want),
		 "{socket=\"0\",group=\"other\",source=\"mbm\"} %" PRIu64 "\n",
		 (uint64_t)(989ull * 990 / 2 * 1000 + 5000));
	ok(strstr(text, want) != NULL, "other: %s", want);
	ok(strstr(text, "{socket=\"0\",group=\"unattributed\",source=\"mbm\"} 7000\n") != NULL,
	   "unattributed: the socket's bytes beyond every group");
	if (!series || !info)
		diag("text", text);
	free(text);
}

TEST_F(export_groups, max_groups_bound)
{
	char why[ATTR_WHY];
	struct attr a;
	struct recon r;

	ASSERT_EQ(0, attr_open(&a, CG_BY_POD, false, 100, why, sizeof(why)))
		TH_LOG("%s", why);
	ASSERT_EQ(0, attr_sample(&a, why, sizeof(why))) TH_LOG("%s", why);
	/* the root and system.slice are groups too: NR_SVC + 2 in all */
	ok(a.nr == 100 && a.scan.nr == 100 &&
	   a.scan.over_max == NR_SVC + 2 - 100,
	   "--max-groups 100 of 10^3: 100 followed, %zu counted beyond (%zu kept)",
	   a.scan.over_max, a.nr);
	ok(a.unowned > 0 && a.unowned <= 100 && a.gs.nr == 1,
	   "read only: no group made, the followed groups' threads in none (%zu)",
	   a.unowned);
	ASSERT_EQ(0, reconcile(&a, 0, false, 0, 10, &r));
	ok(r.nr_rows == 0 && r.other == 0, "nothing counted, nothing shown");
	recon_free(&r);
	attr_close(&a);
}

TEST_F(export_groups, read_only_resctrl)
{
	char why[ATTR_WHY];
	struct attr a;

	ASSERT_EQ(0, attr_open(&a, CG_BY_POD, true, 10000, why, sizeof(why)))
		TH_LOG("%s", why);
	a.gs.ops = &ft_fsops;
	ft_fail_mkdir = EROFS;	/* a container's read-only /sys/fs/resctrl */
	ASSERT_EQ(0, attr_sample(&a, why, sizeof(why))) TH_LOG("%s", why);
	ok(!a.attach && a.gs.st.refused == 1 && a.gs.st.refused_errno == EROFS &&
	   a.gs.nr == 1 && a.unowned == NR_SVC - 1,
	   "EROFS: one refused mkdir, then read only (%u refused, %zu groups, %zu threads in none)",
	   a.gs.st.refused, a.gs.nr, a.unowned);
	attr_close(&a);
}

static bool has_group(const struct attr *a, const char *key)
{
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (!strcmp(a->g[i].key, key))
			return true;
	return false;
}

TEST_F(export_groups, churn_keeps_memory_bounded)
{
	char why[ATTR_WHY], rel[256];
	struct attr a;
	int i, round;

	ASSERT_EQ(0, attr_open(&a, CG_BY_POD, false, NR_SVC + 100, why,
			       sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0, attr_sample(&a, why, sizeof(why)));
	/* three times half the services end and as many new ones start */
	for (round = 1; round <= 3; round++) {
		for (i = 0; i < NR_SVC / 2; i++) {
			snprintf(rel, sizeof(rel), "%s/sys/fs/cgroup/system.slice/svc%d.service",
				 self->root, (round - 1) * NR_SVC + i);
			snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel),
				 "/cgroup.threads");
			unlink(rel);
			*strrchr(rel, '/') = '\0';
			rmdir(rel);
			snprintf(rel, sizeof(rel),
				 "sys/fs/cgroup/system.slice/svc%d.service/cgroup.threads",
				 round * NR_SVC + i);
			ft_file(self->root, rel, "%d\n", 100000 + i);
		}
		ASSERT_EQ(0, attr_sample(&a, why, sizeof(why)));
		ASSERT_EQ(0, attr_sample(&a, why, sizeof(why)));
	}
	snprintf(rel, sizeof(rel), "svc%d.service", 3 * NR_SVC + NR_SVC / 2 - 1);
	ok(a.nr == NR_SVC + 2 && has_group(&a, rel) &&
	   !has_group(&a, "svc0.service"),
	   "after 1500 services came and went: %zu groups kept (the %d there and the root and slice), the newest followed, the first gone",
	   a.nr, NR_SVC);
	attr_close(&a);
}
