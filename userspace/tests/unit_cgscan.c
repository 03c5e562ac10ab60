// SPDX-License-Identifier: GPL-2.0
/*
 * unit_cgscan.c - unit tests: the cgroup hierarchy over fake trees
 * (cgscan.c): which mount is followed (v2, hybrid, v1), the walk into
 * groups for each --by, a group's threads, a thread's cgroup, and the
 * bounds (depth, path length, 10^4 groups with a smaller maximum).
 */

#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "cgscan.h"
#include "fake_tree.h"
#include "helpers.h"
#include "units.h"

#define CGV2 "sys/fs/cgroup"
#define CGSD "sys/fs/cgroup/systemd"
#define UID_A "5f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
#define SLICE_A "kubepods-burstable-pod5f1e2d3c_4b5a_4968_8776_a5b4c3d2e1f0.slice"
#define UID_B "0a1b2c3d-4e5f-4061-8273-9485a6b7c8d9"
#define SLICE_B "kubepods-pod0a1b2c3d_4e5f_4061_8273_9485a6b7c8d9.slice"
#define UID_C "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"
#define SLICE_C "kubepods-besteffort-pod9f8e7d6c_5b4a_4392_8170_6f5e4d3c2b1a.slice"
#define ID1 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID2 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define ID3 "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define USER "user.slice/user-1000.slice"
#define MGR USER "/user@1000.service"
#define KUBE "kubepods.slice/kubepods-burstable.slice/" SLICE_A
#define NESTED "system.slice/containerd.service/" SLICE_C

/* The mount lines of a cgroup2 host, of a hybrid one, of a v1 one. */
#define MI_ROOT "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n" \
	"25 22 0:23 / /sys rw,nosuid shared:2 - sysfs sysfs rw\n"
#define MI_V2 "30 25 0:26 / /sys/fs/cgroup rw,nosuid,nodev shared:4 - " \
	"cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
#define MI_TMPFS "30 25 0:26 / /sys/fs/cgroup ro,nosuid shared:4 - " \
	"tmpfs tmpfs ro,mode=755\n"
#define MI_UNIFIED "31 30 0:27 / /sys/fs/cgroup/unified rw shared:5 - " \
	"cgroup2 cgroup2 rw,nsdelegate\n"
#define MI_SYSTEMD "32 30 0:28 / /sys/fs/cgroup/systemd rw shared:6 - " \
	"cgroup cgroup rw,xattr,release_agent=/lib/systemd/agent,name=systemd\n"
#define MI_CPUSET "33 30 0:29 / /sys/fs/cgroup/cpuset rw shared:7 - " \
	"cgroup cgroup rw,cpuset\n"
#define MI_CPU "35 30 0:31 / /sys/fs/cgroup/cpu,cpuacct rw shared:9 - " \
	"cgroup cgroup rw,cpu,cpuacct\n"

/* The unit: "unit.bin -f cgscan" runs its tests alone */
FIXTURE(cgscan) {
	char *root;
	struct cg_hier h;
	struct cg_scan s;
	char why[256];
};

FIXTURE_SETUP(cgscan)
{
	self->root = ft_make();
	ASSERT_NE(NULL, self->root);
}

FIXTURE_TEARDOWN(cgscan)
{
	cg_scan_free(&self->s);
	ft_remove(self->root);
}

/* A cgroup @rel of the v2 tree and its threads ("1\n2\n"; NULL: none). */
static int cgroup2(const char *root, const char *rel, const char *threads)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), CGV2 "/%s", rel);
	if (ft_dir(root, path))
		return -1;
	if (!threads)
		return 0;
	snprintf(path, sizeof(path), CGV2 "/%s/cgroup.threads", rel);
	return ft_file(root, path, "%s", threads);
}

/*
 * A cgroup2 host: systemd's units, a user manager, pods of the systemd
 * driver, and one of containerd's "<pod slice>:cri-containerd:<id>"
 * directories; 23 cgroups. A symbolic link and plain files are no
 * cgroups, and the Docker scope has no cgroup.threads.
 */
static int v2_tree(const char *root)
{
	char path[PATH_MAX];
	int ret;

	ret = ft_file(root, "proc/self/mountinfo", MI_ROOT MI_V2);
	ret |= cgroup2(root, "", "2\n");
	ret |= cgroup2(root, "init.scope", "1\n");
	ret |= cgroup2(root, "system.slice", "");
	ret |= cgroup2(root, "system.slice/nginx.service", "100\n101\n");
	ret |= ft_file(root, CGV2 "/system.slice/nginx.service/cgroup.procs",
		       "100\n");
	ret |= cgroup2(root, "system.slice/docker-" ID3 ".scope", NULL);
	ret |= cgroup2(root, "system.slice/my app\n.service", "700\n");
	ret |= cgroup2(root, USER "/session-3.scope", "300\n");
	ret |= cgroup2(root, MGR, "");
	ret |= cgroup2(root, MGR "/app.slice", "330\n");
	ret |= cgroup2(root, MGR "/app.slice/foo.service", "320\n");
	ret |= cgroup2(root, MGR "/init.scope", "310\n");
	ret |= cgroup2(root, KUBE, "");
	ret |= cgroup2(root, KUBE "/cri-containerd-" ID1 ".scope", "400\n");
	ret |= cgroup2(root, KUBE "/cri-containerd-" ID2 ".scope",
		       "401\n402\n");
	ret |= cgroup2(root, "kubepods.slice/" SLICE_B "/crio-" ID3 ".scope",
		       "500\n");
	ret |= cgroup2(root, "system.slice/containerd.service", "600\n");
	ret |= cgroup2(root, NESTED ":cri-containerd:" ID1, "610\n");
	ret |= cgroup2(root, NESTED ":cri-containerd:" ID2, "611\n");
	snprintf(path, sizeof(path), "%s/" CGV2 "/link.slice", root);
	return ret | symlink("system.slice", path);
}

/* cg_group_tids()'s callback: the threads seen, in order. */
struct tids {
	pid_t tid[16];
	unsigned int nr, stop_at;
};

static int take_tid(pid_t tid, void *arg)
{
	struct tids *t = arg;

	if (t->nr < 16)
		t->tid[t->nr] = tid;
	return ++t->nr == t->stop_at ? 7 : 0;
}

/* The threads of group @key as "1,2,3" (sorted), or "error N". */
static const char *group_tids(const struct cg_hier *h, enum cg_by by,
			      const struct cg_scan *s, const char *key,
			      char *buf, size_t size)
{
	const struct cg_group *g = cg_scan_find(s, key);
	struct tids t = { .nr = 0 };
	unsigned int i, j;
	size_t len = 0;
	pid_t tmp;
	int ret;

	if (!g)
		return "no such group";
	ret = cg_group_tids(h, by, g, take_tid, &t);
	if (ret) {
		snprintf(buf, size, "error %d", ret);
		return buf;
	}
	for (i = 0; i < t.nr && i < 16; i++)
		for (j = i + 1; j < t.nr && j < 16; j++)
			if (t.tid[j] < t.tid[i]) {
				tmp = t.tid[i];
				t.tid[i] = t.tid[j];
				t.tid[j] = tmp;
			}
	buf[0] = '\0';
	for (i = 0; i < t.nr && i < 16 && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%d", i ? "," : "",
				(int)t.tid[i]);
	return buf;
}

TEST_F(cgscan, hier_v2)
{
	char want[PATH_MAX];

	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_V2);
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	snprintf(want, sizeof(want), "%s/sys/fs/cgroup", self->root);
	is_str(self->h.mount, want, "cgroup2's mount point, sysroot first");
	ok(self->h.v2 && !self->h.v1_name[0], "cgroup2");
}

TEST_F(cgscan, hier_hybrid)
{
	char want[PATH_MAX];

	/* the v1 mounts come first: cgroup2 still wins */
	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_TMPFS
		MI_SYSTEMD MI_CPUSET MI_CPU MI_UNIFIED);
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	snprintf(want, sizeof(want), "%s/sys/fs/cgroup/unified", self->root);
	is_str(self->h.mount, want, "a hybrid host: systemd's cgroup2");
	ok(self->h.v2, "followed as cgroup2");
}

TEST_F(cgscan, hier_v1)
{
	char want[PATH_MAX];

	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_TMPFS
		MI_CPUSET MI_CPU MI_SYSTEMD);
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	snprintf(want, sizeof(want), "%s/" CGSD, self->root);
	is_str(self->h.mount, want, "v1 only: name=systemd, listed last");
	ok(!self->h.v2, "followed as v1");
	is_str(self->h.v1_name, "name=systemd", "its name, options dropped");

	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_TMPFS
		MI_CPUSET MI_CPU);
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	is_str(self->h.v1_name, "cpu,cpuacct",
	       "no name=systemd: the cpu controller's, not cpuset's");

	/* every controller on one hierarchy: too long a list for v1_name */
	ft_file(self->root, "proc/self/mountinfo", MI_ROOT
		"40 25 0:40 / /sys/fs/my\\040cgroups rw - cgroup cgroup rw,"
		"cpuset,cpu,cpuacct,blkio,memory,devices,freezer,net_cls,"
		"perf_event,net_prio,hugetlb,pids,rdma,misc\n");
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	snprintf(want, sizeof(want), "%s/sys/fs/my cgroups", self->root);
	is_str(self->h.mount, want, "\\040 in a mount point is a space");
	is_str(self->h.v1_name, "cpu", "a list too long: the controller");
}

TEST_F(cgscan, hier_none)
{
	ok(cg_hier_find(&self->h, self->why, sizeof(self->why)) == -ENOENT &&
	   strstr(self->why, "cannot read"), "no mountinfo: %s", self->why);
	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_TMPFS);
	ok(cg_hier_find(&self->h, self->why, sizeof(self->why)) == -ENOENT &&
	   strstr(self->why, "no cgroup2"), "no cgroup mount: %s",
	   self->why);
	ok(!self->h.mount[0], "no mount point then");
}

TEST_F(cgscan, by_pod)
{
	const struct cg_group *g;
	char buf[128];
	size_t i, sum = 0;

	ASSERT_EQ(0, v2_tree(self->root));
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	ASSERT_EQ(0, cg_scan(&self->h, CG_BY_POD, 100, &self->s));
	ok(self->s.nr_cgroups == 23 && self->s.nr == 18,
	   "23 cgroups (no link, no file) in 18 groups: %zu, %zu",
	   self->s.nr_cgroups, self->s.nr);
	ok(!self->s.over_max && !self->s.too_deep && !self->s.unreadable,
	   "nothing over, too deep or unreadable");
	for (i = 0; i < self->s.nr; i++) {
		sum += self->s.g[i].nr_cgroups;
		ok(!i || strcmp(self->s.g[i - 1].key, self->s.g[i].key) < 0,
		   "the groups are sorted by key: %s", self->s.g[i].key);
		ok(cg_scan_find(&self->s, self->s.g[i].key) == &self->s.g[i],
		   "found by its key: %s", self->s.g[i].key);
	}
	ok(sum == self->s.nr_cgroups, "each cgroup in one group");

	g = cg_scan_find(&self->s, "pod:" UID_A);
	ASSERT_NE(NULL, g);
	is_str(g->path, "/" KUBE, "a pod's group starts at its slice");
	ok(g->nr_cgroups == 3 && g->id.kind == CG_KIND_POD &&
	   !strcmp(g->id.qos, "burstable") && !g->id.container_id[0],
	   "the pod and its two containers: %zu", g->nr_cgroups);
	is_str(group_tids(&self->h, CG_BY_POD, &self->s, "pod:" UID_A, buf,
			  sizeof(buf)), "400,401,402", "the pod's threads");
	is_str(group_tids(&self->h, CG_BY_POD, &self->s, "pod:" UID_B, buf,
			  sizeof(buf)), "500", "a Guaranteed pod's");

	/* containerd's sibling directories of one pod: a widened group */
	g = cg_scan_find(&self->s, "pod:" UID_C);
	ASSERT_NE(NULL, g);
	is_str(g->path, "/system.slice/containerd.service",
	       "two topmost cgroups: their common ancestor");
	ok(g->nr_cgroups == 2 && !g->id.container_id[0],
	   "both containers, no one container");
	is_str(group_tids(&self->h, CG_BY_POD, &self->s, "pod:" UID_C, buf,
			  sizeof(buf)), "610,611",
	       "both containers' threads, not containerd's");

	ok(!cg_scan_find(&self->s, "pod:nope") &&
	   !cg_scan_find(&self->s, ""), "no such key: NULL");
	is_str(group_tids(&self->h, CG_BY_POD, &self->s, "/", buf,
			  sizeof(buf)), "2", "the root's own thread only");
}

TEST_F(cgscan, by_service)
{
	char buf[128];

	ASSERT_EQ(0, v2_tree(self->root));
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	ASSERT_EQ(0, cg_scan(&self->h, CG_BY_SERVICE, 100, &self->s));
	ok(self->s.nr == 22, "22 groups: %zu", self->s.nr);
	is_str(group_tids(&self->h, CG_BY_SERVICE, &self->s, "nginx.service",
			  buf, sizeof(buf)), "100,101", "a service");
	is_str(group_tids(&self->h, CG_BY_SERVICE, &self->s,
			  "cri-containerd-" ID2 ".scope", buf, sizeof(buf)),
	       "401,402", "a container's scope");
	is_str(group_tids(&self->h, CG_BY_SERVICE, &self->s,
			  "user@1000.service", buf, sizeof(buf)), "330",
	       "a user manager: app.slice's, not its units'");
	is_str(group_tids(&self->h, CG_BY_SERVICE, &self->s,
			  "/" MGR "/app.slice/foo.service", buf, sizeof(buf)),
	       "320", "a user's unit, by its path");
	ok(cg_scan_find(&self->s, "init.scope") &&
	   cg_scan_find(&self->s, "/" MGR "/init.scope"),
	   "two init.scopes, two groups");
	is_str(group_tids(&self->h, CG_BY_SERVICE, &self->s,
			  "docker-" ID3 ".scope", buf, sizeof(buf)), "",
	       "no cgroup.threads: skipped, no error");
	is_str(group_tids(&self->h, CG_BY_SERVICE, &self->s,
			  "my app\n.service", buf, sizeof(buf)), "700",
	       "a name with a space and a newline");
}

TEST_F(cgscan, by_cgroup)
{
	const struct cg_group *g;
	char buf[128], from[PATH_MAX], to[PATH_MAX];
	struct tids t = { .stop_at = 1 };

	ASSERT_EQ(0, v2_tree(self->root));
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	ASSERT_EQ(0, cg_scan(&self->h, CG_BY_CGROUP, 100, &self->s));
	ok(self->s.nr == 23, "a group per cgroup: %zu", self->s.nr);
	is_str(group_tids(&self->h, CG_BY_CGROUP, &self->s, "/" MGR, buf,
			  sizeof(buf)), "", "its own threads only");
	g = cg_scan_find(&self->s, "/" KUBE "/cri-containerd-" ID2 ".scope");
	ASSERT_NE(NULL, g);
	ok(cg_group_tids(&self->h, CG_BY_CGROUP, g, take_tid, &t) == 7 &&
	   t.nr == 1, "the callback's non-zero stops the walk, returned");

	/* the group's own cgroup gone: an error, not an empty group */
	snprintf(from, sizeof(from), "%s/" CGV2 "/system.slice/nginx.service",
		 self->root);
	snprintf(to, sizeof(to), "%s/" CGV2 "/gone", self->root);
	ASSERT_EQ(0, rename(from, to));
	is_str(group_tids(&self->h, CG_BY_CGROUP, &self->s,
			  "/system.slice/nginx.service", buf, sizeof(buf)),
	       "error -2", "a removed cgroup: -ENOENT");
}

TEST_F(cgscan, v1_tasks)
{
	char buf[128];

	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_TMPFS
		MI_SYSTEMD MI_CPU);
	ft_file(self->root, CGSD "/tasks", "1\n");
	ft_file(self->root, CGSD "/system.slice/cron.service/tasks",
		"800\n801\n");
	/* v1 has no cgroup.threads: a file there must not be read */
	ft_file(self->root, CGSD "/system.slice/cron.service/cgroup.threads",
		"999\n");
	ft_file(self->root, CGSD "/system.slice/cron.service/x/tasks", "802\n");
	ft_file(self->root, CGSD "/system.slice/tasks", "junk\n");
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	ASSERT_EQ(0, cg_scan(&self->h, CG_BY_SERVICE, 100, &self->s));
	ok(self->s.nr == 3 && self->s.nr_cgroups == 4,
	   "/, system.slice, cron.service (with x): %zu groups", self->s.nr);
	is_str(group_tids(&self->h, CG_BY_SERVICE, &self->s, "cron.service",
			  buf, sizeof(buf)), "800,801,802", "v1's tasks files");
	is_str(group_tids(&self->h, CG_BY_SERVICE, &self->s, "system.slice",
			  buf, sizeof(buf)), "error -22",
	       "a line that is no thread id: -EINVAL");
}

TEST_F(cgscan, of_tid)
{
	char path[PATH_MAX];

	ft_file(self->root, "proc/300/cgroup",
		"0::/" USER "/session-3.scope\n");
	ft_file(self->root, "proc/301/cgroup",
		"12:cpu,cpuacct:/a:b/c d\n3:cpuset:/\n"
		"1:name=systemd:/system.slice/cron.service\n"
		"0::/system.slice/cron.service\n");
	ft_file(self->root, "proc/302/cgroup", "3:cpuset:/\n");
	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_V2);
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	ok(!cg_of_tid(&self->h, 300, path, sizeof(path)) &&
	   !strcmp(path, "/" USER "/session-3.scope"), "v2's line: %s", path);
	ok(cg_of_tid(&self->h, 302, path, sizeof(path)) == -ENOENT &&
	   !path[0], "no 0:: line: -ENOENT");
	ok(cg_of_tid(&self->h, 999, path, sizeof(path)) == -ESRCH,
	   "no such thread: -ESRCH");
	ok(cg_of_tid(&self->h, 300, path, 10) == -ENAMETOOLONG && !path[0],
	   "too small a buffer: -ENAMETOOLONG");

	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_TMPFS
		MI_CPUSET MI_CPU MI_SYSTEMD);
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	ok(!cg_of_tid(&self->h, 301, path, sizeof(path)) &&
	   !strcmp(path, "/system.slice/cron.service"),
	   "v1: the name=systemd line: %s", path);
	snprintf(self->h.v1_name, sizeof(self->h.v1_name), "cpuacct,cpu");
	ok(!cg_of_tid(&self->h, 301, path, sizeof(path)) &&
	   !strcmp(path, "/a:b/c d"),
	   "v1: the cpu line, in any order, colons in the path: %s", path);
	snprintf(self->h.v1_name, sizeof(self->h.v1_name), "memory");
	ok(cg_of_tid(&self->h, 301, path, sizeof(path)) == -ENOENT,
	   "v1: no line of that hierarchy: -ENOENT");

	/* the kernel does not escape a newline in a name */
	ft_file(self->root, "proc/303/cgroup",
		"4:cpu,cpuacct:/x\n2:y.service\n1:name=systemd:/a\nb\n");
	snprintf(self->h.v1_name, sizeof(self->h.v1_name), "cpu,cpuacct");
	ok(!cg_of_tid(&self->h, 303, path, sizeof(path)) &&
	   !strcmp(path, "/x\n2:y.service"),
	   "v1: a newline in a name, the next line no record: %s", path);
	snprintf(self->h.v1_name, sizeof(self->h.v1_name), "name=systemd");
	ok(!cg_of_tid(&self->h, 303, path, sizeof(path)) &&
	   !strcmp(path, "/a\nb"), "v1: the last record, whole: %s", path);
}

TEST_F(cgscan, tid_to_group)
{
	static const pid_t tids[] = { 401, 611, 320, 700 };
	static const char *const keys[] = {
		"pod:" UID_A, "pod:" UID_C, "/" MGR "/app.slice/foo.service",
		"my app\n.service",
	};
	char path[PATH_MAX], key[CG_KEY_MAX];
	struct cg_ident id;
	unsigned int i;

	ASSERT_EQ(0, v2_tree(self->root));
	ft_file(self->root, "proc/401/cgroup", "0::/" KUBE
		"/cri-containerd-" ID2 ".scope\n");
	ft_file(self->root, "proc/611/cgroup", "0::/" NESTED
		":cri-containerd:" ID2 "\n");
	ft_file(self->root, "proc/320/cgroup", "0::/" MGR
		"/app.slice/foo.service\n");
	ft_file(self->root, "proc/700/cgroup",
		"0::/system.slice/my app\n.service\n");
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	ASSERT_EQ(0, cg_scan(&self->h, CG_BY_POD, 100, &self->s));
	for (i = 0; i < 4; i++)
		ok(!cg_of_tid(&self->h, tids[i], path, sizeof(path)) &&
		   !cg_key(path, CG_BY_POD, key, sizeof(key), &id) &&
		   cg_scan_find(&self->s, key) && !strcmp(key, keys[i]),
		   "thread %d: its cgroup's key is a scanned group's",
		   (int)tids[i]);
}

/* A chain of @n directories "d" under @dir. */
static int chain(const char *dir, unsigned int n)
{
	char path[PATH_MAX];
	size_t len = (size_t)snprintf(path, sizeof(path), "%s", dir);
	unsigned int i;

	for (i = 0; i < n && len + 2 < sizeof(path); i++) {
		memcpy(path + len, "/d", 3);
		len += 2;
		if (mkdir(path, 0755))
			return -1;
	}
	return i == n ? 0 : -1;
}

TEST_F(cgscan, too_deep)
{
	char dir[PATH_MAX];

	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_V2);
	snprintf(dir, sizeof(dir), "%s/" CGV2, self->root);
	ft_dir(self->root, CGV2);
	ASSERT_EQ(0, chain(dir, CG_MAX_DEPTH + 6));
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	ASSERT_EQ(0, cg_scan(&self->h, CG_BY_CGROUP, 1000, &self->s));
	ok(self->s.nr_cgroups == CG_MAX_DEPTH + 1 && self->s.too_deep == 1,
	   "the root and %d levels walked, the next counted: %zu, %zu",
	   CG_MAX_DEPTH, self->s.nr_cgroups, self->s.too_deep);
}

TEST_F(cgscan, pruned)
{
	char dir[PATH_MAX], buf[128];
	struct rlimit all, few;

	ASSERT_EQ(0, v2_tree(self->root));
	snprintf(dir, sizeof(dir), "%s/" CGV2 "/system.slice/nginx.service/"
		 "worker.service", self->root);
	ASSERT_EQ(0, mkdir(dir, 0755));
	ASSERT_EQ(0, chain(dir, 40));
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	ASSERT_EQ(0, cg_scan(&self->h, CG_BY_SERVICE, 100, &self->s));
	ok(cg_scan_find(&self->s, "/system.slice/nginx.service/worker.service"),
	   "a unit inside a service: a group of its own");
	/* fewer descriptors than that subtree is deep: walking it fails */
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &all));
	few = all;
	few.rlim_cur = 16;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &few));
	is_str(group_tids(&self->h, CG_BY_SERVICE, &self->s, "nginx.service",
			  buf, sizeof(buf)), "100,101",
	       "the subtree of another key is not walked into");
	/* the teardown's nftw() needs its descriptors back */
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &all));
}

/*
 * Directories of NAME_MAX bytes, @n deep, under @dir, made and removed
 * relative to each other: their path outgrows PATH_MAX.
 */
static int long_chain(const char *dir, unsigned int n, bool remove)
{
	char name[NAME_MAX + 1];
	int fd[20], i, ret = 0;

	memset(name, 'n', NAME_MAX);
	name[NAME_MAX] = '\0';
	fd[0] = open(dir, O_RDONLY | O_DIRECTORY);
	for (i = 1; i <= (int)n && i < 20 && fd[i - 1] >= 0; i++) {
		if (!remove && mkdirat(fd[i - 1], name, 0755))
			ret = -1;
		fd[i] = openat(fd[i - 1], name, O_RDONLY | O_DIRECTORY);
	}
	for (i--; i > 0; i--) {
		if (fd[i] >= 0)
			close(fd[i]);
		if (remove && unlinkat(fd[i - 1], name, AT_REMOVEDIR))
			ret = -1;
	}
	if (fd[0] >= 0)
		close(fd[0]);
	return fd[0] < 0 ? -1 : ret;
}

TEST_F(cgscan, too_long)
{
	char dir[PATH_MAX];
	unsigned int deep = PATH_MAX / (NAME_MAX + 1);	/* 16 */

	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_V2);
	snprintf(dir, sizeof(dir), "%s/" CGV2, self->root);
	ft_dir(self->root, CGV2);
	ASSERT_EQ(0, long_chain(dir, deep, false));
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));
	EXPECT_EQ(0, cg_scan(&self->h, CG_BY_CGROUP, 1000, &self->s));
	ok(self->s.nr_cgroups == deep && self->s.unreadable == 1,
	   "%u levels fit in PATH_MAX, the one beyond is unreadable: %zu, %zu",
	   deep - 1, self->s.nr_cgroups, self->s.unreadable);
	/* ft_remove's nftw() cannot name them: removed here */
	ASSERT_EQ(0, long_chain(dir, deep, true));
}

/* @n service cgroups under system.slice; 0 or -1. */
static int many(const char *root, unsigned int n)
{
	char path[PATH_MAX];
	unsigned int i;

	ft_dir(root, CGV2 "/system.slice");
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path),
			 "%s/" CGV2 "/system.slice/svc%05u.service", root, i);
		if (mkdir(path, 0755))
			return -1;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#define LOOKUPS 300000

/*
 * Seconds for LOOKUPS lookups of @s's own keys, the best of three (a
 * busy machine only ever adds); @all: each found.
 */
static double lookups(const struct cg_scan *s, bool *all)
{
	double t, best = INFINITY;
	size_t i;
	int run;

	*all = true;
	for (run = 0; run < 3; run++) {
		t = now_s();
		for (i = 0; i < LOOKUPS; i++)
			*all &= cg_scan_find(s, s->g[i % s->nr].key) ==
				&s->g[i % s->nr];
		t = now_s() - t;
		best = t < best ? t : best;
	}
	return best;
}

/*
 * Making and removing 10^4 directories takes seconds on a virtual disk
 * (17 s under load here), more than the harness's default 30 s allows
 * on a busy machine; the walk itself takes milliseconds.
 */
#define MANY_TIMEOUT_SEC 300

TEST_F_TIMEOUT(cgscan, ten_thousand, MANY_TIMEOUT_SEC)
{
	struct cg_scan small;
	size_t before, kept;
	bool all_small, all_big;
	double t_small, t_big;

	ft_file(self->root, "proc/self/mountinfo", MI_ROOT MI_V2);
	ASSERT_EQ(0, many(self->root, 10000));
	ASSERT_EQ(0, cg_hier_find(&self->h, self->why, sizeof(self->why)));

	before = mallinfo2().uordblks;
	ASSERT_EQ(0, cg_scan(&self->h, CG_BY_SERVICE, 100, &small));
	kept = mallinfo2().uordblks - before;
	ok(small.nr == 100 && small.over_max == 10002 - 100 &&
	   small.nr_cgroups == 10002,
	   "100 groups kept, the other 9902 counted: %zu, %zu", small.nr,
	   small.over_max);
	ok(kept < 256 * 1024, "memory follows the groups kept: %zu bytes",
	   kept);

	ASSERT_EQ(0, cg_scan(&self->h, CG_BY_CGROUP, 100000, &self->s));
	ok(self->s.nr == 10002 && !self->s.over_max, "every cgroup a group");
	/* a ratio, not seconds: slow machines and valgrind slow both */
	t_small = lookups(&small, &all_small);
	t_big = lookups(&self->s, &all_big);
	printf("# %d lookups among 100 groups: %.3f s, among 10002: %.3f s\n",
	       LOOKUPS, t_small, t_big);
	ok(all_small && all_big, "every group found by its key");
	ok(t_big < 15 * t_small,
	   "100 times the groups, not 100 times the time: %.1f times",
	   t_big / t_small);
	cg_scan_free(&small);
}

TEST_F(cgscan, no_root)
{
	snprintf(self->h.mount, sizeof(self->h.mount), "%s/nowhere",
		 self->root);
	self->h.v2 = true;
	ok(cg_scan(&self->h, CG_BY_POD, 10, &self->s) == -ENOENT &&
	   !self->s.nr && !self->s.g, "no hierarchy: -ENOENT, nothing kept");
}
