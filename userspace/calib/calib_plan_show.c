// SPDX-License-Identifier: GPL-2.0
/*
 * calib_plan_show.c - calibrate's plan of one socket, through the one
 * print path: what will be measured (points, threads, the bytes every
 * point sweeps against the last-level cache), on which CPUs, in how much
 * memory and how long. Printed before anything is pinned or allocated
 * ("--plan" prints it alone), so that a user sees the cost first and a
 * test can check the sizing of machines it does not have.
 */

#include <stdio.h>

#include "calib_plan.h"
#include "calib_show.h"
#include "cpulist.h"

static double mib(uint64_t bytes)
{
	return (double)bytes / 1048576.0;
}

/*
 * Text: one row per mix and thread count (its delays sweep the same
 * bytes); JSON: every point.
 */
static void show_points(struct printer *pr, const struct calib_plan *p)
{
	unsigned int i, j, m, run;
	size_t swept;

	print_textf(pr, "  %-5s %7s %6s %14s %8s\n", "mix", "threads", "points",
		    "swept/point", "x_LLC");
	for (m = 0; m < KERN_NR_MIXES; m++)
		for (i = 1; i < p->npt; i++) {
			if (p->pt[i].mix != m)
				continue;
			/* the first point of this count in this mix */
			for (j = 1, run = 0; j < p->npt; j++)
				if (p->pt[j].mix == m &&
				    p->pt[j].threads == p->pt[i].threads &&
				    j < i)
					break;
			if (j < i)
				continue;
			for (j = 1; j < p->npt; j++)
				run += p->pt[j].mix == m &&
				       p->pt[j].threads == p->pt[i].threads;
			swept = calib_plan_swept(p, i);
			print_textf(pr, "  %-5s %7u %6u %10.0f MiB %8.2f\n",
				    kern_mix_name[m], p->pt[i].threads, run,
				    mib(swept), p->llc_bytes ?
				    (double)swept / (double)p->llc_bytes : 0);
		}
	print_open_array(pr, "points");
	for (i = 1; i < p->npt; i++) {
		print_open_object(pr, NULL);
		print_uint(pr, PRINT_JSON, "threads", "%u", p->pt[i].threads);
		print_u64(pr, PRINT_JSON, "delay", "%lu", p->pt[i].delay);
		print_string(pr, PRINT_JSON, "mix", "%s",
			     kern_mix_name[p->pt[i].mix]);
		print_u64(pr, PRINT_JSON, "swept_bytes", "%lu",
			  calib_plan_swept(p, i));
		print_close_object(pr);
	}
	print_close_array(pr);
}

void calib_plan_show(struct printer *pr, const struct calib_socket *so,
		     const struct calib_plan *p, const struct calib_plan_cost *c)
{
	char cpus[256];

	cpulist_format(cpus, sizeof(cpus), so->cpu, so->nr_cpu);
	print_open_object(pr, NULL);
	print_uint(pr, PRINT_ANY, "socket", "socket %u:", so->id);
	print_string(pr, PRINT_ANY, "cpus", " CPUs %s", cpus);
	print_uint(pr, PRINT_ANY, "chase_cpu", ", chase on CPU %u", so->cpu[0]);
	print_uint(pr, PRINT_ANY, "generators", ", up to %u generator threads\n",
		   p->gen);
	print_u64(pr, PRINT_JSON, "llc_bytes", "%lu", p->llc_bytes);
	print_uint(pr, PRINT_JSON, "llc_instances", "%u",
		   (unsigned int)so->nr_llc);
	print_bool(pr, PRINT_JSON, "llc_assumed", "%s", p->llc_assumed);
	print_textf(pr, "  last-level cache %.0f MiB (%s)\n", mib(p->llc_bytes),
		    p->llc_assumed ? "sysfs lists none: assumed 8 MiB per CPU" :
		    so->nr_llc == 1 ? "one instance" : "its instances together");
	print_u64(pr, PRINT_JSON, "pool_bytes", "%lu", p->pool_bytes);
	print_u64(pr, PRINT_JSON, "chase_bytes", "%lu", p->chase_bytes);
	print_u64(pr, PRINT_JSON, "budget_bytes", "%lu", c->budget);
	print_string(pr, PRINT_JSON, "budget_source", "%s", c->budget_from);
	print_textf(pr, "  traffic pool %.0f MiB, split among the generators of each point; chase %.0f MiB; budget %.0f MiB (%s)\n",
		    mib(p->pool_bytes), mib(p->chase_bytes), mib(c->budget),
		    c->budget_from);
	print_double(pr, PRINT_ANY, "llc_ratio_min",
		     "  every point sweeps at least %.2f x each cache it shares before a line comes back\n",
		     c->llc_ratio);
	print_uint(pr, PRINT_ANY, "nr_points", "  %u points", p->npt);
	print_uint(pr, PRINT_ANY, "repeats", " x %u repeats", p->reps);
	print_uint(pr, PRINT_ANY, "prefetch_states", " x %u prefetcher state(s)",
		   c->npf);
	print_double(pr, PRINT_ANY, "estimate_sec", ", about %.0f s\n", c->est_sec);
	show_points(pr, p);
	print_close_object(pr);
}
