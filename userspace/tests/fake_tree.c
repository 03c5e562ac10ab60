// SPDX-License-Identifier: GPL-2.0
/*
 * fake_tree.c - the attribution tests' fake /proc and /sys: a temporary
 * directory with the files resctrl, sysfs and procfs would have.
 */

#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_tree.h"
#include "resctrl.h"

/* the value a tree replaced (run.sh's fake host), put back at removal */
static char *saved_root;

char *ft_make(void)
{
	/*
	 * tmpfs where there is one: the tests make and remove 10^4 cgroup
	 * and resctrl directories, seconds on a disk, none in memory
	 */
	char tmpl[] = "/dev/shm/memdiag-fake-XXXXXX";
	char *root;

	if (!mkdtemp(tmpl)) {
		snprintf(tmpl, sizeof(tmpl), "/tmp/memdiag-fake-XXXXXX");
		if (!mkdtemp(tmpl))
			return NULL;
	}
	root = strdup(tmpl);
	free(saved_root);
	saved_root = getenv("MEMDIAG_TEST_HOST_ROOT") ?
		strdup(getenv("MEMDIAG_TEST_HOST_ROOT")) : NULL;
	if (root)
		setenv("MEMDIAG_TEST_HOST_ROOT", root, 1);
	return root;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void ft_remove(char *root)
{
	if (root && (!strncmp(root, "/tmp/memdiag-fake-", 18) ||
		     !strncmp(root, "/dev/shm/memdiag-fake-", 22)))
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (saved_root)
		setenv("MEMDIAG_TEST_HOST_ROOT", saved_root, 1);
	else
		unsetenv("MEMDIAG_TEST_HOST_ROOT");
	free(root);
}

int ft_dir(const char *root, const char *rel)
{
	char path[PATH_MAX], *p;

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >=
	    (int)sizeof(path))
		return -1;
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

int ft_file(const char *root, const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX], *slash;
	va_list ap;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >=
	    (int)sizeof(path))
		return -1;
	slash = strrchr(rel, '/');
	if (slash) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - rel), rel);
		if (ft_dir(root, dir))
			return -1;
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	return fclose(f) ? -1 : 0;
}

void ft_resctrl(const char *root, unsigned int nr_dom,
		unsigned int per_socket, unsigned int snc)
{
	char rel[256];
	unsigned int d, s;

	ft_file(root, "proc/self/mountinfo",
		"25 1 0:22 / /sys rw,nosuid - sysfs sysfs rw\n"
		"30 25 0:26 / /sys/fs/resctrl rw,relatime shared:9 - resctrl resctrl rw\n"
		"31 25 0:27 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw\n");
	ft_file(root, "sys/fs/resctrl/info/L3_MON/mon_features",
		"llc_occupancy\nmbm_total_bytes\nmbm_local_bytes\n");
	ft_file(root, "sys/fs/resctrl/info/L3_MON/num_rmids", "224\n");
	ft_file(root, "sys/fs/resctrl/tasks", "%s", "");
	ft_dir(root, "sys/fs/resctrl/mon_groups");
	for (d = 0; d < nr_dom; d++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%u/cache/index3/level", d);
		ft_file(root, rel, "3\n");
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%u/cache/index3/id", d);
		ft_file(root, rel, "%u\n", d);
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%u/topology/physical_package_id",
			 d);
		ft_file(root, rel, "%u\n", d / per_socket);
		if (!snc) {
			ft_mbm(root, "", d, -1, "0");
			continue;
		}
		for (s = 0; s < snc; s++)
			ft_mbm(root, "", d, (int)(d * snc + s), "0");
	}
}

void ft_mbm(const char *root, const char *dir, unsigned int dom, int sub,
	    const char *value)
{
	char rel[PATH_MAX];

	if (sub < 0)
		snprintf(rel, sizeof(rel),
			 "sys/fs/resctrl/%s%smon_data/mon_L3_%02u/mbm_total_bytes",
			 dir, *dir ? "/" : "", dom);
	else
		snprintf(rel, sizeof(rel),
			 "sys/fs/resctrl/%s%smon_data/mon_L3_%02u/mon_sub_L3_%02d/mbm_total_bytes",
			 dir, *dir ? "/" : "", dom, sub);
	ft_file(root, rel, "%s\n", value);
}

int ft_fail_mkdir, ft_fail_tasks, ft_fail_assign;
unsigned int ft_writes;

static int take(int *err)
{
	int e = *err;

	*err = 0;
	return -e;
}

/* A new group gets what resctrl gives it: tasks, counters at zero. */
static int fk_mkdir(const char *path)
{
	const char *root = getenv("MEMDIAG_TEST_HOST_ROOT");
	char rel[PATH_MAX], sub[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (ft_fail_mkdir)
		return take(&ft_fail_mkdir);
	if (mkdir(path, 0755))
		return -errno;
	snprintf(rel, sizeof(rel), "%s/tasks", path + strlen(root) + 1);
	ft_file(root, rel, "%s", "");
	snprintf(sub, sizeof(sub), "%s/sys/fs/resctrl/mon_data", root);
	d = opendir(sub);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "mon_L3_", 7))
			continue;
		snprintf(rel, sizeof(rel), "%s/mon_data/%s/mbm_total_bytes",
			 path + strlen(root) + 1, de->d_name);
		ft_file(root, rel, "0\n");
	}
	if (d)
		closedir(d);
	return 0;
}

static int fk_rmdir(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

static int fk_write(const char *path, const char *text)
{
	bool assign = strstr(path, "mbm_L3_assignments");
	FILE *f;

	if (assign && strstr(text, "total") && ft_fail_assign)
		return take(&ft_fail_assign);
	if (!assign && ft_fail_tasks)
		return take(&ft_fail_tasks);
	f = fopen(path, "a");
	if (!f)
		return -errno;
	fputs(text, f);
	ft_writes++;
	return fclose(f) ? -errno : 0;
}

const struct rc_fsops ft_fsops = {
	.mkdir = fk_mkdir,
	.rmdir = fk_rmdir,
	.write = fk_write,
};
