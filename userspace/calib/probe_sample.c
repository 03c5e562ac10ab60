// SPDX-License-Identifier: GPL-2.0
/* probe_sample.c - one counter-free sample, placed on the curve. */

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "probe_sample.h"

const struct curve_socket *probe_curve_find(const char *path, uint32_t socket,
					    struct curve *c, char *why,
					    size_t size, bool *bad_file)
{
	char used[512], r[CURVE_WHY_SIZE];
	const struct curve_socket *s;
	struct curve_fp now;

	if (bad_file)
		*bad_file = false;
	if (curve_find_load(path, c, used, sizeof(used), r, sizeof(r))) {
		snprintf(why, size, "%s", r);
		if (bad_file)
			*bad_file = path != NULL;
		return NULL;
	}
	curve_fp_collect(&now, NULL);
	if (curve_fp_compare(&c->fp, &now, r, sizeof(r))) {
		curve_fp_free(&now);
		snprintf(why, size, "%s", r);
		return NULL;
	}
	curve_fp_free(&now);
	s = curve_socket_find(c, socket);
	if (!s)
		snprintf(why, size, "no curve for socket %u in %.160s: run memdiagctl calibrate",
			 socket, used);
	return s;
}

/* Robust spread of the segments: 1.4826 x their median absolute deviation. */
static double spread(const double *v, size_t n, double med)
{
	double d[PROBE_SEGS];
	struct kern_stats st;
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	kern_stats(d, n, &st);
	return 1.4826 * st.median;
}

void probe_sample_take(struct kern_fchase *fc, const struct curve_socket *s,
		       const char *why, const volatile sig_atomic_t *stop,
		       struct probe_sample *ps)
{
	double seg_ns[PROBE_SEGS], c0 = kern_thread_cpu_sec(), c1, lat;

	kern_fchase_run(fc, PROBE_SEGS, stop, NULL, seg_ns, NULL);
	/* nearest-rank, as calibrate's points it is placed on */
	kern_percentiles(seg_ns, PROBE_SEGS, &ps->pct);
	lat = ps->pct.p50;
	ps->noise_ns = spread(seg_ns, PROBE_SEGS, lat);
	probe_place(s, CURVE_PF_UNCHANGED, lat, &ps->est);
	if (s && !ps->est.valid)
		probe_place(s, CURVE_PF_ON, lat, &ps->est);
	if (!s)
		snprintf(ps->est.reason, sizeof(ps->est.reason), "%s", why);
	probe_trust(s, lat, ps->noise_ns, &ps->est);
	c1 = kern_thread_cpu_sec();
	/* no thread clock: no cost counted rather than a wrong one */
	ps->cpu_sec = c0 >= 0 && c1 >= c0 ? c1 - c0 : 0;
}
