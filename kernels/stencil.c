// SPDX-License-Identifier: GPL-2.0
/*
 * stencil.c - the 3D 7-point Jacobi and lexicographic Gauss-Seidel
 * smoothers of Wellein, Hager et al. ("Efficient multicore-aware
 * parallelization strategies for iterative stencil computations"), with
 * their threaded baselines and their wavefront temporal blocking.
 *
 * The grid has n^3 doubles, the outer planes, rows and columns a fixed
 * boundary; an update of an interior site is
 *
 *	u' = 1/4 u + 1/8 (sum of the six neighbours)
 *
 * (weighted Jacobi with omega 3/4, and the same weights in place for
 * Gauss-Seidel), a convex combination, so values stay where they start
 * and never turn denormal. Planes run along z, rows along y.
 *
 * Jacobi, threaded: two grids, the planes split among the threads, a
 * barrier after each sweep. Gauss-Seidel, threaded: the paper's pipeline
 * (its Fig. 5a): the rows of each plane split into one block per thread,
 * thread t updating plane z at step z + t, so each block sees the new
 * values of the block before it and the old ones of the block after it,
 * exactly as the serial lexicographic sweep does.
 *
 * Wavefront (the paper's Sec. 4): the threads form groups (threads that
 * share a last-level cache); the rows are split into one block per group,
 * and within a group thread k does time step k of a pass over the grid,
 * two planes behind thread k - 1, so the planes it reads are still in the
 * shared cache: a pass does as many sweeps as the group has threads and
 * reads and writes memory once. Every thread waits at a barrier (spin or
 * tree) after each plane.
 *  - Jacobi writes the intermediate steps of a pass into small rings of
 *    four planes per step (the paper's temporary array) and the last step
 *    back into the grid itself: plane z is written at step z + 2(m - 1),
 *    after step 0 has read it for the last time (when it did plane z + 1
 *    at step z), m >= 2 being the steps of the pass. A pass of one step
 *    writes into the second grid instead.
 *  - Gauss-Seidel works in place: thread k of group g updates plane z at
 *    step z + 2k + g; the distance 2 between steps makes plane z + 1 of
 *    step k - 1 ready (written at step z + 2k - 1) and the distance 1
 *    between groups is the pipeline's (Fig. 5b). Every site then sees
 *    exactly the values the serial sweeps give it.
 * Both give results bitwise equal to the serial sweeps, which the kernel
 * checks: every update, here and in the reference, goes through the same
 * row functions with the same order of operations (and no contraction
 * into FMA, so any SIMD clone gives the same bits). Those are in
 * stencil_rows.c, the barriers in stencil_bar.c.
 */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stencil_int.h"

#define RING 4			/* planes per Jacobi ring: see jac_wave() */

const char *const stencil_method_name[STENCIL_NR_METHODS] = {
	"jacobi", "gs"
};
const char *const stencil_schedule_name[STENCIL_NR_SCHEDULES] = {
	"threaded", "wavefront"
};
const char *const stencil_barrier_name[STENCIL_NR_BARRIERS] = {
	"spin", "tree"
};

/* ---- the kernel ---- */

struct st_thread {
	double *tmp;		/* a row, for st_gs_rows() */
	unsigned int sense;	/* spin barrier */
	unsigned int episode;	/* tree barrier */
	int cur;		/* which grid holds the current sweep */
} __attribute__((aligned(KERN_LINE)));

struct st_ctx {
	const struct kern_cfg *cfg;
	const struct stencil_params *prm;
	size_t n;
	size_t grid_bytes, ring_bytes;
	double *grid[2];	/* Jacobi uses both, Gauss-Seidel grid[0] */
	double *ring;		/* wavefront Jacobi: (gsize - 1) rings */
	unsigned int gsize;	/* threads per group: sweeps per pass */
	unsigned int ngroups;	/* groups: blocks of rows */
	int final;		/* the grid with the result */
	struct st_bar bar;
	struct st_thread *t;
};

static void st_barrier(struct st_ctx *c, unsigned int tid)
{
	st_bar_wait(&c->bar, tid, &c->t[tid].sense, &c->t[tid].episode);
}

/* Part @i of @parts of the interior 1..n-2: [*lo, *hi). */
static void split(size_t n, unsigned int parts, unsigned int i, size_t *lo,
		  size_t *hi)
{
	*lo = 1 + (n - 2) * i / parts;
	*hi = 1 + (n - 2) * (i + 1) / parts;
}

/* Jacobi plane z's ring slot of step @k (k < gsize - 1). */
static double *ring_plane(const struct st_ctx *c, unsigned int k, size_t z)
{
	return c->ring + ((size_t)k * RING + z % RING) * c->n * c->n;
}

/* What step @k of a pass reads as plane @z. */
static const double *wave_in(const struct st_ctx *c, int cur, unsigned int k,
			     size_t z)
{
	if (!k || !z || z == c->n - 1)	/* the boundary never changes */
		return c->grid[cur] + z * c->n * c->n;
	return ring_plane(c, k - 1, z);
}

/*
 * Place and first-touch, from the thread that will update them, rows y0..
 * y1-1 of every plane of @g (init values) or of a ring (zeros).
 */
static void touch_rows(double *g, size_t n, size_t planes, size_t y0,
		       size_t y1, bool init)
{
	size_t z;

	for (z = 0; z < planes; z++) {
		double *p = g + z * n * n;

		kern_place(p + y0 * n, (y1 - y0) * n * sizeof(double));
		if (init)
			st_init_rows(g, n, z, y0, y1);
		else
			memset(p + y0 * n, 0, (y1 - y0) * n * sizeof(double));
	}
}

static int st_setup(void *vctx, unsigned int tid)
{
	struct st_ctx *c = vctx;
	const struct stencil_params *p = c->prm;
	struct st_thread *t = &c->t[tid];
	unsigned int P = c->cfg->nthreads, g, k, b, nb;
	size_t n = c->n, lo, hi, z;
	int i;

	t->tmp = calloc(n, sizeof(double));
	if (!t->tmp)
		return -1;
	if (p->method == STENCIL_JACOBI && p->schedule == STENCIL_THREADED) {
		/* planes: this thread's slab, the boundary with the end ones */
		split(n, P, tid, &lo, &hi);
		if (!tid)
			lo = 0;
		if (tid == P - 1)
			hi = n;
		for (i = 0; i < 2; i++) {
			kern_place(c->grid[i] + lo * n * n,
				   (hi - lo) * n * n * sizeof(double));
			for (z = lo; z < hi; z++)
				st_init_rows(c->grid[i], n, z, 0, n);
		}
		return 0;
	}
	/* blocks of rows: a thread's own, or its group's (thread 0 of it) */
	g = tid / c->gsize;
	k = tid % c->gsize;
	nb = c->ngroups;
	b = g;
	split(n, nb, b, &lo, &hi);
	if (!b)
		lo = 0;
	if (b == nb - 1)
		hi = n;
	if (!k) {
		touch_rows(c->grid[0], n, n, lo, hi, true);
		if (c->grid[1])
			touch_rows(c->grid[1], n, n, lo, hi, true);
	}
	if (c->ring && k + 1 < c->gsize)
		touch_rows(ring_plane(c, k, 0), n, RING, lo, hi, false);
	return 0;
}

/* Jacobi, threaded: each thread its slab of planes, two grids. */
static void jac_threaded(struct st_ctx *c, unsigned int tid)
{
	struct st_thread *t = &c->t[tid];
	const size_t pl = c->n * c->n;
	unsigned int s;
	size_t lo, hi, z;

	split(c->n, c->cfg->nthreads, tid, &lo, &hi);
	for (s = 0; s < c->prm->sweeps; s++) {
		const double *src = c->grid[t->cur];
		double *dst = c->grid[!t->cur];

		for (z = lo; z < hi; z++)
			st_jac_rows(dst + z * pl, src + (z - 1) * pl,
				    src + z * pl, src + (z + 1) * pl, c->n, 1,
				    c->n - 1);
		st_barrier(c, tid);
		t->cur = !t->cur;
	}
}

/*
 * Copy the boundary of rows y0..y1-1 of plane @z into a ring plane, and
 * the boundary rows when the block has them: the next step reads them.
 */
static void ring_edges(const struct st_ctx *c, double *out, size_t z,
		       size_t y0, size_t y1)
{
	const double *e = c->grid[0] + z * c->n * c->n;
	size_t n = c->n, y;

	for (y = y0; y < y1; y++) {
		out[y * n] = e[y * n];
		out[y * n + n - 1] = e[y * n + n - 1];
	}
	if (y0 == 1)
		memcpy(out, e, n * sizeof(double));
	if (y1 == n - 1)
		memcpy(out + (n - 1) * n, e + (n - 1) * n, n * sizeof(double));
}

/*
 * Jacobi, wavefront. Plane z of step k is done at step s = z - 1 + 2k of
 * the pass; it reads planes z - 1..z + 1 of step k - 1, the last of them
 * written at s - 1, and the ring slot of plane z - 1 is not reused (by
 * plane z + 3, at s + 1) before the next step: RING = 4 is enough.
 */
static void jac_wave(struct st_ctx *c, unsigned int tid)
{
	struct st_thread *t = &c->t[tid];
	const size_t n = c->n, pl = n * n;
	unsigned int k = tid % c->gsize, left = c->prm->sweeps, m;
	size_t lo, hi, s, steps, z;
	double *out;

	split(n, c->ngroups, tid / c->gsize, &lo, &hi);
	while (left) {
		m = left < c->gsize ? left : c->gsize;
		steps = n - 2 + 2 * (size_t)(m - 1);
		for (s = 0; s < steps; s++) {
			z = s + 1 - 2 * (size_t)k;	/* wraps when ahead */
			if (k < m && s >= 2 * (size_t)k && z <= n - 2) {
				/* the last step: in place, or the other grid */
				if (k + 1 < m)
					out = ring_plane(c, k, z);
				else if (m > 1)
					out = c->grid[t->cur] + z * pl;
				else
					out = c->grid[!t->cur] + z * pl;
				st_jac_rows(out, wave_in(c, t->cur, k, z - 1),
					    wave_in(c, t->cur, k, z),
					    wave_in(c, t->cur, k, z + 1), n,
					    lo, hi);
				if (k + 1 < m)
					ring_edges(c, out, z, lo, hi);
			}
			st_barrier(c, tid);
		}
		if (m == 1)
			t->cur = !t->cur;
		left -= m;
	}
}

/*
 * Gauss-Seidel, pipelined (threaded: groups of one thread each) and
 * wavefront: plane z of sweep k of the pass in block g at step
 * z - 1 + 2k + g.
 */
static void gs_wave(struct st_ctx *c, unsigned int tid)
{
	struct st_thread *t = &c->t[tid];
	const size_t n = c->n, pl = n * n;
	unsigned int k = tid % c->gsize, g = tid / c->gsize;
	unsigned int left = c->prm->sweeps, m;
	size_t lo, hi, s, steps, z, lag;

	split(n, c->ngroups, g, &lo, &hi);
	while (left) {
		m = left < c->gsize ? left : c->gsize;
		steps = n - 2 + 2 * (size_t)(m - 1) + c->ngroups - 1;
		lag = 2 * (size_t)k + g;
		for (s = 0; s < steps; s++) {
			z = s + 1 - lag;
			if (k < m && s + 1 > lag && z <= n - 2)
				st_gs_rows(c->grid[0] + z * pl, n, lo, hi,
					   t->tmp);
			st_barrier(c, tid);
		}
		left -= m;
	}
}

static void st_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct st_ctx *c = vctx;

	(void)phase;
	if (c->prm->method == STENCIL_GS)
		gs_wave(c, tid);
	else if (c->prm->schedule == STENCIL_THREADED)
		jac_threaded(c, tid);
	else
		jac_wave(c, tid);
	if (!tid)
		c->final = c->t[0].cur;
}

static void st_teardown(void *vctx, unsigned int tid)
{
	struct st_ctx *c = vctx;

	free(c->t[tid].tmp);
	c->t[tid].tmp = NULL;
}

/*
 * Bytes per update between memory and the caches, per the paper's model:
 * a pass of m sweeps loads and stores each site once (16 bytes), and a
 * Jacobi sweep into the second grid adds the write-allocate of it (24).
 * @named leaves the write-allocate out. Averaged over a repetition.
 */
static double code_balance(const struct stencil_params *p, unsigned int gsize,
			   bool named)
{
	unsigned int left = p->sweeps, m;
	double bytes = 0;

	if (p->method == STENCIL_JACOBI && p->schedule == STENCIL_THREADED)
		return named ? 16 : 24;
	while (left) {
		m = left < gsize ? left : gsize;
		if (p->method == STENCIL_JACOBI && m == 1 && !named)
			bytes += 24;
		else
			bytes += 16;
		left -= m;
	}
	return bytes / p->sweeps;
}

static void st_free(struct st_ctx *c)
{
	kern_free(c->grid[0], c->grid_bytes);
	kern_free(c->grid[1], c->grid_bytes);
	kern_free(c->ring, c->ring_bytes);
	free(c->bar.arrive);
	free(c->bar.release);
	free(c->t);
}

/* The grids, the ring and the barrier for @p on cfg's threads; 0 or -1. */
static int st_alloc(struct st_ctx *c, const struct kern_cfg *cfg,
		    const struct stencil_params *p)
{
	unsigned int P = cfg->nthreads, k;
	size_t n = p->n;

	c->grid_bytes = n * n * n * sizeof(double);
	c->grid[0] = kern_alloc(c->grid_bytes, cfg->hugepages);
	if (p->method == STENCIL_JACOBI)
		c->grid[1] = kern_alloc(c->grid_bytes, cfg->hugepages);
	if (p->method == STENCIL_JACOBI && p->schedule == STENCIL_WAVEFRONT &&
	    c->gsize > 1) {
		c->ring_bytes = (size_t)(c->gsize - 1) * RING * n * n *
				sizeof(double);
		c->ring = kern_alloc(c->ring_bytes, cfg->hugepages);
	}
	c->t = aligned_alloc(KERN_LINE, P * sizeof(*c->t));
	c->bar.type = p->barrier;
	c->bar.n = P;
	c->bar.arrive = aligned_alloc(KERN_LINE, P * sizeof(struct st_flag));
	c->bar.release = aligned_alloc(KERN_LINE, P * sizeof(struct st_flag));
	if (!c->grid[0] || (p->method == STENCIL_JACOBI && !c->grid[1]) ||
	    (c->ring_bytes && !c->ring) || !c->t || !c->bar.arrive ||
	    !c->bar.release) {
		st_free(c);
		return -1;
	}
	memset(c->t, 0, P * sizeof(*c->t));
	atomic_init(&c->bar.count.v, 0);
	atomic_init(&c->bar.sense.v, 0);
	for (k = 0; k < P; k++) {
		atomic_init(&c->bar.arrive[k].v, 0);
		atomic_init(&c->bar.release[k].v, 0);
	}
	return 0;
}

/* Threads and groups against the grid; 0 or -1 with c's groups set. */
static int st_groups(struct st_ctx *c, const struct kern_cfg *cfg,
		     const struct stencil_params *p, char *err, size_t errsz)
{
	unsigned int P = cfg->nthreads;
	size_t n = p->n;

	if (n < 3 || n - 2 < P) {
		snprintf(err, errsz,
			 "a grid of %zu^3 is too small for %u threads: it needs at least one interior plane per thread",
			 n, P);
		return -1;
	}
	if (!p->sweeps) {
		snprintf(err, errsz, "no sweeps");
		return -1;
	}
	if (p->schedule == STENCIL_THREADED) {
		c->gsize = 1;
		c->ngroups = P;
		return 0;
	}
	if (!p->groups || P % p->groups) {
		snprintf(err, errsz,
			 "%u threads do not make %u groups of equal size",
			 P, p->groups);
		return -1;
	}
	c->ngroups = p->groups;
	c->gsize = P / p->groups;
	return 0;
}

/*
 * Compare the grid after the run with the serial sweeps of as many
 * sweeps (computed now: the repetitions are known only at the end).
 */
static void st_verify(const struct st_ctx *c, const struct stencil_params *p,
		      struct stencil_result *r)
{
	const double *res = c->grid[p->method == STENCIL_JACOBI ? c->final : 0];
	size_t i, n = p->n;
	double *ref, d;

	ref = stencil_reference(n, p->method,
				(uint64_t)p->sweeps * r->timed.reps);
	r->verified = ref != NULL;
	for (i = 0; ref && i < n * n * n; i++) {
		/* bitwise: the same operations in the same order */
		if (memcmp(&res[i], &ref[i], sizeof(double))) {
			r->verified = false;
			r->mismatches++;
			d = res[i] > ref[i] ? res[i] - ref[i] : ref[i] - res[i];
			if (!(d <= r->max_abs_diff))
				r->max_abs_diff = d;
		}
	}
	free(ref);
}

/*
 * The pages of the grids and rings, asked after the run: every thread
 * first-touches rows of every plane (wavefront, Gauss-Seidel), so only
 * then is all of them resident, and one range per buffer is one scan.
 */
static void st_pages(const struct st_ctx *c, struct kern_pages *sum)
{
	const void *buf[3] = { c->grid[0], c->grid[1], c->ring };
	const size_t bytes[3] = { c->grid_bytes, c->grid_bytes, c->ring_bytes };
	struct kern_pages pg;
	int i;

	for (i = 0; i < 3; i++) {
		if (!buf[i])
			continue;
		/* unreadable: nothing resident, printed as unknown */
		(void)kern_pages(buf[i], bytes[i], &pg);
		kern_pages_add(sum, &pg);
	}
}

int stencil_run(const struct kern_cfg *cfg, const struct stencil_params *p,
		struct stencil_result *r, char *err, size_t errsz)
{
	static const struct kern_ops ops = {
		.setup = st_setup, .body = st_body,
		.teardown = st_teardown, .nphases = 1,
	};
	struct kern_times tm;
	struct st_ctx c;
	size_t sites;
	int rc;

	memset(r, 0, sizeof(*r));
	memset(&c, 0, sizeof(c));
	if (st_groups(&c, cfg, p, err, errsz))
		return -1;
	c.cfg = cfg;
	c.prm = p;
	c.n = p->n;
	if (st_alloc(&c, cfg, p)) {
		kern_oom(err, errsz);
		return -1;
	}
	rc = kern_run_timed(cfg, &ops, &c, &tm, err, errsz);
	if (!rc) {
		sites = (p->n - 2) * (p->n - 2) * (p->n - 2);
		r->timed = kern_timed_of(&tm.ph[0]);
		kern_map_stats(tm.ph[0].sec, r->timed.reps, 1,
			       (double)sites * p->sweeps / 1e6, true, &r->mlups);
		r->group_size = c.gsize;
		r->groups = c.ngroups;
		r->bytes_per_lup = code_balance(p, c.gsize, true);
		r->traffic_bytes_per_lup = code_balance(p, c.gsize, false);
		st_verify(&c, p, r);
		st_pages(&c, &r->pages);
	}
	kern_times_free(&tm);
	st_free(&c);
	return rc;
}
