/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prefetch_int.h - the state prefetch.c (requests) and prefetch_hp.c
 * (hotplug, load, unload, reading) share.
 *
 * What memdiag saved is kept per CPU but always the same for every CPU
 * of a core: siblings share the register. A core is the set of CPUs with
 * the same core_key, recorded while each CPU is online, so the record
 * reaches CPUs that are offline now (no sibling mask holds them).
 *
 * Lock order: cpus_read_lock(), then pf_lock. The hotplug callbacks run
 * with the hotplug lock held for writing and take only pf_lock.
 */
#ifndef _MEMDIAG_PREFETCH_INT_H
#define _MEMDIAG_PREFETCH_INT_H

#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/topology.h>
#include <linux/types.h>

#include "memdiag.h"

#define PF_NO_CORE	U64_MAX		/* core_key of a CPU never seen online */

struct pf_cpu {
	/*
	 * orig is what memdiag found on this core before changing it, kept
	 * until it is really back in the register: a restore or rollback
	 * whose write fails keeps it (and sets failed), so a later restore,
	 * the core coming back online, or rmmod tries again.
	 */
	bool saved;
	bool failed;		/* the last attempt to put orig back failed */
	u64 orig;
	u32 req_mask;		/* prefetchers (by index) asked for */
	u32 req_off;		/* of those, the ones asked to be off */
	bool known;		/* req_* say it; else its socket's does */
	u64 core_key;		/* package and core id, taken while online */
};

struct pf_req {
	u32 mask, off;
};

extern const struct memdiag_pf_desc *pf_desc;
extern struct pf_cpu *pf_cpus;
extern struct pf_req pf_sock[MEMDIAG_MAX_SOCKETS];
extern struct mutex pf_lock;

int pf_read(unsigned int cpu, u64 *val);
int pf_write(unsigned int cpu, u64 val);
int pf_write_verify(unsigned int cpu, u64 val, u64 *got);
u64 pf_bits(u32 mask);
u64 pf_core_key(unsigned int cpu);
unsigned int pf_socket(unsigned int cpu);
int pf_core_saved(unsigned int cpu);
void pf_core_record(unsigned int cpu, bool saved, u64 orig, bool failed);
void pf_log(const char *what, const u64 *old, const u64 *new);
int pf_restore_locked(const struct cpumask *scope, u64 *old, u64 *new,
		      char *msg, size_t len);

/* The online CPUs that share @cpu's register, @cpu included. */
static inline const struct cpumask *pf_core(unsigned int cpu)
{
	return topology_sibling_cpumask(cpu);
}

/* Whether @a and @b share a core, also when one or both are offline. */
static inline bool pf_same_core(unsigned int a, unsigned int b)
{
	return pf_cpus[a].core_key != PF_NO_CORE &&
	       pf_cpus[a].core_key == pf_cpus[b].core_key;
}

#endif /* _MEMDIAG_PREFETCH_INT_H */
