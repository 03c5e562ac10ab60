// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - what every "memdiagctl run" kernel prints the same way: the
 * head (kernel, threads, CPUs, nodes, repetitions) and the start and end
 * of each result, which carries the result's counters.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cpulist.h"
#include "meta.h"
#include "names.h"
#include "run/place.h"
#include "run/run.h"

/* "64M" when it is a whole multiple, else bytes. */
void run_fmt_size(char *buf, size_t size, uint64_t v)
{
	if (v >= (1ull << 30) && !(v % (1ull << 30)))
		snprintf(buf, size, "%" PRIu64 "G", v >> 30);
	else if (v >= (1ull << 20) && !(v % (1ull << 20)))
		snprintf(buf, size, "%" PRIu64 "M", v >> 20);
	else if (v >= (1ull << 10) && !(v % (1ull << 10)))
		snprintf(buf, size, "%" PRIu64 "K", v >> 10);
	else
		snprintf(buf, size, "%" PRIu64, v);
}

/*
 * The NUMA node of each thread's CPU and the node its memory landed on
 * (JSON, null where unknown); in text the nodes the threads ran on.
 */
static void print_nodes(struct printer *p, const struct run_args *a)
{
	uint32_t node[KERN_MAX_THREADS];
	char list[256];
	size_t i, j, n = 0;

	print_open_array(p, "nodes");
	for (i = 0; i < a->nr_cpu; i++) {
		if (a->node[i] < 0)
			print_string(p, PRINT_JSON, NULL, "%s", NULL);
		else
			print_uint(p, PRINT_JSON, NULL, "%u",
				   (unsigned int)a->node[i]);
	}
	print_close_array(p);
	print_open_array(p, "mem_nodes");
	for (i = 0; i < a->nr_cpu; i++) {
		if (a->mem_node[i] < 0)
			print_string(p, PRINT_JSON, NULL, "%s", NULL);
		else
			print_uint(p, PRINT_JSON, NULL, "%u",
				   (unsigned int)a->mem_node[i]);
	}
	print_close_array(p);
	/* the distinct known nodes, ascending, for the text line */
	for (i = 0; i < a->nr_cpu; i++) {
		uint32_t v = (uint32_t)a->node[i];

		if (a->node[i] < 0)
			continue;
		for (j = 0; j < n && node[j] < v; j++)
			;
		if (j < n && node[j] == v)
			continue;
		memmove(&node[j + 1], &node[j], (n - j) * sizeof(*node));
		node[j] = v;
		n++;
	}
	if (n) {
		cpulist_format(list, sizeof(list), node, n);
		print_textf(p, " (node%s %s)", n == 1 ? "" : "s", list);
	}
}

/*
 * Where the counters come from: get-info's "platform" (null without
 * counters), and in text a line when they are the simulator's, so that no
 * simulated count passes for a hardware one. Times and GB/s stay real.
 */
static void print_platform(struct printer *p, const struct counters *c)
{
	bool known = c->on && c->have_platform;

	if (!known) {
		print_string(p, PRINT_JSON, "platform", "%s", NULL);
		return;
	}
	print_string(p, PRINT_JSON, "platform", "%s", name_platform(c->platform));
	if (c->platform == MEMDIAG_PLATFORM_SIM)
		print_textf(p, "counters: from the simulated platform (memdiag_sim), not hardware; times and GB/s are measured\n");
}

void run_print_head(struct printer *p, const struct run_args *a)
{
	uint32_t cpu[KERN_MAX_THREADS];
	char list[256];
	size_t i;

	for (i = 0; i < a->nr_cpu; i++)
		cpu[i] = (uint32_t)a->cpu[i];
	cpulist_format(list, sizeof(list), cpu, a->nr_cpu);
	print_open_object(p, NULL);
	meta_print(p);
	print_string(p, PRINT_ANY, "kernel", "kernel %s", a->kernel->name);
	print_u64(p, PRINT_ANY, "threads", ", %" PRIu64 " thread", a->threads);
	print_textf(p, "%s", a->threads == 1 ? "" : "s");
	print_string(p, PRINT_TEXT, NULL, " on CPU %s", list);
	print_open_array(p, "cpus");
	for (i = 0; i < a->nr_cpu; i++)
		print_uint(p, PRINT_JSON, NULL, "%u", cpu[i]);
	print_close_array(p);
	print_nodes(p, a);
	/* each result repeats until both are reached (--reps, --min-time) */
	print_u64(p, PRINT_ANY, "reps", ", at least %" PRIu64 " rep", a->reps);
	print_textf(p, "%s", a->reps == 1 ? "" : "s");
	if (a->timing == KERN_TIMING_WHOLE)
		print_double(p, PRINT_ANY, "min_time_s",
			     ", each a whole run of at least %g s",
			     a->min_time);
	else
		print_double(p, PRINT_ANY, "min_time_s",
			     " and %g s timed per result", a->min_time);
	/* each row's value is this statistic of its reps, min and max beside */
	print_string(p, PRINT_ANY, "statistic", " (%s shown)", "median");
	/* kernels/kernel.h, enum kern_timing */
	print_string(p, PRINT_ANY, "timing", ", %s timing",
		     kern_timing_name[a->timing]);
	if (a->membind < 0)
		print_string(p, PRINT_JSON, "membind", "%s", NULL);
	else
		print_uint(p, PRINT_JSON, "membind", "%u", (unsigned int)a->membind);
	run_print_place_text(p, a);
	/* asked for: what was granted is in each result (page_size_bytes) */
	print_bool(p, PRINT_ANY, "hugepages_requested",
		   ", hugepages asked for: %s", a->hugepages);
	if (a->kernel->head)
		a->kernel->head(p, a);
	print_textf(p, "\n");
	print_platform(p, a->counters);
}

/* The keys every result has, in the same order. */
void run_result_open(struct printer *p, const struct run_args *a,
		     uint64_t size, const struct kern_timed *t)
{
	print_open_object(p, NULL);
	print_string(p, PRINT_JSON, "kernel", "%s", a->kernel->name);
	print_u64(p, PRINT_JSON, "threads", "%" PRIu64, a->threads);
	print_u64(p, PRINT_JSON, "size_bytes", "%" PRIu64, size);
	print_uint(p, PRINT_JSON, "reps", "%u", t->reps);
	print_double(p, PRINT_JSON, "timed_s", "%f", t->sec);
	/* the median repetition's; null with one thread */
	print_double(p, PRINT_JSON, "thread_wait_fraction", "%f", t->wait);
	/* kernels/repeat.c: calls per thread in a repetition, 0 unknown */
	print_uint(p, PRINT_JSON, "parts_per_rep", "%u", t->parts);
	run_print_place(p, a);
}

void run_result_close(struct printer *p, const struct run_args *a,
		      size_t slot)
{
	counters_json(p, a->counters, slot);
	print_close_object(p);
}

void run_stats_json(struct printer *p, const char *prefix,
		       const struct kern_stats *s)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_min", prefix);
	print_double(p, PRINT_JSON, key, "%f", s->min);
	snprintf(key, sizeof(key), "%s_max", prefix);
	print_double(p, PRINT_JSON, key, "%f", s->max);
}

void run_print_gbps(struct printer *p, const struct kern_stats *s)
{
	print_double(p, PRINT_ANY, "gbps", " %10.2f", s->median);
	run_stats_json(p, "gbps", s);
	print_double(p, PRINT_TEXT, NULL, " %10.2f", s->min);
	print_double(p, PRINT_TEXT, NULL, " %10.2f", s->max);
}
