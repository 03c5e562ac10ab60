// SPDX-License-Identifier: GPL-2.0
/*
 * place.c - "memdiagctl run --node N | --socket N | --membind N": which
 * CPUs a NUMA node or a package has and which nodes have memory, from
 * sysfs (/sys/devices/system/node, the CPUs' topology), checked before
 * anything runs; and after a run, whether the memory landed where it was
 * bound. The test hooks MEMDIAG_TEST_SYSFS_NODE and MEMDIAG_TEST_SYSFS_CPU
 * replace the two sysfs directories.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "parse.h"
#include "run/place.h"
#include "run/warn.h"

static const char *node_dir(void)
{
	const char *d = getenv("MEMDIAG_TEST_SYSFS_NODE");

	return d ? d : "/sys/devices/system/node";
}

static const char *cpu_dir(void)
{
	const char *d = getenv("MEMDIAG_TEST_SYSFS_CPU");

	return d ? d : "/sys/devices/system/cpu";
}

/* A kernel list file ("0-3,8", or an empty line) into @set; 0 or -1. */
static int read_list(const char *path, cpu_set_t *set)
{
	char line[4096], err[128];
	uint32_t *v;
	size_t i, n;
	FILE *f;

	CPU_ZERO(set);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	if (!line[0])
		return 0;	/* a node without CPUs */
	if (cpulist_parse(line, NULL, &v, &n, err, sizeof(err)) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (v[i] < CPU_SETSIZE)
			CPU_SET(v[i], set);
	free(v);
	return 0;
}

/* @set as a list ("0-1,3"), "none" when empty. */
static void run_set_format(char *buf, size_t size, const cpu_set_t *set)
{
	uint32_t v[CPU_SETSIZE];
	size_t i, n = 0;

	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, set))
			v[n++] = (uint32_t)i;
	if (!n)
		snprintf(buf, size, "none");
	else
		cpulist_format(buf, size, v, n);
}

int run_nodes(const char *which, cpu_set_t *set)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", node_dir(), which);
	return read_list(path, set);
}

/* The online nodes, or the reason there are none to name. */
static int online_nodes(cpu_set_t *set, char *err, size_t size)
{
	if (run_nodes("online", set) < 0 || !CPU_COUNT(set)) {
		snprintf(err, size, "this kernel shows no NUMA nodes (%s/online cannot be read)",
			 node_dir());
		return -1;
	}
	return 0;
}

int run_node_cpus(unsigned int node, cpu_set_t *set, char *err, size_t size)
{
	char path[512], list[256];
	cpu_set_t nodes;

	if (online_nodes(&nodes, err, size) < 0)
		return -1;
	run_set_format(list, sizeof(list), &nodes);
	if (node >= CPU_SETSIZE || !CPU_ISSET(node, &nodes)) {
		snprintf(err, size, "node %u does not exist: this machine's nodes are %s",
			 node, list);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/node%u/cpulist", node_dir(), node);
	if (read_list(path, set) < 0) {
		snprintf(err, size, "cannot read %s", path);
		return -1;
	}
	if (!CPU_COUNT(set)) {
		if (run_nodes("has_cpu", &nodes) == 0)
			run_set_format(list, sizeof(list), &nodes);
		snprintf(err, size, "node %u has no CPUs (memory only): the nodes with CPUs are %s",
			 node, list);
		return -1;
	}
	return 0;
}

/* The package of online CPU @cpu, or -1. */
static int package_of(unsigned int cpu)
{
	char path[512];
	int pkg = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu%u/topology/physical_package_id",
		 cpu_dir(), cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &pkg) != 1)
		pkg = -1;
	fclose(f);
	return pkg;
}

int run_socket_cpus(unsigned int socket, cpu_set_t *set, char *err,
		    size_t size)
{
	char path[512], list[256];
	cpu_set_t online, pkgs;
	unsigned int i;
	int pkg;

	snprintf(path, sizeof(path), "%s/online", cpu_dir());
	if (read_list(path, &online) < 0) {
		snprintf(err, size, "cannot read %s", path);
		return -1;
	}
	CPU_ZERO(set);
	CPU_ZERO(&pkgs);
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, &online))
			continue;
		pkg = package_of(i);
		if (pkg >= 0 && pkg < CPU_SETSIZE)
			CPU_SET(pkg, &pkgs);
		if (pkg >= 0 && (unsigned int)pkg == socket)
			CPU_SET(i, set);
	}
	if (!CPU_COUNT(set)) {
		run_set_format(list, sizeof(list), &pkgs);
		snprintf(err, size, "socket %u does not exist: this machine's sockets are %s",
			 socket, list);
		return -1;
	}
	return 0;
}

int run_membind_check(unsigned int node, char *err, size_t size)
{
	cpu_set_t nodes, mem;
	char list[256];

	if (online_nodes(&nodes, err, size) < 0)
		return -1;
	/* before 2.6.35 there was no has_memory: every online node then */
	if (run_nodes("has_memory", &mem) < 0)
		mem = nodes;
	run_set_format(list, sizeof(list), &mem);
	if (node < CPU_SETSIZE && CPU_ISSET(node, &mem))
		return 0;
	snprintf(err, size, "node %u %s: the nodes with memory are %s", node,
		 node < CPU_SETSIZE && CPU_ISSET(node, &nodes) ?
		 "has no memory" : "does not exist", list);
	return -1;
}

int run_place_option(const char *cmd, bool socket, const char *arg,
		     struct run_place *pl)
{
	const char *opt = socket ? "socket" : "node";
	char err[300];
	uint64_t v;
	int rc;

	if (pl->opt)
		return cli_usage(cmd, "options '--node' and '--socket' exclude each other, and each is given once");
	if (parse_uint(arg, 0, CPU_SETSIZE - 1, &v, err, sizeof(err)) < 0)
		return cli_usage(cmd, "option '--%s': %s", opt, err);
	rc = socket ?
	     run_socket_cpus((unsigned int)v, &pl->cpus, err, sizeof(err)) :
	     run_node_cpus((unsigned int)v, &pl->cpus, err, sizeof(err));
	if (rc < 0)
		return cli_usage(cmd, "option '--%s': %s", opt, err);
	snprintf(pl->buf, sizeof(pl->buf), "--%s %" PRIu64, opt, v);
	pl->opt = pl->buf;
	return MDC_EXIT_OK;
}

int run_membind_option(const char *cmd, const char *arg, int *membind)
{
	char err[300];
	uint64_t v;

	if (parse_uint(arg, 0, CPU_SETSIZE - 1, &v, err, sizeof(err)) < 0 ||
	    run_membind_check((unsigned int)v, err, sizeof(err)) < 0)
		return cli_usage(cmd, "option '--membind': %s", err);
	*membind = (int)v;
	return MDC_EXIT_OK;
}

int run_place_cpus(const char *cmd, const struct run_place *pl,
		   bool have_cpus, uint64_t threads, cpu_set_t *allowed)
{
	char mine[256], may[256];
	int n;

	if (!pl->opt)
		return MDC_EXIT_OK;
	if (have_cpus)
		return cli_usage(cmd, "options '--cpus' and '%s' exclude each other: give one",
				 pl->opt);
	run_set_format(mine, sizeof(mine), &pl->cpus);
	run_set_format(may, sizeof(may), allowed);
	CPU_AND(allowed, allowed, &pl->cpus);
	n = CPU_COUNT(allowed);
	if (!n)
		return cli_usage(cmd, "option '%s': its CPUs (%s) are none of those this process may use (%s)",
				 pl->opt, mine, may);
	if (threads > (uint64_t)n)
		return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the %d CPU%s of %s this process may use (%s)",
				 threads, n, n == 1 ? "" : "s", pl->opt, mine);
	return MDC_EXIT_OK;
}

/* The one value of @v[0..n) (-1 when none is known, -2 when they differ). */
static int common(const int *v, size_t n)
{
	int c = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i] < 0)
			return v[i] == KERN_NODE_MIXED ? KERN_NODE_MIXED : -1;
		if (c >= 0 && v[i] != c)
			return KERN_NODE_MIXED;
		c = v[i];
	}
	return c;
}

/*
 * The node of all the threads' CPUs and the one holding all their
 * memory, from the run's a->node and a->mem_node: -1 unknown,
 * KERN_NODE_MIXED when they are on several.
 */
static int run_cpu_node(const struct run_args *a)
{
	return common(a->node, a->nr_cpu);
}

static int run_memory_node(const struct run_args *a)
{
	return common(a->mem_node, a->nr_cpu);
}

/* A node as JSON: null when unknown or several. */
static void print_node(struct printer *p, const char *key, int node)
{
	if (node < 0)
		print_string(p, PRINT_JSON, key, "%s", NULL);
	else
		print_uint(p, PRINT_JSON, key, "%u", (unsigned int)node);
}

void run_print_place(struct printer *p, const struct run_args *a)
{
	print_node(p, "cpu_node", run_cpu_node(a));
	print_node(p, "memory_node", run_memory_node(a));
}

void run_print_place_text(struct printer *p, const struct run_args *a)
{
	int m = run_memory_node(a);

	if (a->membind >= 0)
		print_textf(p, ", memory bound to node %d", a->membind);
	if (m >= 0)
		print_textf(p, "%s on node %d", a->membind >= 0 ? "," :
			    ", memory", m);
	else if (m == KERN_NODE_MIXED)
		print_textf(p, "%s on several nodes", a->membind >= 0 ? "," :
			    ", memory");
}

void run_check_membind(const struct run_args *a, const char *what)
{
	int m = run_memory_node(a);

	if (a->membind < 0 || m == a->membind)
		return;
	if (m == KERN_NODE_MIXED)
		run_warn("--membind %d: %s: the memory is on several nodes (move_pages), not only node %d",
			 a->membind, what, a->membind);
	else if (m < 0)
		run_warn("--membind %d: %s: where the memory is cannot be checked (move_pages gave no node)",
			 a->membind, what);
	else
		run_warn("--membind %d: %s: the memory is on node %d (move_pages), not node %d",
			 a->membind, what, m, a->membind);
}
