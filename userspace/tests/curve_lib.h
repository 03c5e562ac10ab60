/* SPDX-License-Identifier: GPL-2.0 */
/* curve_lib.h - the curve tests' canned curve and files (curve_lib.c). */

#ifndef MEMDIAGCTL_TEST_CURVE_LIB_H
#define MEMDIAGCTL_TEST_CURVE_LIB_H

#include <math.h>
#include <stddef.h>

#include "curve/curve.h"

/* Doubles computed by a few additions: equal to 1e-9, relative. */
#define EXPECT_DBL(want, got) do {					\
	double w_ = (want), g_ = (got);					\
	EXPECT_TRUE(fabs(w_ - g_) <= 1e-9 * fmax(1, fabs(w_)))		\
		TH_LOG("%s = %.12g, want %.12g", #got, g_, w_);		\
} while (0)

/* The example of curves.rst, plus a 1:1 curve and a prefetch-off one. */
extern const char good[];
/* A directory for every test of the binary, removed when it ends. */
extern char tmpdir[];

/* Write @text (first @len bytes) to a file in tmpdir; its path. */
const char *put(const char *text, size_t len);
/* @good with the first @from replaced by @to, malloc()ed. */
char *edit(const char *from, const char *to);
/* curve_load() of @text; -2 when it could not be written. */
int load_text(const char *text, struct curve *c, char *why);

#endif /* MEMDIAGCTL_TEST_CURVE_LIB_H */
