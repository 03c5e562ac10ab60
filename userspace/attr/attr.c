// SPDX-License-Identifier: GPL-2.0
/*
 * attr.c - attribution's sample: rescan the cgroup groups, find the
 * resctrl group each of their threads is in (reusing a monitoring group
 * a runtime, cAdvisor or pqos made; with root, making a memdiag one
 * under the thread's control group for the rest), and read each group's
 * bytes per socket since the last sample.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "attr_int.h"

const char *attr_source_name(enum attr_source s)
{
	return s == ATTR_SOURCE_MBM ? "mbm" : "core_estimate";
}

/* Threads to their resctrl group, open addressing; rebuilt each sample. */
struct tid_map {
	pid_t *tid;
	int *g;
	size_t cap, nr;
};

static size_t tid_slot(const struct tid_map *m, pid_t tid)
{
	size_t i = ((size_t)tid * 2654435761u) & (m->cap - 1);

	while (m->tid[i] && m->tid[i] != tid)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int tid_map_grow(struct tid_map *m)
{
	struct tid_map n = { .cap = m->cap ? m->cap * 2 : 1024 };
	size_t i;

	n.tid = calloc(n.cap, sizeof(*n.tid));
	n.g = calloc(n.cap, sizeof(*n.g));
	if (!n.tid || !n.g) {
		free(n.tid);
		free(n.g);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		size_t s;

		if (!m->tid[i])
			continue;
		s = tid_slot(&n, m->tid[i]);
		n.tid[s] = m->tid[i];
		n.g[s] = m->g[i];
		n.nr++;
	}
	free(m->tid);
	free(m->g);
	*m = n;
	return 0;
}

static int tid_map_put(pid_t tid, int g, void *arg)
{
	struct tid_map *m = arg;
	size_t s;

	if ((m->nr + 1) * 2 > m->cap && tid_map_grow(m))
		return -ENOMEM;
	s = tid_slot(m, tid);
	if (!m->tid[s])
		m->nr++;
	m->tid[s] = tid;
	m->g[s] = g;
	return 0;
}

static int tid_map_get(const struct tid_map *m, pid_t tid)
{
	size_t s;

	if (!m->cap)
		return -1;
	s = tid_slot(m, tid);
	return m->tid[s] ? m->g[s] : -1;
}

/* FNV-1a: the keys' index, so that 10^4 groups cost no 10^8 compares. */
static size_t key_hash(const char *key)
{
	size_t h = 2166136261u;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 16777619u;
	return h;
}

/* The slot of @key in a->index: its group's, or the empty one to use. */
static size_t index_slot(const struct attr *a, const char *key)
{
	size_t i = key_hash(key) & (a->index_cap - 1);

	while (a->index[i] >= 0 && strcmp(a->g[a->index[i]].key, key))
		i = (i + 1) & (a->index_cap - 1);
	return i;
}

int attr_find_group(const struct attr *a, const char *key)
{
	return a->index_cap ? a->index[index_slot(a, key)] : -1;
}

/* Room for one more group: the array and its index, both doubled. */
static int grow_groups(struct attr *a)
{
	size_t cap = a->cap ? a->cap * 2 : 64, i;
	struct attr_group *g;
	int *index;

	if (a->nr < a->cap)
		return 0;
	g = realloc(a->g, cap * sizeof(*g));
	if (!g)
		return -ENOMEM;
	a->g = g;
	index = malloc(2 * cap * sizeof(*index));
	if (!index)
		return -ENOMEM;
	free(a->index);
	a->index = index;
	a->index_cap = 2 * cap;
	a->cap = cap;
	for (i = 0; i < a->index_cap; i++)
		a->index[i] = -1;
	for (i = 0; i < a->nr; i++)
		a->index[index_slot(a, a->g[i].key)] = (int)i;
	return 0;
}

/* Whether cgroup @path is @root or below it. */
bool attr_under(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return true;
	return !strncmp(path, root, n) && (path[n] == '/' || !path[n]);
}

/*
 * The attr group of @cg, added when new; -ENOSPC beyond a->max. With a
 * subtree, every cgroup under it is the one group named after it.
 */
int attr_group_of(struct attr *a, const struct cg_group *cg)
{
	const char *key = a->subtree ? a->subtree : cg->key;
	struct attr_group *g;
	int i = attr_find_group(a, key);

	if (i >= 0)
		return i;
	if (a->nr >= a->max)
		return -ENOSPC;
	if (grow_groups(a))
		return -ENOMEM;
	g = &a->g[a->nr];
	*g = (struct attr_group){ .key = strdup(key), .id = cg->id };
	if (!g->key)
		return -ENOMEM;
	a->index[index_slot(a, key)] = (int)a->nr;
	return (int)a->nr++;
}

/* One link slot per resctrl group. */
static int grow_links(struct attr *a)
{
	int *link;
	size_t i;

	if (a->nr_link >= a->gs.nr)
		return 0;
	link = realloc(a->link, a->gs.nr * sizeof(*link));
	if (!link)
		return -ENOMEM;
	for (i = a->nr_link; i < a->gs.nr; i++)
		link[i] = -1;
	a->link = link;
	a->nr_link = a->gs.nr;
	return 0;
}

/* Our monitoring group for attr group @ag under control group @ctrl. */
static int our_group(struct attr *a, int ag, int ctrl)
{
	size_t i;
	int g;

	for (i = 0; i < a->gs.nr; i++)
		if (a->gs.g[i].ours && a->gs.g[i].seen &&
		    a->gs.g[i].ctrl == ctrl && i < a->nr_link &&
		    a->link[i] == ag)
			return (int)i;
	g = rc_group_make(&a->gs, ctrl);
	if (g == -EROFS || g == -EACCES || g == -EPERM) {
		/*
		 * resctrl mounted read-only here (a container) or not ours to
		 * write: read only from now on, once said, not one refused
		 * mkdir per thread and sample
		 */
		a->attach = false;
		a->gs.st.refused++;
		a->gs.st.refused_errno = -g;
	}
	if (g < 0 || grow_links(a))
		return g < 0 ? g : -ENOMEM;
	a->link[g] = ag;
	return g;
}

struct walk {
	struct attr *a;
	const struct tid_map *map;
	int ag;
};

/* A thread of attr group w->ag: count its resctrl group for it. */
static int place_tid(pid_t tid, void *arg)
{
	struct walk *w = arg;
	struct attr *a = w->a;
	int g = tid_map_get(w->map, tid), ours;

	if (g < 0)
		g = 0;		/* in no tasks file yet: the root's */
	if (a->gs.g[g].ctrl >= 0) {
		/* in a monitoring group already: reuse it */
		if (a->link[g] < 0)
			a->link[g] = w->ag;
		else if (a->link[g] != w->ag)
			a->shared++;
		return 0;
	}
	if (!a->attach) {
		a->unowned++;
		return 0;
	}
	ours = our_group(a, w->ag, g);
	if (ours >= 0 && rc_group_add_tid(&a->gs, ours, tid) == -ESRCH)
		return 0;	/* it exited: nothing to follow */
	return 0;
}

/* Put every key in a->index again, after groups moved. */
static void reindex(struct attr *a)
{
	size_t i;

	for (i = 0; i < a->index_cap; i++)
		a->index[i] = -1;
	for (i = 0; i < a->nr; i++)
		a->index[index_slot(a, a->g[i].key)] = (int)i;
}

/*
 * Forget the groups the last scan did not find (a pod that ended), and
 * the links to them: containers come and go for weeks under an
 * exporter, and neither memory nor --max-groups may fill with the dead.
 */
int attr_drop_gone_groups(struct attr *a)
{
	int *moved;
	size_t i, n = 0;

	if (!a->nr)
		return 0;
	moved = malloc(a->nr * sizeof(*moved));
	if (!moved)
		return -ENOMEM;
	for (i = 0; i < a->nr; i++) {
		if (!a->g[i].seen) {
			free(a->g[i].key);
			moved[i] = -1;
			continue;
		}
		moved[i] = (int)n;
		a->g[n++] = a->g[i];
	}
	for (i = 0; i < a->nr_link; i++)
		if (a->link[i] >= 0)
			a->link[i] = moved[a->link[i]];
	free(moved);
	a->nr = n;
	reindex(a);
	return 0;
}

/*
 * The same for the resctrl groups the last listing did not see; a
 * monitoring group's parent index moves with its control group.
 */
static int drop_gone_rc_groups(struct attr *a)
{
	size_t i, n = 0;
	int *moved;

	moved = malloc((a->gs.nr ? a->gs.nr : 1) * sizeof(*moved));
	if (!moved)
		return -ENOMEM;
	for (i = 0; i < a->gs.nr; i++) {
		if (!a->gs.g[i].seen) {
			free(a->gs.g[i].dir);
			free(a->gs.g[i].state);
			moved[i] = -1;
			continue;
		}
		moved[i] = (int)n;
		a->gs.g[n] = a->gs.g[i];
		if (i < a->nr_link)
			a->link[n] = a->link[i];
		n++;
	}
	for (i = 0; i < n; i++)
		if (a->gs.g[i].ctrl >= 0)
			a->gs.g[i].ctrl = moved[a->gs.g[i].ctrl];
	free(moved);
	a->nr_link = n < a->nr_link ? n : a->nr_link;
	a->gs.nr = n;
	return 0;
}

/* Rescan the cgroups and place every thread; -errno when it cannot. */
static int place_all(struct attr *a)
{
	struct tid_map map = { 0 };
	struct walk w = { .a = a, .map = &map };
	struct cg_scan scan;
	bool locked;
	size_t i;
	int ret;

	ret = attr_drop_gone_groups(a);
	if (!ret)
		ret = rc_groups_list(&a->gs);
	if (!ret)
		ret = drop_gone_rc_groups(a);
	if (!ret)
		ret = grow_links(a);
	if (!ret)
		ret = rc_groups_tids(&a->gs, tid_map_put, &map);
	if (!ret)
		ret = cg_scan(&a->h, a->by, a->max, &scan);
	if (ret)
		goto out;
	for (i = 0; i < a->nr; i++)
		a->g[i].seen = false;
	a->unowned = 0;
	a->shared = 0;
	locked = a->attach;
	if (locked)
		rc_lock(&a->rc);
	for (i = 0; i < scan.nr; i++) {
		if (a->subtree && !attr_under(scan.g[i].path, a->subtree))
			continue;
		w.ag = attr_group_of(a, &scan.g[i]);
		if (w.ag < 0)
			continue;
		a->g[w.ag].seen = true;
		(void)cg_group_tids(&a->h, a->by, &scan.g[i], place_tid, &w);
	}
	if (locked)	/* attach may have gone off meanwhile */
		rc_unlock(&a->rc);
	cg_scan_free(&a->scan);
	a->scan = scan;
out:
	free(map.tid);
	free(map.g);
	return ret;
}

/* Read every group's counters into its delta. */
static void read_all(struct attr *a)
{
	size_t i, s;

	memset(&a->rs, 0, sizeof(a->rs));
	memset(a->total_delta, 0, sizeof(a->total_delta));
	for (i = 0; i < a->nr; i++)
		memset(a->g[i].delta, 0, sizeof(a->g[i].delta));
	for (i = 0; i < a->gs.nr; i++) {
		struct rc_group *g = &a->gs.g[i];
		uint64_t bytes[RC_MAX_SOCKETS] = { 0 };

		if (!g->seen || (g->ctrl >= 0 && a->link[i] < 0))
			continue;
		if (rc_read_group(&a->rc, g->dir, g->state, bytes, &a->rs))
			continue;
		for (s = 0; s < a->rc.nr_socket; s++) {
			if (g->ctrl < 0)
				a->total_delta[s] += bytes[s];
			else
				a->g[a->link[i]].delta[s] += bytes[s];
		}
	}
	for (s = 0; s < a->rc.nr_socket; s++) {
		a->total[s] += a->total_delta[s];
		for (i = 0; i < a->nr; i++)
			a->g[i].bytes[s] += a->g[i].delta[s];
	}
}

int attr_sample(struct attr *a, char *why, size_t size)
{
	int ret;

	if (a->source == ATTR_SOURCE_CORE_ESTIMATE)
		return attr_core_sample(a, why, size);
	ret = place_all(a);

	if (ret) {
		snprintf(why, size, "cannot list the groups: %s",
			 strerror(-ret));
		return ret;
	}
	read_all(a);
	a->samples++;
	return 0;
}

int attr_open(struct attr *a, enum cg_by by, bool attach, size_t max,
	      char *why, size_t size)
{
	int ret;

	*a = (struct attr){ .by = by, .attach = attach, .max = max };
	ret = resctrl_open(&a->rc, why, size);
	if (ret)
		return ret;
	ret = cg_hier_find(&a->h, why, size);
	if (ret) {
		resctrl_close(&a->rc);
		return ret;
	}
	rc_groups_init(&a->gs, &a->rc, &rc_fsops_real);
	ret = rc_groups_list(&a->gs);
	if (!ret && attach)
		rc_groups_sweep(&a->gs);
	if (ret) {
		snprintf(why, size, "cannot read %s: %s", a->rc.root,
			 strerror(-ret));
		attr_close(a);
	}
	return ret;
}

void attr_close(struct attr *a)
{
	size_t i;

	if (a->source == ATTR_SOURCE_MBM) {
		rc_groups_remove_ours(&a->gs);
		rc_groups_free(&a->gs);
		resctrl_close(&a->rc);
	}
	attr_core_free(a);
	cg_scan_free(&a->scan);
	for (i = 0; i < a->nr; i++)
		free(a->g[i].key);
	free(a->g);
	free(a->index);
	free(a->link);
	a->index = NULL;
	a->index_cap = a->cap = 0;
	a->g = NULL;
	a->link = NULL;
	a->nr = a->nr_link = 0;
}
