/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stream_simd.h - one STREAM sweep loop, instantiated by stream.c once per
 * instruction set. Before including it, stream.c defines:
 *
 *   ST_NAME(x)	 the name of this instance's function x (x_avx512, ...)
 *   ST_TARGET	 the GCC target attribute string ("avx512f", ...)
 *   ST_W	 doubles per vector
 *   st_vec	 the vector type
 *   st_set1(x), st_load(p), st_store(p, v), st_stream(p, v),
 *   st_add(x, y), st_mul(x, y)
 *
 * and it #undefs them all at the end, ready for the next instance.
 *
 * Each iteration moves four vectors per stream, enough independent loads
 * and stores to keep the load/store units busy at L1 without relying on
 * the compiler to unroll; what does not fill four vectors is done by the
 * scalar tail. The arrays are page-aligned (kern_alloc), so the aligned
 * loads and the non-temporal stores, which need alignment, are safe.
 */

/*
 * The store: normal, or non-temporal (bypassing the caches, so without
 * the write-allocate read). @nt is a constant in each inlined copy.
 */
#define ST_PUT(p, v) do {			\
		if (nt)				\
			st_stream((p), (v));	\
		else				\
			st_store((p), (v));	\
	} while (0)

/*
 * The four stores of an iteration, in address order. GCC otherwise
 * schedules them as their values come out of its schedule (the AVX
 * triad stored +32, +64, +96, then +0 of its 128 bytes), so that the
 * store buffer commits to one line, the next, then the first again: a
 * DRAM triad 8-11 % slower than the same loop in order (likwid-bench's
 * stream_avx, whose stores are in order), on one thread of an Ice Lake
 * and at 8 of an Emerald Rapids. The empty asm with a "memory" clobber
 * keeps the compiler from moving one store past another.
 */
#define ST_ORDER() __asm__ __volatile__("" : : : "memory")
#define ST_PUT4(p, v0, v1, v2, v3) do {		\
		ST_PUT((p), (v0));			\
		ST_ORDER();				\
		ST_PUT((p) + ST_W, (v1));		\
		ST_ORDER();				\
		ST_PUT((p) + 2 * ST_W, (v2));		\
		ST_ORDER();				\
		ST_PUT((p) + 3 * ST_W, (v3));		\
	} while (0)

static inline __attribute__((always_inline, target(ST_TARGET))) void
ST_NAME(sweep)(unsigned int op, double *restrict a, double *restrict b,
	       double *restrict c, size_t n, const bool nt)
{
	const st_vec s = st_set1(STREAM_SCALAR);
	const size_t step = 4 * ST_W, nv = n - n % step;
	st_vec x0, x1, x2, x3;
	size_t j;

	switch (op) {
	case STREAM_COPY:		/* c = a */
		for (j = 0; j < nv; j += step) {
			x0 = st_load(a + j);
			x1 = st_load(a + j + ST_W);
			x2 = st_load(a + j + 2 * ST_W);
			x3 = st_load(a + j + 3 * ST_W);
			ST_PUT4(c + j, x0, x1, x2, x3);
		}
		for (; j < n; j++)
			c[j] = a[j];
		break;
	case STREAM_SCALE:		/* b = s * c */
		for (j = 0; j < nv; j += step) {
			x0 = st_mul(s, st_load(c + j));
			x1 = st_mul(s, st_load(c + j + ST_W));
			x2 = st_mul(s, st_load(c + j + 2 * ST_W));
			x3 = st_mul(s, st_load(c + j + 3 * ST_W));
			ST_PUT4(b + j, x0, x1, x2, x3);
		}
		for (; j < n; j++)
			b[j] = STREAM_SCALAR * c[j];
		break;
	case STREAM_ADD:		/* c = a + b */
		for (j = 0; j < nv; j += step) {
			x0 = st_add(st_load(a + j), st_load(b + j));
			x1 = st_add(st_load(a + j + ST_W), st_load(b + j + ST_W));
			x2 = st_add(st_load(a + j + 2 * ST_W),
				    st_load(b + j + 2 * ST_W));
			x3 = st_add(st_load(a + j + 3 * ST_W),
				    st_load(b + j + 3 * ST_W));
			ST_PUT4(c + j, x0, x1, x2, x3);
		}
		for (; j < n; j++)
			c[j] = a[j] + b[j];
		break;
	case STREAM_TRIAD:		/* a = b + s * c, not fused (-ffp-contract=off) */
		for (j = 0; j < nv; j += step) {
			x0 = st_add(st_load(b + j), st_mul(s, st_load(c + j)));
			x1 = st_add(st_load(b + j + ST_W),
				    st_mul(s, st_load(c + j + ST_W)));
			x2 = st_add(st_load(b + j + 2 * ST_W),
				    st_mul(s, st_load(c + j + 2 * ST_W)));
			x3 = st_add(st_load(b + j + 3 * ST_W),
				    st_mul(s, st_load(c + j + 3 * ST_W)));
			ST_PUT4(a + j, x0, x1, x2, x3);
		}
		for (; j < n; j++)
			a[j] = b[j] + STREAM_SCALAR * c[j];
		break;
	}
}

/* @sweeps passes of @op; the fence orders the streaming stores before the
 * harness's barrier, so the time covers them. */
static __attribute__((target(ST_TARGET))) void
ST_NAME(run)(unsigned int op, double *a, double *b, double *c, size_t n,
	     size_t sweeps, bool nt)
{
	size_t k;

	if (nt) {
		for (k = 0; k < sweeps; k++)
			ST_NAME(sweep)(op, a, b, c, n, true);
		_mm_sfence();
	} else {
		for (k = 0; k < sweeps; k++)
			ST_NAME(sweep)(op, a, b, c, n, false);
	}
}

#undef ST_PUT
#undef ST_ORDER
#undef ST_PUT4
#undef ST_NAME
#undef ST_TARGET
#undef ST_W
#undef st_vec
#undef st_set1
#undef st_load
#undef st_store
#undef st_stream
#undef st_add
#undef st_mul
