/* SPDX-License-Identifier: GPL-2.0 */
/*
 * units.h - the unit tests' harness: the kernel's kselftest harness, one
 * FIXTURE per unit_*.c (its unit), and checks that carry a description.
 *
 * unit.c includes every unit_*.c: the harness keeps its test list static
 * in its header, so all tests must be in one translation unit.
 */

#ifndef MEMDIAGCTL_TEST_UNITS_H
#define MEMDIAGCTL_TEST_UNITS_H

/*
 * A test's logs go to stdout, line-buffered (unit.c), so that stderr only
 * holds what the code under test wrote outside a capture.
 */
#define TH_LOG_STREAM stdout
#include "kselftest_harness.h"

/* @cond holds, else the test fails with printf-style @... as the reason. */
#define ok(cond, ...) ({ \
	bool ok_ = (cond); \
	EXPECT_TRUE(ok_) TH_LOG(__VA_ARGS__); \
	ok_; \
})

/* @got is @want, else the test fails showing both. */
#define is_str(got, want, name) do { \
	const char *got_ = (got), *want_ = (want); \
	EXPECT_TRUE(got_ && !strcmp(got_, want_)) \
		TH_LOG("%s\n#   got:  %s\n#   want: %s", (name), \
		       got_ ? got_ : "(null)", want_); \
} while (0)

/* @got contains @want, else the test fails showing both. */
#define has_str(got, want, name) do { \
	const char *got_ = (got), *want_ = (want); \
	EXPECT_TRUE(got_ && strstr(got_, want_)) \
		TH_LOG("%s\n#   got:  %s\n#   lacks: %s", (name), \
		       got_ ? got_ : "(null)", want_); \
} while (0)

/* The test is skipped (what @name checks cannot be checked here). */
#define skip(name, why) SKIP(, "%s: %s", (name), (why))

#endif /* MEMDIAGCTL_TEST_UNITS_H */
