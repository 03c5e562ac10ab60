// SPDX-License-Identifier: GPL-2.0
/*
 * place.c - where a kernel's threads put their memory: on the NUMA node of
 * the thread's CPU (preferred, the default), or on the node "run
 * --membind" names (bound); and where the pages really are afterwards,
 * asked of the kernel with move_pages(2) in query mode.
 *
 * Raw system calls rather than libnuma: nothing more to install, and a
 * kernel without CONFIG_NUMA answers ENOSYS, which costs the default
 * placement only its hint and --membind its check (reported as unknown).
 */

#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/mempolicy.h>)
#include <linux/mempolicy.h>
#endif
#endif

#include "kernel.h"

/* MPOL_BIND is an enum: MPOL_F_ADDR, a macro, says the header is there */
#if defined(SYS_mbind) && defined(SYS_move_pages) && defined(MPOL_F_ADDR)
#define HAVE_MBIND 1
#else
#define HAVE_MBIND 0
#endif

#define KERN_MAX_NODES 1024	/* bits in the node mask given to mbind */
#define KERN_PLACE_SAMPLES 512	/* pages move_pages() is asked about */

/*
 * Set by the harness in each worker once it is pinned (kern_place_begin()):
 * the node mbind() gives what this thread allocates, whether it is bound
 * there, and the first range it placed (where the harness looks, after
 * setup, for the node that holds it).
 */
static __thread int tls_node = -1;
static __thread bool tls_bind;
static __thread void *tls_first;
static __thread size_t tls_first_bytes;

/* The NUMA node of the CPU the caller runs on (getcpu), or -1. */
static int kern_node_now(void)
{
#ifdef SYS_getcpu
	unsigned int cpu, node;

	/* the kernel's cpu_to_node() of the CPU this thread is on */
	if (syscall(SYS_getcpu, &cpu, &node, NULL) == 0)
		return (int)node;
#endif
	return -1;
}

int kern_place_begin(const struct kern_cfg *cfg)
{
	int node = kern_node_now();

	tls_bind = cfg->bind;
	tls_node = cfg->bind ? (int)cfg->bind_node : node;
	tls_first = NULL;
	tls_first_bytes = 0;
	return node;
}

/*
 * The node holding the resident pages of [p, p + bytes), asked with
 * move_pages(2) in query mode about up to 512 pages spread over it; -1
 * when unknown (no NUMA support, nothing resident), KERN_NODE_MIXED when
 * they are on more than one node.
 */
static int kern_mem_nodes(const void *p, size_t bytes)
{
#if HAVE_MBIND
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p & ~(pg - 1);
	size_t pages = (size_t)(((uintptr_t)p + bytes + pg - 1) / pg - lo / pg);
	size_t n = pages < KERN_PLACE_SAMPLES ? pages : KERN_PLACE_SAMPLES;
	void *addr[KERN_PLACE_SAMPLES];
	int status[KERN_PLACE_SAMPLES];
	int node = -1;
	size_t i;

	if (!p || !bytes)
		return -1;
	/* evenly spread over the range: the first and, as near as may be, the last page */
	for (i = 0; i < n; i++)
		addr[i] = (void *)(lo + (n > 1 ? i * (pages - 1) / (n - 1) : 0) * pg);
	/* nodes NULL: only ask where each page is (status: node or -errno) */
	if (syscall(SYS_move_pages, 0, (unsigned long)n, addr, NULL, status, 0))
		return -1;
	for (i = 0; i < n; i++) {
		if (status[i] < 0)	/* not present (never touched): no answer */
			continue;
		if (node >= 0 && status[i] != node)
			return KERN_NODE_MIXED;
		node = status[i];
	}
	return node;
#else
	(void)p;
	(void)bytes;
	return -1;
#endif
}

int kern_place_first_node(void)
{
	return kern_mem_nodes(tls_first, tls_first_bytes);
}

void kern_place(void *p, size_t bytes)
{
#if HAVE_MBIND
	unsigned long mask[KERN_MAX_NODES / (8 * sizeof(unsigned long))];
	const unsigned int bits = 8 * sizeof(unsigned long);
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + pg - 1) & ~(pg - 1);
	uintptr_t hi = ((uintptr_t)p + bytes) & ~(pg - 1);
	int node = tls_node;
#endif

	if (!tls_first && bytes) {
		tls_first = p;
		tls_first_bytes = bytes;
	}
#if HAVE_MBIND
	/*
	 * Preferred: only the whole pages, the others may be a neighbour
	 * thread's (stencil's shared grids). Bound: every page the range
	 * touches, all threads binding to the same node, or a buffer's last
	 * part-page would land on the local node.
	 */
	if (tls_bind) {
		lo = (uintptr_t)p & ~(pg - 1);
		hi = ((uintptr_t)p + bytes + pg - 1) & ~(pg - 1);
	}
	if (node < 0 || node >= KERN_MAX_NODES || hi <= lo)
		return;
	memset(mask, 0, sizeof(mask));
	mask[(unsigned int)node / bits] |= 1UL << ((unsigned int)node % bits);
	/*
	 * By default preferred, not bound: a full node then spills to another
	 * rather than failing the run. First touch by this thread already
	 * makes the pages local under the default policy; this makes them so
	 * under any other the process inherited. --membind binds: a remote
	 * measurement must not quietly become a local one (and what landed
	 * where is checked after setup all the same). maxnode is one more
	 * than the bits the kernel reads.
	 */
	(void)syscall(SYS_mbind, (void *)lo, (unsigned long)(hi - lo),
		      tls_bind ? MPOL_BIND : MPOL_PREFERRED, mask,
		      (unsigned long)KERN_MAX_NODES + 1, 0U);
#endif
}
