// SPDX-License-Identifier: GPL-2.0
/*
 * marker_demo.c - libmemdiag-marker's sample: regions around a sleep and
 * a copy, nested in an outer one, on several threads. Run it under
 *
 *	memdiagctl stat --marker -- examples/marker_demo -t 2 -n 4 -m 100
 *
 * for one row per region: calls, time, DRAM bytes and GB/s, latencies.
 * The copy moves -x (default 2) x the last-level cache (sysfs's size),
 * so it goes to DRAM on any machine; -x 0 leaves it out. Build:
 * cc marker_demo.c $(pkg-config --cflags --libs memdiag-marker) (the
 * tree's Makefile links the static library).
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "memdiag_marker.h"

struct job {
	unsigned int calls;
	unsigned int sleep_ms;
	size_t bytes;
	int err;
};

/* The largest data or unified cache cpu0 sees, in bytes; 0 if unknown. */
static size_t llc_bytes(void)
{
	char path[128], type[32];
	size_t best = 0, v;
	unsigned int i;
	char unit;
	FILE *f;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%u/type", i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (!fgets(type, sizeof(type), f))
			type[0] = '\0';
		fclose(f);
		if (!strncmp(type, "Instruction", 11))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%u/size", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		unit = ' ';
		if (fscanf(f, "%zu%c", &v, &unit) >= 1) {
			v *= unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : 1;
			if (v > best)
				best = v;
		}
		fclose(f);
	}
	return best;
}

/* Every memdiag_marker_* call's failure is this thread's result. */
static int check(struct job *j, int rc, const char *what)
{
	if (rc < 0 && !j->err) {
		j->err = errno;
		fprintf(stderr, "marker_demo: %s: %s\n", what, strerror(errno));
	}
	return rc;
}

static void *worker(void *arg)
{
	struct job *j = arg;
	struct timespec ts = {
		.tv_sec = j->sleep_ms / 1000,
		.tv_nsec = (long)(j->sleep_ms % 1000) * 1000000,
	};
	char *src = malloc(j->bytes + 1), *dst = malloc(j->bytes + 1);
	unsigned int i;

	if (!src || !dst) {
		j->err = ENOMEM;
		free(src);
		free(dst);
		return NULL;
	}
	memset(src, 1, j->bytes);	/* first touch: not part of a region */
	memset(dst, 2, j->bytes);
	for (i = 0; i < j->calls; i++) {
		check(j, memdiag_marker_start("outer"), "start outer");
		check(j, memdiag_marker_start("sleep"), "start sleep");
		nanosleep(&ts, NULL);
		check(j, memdiag_marker_stop("sleep"), "stop sleep");
		if (j->bytes) {
			check(j, memdiag_marker_start("copy"), "start copy");
			memcpy(dst, src, j->bytes);
			check(j, memdiag_marker_stop("copy"), "stop copy");
		}
		check(j, memdiag_marker_stop("outer"), "stop outer");
	}
	free(src);
	free(dst);
	return NULL;
}

static void usage(FILE *f)
{
	fputs("Usage: marker_demo [-t THREADS] [-n CALLS] [-m SLEEP_MS] [-x N]\n"
	      "Regions \"outer\" { \"sleep\" SLEEP_MS, \"copy\" N x LLC } CALLS times\n"
	      "on each of THREADS threads (defaults: 1, 4, 100, 2; -x 0: no copy).\n",
	      f);
}

int main(int argc, char **argv)
{
	struct job job[64];
	pthread_t th[64];
	unsigned int threads = 1, calls = 4, ms = 100, times = 2, i;
	size_t llc = llc_bytes();
	const char *why;
	int c, rc = 0;

	while ((c = getopt(argc, argv, "t:n:m:x:h")) != -1) {
		switch (c) {
		case 't':
			threads = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'n':
			calls = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'm':
			ms = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'x':
			times = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc || !threads || threads > 64 || !calls) {
		usage(stderr);
		return 1;
	}
	if (!llc && times) {
		fprintf(stderr, "marker_demo: no cache size in /sys/devices/system/cpu/cpu0/cache: cannot size the copy\n");
		return 1;
	}
	memdiag_marker_init();
	why = memdiag_marker_counters_reason();
	if (why)
		fprintf(stderr, "marker_demo: no counters: %s\n", why);
	for (i = 0; i < threads; i++) {
		job[i] = (struct job){ .calls = calls, .sleep_ms = ms,
				       .bytes = times * llc };
		if (pthread_create(&th[i], NULL, worker, &job[i])) {
			threads = i;
			rc = 1;
			break;
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(th[i], NULL);
		if (job[i].err)
			rc = 1;
	}
	if (memdiag_marker_close() < 0 && errno != ENOENT) {
		fprintf(stderr, "marker_demo: cannot write the regions: %s\n",
			strerror(errno));
		rc = 1;
	} else if (errno == ENOENT) {
		fprintf(stderr, "marker_demo: " MEMDIAG_MARKER_ENV " is not set: run me under 'memdiagctl stat --marker'\n");
	}
	return rc;
}
