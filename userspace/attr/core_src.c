// SPDX-License-Identifier: GPL-2.0
/*
 * core_src.c - attribution's sample from the memdiag module's core
 * estimate: each cgroup's DRAM fills per socket, counted at every context
 * switch that changes cgroup (Documentation/attribution.rst). The module
 * names cgroups by their cgroup2 id, the inode number of the cgroup's
 * directory, so each sample walks the hierarchy to map ids to the groups
 * of the scan; a cgroup memdiag cannot place (the root, one without a
 * slot, one gone) counts in the groups' total only, so in "other".
 */

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "attr_int.h"

struct ino_group {
	uint64_t ino;
	int g;
};

/* nftw() passes no argument: the one walk under way (a CLI, one thread) */
static struct {
	struct attr *a;
	size_t mount_len;
	struct ino_group *map;
	size_t nr, cap;
	int err;
} walk;

static int walk_dir(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw __attribute__((unused)))
{
	char key[CG_KEY_MAX];
	struct cg_ident id;
	const char *rel = path + walk.mount_len;
	int g;

	if (flag != FTW_D || !*rel)
		return 0;	/* files, and the root: the total only */
	if (walk.a->subtree) {
		/* watch --group: the subtree is one group, nothing else is */
		g = attr_under(rel, walk.a->subtree) ?
		    attr_find_group(walk.a, walk.a->subtree) : -1;
	} else if (cg_key(rel, walk.a->by, key, sizeof(key), &id) < 0) {
		return 0;
	} else {
		g = attr_find_group(walk.a, key);
	}
	if (g < 0)
		return 0;
	if (walk.nr == walk.cap) {
		size_t cap = walk.cap ? 2 * walk.cap : 256;
		struct ino_group *m = realloc(walk.map, cap * sizeof(*m));

		if (!m) {
			walk.err = -ENOMEM;
			return 1;
		}
		walk.map = m;
		walk.cap = cap;
	}
	walk.map[walk.nr++] = (struct ino_group){ (uint64_t)st->st_ino, g };
	return 0;
}

static int ino_cmp(const void *x, const void *y)
{
	const struct ino_group *a = x, *b = y;

	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

static int entry_cmp(const void *x, const void *y)
{
	const struct attr_core_entry *a = x, *b = y;

	if (a->socket != b->socket)
		return a->socket < b->socket ? -1 : 1;
	return a->cgroup_id < b->cgroup_id ? -1 : a->cgroup_id > b->cgroup_id;
}

/* Every cgroup directory's inode to its group, sorted; -errno. */
static int map_groups(struct attr *a)
{
	walk.a = a;
	walk.mount_len = strlen(a->h.mount);
	walk.nr = 0;
	walk.err = 0;
	if (nftw(a->h.mount, walk_dir, 32, FTW_PHYS | FTW_MOUNT) < 0 &&
	    !walk.err)
		walk.err = -errno;
	if (!walk.err)
		qsort(walk.map, walk.nr, sizeof(*walk.map), ino_cmp);
	return walk.err;
}

static int socket_index(const struct attr *a, uint32_t socket)
{
	size_t s;

	for (s = 0; s < a->rc.nr_socket; s++)
		if (a->rc.socket_id[s] == socket)
			return (int)s;
	return -1;
}

/* Rescan the groups, as the resctrl source does; -errno. */
static int scan_groups(struct attr *a)
{
	struct cg_scan scan;
	size_t i;
	int ret = attr_drop_gone_groups(a);

	if (!ret)
		ret = cg_scan(&a->h, a->by, a->max, &scan);
	if (ret)
		return ret;
	for (i = 0; i < a->nr; i++)
		a->g[i].seen = false;
	for (i = 0; i < scan.nr; i++) {
		int g;

		if (a->subtree && !attr_under(scan.g[i].path, a->subtree))
			continue;
		g = attr_group_of(a, &scan.g[i]);

		if (g >= 0)
			a->g[g].seen = true;
	}
	cg_scan_free(&a->scan);
	a->scan = scan;
	return 0;
}

/* What entry @e moved since the last read: all of it when it is new. */
static uint64_t moved(const struct attr *a, const struct attr_core_entry *e)
{
	const struct attr_core_entry *p;

	p = bsearch(e, a->core_prev, a->nr_core_prev, sizeof(*e), entry_cmp);
	if (!p)
		return e->bytes;
	return e->bytes >= p->bytes ? e->bytes - p->bytes : 0;	/* restarted */
}

static void add_entries(struct attr *a, const struct attr_core_entry *e,
			size_t n)
{
	size_t i, s;

	memset(a->total_delta, 0, sizeof(a->total_delta));
	for (i = 0; i < a->nr; i++)
		memset(a->g[i].delta, 0, sizeof(a->g[i].delta));
	for (i = 0; a->samples && !a->core_rebase && i < n; i++) {
		struct ino_group key = { e[i].cgroup_id, -1 }, *m;
		int si = socket_index(a, e[i].socket);
		uint64_t d = moved(a, &e[i]);

		if (si < 0)
			continue;
		a->total_delta[si] += d;
		m = bsearch(&key, walk.map, walk.nr, sizeof(key), ino_cmp);
		if (m && e[i].cgroup_id)
			a->g[m->g].delta[si] += d;
	}
	for (s = 0; s < a->rc.nr_socket; s++) {
		a->total[s] += a->total_delta[s];
		for (i = 0; i < a->nr; i++)
			a->g[i].bytes[s] += a->g[i].delta[s];
	}
}

int attr_core_sample(struct attr *a, char *why, size_t size)
{
	struct attr_core_entry *e = NULL;
	size_t n = 0;
	int ret = scan_groups(a);

	if (!ret)
		ret = map_groups(a);
	if (ret) {
		snprintf(why, size, "cannot list the groups: %s", strerror(-ret));
		return ret;
	}
	ret = a->core_read(a->core_ctx, &e, &n, why, size);
	if (ret)
		return ret;
	qsort(e, n, sizeof(*e), entry_cmp);
	add_entries(a, e, n);
	a->core_rebase = false;
	free(a->core_prev);
	a->core_prev = e;
	a->nr_core_prev = n;
	a->samples++;
	return 0;
}

void attr_core_rebase(struct attr *a)
{
	a->core_rebase = true;
}

void attr_core_free(struct attr *a)
{
	free(a->core_prev);
	a->core_prev = NULL;
	a->nr_core_prev = 0;
	free(walk.map);
	walk.map = NULL;
	walk.nr = walk.cap = 0;
}

int attr_open_core(struct attr *a, enum cg_by by, size_t max,
		   const uint32_t *socket_id, size_t nr_socket,
		   attr_core_read_fn fn, void *ctx, char *why, size_t size)
{
	int ret;

	*a = (struct attr){ .source = ATTR_SOURCE_CORE_ESTIMATE, .by = by,
			    .max = max, .core_read = fn, .core_ctx = ctx };
	ret = cg_hier_find(&a->h, why, size);
	if (ret)
		return ret;
	if (!a->h.v2) {
		snprintf(why, size,
			 "no cgroup2 hierarchy is mounted, and the memdiag module names cgroups by their cgroup2 ids");
		return -ENOENT;
	}
	if (nr_socket > RC_MAX_SOCKETS)
		nr_socket = RC_MAX_SOCKETS;
	memcpy(a->rc.socket_id, socket_id, nr_socket * sizeof(*socket_id));
	a->rc.nr_socket = nr_socket;
	return 0;
}
