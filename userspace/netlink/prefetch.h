/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prefetch.h - the prefetcher state the module reports (prefetch-get and
 * the replies to prefetch-set and prefetch-restore), read and printed.
 */

#ifndef MEMDIAGCTL_PREFETCH_H
#define MEMDIAGCTL_PREFETCH_H

#include <stdbool.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include "nl.h"
#include "print.h"

#define PREFETCHERS_MAX 32		/* bits of the prefetchers mask */

struct pf_info {
	uint32_t index, bit;
	char name[32];
	char desc[96];
};

struct pf_cpu_state {
	uint32_t cpu, socket, core;
	uint64_t value;
	uint32_t disabled;	/* bit i: prefetcher i is off */
	bool has_original;
	uint64_t original;
	bool changed;
	bool restore_failed;	/* putting original back failed; retried */
};

struct pf_state {
	char control[128];
	uint32_t msr;
	struct pf_info pf[PREFETCHERS_MAX];
	size_t nr_pf;
	struct pf_cpu_state *cpu;
	size_t nr_cpu;
};

/* What a request covers: a socket, a list of CPUs, or (neither) all. */
struct pf_scope {
	bool have_socket;
	uint32_t socket;
	const uint32_t *cpu;
	size_t nr_cpu;
};

/*
 * A prefetch-get, -set or -restore request (@op) for @scope, in a buffer
 * malloc()ed to its size: one cpu attribute per CPU, so a list of
 * thousands of CPUs is still one message, which the module applies all or
 * nothing. @mask and @disable go into a set only. NULL without memory.
 */
struct nlmsghdr *pf_request_new(struct nl *nl, uint16_t family, uint8_t op,
				const struct pf_scope *scope, uint32_t mask,
				bool disable);

/*
 * Check and read a reply (generic netlink header first): every attribute
 * must have its size, prefetcher indexes must be 0..n-1 in order, and
 * control, msr and each cpu-state's cpu are required. An exit code;
 * problems are reported.
 */
int pf_state_parse(const char *cmd, const struct nlmsghdr *nlh,
		   struct pf_state *st);
void pf_state_free(struct pf_state *st);

/*
 * The state of every CPU in @st in one word, as the curve fingerprint
 * records it: "on" (no prefetcher off anywhere), "off" (every one off
 * everywhere), "mixed", or NULL when @st has no prefetcher or no CPU.
 */
const char *pf_state_summary(const struct pf_state *st);

/* The index of prefetcher @name, or -1. */
int pf_state_find(const struct pf_state *st, const char *name);

/*
 * Print @st: the prefetchers, one row per group of CPUs in the same state
 * (socket, value, original), and in JSON every CPU too. @action is what
 * was done ("status", "disable", ...), @mask which prefetchers it named.
 */
void pf_state_show(struct printer *p, const struct pf_state *st,
		   const char *action, uint32_t mask);

#endif /* MEMDIAGCTL_PREFETCH_H */
