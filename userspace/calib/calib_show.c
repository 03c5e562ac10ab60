// SPDX-License-Identifier: GPL-2.0
/*
 * calib_show.c - a curve file as a table ("calibrate --show", and after a
 * calibration) or as JSON, through the one print path.
 */

#include <math.h>
#include <stdio.h>

#include "calib_plan.h"
#include "calib_show.h"

const char *calib_mix_label(double read_fraction, char *buf, size_t size)
{
	unsigned int m;

	for (m = 0; m < KERN_NR_MIXES; m++)
		if (fabs(kern_mix_read_share((enum kern_mix)m) -
			 read_fraction) < 0.02)
			return kern_mix_name[m];
	snprintf(buf, size, "r=%.2f", read_fraction);
	return buf;
}

/* A percentile (0: not known, null), with a column when @text. */
static void show_pct(struct printer *p, const char *key, double v, bool text)
{
	print_double(p, PRINT_JSON, key, "%f", v > 0 ? v : NAN);
	if (!text)
		return;
	if (v > 0)
		print_double(p, PRINT_TEXT, NULL, " %7.1f", v);
	else
		print_textf(p, " %7s", "-");
}

static void show_curve(struct printer *p, const struct curve_mix *m)
{
	const struct curve_point *pt;
	char buf[16];
	const char *mix = calib_mix_label(m->read_fraction, buf, sizeof(buf));
	size_t i;

	print_open_object(p, NULL);
	print_string(p, PRINT_JSON, "mix", "%s", mix);
	print_double(p, PRINT_JSON, "read_fraction", "%f", m->read_fraction);
	print_string(p, PRINT_JSON, "prefetch", "%s",
		     curve_pf_name(m->prefetch));
	print_u64(p, PRINT_JSON, "peak_index", "%lu", m->peak_index);
	print_double(p, PRINT_JSON, "peak_gbps", "%f",
		     m->points[m->peak_index].bandwidth_gbps);
	print_open_array(p, "points");
	for (i = 0; i < m->nr_points; i++) {
		pt = &m->points[i];
		print_open_object(p, NULL);
		print_textf(p, "%-5s %-9s", mix, curve_pf_name(m->prefetch));
		print_uint(p, PRINT_ANY, "threads", " %7u", pt->threads);
		print_u64(p, PRINT_ANY, "delay", " %6lu", pt->delay);
		print_double(p, PRINT_ANY, "bandwidth_gbps", " %8.2f",
			     pt->bandwidth_gbps);
		print_double(p, PRINT_ANY, "read_gbps", " %8.2f", pt->read_gbps);
		print_double(p, PRINT_ANY, "write_gbps", " %8.2f",
			     pt->write_gbps);
		print_double(p, PRINT_ANY, "latency_ns", " %8.1f",
			     pt->latency_ns);
		/* 0 (a file without them): null, and "-" in the table */
		show_pct(p, "latency_p50_ns", pt->latency_p50_ns, false);
		show_pct(p, "latency_p90_ns", pt->latency_p90_ns, true);
		show_pct(p, "latency_p99_ns", pt->latency_p99_ns, true);
		print_double(p, PRINT_ANY, "cov", " %6.3f", pt->cov);
		print_uint(p, PRINT_ANY, "repeats", " %4u", pt->repeats);
		print_bool(p, PRINT_JSON, "peak", "%s", i == m->peak_index);
		print_bool(p, PRINT_JSON, "past_peak", "%s", i > m->peak_index);
		print_textf(p, "%s\n", i == m->peak_index ? "  <- sustainable peak" :
			    i > m->peak_index ? "  (past the peak)" : "");
		print_close_object(p);
	}
	print_close_array(p);
	print_close_object(p);
}

static void show_socket(struct printer *p, const struct curve *c,
			const struct curve_socket *s)
{
	size_t i;

	print_open_object(p, NULL);
	print_uint(p, PRINT_ANY, "socket", "socket %u", s->socket);
	print_string(p, PRINT_ANY, "cpus", " (CPUs %s,", s->cpus);
	print_uint(p, PRINT_ANY, "chase_cpu", " chase on CPU %u):", s->chase_cpu);
	print_double(p, PRINT_ANY, "idle_latency_ns",
		     " idle latency %.1f ns\n", s->idle_latency_ns);
	print_textf(p, "%-5s %-9s %7s %6s %8s %8s %8s %8s %7s %7s %6s %4s\n",
		    "mix", "prefetch", "threads", "delay", "GB/s", "rd_GB/s",
		    "wr_GB/s", "lat_ns", "p90", "p99", "cov", "reps");
	(void)c;
	print_open_array(p, "curves");
	for (i = 0; i < s->nr_mixes; i++)
		show_curve(p, &s->mixes[i]);
	print_close_array(p);
	calib_show_quality(p, s);
	print_close_object(p);
}

void calib_show(struct printer *p, const struct curve *c, const char *path,
		bool have_socket, uint32_t socket)
{
	const char *model = c->fp.v[CURVE_FP_CPU_MODEL_NAME];
	size_t i;

	print_string(p, PRINT_ANY, "file", "curves in %s", path);
	print_string(p, PRINT_ANY, "created", ", made %s", c->created);
	print_string(p, PRINT_ANY, "cpu_model_name", " on %s",
		     model ? model : "an unknown processor");
	print_string(p, PRINT_ANY, "bandwidth_source", "\nbandwidth: %s",
		     curve_source_name(c->source));
	print_textf(p, "%s\n", c->source == CURVE_SRC_KERNEL ?
		    " (counter-free: the kernels' own byte counts)" :
		    " (the memory controllers' counters)");
	print_open_array(p, "sockets");
	for (i = 0; i < c->nr_sockets; i++)
		if (!have_socket || c->sockets[i].socket == socket)
			show_socket(p, c, &c->sockets[i]);
	print_close_array(p);
}
