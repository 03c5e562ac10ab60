// SPDX-License-Identifier: GPL-2.0
/*
 * calib_sockets.c - the sockets calibrate measures as sysfs shows them:
 * their online CPUs, and their last-level caches, each instance once
 * (one per socket on most Intel parts, one per CCX on AMD), so that the
 * traffic can be sized from all the cache a socket has.
 */

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/cache.h"
#include "calib_plan.h"

static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	char *nl;

	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	return 0;
}

static bool cpu_online(const char *cpu_dir, uint32_t cpu)
{
	char path[512], buf[16];

	snprintf(path, sizeof(path), "%s/cpu%u/online", cpu_dir, cpu);
	/* no file: a CPU that cannot go offline (cpu0) */
	return read_line(path, buf, sizeof(buf)) || buf[0] == '1';
}

static int add_cpu(struct calib_socket **s, size_t *n, uint32_t pkg,
		   uint32_t cpu)
{
	struct calib_socket *t;
	uint32_t *c;
	size_t i;

	for (i = 0; i < *n && (*s)[i].id != pkg; i++)
		;
	if (i == *n) {
		t = realloc(*s, (*n + 1) * sizeof(**s));
		if (!t)
			return -1;
		*s = t;
		memset(&t[i], 0, sizeof(t[i]));
		t[i].id = pkg;
		(*n)++;
	}
	c = realloc((*s)[i].cpu, ((*s)[i].nr_cpu + 1) * sizeof(*c));
	if (!c)
		return -1;
	c[(*s)[i].nr_cpu++] = cpu;
	(*s)[i].cpu = c;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_socket(const void *a, const void *b)
{
	return cmp_u32(&((const struct calib_socket *)a)->id,
		       &((const struct calib_socket *)b)->id);
}

/* kern_llc_read()'s taker of a one-line file ("0-7,64-71") */
struct llc_line {
	char s[256];
};

static bool take_line(FILE *f, void *out)
{
	struct llc_line *l = out;
	char *nl;

	if (!fgets(l->s, sizeof(l->s), f))
		return false;
	nl = strchr(l->s, '\n');
	if (nl)
		*nl = 0;
	return l->s[0] != 0;
}

/*
 * The last-level cache instances of @s: CPUs whose highest cache lists
 * the same shared_cpu_list share one. Without that file, every CPU is
 * taken to share the first CPU's cache (what calibrate assumed before);
 * without a size at all, nr_llc stays 0 (unknown).
 */
static int socket_llcs(const char *cpu_dir, struct calib_socket *s)
{
	struct llc_line *key = calloc(s->nr_cpu, sizeof(*key));
	uint64_t size;
	size_t i, j;

	s->llc_of = calloc(s->nr_cpu, sizeof(*s->llc_of));
	s->llc_size = calloc(s->nr_cpu, sizeof(*s->llc_size));
	if (!key || !s->llc_of || !s->llc_size) {
		free(key);
		return -1;
	}
	for (i = 0; i < s->nr_cpu; i++) {
		size = kern_llc_bytes(cpu_dir, s->cpu[i]);
		if (!size || kern_llc_read(cpu_dir, s->cpu[i],
					   "shared_cpu_list", take_line,
					   &key[i]) < 0)
			snprintf(key[i].s, sizeof(key[i].s), "%s", "?");
		if (!size && i)
			size = s->llc_size[0];	/* as the first CPU's */
		if (!size)
			break;
		for (j = 0; j < s->nr_llc && strcmp(key[j].s, key[i].s); j++)
			;
		if (j == s->nr_llc) {
			if (j != i)
				key[j] = key[i];
			s->llc_size[s->nr_llc++] = size;
		}
		s->llc_of[i] = (unsigned int)j;
	}
	if (i < s->nr_cpu)
		s->nr_llc = 0;	/* a CPU without a size: unknown */
	for (j = 0; j < s->nr_llc; j++)
		s->llc_bytes += s->llc_size[j];
	free(key);
	return 0;
}

size_t calib_sockets(const char *cpu_dir, struct calib_socket **out)
{
	bool real = !cpu_dir;
	struct calib_socket *s = NULL;
	char path[512], buf[32];
	struct dirent *e;
	cpu_set_t allowed;
	unsigned long cpu;
	size_t n = 0, i;
	char *end;
	DIR *d;

	*out = NULL;
	if (!cpu_dir)
		cpu_dir = "/sys/devices/system/cpu";
	if (real && sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	d = opendir(cpu_dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "cpu", 3))
			continue;
		cpu = strtoul(e->d_name + 3, &end, 10);
		if (end == e->d_name + 3 || *end || cpu >= CALIB_MAX_CPUS)
			continue;
		if ((real && !CPU_ISSET(cpu, &allowed)) ||
		    !cpu_online(cpu_dir, (uint32_t)cpu))
			continue;
		snprintf(path, sizeof(path),
			 "%s/cpu%lu/topology/physical_package_id", cpu_dir, cpu);
		if (read_line(path, buf, sizeof(buf)))
			continue;
		if (add_cpu(&s, &n, (uint32_t)strtoul(buf, NULL, 10),
			    (uint32_t)cpu)) {
			closedir(d);
			calib_sockets_free(s, n);
			return 0;
		}
	}
	closedir(d);
	qsort(s, n, sizeof(*s), cmp_socket);
	for (i = 0; i < n; i++) {
		qsort(s[i].cpu, s[i].nr_cpu, sizeof(*s[i].cpu), cmp_u32);
		if (socket_llcs(cpu_dir, &s[i])) {
			calib_sockets_free(s, n);
			return 0;
		}
	}
	*out = s;
	return n;
}

void calib_sockets_free(struct calib_socket *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(s[i].cpu);
		free(s[i].llc_of);
		free(s[i].llc_size);
	}
	free(s);
}

int calib_socket_of(const char *cpu_dir, const int *cpu, size_t n,
		    struct calib_socket **out)
{
	struct calib_socket *s = calloc(1, sizeof(*s));
	size_t i;

	*out = NULL;
	if (!s)
		return -1;
	s->cpu = calloc(n ? n : 1, sizeof(*s->cpu));
	if (!s->cpu) {
		free(s);
		return -1;
	}
	for (i = 0; i < n; i++)
		s->cpu[i] = (uint32_t)cpu[i];
	s->nr_cpu = n;
	if (socket_llcs(cpu_dir, s)) {
		calib_sockets_free(s, 1);
		return -1;
	}
	*out = s;
	return 0;
}
