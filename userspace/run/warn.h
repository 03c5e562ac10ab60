/* SPDX-License-Identifier: GPL-2.0 */
/*
 * warn.h - what "memdiagctl run" warns about after its results: rows too
 * noisy to be a result (CoV over the repetitions above RUN_NOISY_COV) and
 * "DRAM" working sets that fit in this machine's last-level cache. The
 * warnings are kept until the results are printed, then go to stderr and,
 * with -j, into the document's "warnings" array.
 */

#ifndef MEMDIAGCTL_RUN_WARN_H
#define MEMDIAGCTL_RUN_WARN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "print.h"

/*
 * Above this coefficient of variation (stddev / mean over the
 * repetitions) a row is called noisy: a chosen bound, a tenth of the
 * value, not a measured one (Documentation/kernels.rst).
 */
#define RUN_NOISY_COV 0.10

/* Whether @cov is above RUN_NOISY_COV (NaN is not). */
bool run_cov_noisy(double cov);

/*
 * Print a row's "cov" with @fmt (text) and "noisy" (JSON), and keep a
 * warning naming @row ("stream 256M copy") when it is noisy.
 */
void run_print_cov(struct printer *p, const char *fmt, double cov,
		   const char *row);

/* Keep a warning (printf-style) for run_warn_flush(). */
void run_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The kept warnings as the JSON array "warnings" (nothing in text). */
void run_warn_json(struct printer *p);
/* Print the kept warnings on stderr (cli_err(), "warning") and drop them. */
void run_warn_flush(const char *cmd);
/* How many warnings are kept (the unit tests). */
unsigned int run_warn_count(void);

/*
 * Warn when @bytes, the working set @what meant to be in DRAM ("stream
 * 64M arrays"), fits in CPU 0's last-level cache (kern_llc_bytes_cpu0()).
 */
void run_check_llc(uint64_t bytes, const char *what);

#endif /* MEMDIAGCTL_RUN_WARN_H */
