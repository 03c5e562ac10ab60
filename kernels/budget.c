// SPDX-License-Identifier: GPL-2.0
/*
 * budget.c - every kernel buffer is checked against the memory the kernel
 * can give without swapping (MemAvailable) before it is allocated, so
 * that a run too big for this machine is refused at once with the numbers
 * instead of being OOM-killed after a long wait with nothing printed.
 *
 * mmap() takes no memory until the pages are touched, so MemAvailable
 * does not fall as the threads of one run allocate: the budget is read
 * when no kernel buffer is held, and the buffers held are counted
 * against it.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "kernel.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t held;		/* bytes of kernel buffers not yet freed */
static uint64_t budget;		/* MemAvailable when held was 0 */
static bool have_budget;
static char refusal[200];	/* the first refusal, for kern_oom() */

bool kern_mem_available(uint64_t *bytes)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	uint64_t kb;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1;
	fclose(f);
	if (found)
		*bytes = kb * 1024;
	return found;
}

int kern_budget_take(size_t bytes)
{
	int rc = 0;

	pthread_mutex_lock(&lock);
	if (!held)
		have_budget = kern_mem_available(&budget);
	if (have_budget && held + bytes > budget) {
		if (!refusal[0])
			snprintf(refusal, sizeof(refusal),
				 "the buffers need %" PRIu64 " MiB but MemAvailable is %" PRIu64
				 " MiB: use a smaller --size or fewer threads",
				 (uint64_t)((held + bytes) >> 20), budget >> 20);
		rc = -1;
	} else {
		held += bytes;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

uint64_t kern_budget_held(void)
{
	uint64_t v;

	pthread_mutex_lock(&lock);
	v = held;
	pthread_mutex_unlock(&lock);
	return v;
}

void kern_budget_give(size_t bytes)
{
	pthread_mutex_lock(&lock);
	held = bytes > held ? 0 : held - bytes;
	pthread_mutex_unlock(&lock);
}

void kern_oom(char *err, size_t errsz)
{
	pthread_mutex_lock(&lock);
	snprintf(err, errsz, "%s", refusal[0] ? refusal : "out of memory");
	pthread_mutex_unlock(&lock);
}
