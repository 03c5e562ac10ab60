// SPDX-License-Identifier: GPL-2.0
/*
 * topology.c - which socket each CPU belongs to, and which CPU serves a
 * socket.
 *
 * memdiag numbers sockets by the kernel's logical package id, which is
 * dense (0..N-1) even when firmware numbers packages sparsely; the physical
 * id is reported beside it. Callers hold cpus_read_lock() when they need
 * the online mask to stay put while they walk it.
 */
#include <linux/cpumask.h>
#include <linux/nodemask.h>
#include <linux/topology.h>

#include "memdiag.h"

unsigned int memdiag_socket_of(unsigned int cpu)
{
	return topology_logical_package_id(cpu);
}

/*
 * The first online CPU of @socket other than @except (nr_cpu_ids: none
 * excepted), or nr_cpu_ids if there is none. Boxes reached through a CPU
 * of their socket (AMD's UMC and Data Fabric MSRs) use it: every CPU of
 * the socket reaches the same registers, so whichever is first online
 * serves, and when it goes offline the next one takes over with the
 * counters as they are, nothing to carry over.
 */
unsigned int memdiag_socket_cpu(unsigned int socket, unsigned int except)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != except && memdiag_socket_of(cpu) == socket)
			return cpu;
	return nr_cpu_ids;
}

/* Physical package id of @socket, or UINT_MAX if it has no online CPU. */
unsigned int memdiag_socket_package(unsigned int socket)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (memdiag_socket_of(cpu) == socket)
			return topology_physical_package_id(cpu);
	return UINT_MAX;
}

/* Upper bound of socket numbers (sockets may have no online CPU). */
unsigned int memdiag_max_sockets(void)
{
	return topology_max_packages();
}

/* Sockets with at least one online CPU. */
unsigned int memdiag_nr_sockets(void)
{
	unsigned int s, n = 0;

	for (s = 0; s < memdiag_max_sockets(); s++)
		if (memdiag_socket_package(s) != UINT_MAX)
			n++;
	return n;
}

/* Socket of the physical package @package, or -1 if none is online. */
int memdiag_package_to_socket(unsigned int package)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (topology_physical_package_id(cpu) == package)
			return memdiag_socket_of(cpu);
	return -1;
}

/*
 * NUMA nodes holding online CPUs of @socket: what AMD's NPS setting (or
 * Intel's SNC) splits the socket into, as the kernel sees it.
 */
unsigned int memdiag_socket_nodes(unsigned int socket)
{
	nodemask_t nodes = NODE_MASK_NONE;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (memdiag_socket_of(cpu) == socket)
			node_set(cpu_to_node(cpu), nodes);
	return nodes_weight(nodes);
}
