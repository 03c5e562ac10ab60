// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c - what sysfs says about a CPU's last-level cache: its size for
 * "run"'s in-cache warning, calibrate's plan and kern_alloc()'s layout,
 * and any other file of it (stencil's sharing CPUs). One reader, so
 * that every part of memdiagctl means the same cache by "last level".
 * And the level-2 data cache's size, which "run latency" compares a
 * base-page working set with (page_walks).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

int kern_llc_read(const char *cpu_dir, unsigned int cpu, const char *file,
		  bool (*take)(FILE *f, void *out), void *out)
{
	int idx, level, best = -1;
	char path[512];
	FILE *f;

	if (!cpu_dir)
		cpu_dir = "/sys/devices/system/cpu";
	/* the index numbers are dense from 0; a gap ends the list */
	for (idx = 0; idx < 16; idx++) {
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/level",
			 cpu_dir, cpu, idx);
		f = fopen(path, "re");
		if (!f)
			break;
		if (fscanf(f, "%d", &level) != 1)
			level = -1;
		fclose(f);
		if (level < best)
			continue;
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/%s",
			 cpu_dir, cpu, idx, file);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (take(f, out))
			best = level;
		fclose(f);
	}
	return best;
}

/* A sysfs cache "size" ("32768K", "1M") in bytes; false when unreadable. */
static bool take_size(FILE *f, void *out)
{
	unsigned long long v;
	char unit = 0;
	uint64_t bytes;

	if (fscanf(f, "%llu%c", &v, &unit) < 1)
		return false;
	switch (unit) {
	case 'K':
		bytes = (uint64_t)v << 10;
		break;
	case 'M':
		bytes = (uint64_t)v << 20;
		break;
	case 'G':
		bytes = (uint64_t)v << 30;
		break;
	default:
		bytes = (uint64_t)v;
	}
	if (!bytes)
		return false;
	*(uint64_t *)out = bytes;
	return true;
}

uint64_t kern_llc_bytes(const char *cpu_dir, unsigned int cpu)
{
	uint64_t size = 0;

	kern_llc_read(cpu_dir, cpu, "size", take_size, &size);
	return size;
}

uint64_t kern_llc_bytes_cpu0(void)
{
	return kern_llc_bytes(getenv("MEMDIAG_TEST_SYSFS_CPU"), 0);
}

/*
 * The size of @cpu's level-2 data (or unified) cache, 0 when sysfs does
 * not say; CPU 0's with the same test hook.
 */
static uint64_t kern_l2_bytes(const char *cpu_dir, unsigned int cpu)
{
	char path[512], type[32];
	uint64_t size = 0;
	int idx, level;
	FILE *f;

	if (!cpu_dir)
		cpu_dir = "/sys/devices/system/cpu";
	for (idx = 0; idx < 16 && !size; idx++) {
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/level",
			 cpu_dir, cpu, idx);
		f = fopen(path, "re");
		if (!f)
			break;
		if (fscanf(f, "%d", &level) != 1)
			level = -1;
		fclose(f);
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/type",
			 cpu_dir, cpu, idx);
		f = fopen(path, "re");
		if (f && fscanf(f, "%31s", type) != 1)
			type[0] = 0;
		if (f)
			fclose(f);
		/* the data the chase loads; a missing type is no instruction cache */
		if (level != 2 || (f && !strcmp(type, "Instruction")))
			continue;
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/size",
			 cpu_dir, cpu, idx);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!take_size(f, &size))
			size = 0;
		fclose(f);
	}
	return size;
}

uint64_t kern_l2_bytes_cpu0(void)
{
	return kern_l2_bytes(getenv("MEMDIAG_TEST_SYSFS_CPU"), 0);
}
