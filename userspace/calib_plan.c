// SPDX-License-Identifier: GPL-2.0
/*
 * calib_plan.c - the sockets and caches calibrate measures, the points it
 * measures them at, and the statistics that turn repeats into curves.
 */

#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/cache.h"
#include "calib_plan.h"

/* ---- sysfs ---- */

static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	char *nl;

	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	return 0;
}

static bool cpu_online(const char *sysfs, uint32_t cpu)
{
	char path[256], buf[16];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/online",
		 sysfs, cpu);
	/* no file: a CPU that cannot go offline (cpu0) */
	return read_line(path, buf, sizeof(buf)) || buf[0] == '1';
}

static int add_cpu(struct calib_socket **s, size_t *n, uint32_t pkg,
		   uint32_t cpu)
{
	struct calib_socket *t;
	uint32_t *c;
	size_t i;

	for (i = 0; i < *n && (*s)[i].id != pkg; i++)
		;
	if (i == *n) {
		t = realloc(*s, (*n + 1) * sizeof(**s));
		if (!t)
			return -1;
		*s = t;
		memset(&t[i], 0, sizeof(t[i]));
		t[i].id = pkg;
		(*n)++;
	}
	c = realloc((*s)[i].cpu, ((*s)[i].nr_cpu + 1) * sizeof(*c));
	if (!c)
		return -1;
	c[(*s)[i].nr_cpu++] = cpu;
	(*s)[i].cpu = c;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_socket(const void *a, const void *b)
{
	return cmp_u32(&((const struct calib_socket *)a)->id,
		       &((const struct calib_socket *)b)->id);
}

size_t calib_sockets(const char *sysfs, struct calib_socket **out)
{
	bool real = !strcmp(sysfs, "/sys");
	struct calib_socket *s = NULL;
	char path[256], buf[32];
	struct dirent *e;
	cpu_set_t allowed;
	unsigned long cpu;
	size_t n = 0, i;
	char *end;
	DIR *d;

	*out = NULL;
	if (real && sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	snprintf(path, sizeof(path), "%s/devices/system/cpu", sysfs);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "cpu", 3))
			continue;
		cpu = strtoul(e->d_name + 3, &end, 10);
		if (end == e->d_name + 3 || *end || cpu >= CALIB_MAX_CPUS)
			continue;
		if ((real && !CPU_ISSET(cpu, &allowed)) ||
		    !cpu_online(sysfs, (uint32_t)cpu))
			continue;
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%lu/topology/physical_package_id",
			 sysfs, cpu);
		if (read_line(path, buf, sizeof(buf)))
			continue;
		if (add_cpu(&s, &n, (uint32_t)strtoul(buf, NULL, 10),
			    (uint32_t)cpu)) {
			closedir(d);
			calib_sockets_free(s, n);
			return 0;
		}
	}
	closedir(d);
	qsort(s, n, sizeof(*s), cmp_socket);
	snprintf(path, sizeof(path), "%s/devices/system/cpu", sysfs);
	for (i = 0; i < n; i++) {
		qsort(s[i].cpu, s[i].nr_cpu, sizeof(*s[i].cpu), cmp_u32);
		s[i].llc_bytes = kern_llc_bytes(path, s[i].cpu[0]);
	}
	*out = s;
	return n;
}

void calib_sockets_free(struct calib_socket *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(s[i].cpu);
	free(s);
}

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
/*
 * The generators' buffers together: three times the last-level cache,
 * so their sweeps evict before they revisit even with an adaptive
 * replacement policy. Where sysfs shows no cache, 256 MiB per thread
 * (more than any last-level cache per core so far), and never under
 * 1 MiB a thread (a sweep that short is all loop overhead).
 */
#define CALIB_LLC_TIMES 3
#define CALIB_GEN_UNKNOWN (256ULL << 20)
#define CALIB_GEN_MIN (1ULL << 20)

static double offered(const struct calib_point *pt)
{
	return pt->threads / ((double)pt->delay + CALIB_ITER_NOPS);
}

static int cmp_point(const void *a, const void *b)
{
	double x = offered(a), y = offered(b);

	return x < y ? -1 : x > y;
}

int calib_plan_make(struct calib_plan *p, const struct calib_opts *o,
		    size_t nr_cpu, uint64_t llc_bytes)
{
	const unsigned long *dl = o->quick ? delays_quick : delays_full;
	size_t nd = o->quick ? sizeof(delays_quick) / sizeof(*dl) :
			       sizeof(delays_full) / sizeof(*dl);
	unsigned int gen = (unsigned int)nr_cpu - 1, th[3], nth = 0, i, m;
	size_t j, k, per_mix, n = 1;
	uint64_t total;

	memset(p, 0, sizeof(*p));
	/* all generators; without --quick also one and half of them */
	if (!o->quick && gen > 2)
		th[nth++] = 1;
	if (!o->quick && gen > 3)
		th[nth++] = (gen + 1) / 2;
	th[nth++] = gen;
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
	p->seg = 512;
	p->segs = o->quick ? 256 : 1024;
	p->chase_bytes = CALIB_CHASE_BYTES;
	total = llc_bytes * CALIB_LLC_TIMES;
	p->gen_bytes = !llc_bytes ? CALIB_GEN_UNKNOWN : gen ? total / gen : 0;
	if (p->gen_bytes < CALIB_GEN_MIN)
		p->gen_bytes = CALIB_GEN_MIN;
	p->gen_bytes = p->gen_bytes / (4 * KERN_LINE) * (4 * KERN_LINE);
	return 0;
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
	double med, lim, dev[64], cp[64];
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
	double ns[64], bw[64], wr = 0, all = 0;
	bool drop[64] = { false };
	struct kern_stats st;
	size_t i, k = 0;
	const struct calib_sample *x;

	memset(out, 0, sizeof(*out));
	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++) {
		x = &s[i * stride];
		ns[i] = x->ns;
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
