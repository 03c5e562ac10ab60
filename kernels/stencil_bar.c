// SPDX-License-Identifier: GPL-2.0
/*
 * stencil_bar.c - the barriers the stencil's threads wait at after each
 * plane (--barrier spin|tree): a sense-reversing central one and a static
 * binary tree.
 */

#include <sched.h>

#include "barrier.h"
#include "stencil_int.h"

#define SPIN_YIELD (1u << 14)	/* spins before letting another task in */

static void spin_until(_Atomic unsigned int *f, unsigned int v)
{
	unsigned int i = 0;

	while (atomic_load_explicit(f, memory_order_acquire) != v) {
		kern_cpu_relax();
		/* a descheduled partner must not cost a whole time slice */
		if (++i % SPIN_YIELD == 0)
			sched_yield();
	}
}

/*
 * Sense-reversing central barrier: the last to arrive resets the count and
 * flips the flag the others spin on. @sense is the thread's own.
 */
static void spin_wait(struct st_bar *b, unsigned int *sense)
{
	*sense ^= 1;
	if (atomic_fetch_add_explicit(&b->count.v, 1, memory_order_acq_rel) ==
	    b->n - 1) {
		atomic_store_explicit(&b->count.v, 0, memory_order_relaxed);
		atomic_store_explicit(&b->sense.v, *sense,
				      memory_order_release);
	} else {
		spin_until(&b->sense.v, *sense);
	}
}

/*
 * Static binary tree: a thread waits for its two children to arrive, tells
 * its parent, waits to be released and releases its children; each flag
 * has one writer and one reader, so no line is fought over by all. The
 * flags carry the barrier's episode number.
 */
static void tree_wait(struct st_bar *b, unsigned int tid, unsigned int *ep)
{
	unsigned int e = ++*ep, c1 = 2 * tid + 1, c2 = 2 * tid + 2;

	if (c1 < b->n)
		spin_until(&b->arrive[c1].v, e);
	if (c2 < b->n)
		spin_until(&b->arrive[c2].v, e);
	if (tid) {
		atomic_store_explicit(&b->arrive[tid].v, e,
				      memory_order_release);
		spin_until(&b->release[tid].v, e);
	}
	if (c1 < b->n)
		atomic_store_explicit(&b->release[c1].v, e,
				      memory_order_release);
	if (c2 < b->n)
		atomic_store_explicit(&b->release[c2].v, e,
				      memory_order_release);
}

void st_bar_wait(struct st_bar *b, unsigned int tid, unsigned int *sense,
		 unsigned int *episode)
{
	if (b->n < 2)
		return;
	if (b->type == STENCIL_TREE)
		tree_wait(b, tid, episode);
	else
		spin_wait(b, sense);
}
