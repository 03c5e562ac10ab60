/* SPDX-License-Identifier: GPL-2.0 */
/*
 * place.h - where "memdiagctl run" puts its threads and memory (--node,
 * --socket, --membind, latency --matrix): the NUMA nodes and packages from
 * sysfs, and where the memory landed.
 */

#ifndef MEMDIAGCTL_RUN_PLACE_H
#define MEMDIAGCTL_RUN_PLACE_H

#include <sched.h>
#include <stddef.h>

#include "print.h"
#include "run/run.h"

/*
 * A node list of /sys/devices/system/node (@which: "online", "has_cpu",
 * "has_memory") into @set, bit i for node i; 0, or -1 when unreadable.
 */
int run_nodes(const char *which, cpu_set_t *set);
/* @set as a list ("0-1,3"), "none" when empty. */
void run_set_format(char *buf, size_t size, const cpu_set_t *set);

/*
 * The CPUs of node @node or package @socket into @set; 0, or -1 with why
 * in @err (worded to follow "option '--node': "): no such node or socket
 * (the existing ones named), a node without CPUs.
 */
int run_node_cpus(unsigned int node, cpu_set_t *set, char *err, size_t size);
int run_socket_cpus(unsigned int socket, cpu_set_t *set, char *err,
		    size_t size);
/* 0 when node @node has memory, else -1 with why in @err. */
int run_membind_check(unsigned int node, char *err, size_t size);

/*
 * The node of all the threads' CPUs and the one holding all their
 * memory, from the run's a->node and a->mem_node: -1 unknown,
 * KERN_NODE_MIXED when they are on several.
 */
int run_cpu_node(const struct run_args *a);
int run_memory_node(const struct run_args *a);
/* cpu_node and memory_node (JSON, null unless one node). */
void run_print_place(struct printer *p, const struct run_args *a);
/* The head's text: ", memory bound to node 1, on node 1". */
void run_print_place_text(struct printer *p, const struct run_args *a);
/* Warn (@what: "latency 64M") when --membind's node is not where the memory is. */
void run_check_membind(const struct run_args *a, const char *what);

#endif /* MEMDIAGCTL_RUN_PLACE_H */
