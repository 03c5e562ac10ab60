// SPDX-License-Identifier: GPL-2.0
/*
 * calib_plan.c - the sockets and caches calibrate measures, the points it
 * measures them at, and the statistics that turn repeats into curves.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/cache.h"
#include "calib_plan.h"

/* ---- the plan ---- */

/* From nearly idle to flat out, as MLC's table goes; fewer for --quick. */
static const unsigned long delays_full[] = {
	20000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 0
};
static const unsigned long delays_quick[] = { 20000, 1000, 200, 50, 0 };

/*
 * Only for ordering points of different thread counts by the load they
 * offer, threads / (delay + CALIB_ITER_NOPS): about what one iteration's
 * four misses cost in NOPs. Wrong by a factor of two, it still orders
 * each thread count's delays right and interleaves the counts sensibly.
 */
#define CALIB_ITER_NOPS 200.0
/* never under 1 MiB a thread: a sweep that short is all loop overhead */
#define CALIB_GEN_MIN (1ULL << 20)
/*
 * What a part loses to page rounding and the quarters' staggers
 * (kern_rd_slice_view()): added per generator so that the bytes swept,
 * not only the pool, reach CALIB_LLC_TIMES the cache.
 */
#define CALIB_PART_SLACK (64ULL << 10)
/*
 * The chase's segments: 512 loads each (timed well above the clock's
 * resolution, short enough that a preemption spoils few), 1024 of them a
 * point (256 for --quick).
 */
#define CALIB_SEG 512
#define CALIB_SEGS 1024
#define CALIB_SEGS_QUICK 256

static double offered(const struct calib_point *pt)
{
	return pt->threads / ((double)pt->delay + CALIB_ITER_NOPS);
}

static int cmp_point(const void *a, const void *b)
{
	double x = offered(a), y = offered(b);

	return x < y ? -1 : x > y;
}

/*
 * The pool that gives the first @k generators of @so (cpu[1..k]) at
 * least CALIB_LLC_TIMES each cache instance they share: the threads on
 * instance j sweep m_j / k of the pool, so it needs L_j * k / m_j times
 * that; and CALIB_LLC_TIMES the whole socket's cache in any case.
 */
static uint64_t pool_need(const struct calib_socket *so, unsigned int k)
{
	uint64_t need = CALIB_LLC_TIMES * so->llc_bytes, n;
	unsigned int *m = calloc(so->nr_llc ? so->nr_llc : 1, sizeof(*m));
	size_t i, j;

	if (!m)
		return need;
	for (i = 1; i <= k && i < so->nr_cpu; i++)
		m[so->llc_of[i]]++;
	for (j = 0; j < so->nr_llc; j++) {
		if (!m[j])
			continue;
		n = CALIB_LLC_TIMES * so->llc_size[j] * k / m[j];
		if (n > need)
			need = n;
	}
	free(m);
	return need;
}

/*
 * "Half" of the generators: the count near half whose threads spread
 * most evenly over the cache instances (the least pool_need()), so that
 * on CCX parts the point does not leave one thread alone on a cache and
 * need a pool of many times the socket's cache for it.
 */
static unsigned int plan_half(const struct calib_socket *so, unsigned int gen)
{
	unsigned int k, best = (gen + 1) / 2;
	uint64_t need, least = pool_need(so, best);

	for (k = gen / 3 ? gen / 3 : 1; k <= 2 * gen / 3; k++) {
		need = pool_need(so, k);
		if (need < least ||
		    (need == least && abs((int)k - (int)(gen + 1) / 2) <
				      abs((int)best - (int)(gen + 1) / 2))) {
			least = need;
			best = k;
		}
	}
	return best;
}

/* Thread counts: one and all generators, and (without --quick) half. */
static unsigned int plan_threads(const struct calib_opts *o,
				 const struct calib_socket *so,
				 unsigned int gen, unsigned int *th)
{
	unsigned int nth = 0;

	if (gen > 1)
		th[nth++] = 1;
	if (!o->quick && gen > 3)
		th[nth++] = plan_half(so, gen);
	th[nth++] = gen;
	return nth;
}

static void plan_pool(struct calib_plan *p, const struct calib_socket *so,
		      const unsigned int *th, unsigned int nth)
{
	uint64_t pool = 0, n;
	unsigned int i;

	p->llc_bytes = so->llc_bytes;
	if (!so->nr_llc) {
		/* one cache of the assumed size shared by the socket */
		p->llc_assumed = true;
		p->llc_bytes = CALIB_LLC_PER_CPU * so->nr_cpu;
	}
	for (i = 0; i < nth; i++) {
		n = so->nr_llc ? pool_need(so, th[i]) :
		    CALIB_LLC_TIMES * p->llc_bytes;
		if (n > pool)
			pool = n;
	}
	if (pool < CALIB_GEN_MIN * p->gen)
		pool = CALIB_GEN_MIN * p->gen;
	pool += CALIB_PART_SLACK * p->gen;
	/* whole 2 MiB blocks: what THP would map, were it asked */
	p->pool_bytes = (pool + (2ULL << 20) - 1) & ~((2ULL << 20) - 1);
}

int calib_plan_make(struct calib_plan *p, const struct calib_opts *o,
		    const struct calib_socket *so)
{
	const unsigned long *dl = o->quick ? delays_quick : delays_full;
	size_t nd = o->quick ? sizeof(delays_quick) / sizeof(*dl) :
			       sizeof(delays_full) / sizeof(*dl);
	unsigned int gen = (unsigned int)so->nr_cpu - 1, th[3], nth, i, m;
	size_t j, k, per_mix, n = 1;

	memset(p, 0, sizeof(*p));
	nth = plan_threads(o, so, gen, th);
	per_mix = nth * nd;
	p->pt = calloc(1 + KERN_NR_MIXES * per_mix, sizeof(*p->pt));
	if (!p->pt)
		return -1;
	for (m = 0; m < KERN_NR_MIXES; m++) {
		if (!(o->mixes & (1u << m)))
			continue;
		for (i = 0, k = n; i < nth; i++)
			for (j = 0; j < nd; j++, n++) {
				p->pt[n].threads = th[i];
				p->pt[n].delay = dl[j];
				p->pt[n].mix = (enum kern_mix)m;
			}
		qsort(p->pt + k, per_mix, sizeof(*p->pt), cmp_point);
	}
	p->npt = (unsigned int)n;
	p->reps = o->reps;
	p->seg = CALIB_SEG;
	p->segs = o->quick ? CALIB_SEGS_QUICK : CALIB_SEGS;
	p->chase_bytes = CALIB_CHASE_BYTES;
	p->gen = gen;
	plan_pool(p, so, th, nth);
	return 0;
}

int calib_plan_delays(struct calib_plan *p, const struct calib_socket *so,
		      const unsigned long *delay, unsigned int ndelay,
		      unsigned int per_delay, enum kern_mix mix)
{
	unsigned int gen = (unsigned int)so->nr_cpu - 1, d, r, n = 0;

	memset(p, 0, sizeof(*p));
	if (so->nr_cpu < 2 || !ndelay || !per_delay)
		return -1;
	p->pt = calloc((size_t)ndelay * per_delay, sizeof(*p->pt));
	if (!p->pt)
		return -1;
	for (d = 0; d < ndelay; d++)
		for (r = 0; r < per_delay; r++, n++) {
			p->pt[n].threads = gen;
			p->pt[n].delay = delay[d];
			p->pt[n].mix = mix;
		}
	p->npt = n;
	p->reps = 1;
	p->seg = CALIB_SEG;
	p->segs = CALIB_SEGS;
	p->chase_bytes = CALIB_CHASE_BYTES;
	p->gen = gen;
	plan_pool(p, so, &gen, 1);
	return 0;
}

int calib_plan_fits(const struct calib_plan *p, uint64_t budget,
		    const char *budget_from, char *why, size_t size)
{
	uint64_t need = p->pool_bytes + p->chase_bytes;

	if (need <= budget)
		return 0;
	snprintf(why, size,
		 "the traffic needs %llu MiB (%u x the socket's %llu MiB of last-level cache%s, so that no point is served from the cache) and the chase %llu MiB, but %s allows %llu MiB: free memory, or raise --max-memory; a smaller buffer would measure the cache, not DRAM",
		 (unsigned long long)(p->pool_bytes >> 20), CALIB_LLC_TIMES,
		 (unsigned long long)(p->llc_bytes >> 20),
		 p->llc_assumed ? ", assumed" : "",
		 (unsigned long long)(p->chase_bytes >> 20), budget_from,
		 (unsigned long long)(budget >> 20));
	return -1;
}

size_t calib_plan_swept(const struct calib_plan *p, unsigned int i)
{
	return i < p->npt && p->pt[i].threads ?
	       calib_pool_swept(p->pool_bytes, p->pt[i].threads) : 0;
}

double calib_plan_llc_ratio(const struct calib_plan *p,
			    const struct calib_socket *so)
{
	double worst = INFINITY, r, swept;
	unsigned int i, k, *m;
	size_t c, j;

	if (!so->nr_llc)
		return p->llc_bytes ? (double)calib_plan_swept(p, 1) /
				      (double)p->llc_bytes : 0;
	m = calloc(so->nr_llc, sizeof(*m));
	if (!m)
		return 0;
	for (i = 1; i < p->npt; i++) {
		k = p->pt[i].threads;
		swept = (double)calib_plan_swept(p, i);
		worst = fmin(worst, swept / (double)so->llc_bytes);
		memset(m, 0, so->nr_llc * sizeof(*m));
		for (c = 1; c <= k && c < so->nr_cpu; c++)
			m[so->llc_of[c]]++;
		for (j = 0; j < so->nr_llc; j++) {
			if (!m[j])
				continue;
			r = swept * m[j] / k / (double)so->llc_size[j];
			worst = fmin(worst, r);
		}
	}
	free(m);
	return isfinite(worst) ? worst : 0;
}

void calib_plan_free(struct calib_plan *p)
{
	free(p->pt);
	p->pt = NULL;
}

double calib_point_sec(const struct calib_plan *p, double load_sec)
{
	return (double)p->seg * (double)p->segs * load_sec;
}

/* ---- statistics ---- */

static double median_of(double *v, size_t n)
{
	struct kern_stats s;

	kern_stats(v, n, &s);
	return s.median;
}

/*
 * Mark the values of @v more than 3 scaled MADs and more than
 * CALIB_OUTLIER_REL of the median away from the median. The relative
 * floor keeps three repeats that agree within a few percent from losing
 * one to a MAD that is tiny by chance.
 */
#define CALIB_OUTLIER_REL 0.05
static void mark_outliers(const double *v, size_t n, bool *drop)
{
	double med, lim, dev[CALIB_MAX_REPEATS], cp[CALIB_MAX_REPEATS];
	size_t i;

	memcpy(cp, v, n * sizeof(*v));
	med = median_of(cp, n);
	for (i = 0; i < n; i++)
		dev[i] = fabs(v[i] - med);
	lim = fmax(3 * 1.4826 * median_of(dev, n),
		   CALIB_OUTLIER_REL * fabs(med));
	for (i = 0; i < n; i++)
		if (dev[i] > lim)
			drop[i] = true;
}

void calib_summarize(const struct calib_sample *s, size_t n, size_t stride,
		     struct calib_summary *out)
{
	double ns[CALIB_MAX_REPEATS], bw[CALIB_MAX_REPEATS];
	double p90[CALIB_MAX_REPEATS], p99[CALIB_MAX_REPEATS], wr = 0, all = 0;
	bool drop[CALIB_MAX_REPEATS] = { false };
	struct kern_stats st;
	size_t i, k = 0;
	const struct calib_sample *x;

	memset(out, 0, sizeof(*out));
	if (n > CALIB_MAX_REPEATS)
		n = CALIB_MAX_REPEATS;
	for (i = 0; i < n; i++) {
		x = &s[i * stride];
		ns[i] = x->ns;
		p90[i] = x->p90;
		p99[i] = x->p99;
		bw[i] = x->sec > 0 ? (double)(x->gen.read + x->gen.write +
					      x->chase_bytes) / x->sec / 1e9 : 0;
	}
	if (n >= 3) {
		mark_outliers(ns, n, drop);
		mark_outliers(bw, n, drop);
	}
	for (i = 0; i < n; i++) {
		if (drop[i])
			continue;
		x = &s[i * stride];
		ns[k] = ns[i];
		p90[k] = p90[i];
		p99[k] = p99[i];
		bw[k] = bw[i];
		wr += (double)x->gen.write;
		all += (double)(x->gen.read + x->gen.write + x->chase_bytes);
		k++;
	}
	if (!k)
		return;
	kern_stats(ns, k, &st);
	out->latency_ns = st.median;
	out->cov = st.cov;
	out->latency_p90_ns = median_of(p90, k);
	out->latency_p99_ns = median_of(p99, k);
	kern_stats(bw, k, &st);
	out->bandwidth_gbps = st.median;
	/* the byte-weighted shares of the kept repeats; no write: exactly 0 */
	out->write_gbps = all > 0 ? st.median * (wr / all) : 0;
	out->read_gbps = all > 0 ? st.median * ((all - wr) / all) : 0;
	out->repeats = (unsigned int)k;
}

int calib_curve(const struct calib_plan *p, const struct calib_summary *sum,
		enum kern_mix mix, enum curve_pf pf, struct curve_mix *out)
{
	struct curve_point *pt;
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	for (i = 1; i < p->npt; i++)
		n += p->pt[i].mix == mix;
	if (n < 2)
		return -1;
	pt = calloc(n, sizeof(*pt));
	if (!pt)
		return -1;
	out->points = pt;
	out->read_fraction = kern_mix_read_share(mix);
	out->prefetch = pf;
	for (i = 1; i < p->npt; i++) {
		if (p->pt[i].mix != mix)
			continue;
		pt->threads = p->pt[i].threads;
		pt->delay = p->pt[i].delay;
		pt->bandwidth_gbps = sum[i].bandwidth_gbps;
		pt->read_gbps = sum[i].read_gbps;
		pt->write_gbps = sum[i].write_gbps;
		pt->latency_ns = sum[i].latency_ns;
		pt->latency_p50_ns = sum[i].latency_ns;
		pt->latency_p90_ns = sum[i].latency_p90_ns;
		pt->latency_p99_ns = sum[i].latency_p99_ns;
		pt->cov = sum[i].cov;
		pt->repeats = sum[i].repeats;
		if (pt->bandwidth_gbps >
		    out->points[out->peak_index].bandwidth_gbps)
			out->peak_index = (size_t)(pt - out->points);
		pt++;
	}
	out->nr_points = n;
	return 0;
}
