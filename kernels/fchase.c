// SPDX-License-Identifier: GPL-2.0
/*
 * fchase.c - a pointer chase whose every load goes to DRAM, however large
 * the caches are: before each segment, the lines the segment will visit
 * are flushed from the whole cache hierarchy. A plain chase only reaches
 * DRAM when its buffer dwarfs the last-level cache, which in a VM can be
 * reported as hundreds of MiB and is shared with unknown neighbours; the
 * flush makes the latency independent of that, and lets "probe" chase a
 * small buffer every second instead of holding gigabytes.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_CLFLUSH 1
#else
#define HAVE_CLFLUSH 0
#endif

#include "calib.h"

static void *volatile fc_sink;

/* splitmix64: a seed in, a well-mixed stream out */
static uint64_t fc_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int kern_fchase_init(struct kern_fchase *c, size_t bytes, size_t seg,
		     bool hugepages, uint64_t seed)
{
	struct kern_line *l;
	size_t n = bytes / KERN_LINE, i, j;
	uint32_t t;

	memset(c, 0, sizeof(*c));
	seg = seg / 8 * 8;
	if (!seg || n < 2 * seg || n > UINT32_MAX)
		return -1;
	c->order = malloc(n * sizeof(*c->order));
	l = kern_alloc(n * KERN_LINE, hugepages);
	if (!c->order || !l) {
		free(c->order);
		kern_free(l, n * KERN_LINE);
		c->order = NULL;
		return -1;
	}
	/*
	 * A random permutation (Fisher-Yates), chased in its own order and
	 * closed at the end: one cycle through every line.
	 */
	for (i = 0; i < n; i++)
		c->order[i] = (uint32_t)i;
	for (i = n - 1; i > 0; i--) {
		j = (size_t)(fc_rand(&seed) % (i + 1));
		t = c->order[i];
		c->order[i] = c->order[j];
		c->order[j] = t;
	}
	for (i = 0; i < n; i++)
		l[c->order[i]].next = &l[c->order[(i + 1) % n]];
	c->lines = l;
	c->n = n;
	c->seg = seg;
	c->hugepages = hugepages;
	return 0;
}

/* Evict the next segment's lines everywhere, and wait until they are. */
static void fc_flush(const struct kern_fchase *c)
{
#if HAVE_CLFLUSH
	const struct kern_line *l = c->lines;
	size_t i, k = c->pos;

	for (i = 0; i < c->seg; i++) {
		_mm_clflush(&l[c->order[k]]);
		k = k + 1 == c->n ? 0 : k + 1;
	}
	_mm_mfence();
#else
	(void)c;
#endif
}

double kern_fchase_run(struct kern_fchase *c, unsigned int segs,
		       const volatile sig_atomic_t *stop, unsigned int *done,
		       double *seg_ns, double *flush_sec)
{
	struct kern_line *l = c->lines, *p;
	double sec = 0, t0, t1, t2;
	unsigned int k;

	for (k = 0; k < segs && !(stop && *stop); k++) {
		t0 = kern_now();
		fc_flush(c);
		t1 = kern_now();
		p = kern_chase_lines(&l[c->order[c->pos]], c->seg);
		t2 = kern_now();
		fc_sink = p;
		sec += t2 - t1;
		if (seg_ns)
			seg_ns[k] = (t2 - t1) * 1e9 / (double)c->seg;
		if (flush_sec)
			*flush_sec += t1 - t0;
		c->pos = (c->pos + c->seg) % c->n;
	}
	if (done)
		*done = k;
	return sec;
}

void kern_fchase_free(struct kern_fchase *c)
{
	if (c->lines)
		kern_free(c->lines, c->n * KERN_LINE);
	free(c->order);
	memset(c, 0, sizeof(*c));
}

double kern_fchase_load_sec(void)
{
	double seg_ns[16], flush = 0;
	struct kern_fchase c;
	struct kern_pct pct;

	if (kern_fchase_init(&c, 8u << 20, 512, true, 1))
		return 300e-9;
	kern_fchase_run(&c, 16, NULL, NULL, seg_ns, &flush);
	kern_fchase_free(&c);
	/* the median segment: a busy machine's preemptions are not the cost */
	kern_percentiles(seg_ns, 16, &pct);
	return pct.p50 * 1e-9 + flush / (16.0 * 512);
}

static int fc_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Rank ceil(@pct / 100 * @n), 1-based, of @n sorted values: its value. */
static double fc_rank(const double *sorted, size_t n, unsigned int pct)
{
	size_t r = ((size_t)pct * n + 99) / 100;

	return sorted[r ? r - 1 : 0];
}

void kern_percentiles(const double *v, size_t n, struct kern_pct *out)
{
	double *t;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	t = malloc(n * sizeof(*t));
	if (!t) {
		/* no copy to sort: unknown, never a guess */
		out->p50 = out->p90 = out->p99 = NAN;
		return;
	}
	memcpy(t, v, n * sizeof(*t));
	qsort(t, n, sizeof(*t), fc_cmp);
	out->p50 = fc_rank(t, n, 50);
	out->p90 = fc_rank(t, n, 90);
	out->p99 = fc_rank(t, n, 99);
	free(t);
}
