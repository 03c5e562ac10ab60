// SPDX-License-Identifier: GPL-2.0
/*
 * snapcost.c - what one memdiag snapshot costs against reading the same
 * core counters from user space through /dev/cpu/N/msr, as PCM and LIKWID
 * do: the mean wall time of ROUNDS snapshot requests (the module samples
 * every CPU), then of ROUNDS passes reading the seven core counter MSRs
 * memdiag reads on each CPU (three fixed counters, four general ones).
 * Prints one JSON object. Needs a running memdiag and the msr module.
 *
 * usage: snapcost [ROUNDS]
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/memdiag.h>

#include "../memdiag/mdnl.h"

static const unsigned int msrs[] = {
	0x309, 0x30a, 0x30b,		/* IA32_FIXED_CTR0..2 */
	0xc1, 0xc2, 0xc3, 0xc4,		/* IA32_PMC0..3 */
};
#define NR_MSRS (sizeof(msrs) / sizeof(msrs[0]))

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	static struct mdnl_reply r;
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	int fds[1024], ncpu = 0, i, c;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	double t0, snap_us, msr_us;
	struct nlmsghdr *nlh;
	struct mdnl m;
	unsigned int k;
	uint64_t v;

	if (mdnl_open(&m, MEMDIAG_FAMILY_NAME) < 0) {
		fprintf(stderr, "snapcost: memdiag is not loaded\n");
		return 1;
	}
	/* a session, so that the counters run; its own sampling is rare */
	nlh = mdnl_req(&m, buf, MEMDIAG_CMD_SESSION_START, 0);
	mnl_attr_put_u32(nlh, MEMDIAG_A_SESSION_INTERVAL_MS, 60000);
	if (mdnl_call(&m, nlh, &r) < 0) {
		fprintf(stderr, "snapcost: session-start: %s %s\n",
			strerror(-r.error), r.extack);
		return 1;
	}
	t0 = now_us();
	for (i = 0; i < rounds; i++) {
		nlh = mdnl_req(&m, buf, MEMDIAG_CMD_SNAPSHOT, 0);
		mnl_attr_put_u32(nlh, MEMDIAG_A_SNAPSHOT_SOCKET, 0);
		if (mdnl_call(&m, nlh, &r) < 0) {
			fprintf(stderr, "snapcost: snapshot: %s %s\n",
				strerror(-r.error), r.extack);
			return 1;
		}
	}
	snap_us = (now_us() - t0) / rounds;

	for (c = 0; c < 1024; c++) {
		char path[64];

		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", c);
		fds[ncpu] = open(path, O_RDONLY);
		if (fds[ncpu] < 0) {
			if (errno == ENOENT || errno == ENXIO)
				break;
			perror(path);
			return 1;
		}
		ncpu++;
	}
	if (!ncpu) {
		fprintf(stderr, "snapcost: no /dev/cpu/*/msr (modprobe msr)\n");
		return 1;
	}
	t0 = now_us();
	for (i = 0; i < rounds; i++)
		for (c = 0; c < ncpu; c++)
			for (k = 0; k < NR_MSRS; k++)
				if (pread(fds[c], &v, sizeof(v), msrs[k]) != sizeof(v)) {
					perror("snapcost: pread msr");
					return 1;
				}
	msr_us = (now_us() - t0) / rounds;
	printf("{\"rounds\": %d, \"cpus\": %d, \"msrs_per_cpu\": %zu, "
	       "\"snapshot_us\": %.1f, \"msr_read_us\": %.1f, \"ratio_msr_over_snapshot\": %.2f}\n",
	       rounds, ncpu, NR_MSRS, snap_us, msr_us, msr_us / snap_us);
	mdnl_close(&m);
	return 0;
}
