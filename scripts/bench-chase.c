// SPDX-License-Identifier: GPL-2.0
/*
 * bench-chase.c - a plain pointer chase, the peer "make bench" measures
 * memdiag's latency kernel against (likwid-bench has no latency test).
 * Written apart from kernels/latency.c on purpose, so that the two agree
 * only if both measure the memory and not their own overhead.
 *
 * For each working-set size: one pointer per 64-byte line, the lines in
 * one random cycle (each step picks an unvisited line at random), a
 * warm-up lap, then REPS timed chases of max(lines, 2^21) loads; prints
 * one JSON object per size with the median ns per load.
 *
 * usage: bench-chase [--hugepages] [--cpu N] [--reps N] SIZE...
 * (SIZE in bytes, or with K, M or G)
 */

#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench-peer.h"

#define LINE 64
#define MIN_LOADS (1ul << 21)

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static size_t parse_size(const char *s)
{
	size_t v;

	if (bench_size(s, &v) || v < 2 * LINE) {
		fprintf(stderr, "bench-chase: '%s' is not a size of at least 128 bytes\n", s);
		exit(1);
	}
	return v;
}

/* The loop under test: nothing but dependent loads. */
static __attribute__((noinline)) void *chase(void *p, size_t loads)
{
	while (loads--)
		p = *(void **)p;
	return p;
}

static void *volatile sink;

static int measure(size_t bytes, int huge, int reps, double *ns)
{
	size_t lines = bytes / LINE, i, loads;
	size_t *order;
	double *t;
	char *buf;
	void *p;
	uint64_t seed = 42;
	int r;

	buf = mmap(NULL, lines * LINE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	order = malloc(lines * sizeof(*order));
	t = malloc((size_t)reps * sizeof(*t));
	if (buf == MAP_FAILED || !order || !t) {
		fprintf(stderr, "bench-chase: out of memory\n");
		return -1;
	}
	if (huge)
		madvise(buf, lines * LINE, MADV_HUGEPAGE);
	/* a random order of all lines, line 0 first; link them in a ring */
	for (i = 0; i < lines; i++)
		order[i] = i;
	for (i = lines - 1; i > 1; i--) {
		size_t j = 1 + (size_t)(splitmix(&seed) % i);
		size_t x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (i = 0; i < lines; i++)
		*(void **)(buf + order[i] * LINE) =
			buf + order[(i + 1) % lines] * LINE;
	free(order);
	loads = lines > MIN_LOADS ? lines : MIN_LOADS;
	p = chase(buf, lines);		/* warm-up lap */
	for (r = 0; r < reps; r++) {
		double t0 = bench_now();

		p = chase(p, loads);
		t[r] = (bench_now() - t0) * 1e9 / (double)loads;
	}
	sink = p;
	qsort(t, (size_t)reps, sizeof(*t), cmp);
	*ns = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
	free(t);
	munmap(buf, lines * LINE);
	return 0;
}

int main(int argc, char **argv)
{
	int huge = 0, reps = 3, cpu = 0, i;
	cpu_set_t set;
	double ns;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--hugepages"))
			huge = 1;
		else if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
			cpu = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else
			break;
	}
	if (i == argc || reps < 1) {
		fprintf(stderr, "usage: bench-chase [--hugepages] [--cpu N] [--reps N] SIZE...\n");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("bench-chase: sched_setaffinity");
		return 1;
	}
	for (; i < argc; i++) {
		size_t bytes = parse_size(argv[i]);

		if (measure(bytes, huge, reps, &ns))
			return 1;
		printf("{\"size_bytes\":%zu,\"ns_per_load\":%.3f}\n",
		       bytes / LINE * LINE, ns);
	}
	return 0;
}
