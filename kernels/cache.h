/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache.h - what sysfs says about a CPU's last-level and level-2 caches
 * (cache.c).
 */

#ifndef MEMDIAG_KERNELS_CACHE_H
#define MEMDIAG_KERNELS_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Walk @cpu's caches in @cpu_dir (NULL: /sys/devices/system/cpu) and
 * give @file of each index whose level is at least the best so far to
 * @take; the highest level whose @file @take accepts (returns true,
 * having written @out) wins, the last index on a tie. Returns that
 * level, or -1 when none was accepted (@out untouched).
 */
int kern_llc_read(const char *cpu_dir, unsigned int cpu, const char *file,
		  bool (*take)(FILE *f, void *out), void *out);
/* That cache's size in bytes, 0 when sysfs does not say. */
uint64_t kern_llc_bytes(const char *cpu_dir, unsigned int cpu);
/*
 * CPU 0's, which "run" and kern_alloc() go by; the test hook
 * MEMDIAG_TEST_SYSFS_CPU replaces /sys/devices/system/cpu.
 */
uint64_t kern_llc_bytes_cpu0(void);
uint64_t kern_l2_bytes_cpu0(void);

#endif /* MEMDIAG_KERNELS_CACHE_H */
