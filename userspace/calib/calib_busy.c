// SPDX-License-Identifier: GPL-2.0
/*
 * calib_busy.c - how busy the socket's CPUs are right now, for
 * calibrate's time estimate.
 */

#include <sched.h>
#include <time.h>

#include "calib_busy.h"
#include "../../kernels/kernel.h"

/*
 * The share of a CPU a busy thread gets now on the socket's CPUs: a
 * thread pinned to each of up to CAL_SHARE_CPUS of them in turn spins for
 * CAL_SHARE_SEC, and its CPU time over the wall time is that CPU's share;
 * their mean is the share (the smallest of such short samples overstated
 * the time by 2x on a busy 2-vCPU VM). On an idle machine the share is 1; where other work waits
 * for the same CPUs, every point takes about 1/share as long. The chase's
 * own cost is a median, which a preemption does not move: this is the
 * term that says how busy the machine is.
 */
#define CAL_SHARE_SEC 0.2
#define CAL_SHARE_CPUS 8
#define CAL_SHARE_MIN 0.1	/* a factor of 10 at most */
static double cal_share_here(void)
{
	double t0, wall, cpu, c0 = kern_thread_cpu_sec(), c1;
	volatile unsigned long spin = 0;	/* the loop must burn CPU time */

	if (c0 < 0)
		return 1;
	t0 = kern_now();
	do {
		for (unsigned int i = 0; i < 100000; i++)
			spin++;
		wall = kern_now() - t0;
	} while (wall < CAL_SHARE_SEC);
	c1 = kern_thread_cpu_sec();
	if (c1 < 0)
		return 1;
	cpu = c1 - c0;
	return cpu / wall > 1 ? 1 : cpu / wall;
}

double calib_cpu_share(const struct calib_socket *so)
{
	size_t i, n = so->nr_cpu, step;
	double sum = 0, share;
	unsigned int nr = 0;
	cpu_set_t old, one;

	if (sched_getaffinity(0, sizeof(old), &old))
		return 1;
	step = n > CAL_SHARE_CPUS ? n / CAL_SHARE_CPUS : 1;
	for (i = 0; i < n; i += step) {
		CPU_ZERO(&one);
		CPU_SET(so->cpu[i], &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		sum += cal_share_here();
		nr++;
	}
	sched_setaffinity(0, sizeof(old), &old);
	share = nr ? sum / nr : 1;
	return share < CAL_SHARE_MIN ? CAL_SHARE_MIN : share;
}
