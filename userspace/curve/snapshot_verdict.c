// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_verdict.c - the verdict of "memdiagctl snapshot": two readings
 * --window apart give each socket's rates, per-channel bytes and the
 * verdict on this machine's curves.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "snapshot.h"
#include "snapshot_verdict.h"

int snapshot_judge(const struct nlmsghdr *const *before, size_t nr_before,
		   const struct nlmsghdr *after, uint32_t tsc_khz,
		   const struct verdict_src *vs, struct snap_judged *j)
{
	uint64_t bytes[SNAP_MAX_CHANNELS];
	uint32_t ids[SNAP_MAX_CHANNELS];
	struct verdict_channels ch;
	struct snap a, b, s;
	char why[160];
	size_t i;

	memset(j, 0, sizeof(*j));
	if (snap_parse(after, &b, why, sizeof(why))) {
		verdict_none(&j->v, "no verdict: the reading was malformed");
		return -1;
	}
	j->socket = (uint32_t)b.v[MEMDIAG_A_SNAPSHOT_SOCKET];
	for (i = 0; i < nr_before; i++) {
		if (snap_parse(before[i], &s, why, sizeof(why))) {
			verdict_none(&j->v, "no verdict: the first reading was malformed");
			return 0;
		}
		if (s.v[MEMDIAG_A_SNAPSHOT_SOCKET] == j->socket)
			break;
	}
	if (i == nr_before) {
		verdict_none(&j->v, "no verdict: the first reading lacks this socket");
		return 0;
	}
	a = s;
	j->have = true;
	/* no fixed threshold here: the verdict replaces it */
	metrics_compute(&a, &b, tsc_khz, 0, &j->m);
	verdict_channels_of(&j->m, bytes, ids, &ch);
	/* the prefetcher count is unknown here: any off needs watch */
	verdict_live(vs, &j->m, &b, 0, &ch, &j->v);
	return 0;
}

void snapshot_judged_print(struct printer *p, const struct snap_judged *j,
			   enum curve_source src)
{
	print_textf(p, "%6u", j->socket);
	if (j->have)
		print_u64(p, PRINT_JSON, "window_ns", "%" PRIu64, j->m.interval_ns);
	else
		print_string(p, PRINT_JSON, "window_ns", "%s", NULL);
	verdict_num(p, "window_read_gbps", "  %7.2f", "  %7s",
	     j->have ? j->m.read_gbps : NAN);
	verdict_num(p, "window_write_gbps", "  %7.2f", "  %7s",
	     j->have ? j->m.write_gbps : NAN);
	verdict_num(p, "window_load_miss_real_latency_ns", "  %10.1f", "  %10s",
	     j->have ? j->m.load_miss_real_latency_ns : NAN);
	verdict_print(p, &j->v, src, false);
	print_textf(p, "\n");
}
