/* SPDX-License-Identifier: GPL-2.0 */
/*
 * place.h - where "memdiagctl run" puts its threads and memory (--node,
 * --socket, --membind, latency --matrix): the NUMA nodes and packages from
 * sysfs, and where the memory landed.
 */

#ifndef MEMDIAGCTL_RUN_PLACE_H
#define MEMDIAGCTL_RUN_PLACE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "print.h"
#include "run/run.h"

/* --node N or --socket N as given. */
struct run_place {
	const char *opt;	/* "--node 1", "--socket 0" (in buf), or NULL */
	char buf[32];
	cpu_set_t cpus;		/* that node's or package's CPUs */
};

/*
 * Read --node's (@socket false) or --socket's @arg into @pl: an exit
 * code, a usage error naming the option (and the nodes or sockets there
 * are) for a bad one or a second placement option.
 */
int run_place_option(const char *cmd, bool socket, const char *arg,
		     struct run_place *pl);
/* Read --membind's @arg into @membind: an exit code, as above. */
int run_membind_option(const char *cmd, const char *arg, int *membind);
/*
 * With --node or --socket, narrow @allowed (the CPUs this process may use)
 * to their CPUs: a usage error when --cpus was given too (@have_cpus),
 * when none is left, or when @threads (0: not given) are more than those
 * left. An exit code.
 */
int run_place_cpus(const char *cmd, const struct run_place *pl,
		   bool have_cpus, uint64_t threads, cpu_set_t *allowed);

/*
 * A node list of /sys/devices/system/node (@which: "online", "has_cpu",
 * "has_memory") into @set, bit i for node i; 0, or -1 when unreadable.
 */
int run_nodes(const char *which, cpu_set_t *set);

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

/* cpu_node and memory_node (JSON, null unless one node). */
void run_print_place(struct printer *p, const struct run_args *a);
/* The head's text: ", memory bound to node 1, on node 1". */
void run_print_place_text(struct printer *p, const struct run_args *a);
/* Warn (@what: "latency 64M") when --membind's node is not where the memory is. */
void run_check_membind(const struct run_args *a, const char *what);

#endif /* MEMDIAGCTL_RUN_PLACE_H */
