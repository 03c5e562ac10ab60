// SPDX-License-Identifier: GPL-2.0
/*
 * calib_show_quality.c - how far a stored curve can be trusted, as
 * "calibrate --show" and calibrate itself print it: the reference reads
 * beside the read peak, the starvation shares, and the judgement.
 */

#include <math.h>
#include <stdio.h>

#include "calib_show.h"

static void show_check(struct printer *p, const struct curve_socket *s)
{
	const struct curve_check *c = &s->check;
	const struct curve_mix *m = curve_read_mix(s);
	double peak = m ? m->points[m->peak_index].bandwidth_gbps : NAN;
	double ratio = c->read_gbps > 0 ? peak / c->read_gbps : NAN;

	if (!c->measured) {
		print_textf(p, "check: none (no reference read in this file)\n");
		return;
	}
	print_open_object(p, "check");
	print_textf(p, "check: read peak %.2f GB/s;", peak);
	print_double(p, PRINT_ANY, "read_gbps", " read-delay over the same %.2f",
		     c->read_gbps);
	print_textf(p, " GB/s");
	print_uint(p, PRINT_ANY, "read_threads", " on %u CPU(s)", c->read_threads);
	print_double(p, PRINT_JSON, "peak_ratio", "%f", ratio);
	print_textf(p, " (peak/read %.2f)", ratio);
	print_double(p, PRINT_ANY, "read_one_gbps", ", on one CPU %.2f GB/s",
		     c->read_one_gbps);
	print_u64(p, PRINT_JSON, "read_bytes", "%lu", c->read_bytes);
	print_double(p, PRINT_JSON, "steal_share", "%f", c->steal_share);
	print_double(p, PRINT_JSON, "cpu_pressure_share", "%f",
		     c->cpu_pressure_share);
	print_textf(p, "; steal %.1f %%, CPU pressure %.1f %% while measuring\n",
		    c->steal_share * 100, c->cpu_pressure_share * 100);
	print_close_object(p);
}

void calib_show_quality(struct printer *p, const struct curve_socket *s)
{
	unsigned int f;

	show_check(p, s);
	if (!s->quality.judged) {
		print_textf(p, "quality: not judged (made by an older memdiagctl: run calibrate again)\n");
		return;
	}
	print_open_object(p, "quality");
	print_bool(p, PRINT_JSON, "reliable", "%s", !s->quality.flaws);
	print_textf(p, "quality: %s\n", s->quality.flaws ?
		    "UNRELIABLE: placing a latency or a bandwidth on this curve is not to be trusted" :
		    "reliable (every check of Documentation/calibrate.rst passed)");
	print_open_array(p, "flaws");
	for (f = 0; f < NR_CURVE_FLAWS; f++) {
		if (!(s->quality.flaws & (1u << f)))
			continue;
		print_open_object(p, NULL);
		print_string(p, PRINT_ANY, "flaw", "  %s:", curve_flaw_name(f));
		print_string(p, PRINT_ANY, "detail", " %s\n", s->quality.why[f]);
		print_close_object(p);
	}
	print_close_array(p);
	print_close_object(p);
}
