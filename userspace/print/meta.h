/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meta.h - what a saved result needs to be archived and compared later:
 * the machine, the kernel, the memdiag build, the date and the exact
 * command line ("meta" in every -j result of run and stat).
 */

#ifndef MEMDIAGCTL_META_H
#define MEMDIAGCTL_META_H

#include "print.h"

/*
 * The value of the first "@key<tabs>: value" line of /proc/cpuinfo,
 * malloc()ed, or NULL.
 */
char *cpuinfo_value(const char *key);

/*
 * Into the current JSON object: "meta", an object of hostname,
 * cpu_model, kernel_release, memdiag_version, memdiag_commit,
 * date (ISO 8601, UTC, now) and argv (this process's, from
 * /proc/self/cmdline); null where unknown. Nothing in text.
 */
void meta_print(struct printer *p);

/*
 * The same as CSV columns ("meta.hostname", ..., "meta.argv" with ';'
 * between the words): a header and a row, malloc()ed, for a table that
 * is not made from a -j document (stat --csv). 0, or -1 (out of memory).
 */
int meta_csv(char **head, char **row);

#endif /* MEMDIAGCTL_META_H */
