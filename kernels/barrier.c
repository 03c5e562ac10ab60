// SPDX-License-Identifier: GPL-2.0
/*
 * barrier.c - the barrier the timed loop (repeat.c) waits at before and
 * after each timed call: spin first, then sleep.
 *
 * Why not pthread_barrier_wait(): it puts every thread but the last to
 * sleep on a futex, and the last one's wake-up is a system call and, in
 * a VM, an interrupt to an idle vCPU that the host has to schedule again:
 * tens of microseconds in which the woken thread has not started its
 * part while thread 0's clock runs. Against an L1-sized phase of about a
 * millisecond that was most of the gap to likwid-bench's 2-thread rows.
 * Spinning for a while (the threads are pinned to CPUs of their own)
 * makes the release a cache-line transfer; sleeping after that keeps a
 * long wait (a slow partner at DRAM, a descheduled one) from burning a
 * CPU for seconds.
 */

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "barrier.h"
#include "timing.h"

/* spins between looks at the clock: a look costs more than a spin */
#define BAR_SPINS_PER_CHECK 256u

static void futex_wait(_Atomic unsigned int *word, unsigned int val)
{
	/* returns at once when *word is no longer @val: the caller loops */
	syscall(SYS_futex, (unsigned int *)word, FUTEX_WAIT_PRIVATE, val,
		NULL, NULL, 0);
}

static void futex_wake_all(_Atomic unsigned int *word)
{
	syscall(SYS_futex, (unsigned int *)word, FUTEX_WAKE_PRIVATE, INT_MAX,
		NULL, NULL, 0);
}

void kern_bar_init(struct kern_bar *b, unsigned int n, double spin_sec)
{
	atomic_init(&b->arrived, 0);
	atomic_init(&b->gen, 0);
	atomic_init(&b->sleepers, 0);
	b->n = n;
	b->spin_sec = spin_sec;
}

/* Spin until the generation moves on from @gen or @b->spin_sec pass. */
static bool spin_for(struct kern_bar *b, unsigned int gen)
{
	double until = 0;
	unsigned int i;

	if (b->spin_sec <= 0)
		return false;
	for (;;) {
		for (i = 0; i < BAR_SPINS_PER_CHECK; i++) {
			if (atomic_load_explicit(&b->gen, memory_order_acquire) !=
			    gen)
				return true;
			kern_cpu_relax();
		}
		if (!until)
			until = kern_now() + b->spin_sec;
		else if (kern_now() > until)
			return false;
	}
}

void kern_bar_wait(struct kern_bar *b)
{
	/*
	 * The generation cannot move on before this thread arrives, so the
	 * value read here is the episode it waits in.
	 */
	unsigned int gen = atomic_load_explicit(&b->gen, memory_order_acquire);

	if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) ==
	    b->n - 1) {
		/* the others come back only after the release below */
		atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
		/*
		 * Sequentially consistent with the sleepers' count: either
		 * a sleeper sees the new generation before it sleeps, or
		 * this sees the sleeper and wakes it.
		 */
		atomic_store(&b->gen, gen + 1);
		if (atomic_load(&b->sleepers))
			futex_wake_all(&b->gen);
		return;
	}
	if (spin_for(b, gen))
		return;
	while (atomic_load(&b->gen) == gen) {
		atomic_fetch_add(&b->sleepers, 1);
		if (atomic_load(&b->gen) == gen)
			futex_wait(&b->gen, gen);
		atomic_fetch_sub(&b->sleepers, 1);
	}
}
