// SPDX-License-Identifier: GPL-2.0
/*
 * unit_barrier.c - the timed loop's barrier (kernels/barrier.c): no
 * thread passes before all have arrived, in every mode (sleep at once,
 * spin a little then sleep, spin long), and a waiter whose partner is
 * late stops spinning and sleeps, so that it does not burn its CPU.
 */

#include "../../kernels/barrier.h"
#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f barrier" runs its tests alone */
FIXTURE(barrier) {};
FIXTURE_SETUP(barrier) {}
FIXTURE_TEARDOWN(barrier) {}

#define BAR_THREADS 3
#define BAR_EPISODES 3000

struct bar_test {
	struct kern_bar bar;
	_Atomic unsigned int slot[BAR_THREADS];
	_Atomic unsigned int wrong;	/* episodes a thread saw too early */
};

struct bar_arg {
	struct bar_test *t;
	unsigned int tid;
};

static void *bar_worker(void *arg)
{
	struct bar_arg *a = arg;
	struct bar_test *t = a->t;
	unsigned int e, i;

	for (e = 1; e <= BAR_EPISODES; e++) {
		atomic_store(&t->slot[a->tid], e);
		kern_bar_wait(&t->bar);
		/* past the barrier: every thread has written this episode */
		for (i = 0; i < BAR_THREADS; i++)
			if (atomic_load(&t->slot[i]) < e)
				atomic_fetch_add(&t->wrong, 1);
		/* and none may write the next before all have looked */
		kern_bar_wait(&t->bar);
	}
	return NULL;
}

static void order_case(struct __test_metadata *_metadata,
		       double spin_sec, const char *mode)
{
	struct bar_test t;
	struct bar_arg a[BAR_THREADS];
	pthread_t th[BAR_THREADS];
	unsigned int i;

	memset(&t, 0, sizeof(t));
	kern_bar_init(&t.bar, BAR_THREADS, spin_sec);
	for (i = 0; i < BAR_THREADS; i++) {
		a[i].t = &t;
		a[i].tid = i;
		pthread_create(&th[i], NULL, bar_worker, &a[i]);
	}
	for (i = 0; i < BAR_THREADS; i++)
		pthread_join(th[i], NULL);
	ok(atomic_load(&t.wrong) == 0,
	   "barrier %s: %u threads x %u episodes, none passed early (%u did)",
	   mode, BAR_THREADS, BAR_EPISODES, atomic_load(&t.wrong));
}

static double thread_cpu_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct late_arg {
	struct kern_bar *bar;
	double cpu_sec, wall_sec;	/* the early waiter's, in its wait */
};

static void *early_waiter(void *arg)
{
	struct late_arg *l = arg;
	double cpu = thread_cpu_sec();
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	kern_bar_wait(l->bar);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	l->cpu_sec = thread_cpu_sec() - cpu;
	l->wall_sec = (double)(t1.tv_sec - t0.tv_sec) +
		      (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	return NULL;
}

/* A partner 300 ms late: the waiter spins 2 ms, then sleeps. */
TEST_F(barrier, late_partner)
{
	struct kern_bar bar;
	struct late_arg l = { .bar = &bar };
	struct timespec late = { 0, 300 * 1000 * 1000 };
	pthread_t th;

	kern_bar_init(&bar, 2, 2e-3);
	pthread_create(&th, NULL, early_waiter, &l);
	nanosleep(&late, NULL);
	kern_bar_wait(&bar);
	pthread_join(th, NULL);
	ok(l.wall_sec >= 0.25,
	   "barrier: the early thread waited for the late one (%.3f s)",
	   l.wall_sec);
	/* spinning all along would be ~0.3 s of CPU; the spin is 2 ms */
	ok(l.cpu_sec < 0.1,
	   "barrier: a waiter 300 ms early sleeps after its spin (%.3f s of CPU)",
	   l.cpu_sec);
}

/*
 * 9000 episodes of 3 threads: about 20 s on two loaded CPUs, above the
 * harness's default 30 s timeout when the machine is busier still.
 */
#define ORDER_TIMEOUT_SEC 300

TEST_F_TIMEOUT(barrier, order_sleeping, ORDER_TIMEOUT_SEC)
{
	order_case(_metadata, 0, "sleeping");
}

TEST_F_TIMEOUT(barrier, order_spin_1us, ORDER_TIMEOUT_SEC)
{
	order_case(_metadata, 1e-6, "spin 1 us then sleep");
}

TEST_F_TIMEOUT(barrier, order_spin_2ms, ORDER_TIMEOUT_SEC)
{
	order_case(_metadata, 2e-3, "spin 2 ms then sleep");
}
