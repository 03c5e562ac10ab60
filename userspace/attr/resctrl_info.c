// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_info.c - where resctrl is mounted, whether it counts DRAM bytes
 * (info/L3_MON), and its L3 monitoring domains with the socket of each
 * (the CPUs whose L3 cache has the domain's id).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mountinfo.h"
#include "resctrl.h"
#include "sysroot.h"

static int find_mount(const struct mountinfo_entry *m, void *arg)
{
	struct resctrl *r = arg;

	if (strcmp(m->fstype, "resctrl"))
		return 0;
	return sysroot_path(r->root, sizeof(r->root), "%s", m->mount) ? -ENAMETOOLONG : 1;
}

/* The first line of a small file into @buf; 0 or -errno. */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

static int read_info(const struct resctrl *r, const char *name, char *buf,
		     size_t size)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/info/L3_MON/%s", r->root, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return read_line(path, buf, size);
}

/* mon_features: one event per line. */
static int read_features(struct resctrl *r)
{
	char path[PATH_MAX], line[128];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/info/L3_MON/mon_features",
		     r->root) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		r->mbm_total |= !strcmp(line, "mbm_total_bytes");
		r->mbm_local |= !strcmp(line, "mbm_local_bytes");
	}
	fclose(f);
	return 0;
}

/* "0=32;1=30": the smallest count of any domain (0 when none parses). */
static unsigned int fewest(const char *list)
{
	unsigned int min = 0;
	bool any = false;
	const char *eq;

	for (eq = strchr(list, '='); eq; eq = strchr(eq + 1, '=')) {
		unsigned long v = strtoul(eq + 1, NULL, 10);

		if (!any || v < min)
			min = (unsigned int)v;
		any = true;
	}
	return min;
}

/* AMD's assignable counters: info/L3_MON/mbm_assign_mode and counts. */
static void read_assign(struct resctrl *r)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/info/L3_MON/mbm_assign_mode",
		     r->root) >= (int)sizeof(path))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		r->assign_mode |= !strncmp(line, "[mbm_event]", 11);
	fclose(f);
	if (!r->assign_mode)
		return;
	if (!read_info(r, "num_mbm_cntrs", line, sizeof(line)))
		r->num_cntrs = fewest(line);
	if (!read_info(r, "available_mbm_cntrs", line, sizeof(line)))
		r->avail_cntrs = fewest(line);
}

static int socket_index(struct resctrl *r, uint32_t pkg)
{
	size_t i;

	for (i = 0; i < r->nr_socket; i++)
		if (r->socket_id[i] == pkg)
			return (int)i;
	if (r->nr_socket == RC_MAX_SOCKETS)
		return -1;
	r->socket_id[r->nr_socket] = pkg;
	return (int)r->nr_socket++;
}

/* The L3 cache id of @cpu: the cache/index* whose level is 3. */
static int cpu_l3_id(const char *cpu, unsigned int *id)
{
	char path[PATH_MAX], buf[32];
	int i;

	for (i = 0; i < 8; i++) {
		if (sysroot_path(path, sizeof(path),
				 "/sys/devices/system/cpu/%s/cache/index%d/level",
				 cpu, i) ||
		    read_line(path, buf, sizeof(buf)))
			continue;
		if (strcmp(buf, "3") ||
		    sysroot_path(path, sizeof(path),
				 "/sys/devices/system/cpu/%s/cache/index%d/id",
				 cpu, i) ||
		    read_line(path, buf, sizeof(buf)))
			continue;
		*id = (unsigned int)strtoul(buf, NULL, 10);
		return 0;
	}
	return -ENOENT;
}

/* Give each domain the socket of the CPUs that share its L3. */
static void map_sockets(struct resctrl *r)
{
	char path[PATH_MAX], buf[32];
	struct dirent *de;
	DIR *d;

	if (sysroot_path(path, sizeof(path), "/sys/devices/system/cpu"))
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		unsigned int l3;
		uint32_t pkg;
		size_t i;

		if (strncmp(de->d_name, "cpu", 3) ||
		    !strchr("0123456789", de->d_name[3]) || !de->d_name[3] ||
		    cpu_l3_id(de->d_name, &l3) ||
		    sysroot_path(path, sizeof(path),
				 "/sys/devices/system/cpu/%s/topology/physical_package_id",
				 de->d_name) ||
		    read_line(path, buf, sizeof(buf)))
			continue;
		pkg = (uint32_t)strtoul(buf, NULL, 10);
		for (i = 0; i < r->nr_dom; i++)
			if (r->dom[i].id == l3 && r->dom[i].socket < 0)
				r->dom[i].socket = socket_index(r, pkg);
	}
	closedir(d);
}

/* The sockets in id order (the CPUs came in directory order). */
static void sort_sockets(struct resctrl *r)
{
	int order[RC_MAX_SOCKETS];
	uint32_t ids[RC_MAX_SOCKETS];
	size_t i, j;

	for (i = 0; i < r->nr_socket; i++) {
		for (j = i; j > 0 && ids[j - 1] > r->socket_id[i]; j--)
			ids[j] = ids[j - 1];
		ids[j] = r->socket_id[i];
	}
	for (i = 0; i < r->nr_socket; i++)
		for (j = 0; j < r->nr_socket; j++)
			if (ids[j] == r->socket_id[i])
				order[i] = (int)j;
	for (i = 0; i < r->nr_dom; i++)
		if (r->dom[i].socket >= 0)
			r->dom[i].socket = order[r->dom[i].socket];
	memcpy(r->socket_id, ids, r->nr_socket * sizeof(*ids));
}

/* mon_sub_L3_<n> directories of an SNC domain. */
static void read_subs(const struct resctrl *r, struct rc_domain *dom)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (snprintf(path, sizeof(path), "%s/mon_data/mon_L3_%02u", r->root,
		     dom->id) >= (int)sizeof(path))
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) && dom->nr_sub < RC_MAX_SUBS)
		if (!strncmp(de->d_name, "mon_sub_L3_", 11))
			dom->sub[dom->nr_sub++] =
				(unsigned int)strtoul(de->d_name + 11, NULL, 10);
	closedir(d);
}

static int by_id(const void *a, const void *b)
{
	const struct rc_domain *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_uint(const void *a, const void *b)
{
	const unsigned int *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* The domains, in id order (and their SNC nodes): the same every time. */
static int read_domains(struct resctrl *r)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t i;
	DIR *d;

	if (snprintf(path, sizeof(path), "%s/mon_data", r->root) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct rc_domain *dom;

		if (strncmp(de->d_name, "mon_L3_", 7))
			continue;
		dom = realloc(r->dom, (r->nr_dom + 1) * sizeof(*dom));
		if (!dom) {
			closedir(d);
			return -ENOMEM;
		}
		r->dom = dom;
		dom = &r->dom[r->nr_dom++];
		*dom = (struct rc_domain){
			.id = (unsigned int)strtoul(de->d_name + 7, NULL, 10),
			.socket = -1,
		};
		read_subs(r, dom);
	}
	closedir(d);
	qsort(r->dom, r->nr_dom, sizeof(*r->dom), by_id);
	for (i = 0; i < r->nr_dom; i++)
		qsort(r->dom[i].sub, r->dom[i].nr_sub, sizeof(unsigned int),
		      by_uint);
	map_sockets(r);
	sort_sockets(r);
	return r->nr_dom ? 0 : -ENOENT;
}

int resctrl_open(struct resctrl *r, char *why, size_t size)
{
	char buf[64];
	int ret;

	*r = (struct resctrl){ .lock_fd = -1 };
	ret = mountinfo_each(find_mount, r);
	if (ret <= 0) {
		snprintf(why, size, ret ? "cannot read the mount table: %s" :
			 "resctrl is not mounted (mount -t resctrl resctrl /sys/fs/resctrl, on a processor with RDT or PQoS monitoring)",
			 strerror(-ret));
		return ret ? ret : -ENOENT;
	}
	ret = read_features(r);
	if (ret || !r->mbm_total) {
		snprintf(why, size,
			 "resctrl at %s counts no DRAM bytes (no mbm_total_bytes in info/L3_MON/mon_features)",
			 sysroot_strip(r->root));
		return -EOPNOTSUPP;
	}
	if (!read_info(r, "num_rmids", buf, sizeof(buf)))
		r->num_rmids = (unsigned int)strtoul(buf, NULL, 10);
	read_assign(r);
	ret = read_domains(r);
	if (ret) {
		snprintf(why, size, "resctrl at %s has no L3 monitoring domain: %s",
			 sysroot_strip(r->root), strerror(-ret));
		resctrl_close(r);
		return ret;
	}
	r->lock_fd = open(r->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return 0;
}

void resctrl_close(struct resctrl *r)
{
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	free(r->dom);
	r->dom = NULL;
	r->nr_dom = 0;
	r->lock_fd = -1;
}
