// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_groups.c - resctrl's control and monitoring groups as
 * attribution sees them: listed with who made each, memdiag's own
 * memdiag-<pid>-<n> monitoring groups made under a task's current control
 * group (a task never changes control group), threads written into
 * them, and removed at exit; those of a memdiag that died are swept at
 * the next start. Writes go through rc_fsops under resctrl's advisory
 * lock.
 */

#include <dirent.h>
#include <ftw.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resctrl.h"
#include "sysroot.h"

#define OUR_PREFIX "memdiag-"

static int real_mkdir(const char *path)
{
	return mkdir(path, 0755) ? -errno : 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * resctrl removes a group with its files; a fake tree (sysroot set, the
 * tests) is a plain directory whose files must go first.
 */
static int real_rmdir(const char *path)
{
	if (!rmdir(path))
		return 0;
	if (errno != ENOTEMPTY || !*sysroot())
		return -errno;
	return nftw(path, rm_entry, 8, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

/* One write(2), so that resctrl's error for this text is ours to see. */
static int real_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	int ret = 0;

	if (!f)
		return -errno;
	setvbuf(f, NULL, _IONBF, 0);
	if (fputs(text, f) == EOF)
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

const struct rc_fsops rc_fsops_real = {
	.mkdir = real_mkdir,
	.rmdir = real_rmdir,
	.write = real_write,
};

static const char *const owner_names[] = {
	[RC_OWNER_MEMDIAG] = "memdiag",
	[RC_OWNER_MEMDIAG_DEAD] = "memdiag (gone)",
	[RC_OWNER_RUNC] = "runc",
	[RC_OWNER_CADVISOR] = "cadvisor",
	[RC_OWNER_PQOS] = "pqos",
	[RC_OWNER_OTHER] = "other",
};

const char *rc_owner_name(enum rc_owner o)
{
	return o <= RC_OWNER_OTHER ? owner_names[o] : "?";
}

static bool is_container_id(const char *name)
{
	size_t n = strspn(name, "0123456789abcdef");

	return n == 64 && !name[n];
}

/* Whether process @pid exists (in sysroot's /proc). */
static bool pid_alive(pid_t pid)
{
	char path[PATH_MAX];
	struct stat st;

	if (sysroot_path(path, sizeof(path), "/proc/%d", (int)pid))
		return true;	/* cannot tell: leave its groups alone */
	return !stat(path, &st);
}

static enum rc_owner rc_owner_of(const char *name, pid_t self)
{
	if (!strncmp(name, OUR_PREFIX, strlen(OUR_PREFIX))) {
		char *end;
		long pid = strtol(name + strlen(OUR_PREFIX), &end, 10);

		if (end == name + strlen(OUR_PREFIX) || *end != '-' || pid <= 0)
			return RC_OWNER_OTHER;
		if (pid == self || pid_alive((pid_t)pid))
			return RC_OWNER_MEMDIAG;
		return RC_OWNER_MEMDIAG_DEAD;
	}
	if (is_container_id(name))
		return RC_OWNER_RUNC;
	if (!strncmp(name, "cadvisor-", 9))
		return RC_OWNER_CADVISOR;
	if (!strncmp(name, "pqos-", 5))
		return RC_OWNER_PQOS;
	return RC_OWNER_OTHER;
}

void rc_lock(const struct resctrl *r)
{
	if (r->lock_fd >= 0)
		while (flock(r->lock_fd, LOCK_EX) && errno == EINTR)
			;
}

void rc_unlock(const struct resctrl *r)
{
	if (r->lock_fd >= 0)
		flock(r->lock_fd, LOCK_UN);
}

void rc_groups_init(struct rc_groups *gs, const struct resctrl *r,
		    const struct rc_fsops *ops)
{
	*gs = (struct rc_groups){ .r = r, .ops = ops, .self = getpid() };
}

static int find(const struct rc_groups *gs, const char *dir)
{
	size_t i;

	for (i = 0; i < gs->nr; i++)
		if (!strcmp(gs->g[i].dir, dir))
			return (int)i;
	return -1;
}

/* Mark @dir seen, adding it when new; its index or -ENOMEM. */
static int add(struct rc_groups *gs, const char *dir, int ctrl,
	       const char *name)
{
	struct rc_group *g;
	int i = find(gs, dir);

	if (i >= 0) {
		gs->g[i].seen = true;
		return i;
	}
	g = realloc(gs->g, (gs->nr + 1) * sizeof(*g));
	if (!g)
		return -ENOMEM;
	gs->g = g;
	g = &gs->g[gs->nr];
	*g = (struct rc_group){
		.dir = strdup(dir), .ctrl = ctrl, .seen = true,
		.owner = ctrl < 0 ? RC_OWNER_OTHER : rc_owner_of(name, gs->self),
		.state = calloc(rc_nr_counters(gs->r) + 1, sizeof(*g->state)),
	};
	if (!g->dir || !g->state) {
		free(g->dir);
		free(g->state);
		return -ENOMEM;
	}
	return (int)gs->nr++;
}

/* The monitoring groups under control group @ctrl. */
static int list_mon(struct rc_groups *gs, int ctrl)
{
	const char *cdir = gs->g[ctrl].dir;
	char path[PATH_MAX], dir[PATH_MAX];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	if (snprintf(path, sizeof(path), "%s/%s%smon_groups", gs->r->root,
		     cdir, *cdir ? "/" : "") >= (int)sizeof(path))
		return 0;
	d = opendir(path);
	if (!d)
		return 0;	/* vanished, or no monitoring */
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    snprintf(dir, sizeof(dir), "%s%smon_groups/%s", cdir,
			     *cdir ? "/" : "", de->d_name) >= (int)sizeof(dir))
			continue;
		ret = add(gs, dir, ctrl, de->d_name);
		ret = ret < 0 ? ret : 0;
	}
	closedir(d);
	return ret;
}

int rc_groups_list(struct rc_groups *gs)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t i, nr_ctrl;
	int ret = 0;
	DIR *d;

	for (i = 0; i < gs->nr; i++)
		gs->g[i].seen = false;
	d = opendir(gs->r->root);
	if (!d)
		return -errno;
	ret = add(gs, "", -1, "");
	while (ret >= 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "info") ||
		    !strcmp(de->d_name, "mon_groups") ||
		    !strcmp(de->d_name, "mon_data") ||
		    snprintf(path, sizeof(path), "%s/%s/tasks", gs->r->root,
			     de->d_name) >= (int)sizeof(path) ||
		    access(path, F_OK))
			continue;
		ret = add(gs, de->d_name, -1, de->d_name);
	}
	closedir(d);
	nr_ctrl = gs->nr;
	for (i = 0; ret >= 0 && i < nr_ctrl; i++)
		if (gs->g[i].ctrl < 0 && gs->g[i].seen)
			ret = list_mon(gs, (int)i);
	return ret < 0 ? ret : 0;
}

static int group_path(const struct rc_groups *gs, const char *dir,
		      const char *file, char *path, size_t size)
{
	int n = snprintf(path, size, "%s/%s%s%s", gs->r->root, dir,
			 *dir && *file ? "/" : "", file);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

void rc_groups_sweep(struct rc_groups *gs)
{
	char path[PATH_MAX];
	size_t i;

	rc_lock(gs->r);
	for (i = 0; i < gs->nr; i++) {
		struct rc_group *g = &gs->g[i];

		if (!g->seen || g->owner != RC_OWNER_MEMDIAG_DEAD ||
		    group_path(gs, g->dir, "", path, sizeof(path)))
			continue;
		if (gs->ops->rmdir(path)) {
			gs->st.sweep_failed++;
			continue;
		}
		gs->st.swept++;
		g->seen = false;
	}
	rc_unlock(gs->r);
}

/* mbm_event mode: a counter for mbm_total_bytes only, in every domain. */
static void assign_counters(struct rc_groups *gs, const char *dir)
{
	char path[PATH_MAX];

	if (!gs->r->assign_mode ||
	    group_path(gs, dir, "mbm_L3_assignments", path, sizeof(path)))
		return;
	/* memdiag reads no local bytes: leave those counters to others */
	(void)gs->ops->write(path, "mbm_local_bytes:*=_\n");
	if (gs->ops->write(path, "mbm_total_bytes:*=e\n"))
		gs->st.no_cntr++;
}

int rc_group_make(struct rc_groups *gs, int ctrl)
{
	const char *cdir = gs->g[ctrl].dir;
	char dir[PATH_MAX], path[PATH_MAX], name[64];
	size_t k;
	int ret, i;

	snprintf(name, sizeof(name), OUR_PREFIX "%d-%u", (int)gs->self,
		 gs->made++);
	if (snprintf(dir, sizeof(dir), "%s%smon_groups/%s", cdir,
		     *cdir ? "/" : "", name) >= (int)sizeof(dir) ||
	    group_path(gs, dir, "", path, sizeof(path)))
		return -ENAMETOOLONG;
	ret = gs->ops->mkdir(path);
	if (ret == -ENOSPC)
		gs->st.enospc++;
	else if (ret == -EBUSY)
		gs->st.ebusy++;
	if (ret)
		return ret;
	assign_counters(gs, dir);
	i = add(gs, dir, ctrl, name);
	if (i < 0) {
		(void)gs->ops->rmdir(path);
		return i;
	}
	gs->g[i].ours = true;
	/* a new group's files count from zero: no baseline to wait for */
	for (k = 0; k < rc_nr_counters(gs->r); k++)
		gs->g[i].state[k] = (struct rc_counter){ .last = 0, .have = true };
	return i;
}

int rc_group_add_tid(struct rc_groups *gs, int g, pid_t tid)
{
	char path[PATH_MAX], text[24];
	int ret;

	if (group_path(gs, gs->g[g].dir, "tasks", path, sizeof(path)))
		return -ENAMETOOLONG;
	snprintf(text, sizeof(text), "%d\n", (int)tid);
	ret = gs->ops->write(path, text);
	if (ret == -ESRCH) {
		gs->st.esrch++;
	} else if (ret) {
		gs->st.refused++;
		gs->st.refused_errno = -ret;
	}
	return ret;
}

void rc_groups_remove_ours(struct rc_groups *gs)
{
	char path[PATH_MAX];
	size_t i;

	rc_lock(gs->r);
	for (i = 0; i < gs->nr; i++)
		if (gs->g[i].ours && gs->g[i].seen &&
		    !group_path(gs, gs->g[i].dir, "", path, sizeof(path)) &&
		    !gs->ops->rmdir(path))
			gs->g[i].seen = false;
	rc_unlock(gs->r);
}

void rc_groups_free(struct rc_groups *gs)
{
	size_t i;

	for (i = 0; i < gs->nr; i++) {
		free(gs->g[i].dir);
		free(gs->g[i].state);
	}
	free(gs->g);
	gs->g = NULL;
	gs->nr = 0;
}

/* Each tid of one group's tasks file to @fn. */
static int tids_of(const struct rc_groups *gs, int g,
		   int (*fn)(pid_t tid, int g, void *arg), void *arg)
{
	char path[PATH_MAX], line[32];
	int ret = 0;
	FILE *f;

	if (group_path(gs, gs->g[g].dir, "tasks", path, sizeof(path)))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;	/* the group vanished */
	while (!ret && fgets(line, sizeof(line), f)) {
		long tid = strtol(line, NULL, 10);

		if (tid > 0)
			ret = fn((pid_t)tid, g, arg);
	}
	fclose(f);
	return ret;
}

int rc_groups_tids(const struct rc_groups *gs,
		   int (*fn)(pid_t tid, int g, void *arg), void *arg)
{
	size_t i;
	int ret = 0;
	int pass;

	/* control groups first: a monitoring group's listing then wins */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; !ret && i < gs->nr; i++)
			if (gs->g[i].seen && (gs->g[i].ctrl < 0) == !pass)
				ret = tids_of(gs, (int)i, fn, arg);
	return ret;
}
