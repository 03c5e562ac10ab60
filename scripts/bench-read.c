// SPDX-License-Identifier: GPL-2.0
/*
 * bench-read.c - a plain DRAM read loop, the like-for-like peer of
 * memdiag's read-delay and calibrate generators in "make bench" and
 * "make scale-check". Written apart from kernels/read_delay.c, so that the
 * two agree only if both count the bytes memory really moved.
 *
 * Why not only likwid-bench: its load and clload kernels walk one address
 * stream per thread, and one stream's misses are not enough to keep a
 * core's DRAM pipe full on every processor (a 2-vCPU Zen 3: 12 GB/s with
 * one stream, 18 with four, from the same thread). memdiag's generators
 * walk four streams; this walks --streams of them, so the comparison can
 * be made at the same stream count, and the curve over 1, 2, 4, 8 shows
 * how much the count alone is worth on a machine.
 *
 * Each thread first-touches its own buffer of SIZE / THREADS bytes, cut
 * into S equal parts that start a 4 KiB page and a 64-byte line apart (so
 * that the S streams do not fall on the same cache sets in lockstep), and
 * loads the first 8 bytes of every 64-byte line, one line from each part
 * in turn. GB/s counts 64 bytes per line swept, in 10^9 B/s. The sum of
 * what was loaded is checked against the values written, so a line
 * skipped is an error (exit 1).
 *
 * How long, and whose time. By default (fixed work, as likwid-bench and
 * memdiag's harness count) every thread sweeps its buffer the same number
 * of times, enough for about --seconds at the slowest thread's pace in
 * untimed sweeps over a twentieth of --seconds (after one that lets the
 * caches and TLB settle), between a common start and the last thread's end:
 * a thread that the host slows holds the total back, as it does in the
 * tools this one checks. With --fixed-time each thread sweeps until its
 * own --seconds have passed and all threads' bytes are divided by the
 * longest thread's time: a faster thread's extra sweeps count, so on a
 * host whose vCPUs run at unequal speeds it reads higher than any
 * fixed-work tool on the same memory. Both are kept so that the bench can
 * show how much that difference is worth on a machine.
 *
 * usage: bench-read [--streams S] [--seconds T] [--fixed-time]
 *                   [--cpus A,B,...] SIZE
 * (SIZE in bytes, or with K, M or G; one thread per CPU listed, default
 * the first CPU this process may run on). Prints one JSON object.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-peer.h"

#define LINE 64
#define WORDS (LINE / sizeof(uint64_t))
#define GAP_LINES ((4096 + LINE) / LINE)
#define MAX_STREAMS 16
#define MAX_THREADS 1024

struct reader {
	pthread_t tid;
	int cpu;
	unsigned int streams;
	size_t lines;		/* per stream */
	double seconds;
	int fixed_time;		/* sweep for --seconds, not a common count */
	pthread_barrier_t *start;
	double *first;		/* every thread's seconds per untimed sweep */
	unsigned int index, nthreads;
	double t0;		/* when its timed sweeps began */
	uint64_t *buf;
	uint64_t swept;		/* lines loaded, all sweeps */
	double elapsed;
	int bad;		/* a sweep's sum was wrong */
	char err[96];
};

/* the first word of line @i of stream @s */
static uint64_t *word(const struct reader *r, unsigned int s, size_t i)
{
	return r->buf + ((size_t)s * (r->lines + GAP_LINES) + i) * WORDS;
}

/* one sweep: every line of every stream, the streams in turn */
static uint64_t sweep(const struct reader *r)
{
	uint64_t sum = 0;
	size_t i;
	unsigned int s;

	for (i = 0; i < r->lines; i++)
		for (s = 0; s < r->streams; s++)
			sum += *(volatile uint64_t *)word(r, s, i);
	return sum;
}

/* one timed sweep: its lines counted, its sum checked */
static void timed_sweep(struct reader *r, uint64_t want)
{
	if (sweep(r) != want)
		r->bad = 1;
	r->swept += (uint64_t)r->lines * r->streams;
}

/*
 * Fixed work: the sweeps every thread makes, the same for all: about
 * --seconds at the pace of the slowest untimed sweep (each thread reads
 * the same array after the same barrier, so all agree), at least one.
 */
static uint64_t sweeps_for(const struct reader *r)
{
	double slowest = 0;
	uint64_t n;
	unsigned int t;

	for (t = 0; t < r->nthreads; t++)
		if (r->first[t] > slowest)
			slowest = r->first[t];
	if (slowest <= 0 || r->seconds <= slowest)
		return 1;
	n = (uint64_t)(r->seconds / slowest);
	return (double)n * slowest < r->seconds ? n + 1 : n;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	size_t total = (size_t)r->streams * (r->lines + GAP_LINES) * WORDS;
	uint64_t want = 0, v = 1;
	cpu_set_t set;
	double t0;
	size_t i;
	unsigned int s;
	uint64_t n;

	CPU_ZERO(&set);
	CPU_SET(r->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		snprintf(r->err, sizeof(r->err), "cannot run on CPU %d", r->cpu);
	r->buf = aligned_alloc(4096, total * sizeof(uint64_t));
	if (!r->buf && !r->err[0])
		snprintf(r->err, sizeof(r->err), "out of memory");
	if (!r->err[0]) {
		memset(r->buf, 0, total * sizeof(uint64_t));
		for (s = 0; s < r->streams; s++)
			for (i = 0; i < r->lines; i++, v++) {
				*word(r, s, i) = v;
				want += v;
			}
	}
	pthread_barrier_wait(r->start);
	if (!r->err[0]) {
		sweep(r);	/* untimed: the caches and TLB settle */
		/* untimed: the pace, over a twentieth of --seconds */
		n = 0;
		t0 = bench_now();
		do {
			sweep(r);
			n++;
		} while (bench_now() - t0 < r->seconds / 20);
		r->first[r->index] = (bench_now() - t0) / (double)n;
	}
	/* every thread passes both barriers, a failed one too */
	pthread_barrier_wait(r->start);
	if (r->err[0])
		return NULL;
	if (r->fixed_time) {
		t0 = bench_now();
		do {
			timed_sweep(r, want);
			r->elapsed = bench_now() - t0;
		} while (r->elapsed < r->seconds);
		r->t0 = t0;
		return NULL;
	}
	n = sweeps_for(r);
	r->t0 = bench_now();
	while (n--)
		timed_sweep(r, want);
	r->elapsed = bench_now() - r->t0;
	return NULL;
}

static int parse_cpus(const char *s, int *cpu, int max)
{
	int n = 0;
	char *end;

	while (*s && n < max) {
		long c = strtol(s, &end, 10);

		if (end == s || c < 0 || (*end && *end != ','))
			return -1;
		cpu[n++] = (int)c;
		s = *end ? end + 1 : end;
	}
	return *s ? -1 : n;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-read [--streams S] [--seconds T] [--fixed-time] [--cpus A,B,...] SIZE\n");
	return 2;
}

int main(int argc, char **argv)
{
	static int cpu[MAX_THREADS];
	static struct reader rd[MAX_THREADS];
	unsigned int streams = 4;
	static double first[MAX_THREADS];
	double seconds = 1.0, longest = 0, bytes = 0, begin = 0, end = 0;
	int n = 0, a, t, bad = 0, fixed_time = 0;
	size_t size = 0, per;
	pthread_barrier_t start;
	cpu_set_t mine;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--streams") && a + 1 < argc)
			streams = (unsigned int)atoi(argv[++a]);
		else if (!strcmp(argv[a], "--seconds") && a + 1 < argc)
			seconds = atof(argv[++a]);
		else if (!strcmp(argv[a], "--fixed-time"))
			fixed_time = 1;
		else if (!strcmp(argv[a], "--cpus") && a + 1 < argc)
			n = parse_cpus(argv[++a], cpu, MAX_THREADS);
		else if (!size && argv[a][0] != '-')
			bench_size(argv[a], &size);	/* size 0: usage */
		else
			return usage();
	}
	if (!size || n < 0 || !streams || streams > MAX_STREAMS ||
	    seconds <= 0)
		return usage();
	if (!n) {
		if (sched_getaffinity(0, sizeof(mine), &mine))
			return usage();
		for (t = 0; t < CPU_SETSIZE && !CPU_ISSET(t, &mine); t++)
			;
		cpu[n++] = t;
	}
	per = size / (size_t)n / LINE / streams;
	if (!per) {
		fprintf(stderr, "bench-read: %zu bytes is too small for %d threads of %u streams\n",
			size, n, streams);
		return 2;
	}
	pthread_barrier_init(&start, NULL, (unsigned int)n);
	for (t = 0; t < n; t++) {
		rd[t] = (struct reader){ .cpu = cpu[t], .streams = streams,
			.lines = per, .seconds = seconds, .start = &start,
			.fixed_time = fixed_time, .first = first,
			.index = (unsigned int)t, .nthreads = (unsigned int)n };
		if (pthread_create(&rd[t].tid, NULL, reader_main, &rd[t])) {
			fprintf(stderr, "bench-read: cannot start thread %d\n", t);
			return 1;
		}
	}
	for (t = 0; t < n; t++) {
		pthread_join(rd[t].tid, NULL);
		if (rd[t].err[0]) {
			fprintf(stderr, "bench-read: thread %d: %s\n", t, rd[t].err);
			return 1;
		}
		bad |= rd[t].bad;
		bytes += (double)rd[t].swept * LINE;
		if (rd[t].elapsed > longest)
			longest = rd[t].elapsed;
		if (!t || rd[t].t0 < begin)
			begin = rd[t].t0;
		if (rd[t].t0 + rd[t].elapsed > end)
			end = rd[t].t0 + rd[t].elapsed;
		free(rd[t].buf);
	}
	/* fixed work: from the first start to the last end */
	if (!fixed_time)
		longest = end - begin;
	printf("{\"threads\": %d, \"streams\": %u, \"size_bytes\": %zu, \"counting\": \"%s\", \"sweeps\": %llu, \"seconds\": %.6f, \"gbps\": %.4f, \"verified\": %s}\n",
	       n, streams, per * LINE * streams * (size_t)n,
	       fixed_time ? "fixed_time" : "fixed_work",
	       (unsigned long long)(rd[0].swept / ((uint64_t)per * streams)),
	       longest, bytes / longest / 1e9, bad ? "false" : "true");
	if (bad) {
		fprintf(stderr, "bench-read: a sweep's sum differed from the values written: a line was skipped\n");
		return 1;
	}
	return 0;
}
