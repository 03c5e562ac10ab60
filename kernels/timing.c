// SPDX-License-Identifier: GPL-2.0
/*
 * timing.c - the bottom of the harness: the clocks (kern_now(),
 * kern_thread_cpu_sec()) and the summary of repeated values
 * (kern_stats(), kern_map_stats()), which barrier.c, repeat.c and
 * harness.c all use and which use none of them.
 */

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"

double kern_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double kern_thread_cpu_sec(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void kern_stats(const double *v, size_t n, struct kern_stats *s)
{
	double *t = malloc(n * sizeof(*t));
	double sum = 0, sq = 0, mean;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += v[i];
	mean = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	/* sample standard deviation; one value has none */
	s->cov = n > 1 && mean != 0 ? sqrt(sq / (double)(n - 1)) / mean : 0;
	if (!t) {	/* no sorting without memory: still min and max */
		s->min = s->max = s->median = v[0];
		for (i = 1; i < n; i++) {
			s->min = fmin(s->min, v[i]);
			s->max = fmax(s->max, v[i]);
		}
		s->median = mean;
		return;
	}
	memcpy(t, v, n * sizeof(*t));
	qsort(t, n, sizeof(*t), cmp_double);
	s->min = t[0];
	s->max = t[n - 1];
	s->median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	free(t);
}

void kern_map_stats(const double *v, size_t n, size_t stride, double k,
		    bool inverse, struct kern_stats *s)
{
	double *m = malloc((n ? n : 1) * sizeof(*m));
	size_t i;

	if (!m) {	/* no memory for the values: none to summarize */
		memset(s, 0, sizeof(*s));
		s->median = NAN;
		s->min = NAN;
		s->max = NAN;
		return;
	}
	for (i = 0; i < n; i++)
		m[i] = inverse ? k / v[i * stride] : k * v[i * stride];
	kern_stats(m, n, s);
	free(m);
}
