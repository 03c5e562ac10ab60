/* SPDX-License-Identifier: GPL-2.0 */
/*
 * barrier.h - a barrier that spins before it sleeps (barrier.c), for the
 * timed loop's threads.
 */

#ifndef MEMDIAG_KERNELS_BARRIER_H
#define MEMDIAG_KERNELS_BARRIER_H

#include <stdatomic.h>
#include <stdbool.h>

/* A spinning waiter's pause: lets the sibling hyperthread run, saves power. */
static inline void kern_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

struct kern_bar {
	_Atomic unsigned int arrived;	/* this episode's threads so far */
	_Atomic unsigned int gen;	/* episodes completed; the futex word */
	_Atomic unsigned int sleepers;	/* threads in (or going to) futex wait */
	unsigned int n;
	double spin_sec;	/* how long a waiter spins before it sleeps */
};

/*
 * For @n threads; a waiter spins up to @spin_sec seconds (0: sleeps at
 * once, for threads that share CPUs) before it sleeps.
 */
void kern_bar_init(struct kern_bar *b, unsigned int n, double spin_sec);
void kern_bar_wait(struct kern_bar *b);

#endif /* MEMDIAG_KERNELS_BARRIER_H */
