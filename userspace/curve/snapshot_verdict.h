/* SPDX-License-Identifier: GPL-2.0 */
/* snapshot_verdict.h - snapshot's rates and verdict over its window. */

#ifndef MEMDIAGCTL_SNAPSHOT_VERDICT_H
#define MEMDIAGCTL_SNAPSHOT_VERDICT_H

#include <libmnl/libmnl.h>

#include "metrics.h"
#include "verdict_live.h"

struct snap_judged {
	uint32_t socket;
	bool have;		/* both readings: @m is the window */
	struct interval m;	/* its per-channel bytes included */
	struct verdict v;
};

/*
 * Judge the socket of @after over the window since its reading among
 * @before. Returns 0, or -1 when @after is malformed; either way @j's
 * verdict says why there is none.
 */
int snapshot_judge(const struct nlmsghdr *const *before, size_t nr_before,
		   const struct nlmsghdr *after, uint32_t tsc_khz,
		   const struct verdict_src *vs, struct snap_judged *j);

/*
 * JSON: window_ns, window_read_gbps, window_write_gbps,
 * window_load_miss_real_latency_ns and the verdict keys, into the socket's
 * object; text: one line under SNAPSHOT_VERDICT_HEADER.
 */
#define SNAPSHOT_VERDICT_HEADER "socket  rd_GB/s  wr_GB/s  lmr_lat_ns" VERDICT_HEADER
void snapshot_judged_print(struct printer *p, const struct snap_judged *j,
			   enum curve_source src);

#endif /* MEMDIAGCTL_SNAPSHOT_VERDICT_H */
