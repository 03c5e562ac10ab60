// SPDX-License-Identifier: GPL-2.0
/*
 * stencil_rows.c - the stencil's arithmetic (stencil.c has the method and
 * its schedules): the Jacobi and Gauss-Seidel row updates, the initial
 * grid, and the serial sweeps the parallel results are checked against.
 * Every update, serial or parallel, goes through the row functions here,
 * built without FMA contraction (userspace/Makefile), so the results
 * agree to the bit.
 */

#include <stdlib.h>

#include "stencil_int.h"

#define C0 0.25			/* weight of the site itself */
#define C1 0.125		/* weight of each neighbour */

/*
 * The row functions: compiled for AVX-512, AVX2 and plain x86-64, picked
 * at load time by the CPU (ifunc); elsewhere just the plain one.
 */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define ST_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef ST_CLONES
#define ST_CLONES
#endif

/* One Jacobi row: sites 1..n-2 of @out from the row @c, its neighbours. */
ST_CLONES
static void jac_row(double *restrict out, const double *restrict c,
		    const double *restrict north, const double *restrict south,
		    const double *restrict below, const double *restrict above,
		    size_t n)
{
	size_t x;

	for (x = 1; x + 1 < n; x++)
		out[x] = C0 * c[x] + C1 * (c[x - 1] + c[x + 1] + north[x] +
					   south[x] + below[x] + above[x]);
}

/*
 * One Gauss-Seidel row in place. The serial recursion is only through
 * u[x - 1]: the rest of each update goes first into @tmp, in a loop that
 * vectorizes (the paper's optimised kernel breaks the dependency up in
 * the same spirit), then one multiply-add per site follows the chain.
 */
ST_CLONES
static void gs_row(double *restrict u, const double *restrict north,
		   const double *restrict south, const double *restrict below,
		   const double *restrict above, double *restrict tmp,
		   size_t n)
{
	size_t x;

	for (x = 1; x + 1 < n; x++)
		tmp[x] = C0 * u[x] + C1 * (u[x + 1] + north[x] + south[x] +
					   below[x] + above[x]);
	for (x = 1; x + 1 < n; x++)
		u[x] = tmp[x] + C1 * u[x - 1];
}

/* The initial value of every site, boundary included. */
static double init_value(size_t z, size_t y, size_t x)
{
	return (double)((x * 7 + y * 31 + z * 97) % 101) / 101.0;
}

void st_init_rows(double *g, size_t n, size_t z, size_t y0, size_t y1)
{
	double *p = g + z * n * n;
	size_t y, x;

	for (y = y0; y < y1; y++)
		for (x = 0; x < n; x++)
			p[y * n + x] = init_value(z, y, x);
}

void st_jac_rows(double *out, const double *lo, const double *mid,
		 const double *hi, size_t n, size_t y0, size_t y1)
{
	size_t y;

	for (y = y0; y < y1; y++)
		jac_row(out + y * n, mid + y * n, mid + (y - 1) * n,
			mid + (y + 1) * n, lo + y * n, hi + y * n, n);
}

void st_gs_rows(double *p, size_t n, size_t y0, size_t y1, double *tmp)
{
	const size_t pl = n * n;
	size_t y;

	for (y = y0; y < y1; y++)
		gs_row(p + y * n, p + (y - 1) * n, p + (y + 1) * n,
		       p - pl + y * n, p + pl + y * n, tmp, n);
}

double *stencil_reference(size_t n, enum stencil_method m, uint64_t sweeps)
{
	const size_t pl = n * n;
	double *g[2], *tmp, *t;
	uint64_t s;
	size_t z;

	g[0] = malloc(n * pl * sizeof(double));
	g[1] = m == STENCIL_JACOBI ? malloc(n * pl * sizeof(double)) : NULL;
	tmp = malloc(n * sizeof(double));
	if (!g[0] || (m == STENCIL_JACOBI && !g[1]) || !tmp) {
		free(g[0]);
		free(g[1]);
		free(tmp);
		return NULL;
	}
	for (z = 0; z < n; z++) {
		st_init_rows(g[0], n, z, 0, n);
		if (g[1])
			st_init_rows(g[1], n, z, 0, n);
	}
	for (s = 0; s < sweeps; s++) {
		for (z = 1; z + 1 < n; z++) {
			if (m == STENCIL_JACOBI)
				st_jac_rows(g[1] + z * pl, g[0] + (z - 1) * pl,
					    g[0] + z * pl, g[0] + (z + 1) * pl,
					    n, 1, n - 1);
			else
				st_gs_rows(g[0] + z * pl, n, 1, n - 1, tmp);
		}
		if (m == STENCIL_JACOBI) {
			t = g[0];
			g[0] = g[1];
			g[1] = t;
		}
	}
	free(g[1]);
	free(tmp);
	return g[0];
}
