/* SPDX-License-Identifier: GPL-2.0 */
/* cpulist.h - CPU numbers as a compact list of ranges ("0-3,8-11"). */

#ifndef MEMDIAGCTL_CPULIST_H
#define MEMDIAGCTL_CPULIST_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Write @n ascending CPU numbers to @buf as ranges of consecutive numbers,
 * the way the kernel's cpulist files do. Like snprintf(), this returns the
 * length the full list needs (without the NUL) and truncates to @size, so
 * cpulist_format(NULL, 0, ...) sizes the buffer.
 */
size_t cpulist_format(char *buf, size_t size, const uint32_t *cpu, size_t n);

/*
 * Parse "0-3,8" into a malloc()ed list of distinct CPU numbers, in the
 * order given; with @allowed, each must be in it (the CPUs this process
 * may run on). Returns 0, or -1 with why in @err (worded to follow
 * "option '--cpu': ").
 */
int cpulist_parse(const char *s, const cpu_set_t *allowed, uint32_t **cpu,
		  size_t *n, char *err, size_t size);

/*
 * The number of CPU ids the kernel may use (the highest possible CPU + 1),
 * from @path, normally /sys/devices/system/cpu/possible. 0 or -1 if it
 * cannot be read.
 */
int cpulist_possible(const char *path, uint32_t *nr);

#endif /* MEMDIAGCTL_CPULIST_H */
