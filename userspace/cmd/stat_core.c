// SPDX-License-Identifier: GPL-2.0
/*
 * stat_core.c - "stat -- CMD"'s own bytes from the memdiag module's core
 * estimate. The module charges each cgroup2 cgroup the DRAM fills its
 * tasks caused, at every switch that changes cgroup; so CMD gets a cgroup
 * of its own, "memdiag-stat-<stat's pid>" below stat's, which it enters
 * while the forked child waits before its exec, and everything CMD and
 * its children do counts there from its first instruction. Cgroups CMD
 * makes below its own count in it too, as long as they exist when CMD
 * exits (the ids of removed ones are not known any more).
 *
 * A cgroup, unlike a resctrl group, cannot be left empty by a killed
 * stat's children: what still runs in it at the end moves up to stat's
 * cgroup before it is removed, and a killed stat's cgroups are swept at
 * the next start in the same place.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "groups.h"
#include "parse.h"
#include "stat_core.h"

#define DELEGATE_ADVICE \
	" (run stat as root, or from a cgroup delegated to you: " \
	"systemd-run --user --scope -p Delegate=yes)"

/* Write @pid to the cgroup.procs of @dir: 0 or -errno. */
static int put_pid(const char *dir, long pid)
{
	char path[4300], buf[32];
	int fd, len, ret = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%ld\n", pid);
	if (write(fd, buf, (size_t)len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/* nftw() passes no argument: the one walk under way (a CLI, one thread) */
static struct {
	const char *up;		/* where what still runs goes */
	uint64_t *ino;		/* the cgroups' ids, when collecting */
	size_t nr, cap;
	int err;
} walk;

/* Move every process of cgroup @dir up, then remove it (depth first). */
static int remove_one(const char *dir, const struct stat *st, int flag,
		      struct FTW *ftw __attribute__((unused)))
{
	char path[4300];
	long pid;
	FILE *f;

	(void)st;
	if (flag != FTW_DP)
		return 0;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	while (f && fscanf(f, "%ld", &pid) == 1)
		put_pid(walk.up, pid);	/* gone meanwhile: fine */
	if (f)
		fclose(f);
	if (rmdir(dir) < 0 && errno != ENOENT && !walk.err)
		walk.err = -errno;
	return 0;
}

static int remove_tree(const char *dir, const char *up)
{
	walk.up = up;
	walk.err = 0;
	if (nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0 &&
	    errno != ENOENT)
		return -errno;
	return walk.err;
}

/* A killed stat's cgroups beside ours: removed, counted. */
static void sweep(struct stat_core *c)
{
	struct dirent *d;
	DIR *dir = opendir(c->parent);
	char path[4400];

	while (dir && (d = readdir(dir))) {
		size_t n = strlen(STAT_CORE_PREFIX);
		char *end;
		long pid;

		if (strncmp(d->d_name, STAT_CORE_PREFIX, n))
			continue;
		pid = strtol(d->d_name + n, &end, 10);
		if (*end || pid <= 0 || pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;	/* its stat still runs */
		snprintf(path, sizeof(path), "%s/%s", c->parent, d->d_name);
		if (!remove_tree(path, c->parent))
			c->swept++;
	}
	if (dir)
		closedir(dir);
}

/* stat's own cgroup2 cgroup into c->parent: 0 or -errno with @why. */
static int find_parent(struct stat_core *c, char *why, size_t size)
{
	char rel[4096];
	int ret = cg_hier_find(&c->h, why, size);

	if (ret)
		return ret;
	if (!c->h.v2) {
		snprintf(why, size,
			 "no cgroup2 hierarchy is mounted, and the memdiag module names cgroups by their cgroup2 ids");
		return -ENOENT;
	}
	ret = cg_of_tid(&c->h, getpid(), rel, sizeof(rel));
	if (ret) {
		snprintf(why, size, "cannot read stat's own cgroup: %s",
			 strerror(-ret));
		return ret;
	}
	snprintf(c->parent, sizeof(c->parent), "%s%s", c->h.mount,
		 strcmp(rel, "/") ? rel : "");
	return 0;
}

int stat_core_open(struct stat_core *c, struct nl *nl,
		   const struct nl_family *fam, char *why, size_t size)
{
	struct cli_error err;
	int ret;

	*c = (struct stat_core){ .nl = nl, .fam = fam };
	ret = find_parent(c, why, size);
	if (ret)
		return ret;
	sweep(c);
	snprintf(c->dir, sizeof(c->dir), "%s/" STAT_CORE_PREFIX "%d",
		 c->parent, (int)getpid());
	if (mkdir(c->dir, 0755) < 0) {
		ret = -errno;
		snprintf(why, size, "cannot make the command's cgroup %s: %s%s",
			 c->dir, strerror(-ret),
			 ret == -EACCES || ret == -EPERM ? DELEGATE_ADVICE : "");
		return ret;
	}
	c->made = true;
	if (session_start_groups(nl, fam, INTERVAL_MS_MAX, &c->session,
				 &err) != MDC_EXIT_OK) {
		cli_error_phrase(&err, why, size);
		stat_core_close(c);
		return -EOPNOTSUPP;
	}
	c->session_on = true;
	return 0;
}

int stat_core_attach(struct stat_core *c, pid_t pid, char *why, size_t size)
{
	int ret = put_pid(c->dir, pid);

	if (ret)
		snprintf(why, size, "cannot put the command in cgroup %s: %s",
			 c->dir, strerror(-ret));
	return ret;
}

static int collect(const char *dir, const struct stat *st, int flag,
		   struct FTW *ftw __attribute__((unused)))
{
	(void)dir;
	if (flag != FTW_D)
		return 0;
	if (walk.nr == walk.cap) {
		size_t cap = walk.cap ? 2 * walk.cap : 16;
		uint64_t *m = realloc(walk.ino, cap * sizeof(*m));

		if (!m) {
			walk.err = -ENOMEM;
			return 1;
		}
		walk.ino = m;
		walk.cap = cap;
	}
	walk.ino[walk.nr++] = (uint64_t)st->st_ino;
	return 0;
}

/* Whether cgroup @id is the command's or below it. */
static bool ours(uint64_t id)
{
	size_t i;

	for (i = 0; i < walk.nr; i++)
		if (walk.ino[i] == id)
			return true;
	return false;
}

int stat_core_read(struct stat_core *c, const uint32_t *sock_id,
		   size_t nr_sock, uint64_t *bytes, char *why, size_t size)
{
	struct group_bytes *g = NULL;
	struct cli_error err;
	size_t n = 0, i, s;
	int ret;

	memset(bytes, 0, nr_sock * sizeof(*bytes));
	walk.nr = 0;
	walk.err = 0;
	if (nftw(c->dir, collect, 16, FTW_PHYS | FTW_MOUNT) < 0 && !walk.err)
		walk.err = -errno;
	ret = walk.err;
	if (ret) {
		snprintf(why, size, "cannot list the command's cgroups: %s",
			 strerror(-ret));
		goto out;
	}
	/* the dump makes every CPU charge what it counted first */
	if (groups_read(c->nl, c->fam, &g, &n, &err) != MDC_EXIT_OK) {
		cli_error_phrase(&err, why, size);
		ret = -EIO;
		goto out;
	}
	for (i = 0; i < n; i++)
		for (s = 0; s < nr_sock; s++)
			if (g[i].socket == sock_id[s] && g[i].cgroup_id &&
			    ours(g[i].cgroup_id))
				bytes[s] += g[i].bytes;
	free(g);
out:
	free(walk.ino);
	walk.ino = NULL;
	walk.nr = walk.cap = 0;
	return ret;
}

void stat_core_close(struct stat_core *c)
{
	struct cli_error err;

	if (c->made)
		remove_tree(c->dir, c->parent);
	if (c->session_on)
		session_stop(c->nl, c->fam, c->session, &err);
	c->made = c->session_on = false;
}
