/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stencil_int.h - what the stencil's files share: the row updates
 * (stencil_rows.c) and the barriers (stencil_bar.c) that stencil.c's
 * schedules use.
 */

#ifndef MEMDIAG_KERNELS_STENCIL_INT_H
#define MEMDIAG_KERNELS_STENCIL_INT_H

#include <stdatomic.h>
#include <stddef.h>

#include "kernel.h"

/* Rows y0..y1-1 of plane @z of @g (n^3 doubles): the initial values. */
void st_init_rows(double *g, size_t n, size_t z, size_t y0, size_t y1);
/* Rows y0..y1-1 of the Jacobi plane z from @lo, @mid, @hi into @out. */
void st_jac_rows(double *out, const double *lo, const double *mid,
		 const double *hi, size_t n, size_t y0, size_t y1);
/* Rows y0..y1-1 of the Gauss-Seidel plane @p (z) in place; @tmp a row. */
void st_gs_rows(double *p, size_t n, size_t y0, size_t y1, double *tmp);

struct st_flag {
	_Atomic unsigned int v;
} __attribute__((aligned(KERN_LINE)));

struct st_bar {
	enum stencil_barrier type;
	unsigned int n;
	struct st_flag count, sense;	/* spin: one counter, one flag */
	struct st_flag *arrive;		/* tree: one of each per thread */
	struct st_flag *release;
};

/*
 * Wait at @b until its @n threads have arrived; @sense (spin) and
 * @episode (tree) are thread @tid's own. Nothing to wait for with one.
 */
void st_bar_wait(struct st_bar *b, unsigned int tid, unsigned int *sense,
		 unsigned int *episode);

#endif /* MEMDIAG_KERNELS_STENCIL_INT_H */
