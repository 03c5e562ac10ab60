// SPDX-License-Identifier: GPL-2.0
/* export_estimate.c - the counter-free probe's series (export --probe). */

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "export_estimate.h"
#include "export_text.h"

int export_estimate_curve_time(struct export_estimate *e, const char *created)
{
	struct tm tm;
	const char *end;

	e->have_curve_time = false;
	if (!created)
		return -1;
	memset(&tm, 0, sizeof(tm));
	end = strptime(created, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || strcmp(end, "Z"))
		return -1;
	e->curve_created_unix = (double)timegm(&tm);
	e->have_curve_time = true;
	return 0;
}

/* {socket="N"} V */
static void sock_value(FILE *f, struct prom_family *fam, uint32_t socket,
		       double v)
{
	prom_sample_start(f, fam);
	prom_sock_label(f, socket);
	prom_value(f, v);
}

static void render_probe(const struct export_estimate *e, FILE *f)
{
	struct prom_family lat = PROM_FAMILY("memdiag_probe_latency_seconds", "gauge",
		"Measured, not estimated: the median load latency of the counter-free probe's last flushed pointer chase (8 x 512 loads)");
	struct prom_family noise = PROM_FAMILY("memdiag_probe_noise_seconds", "gauge",
		"The spread of the last chase's segments (1.4826 x their median absolute deviation)");
	struct prom_family n = PROM_FAMILY("memdiag_probe_samples_total", "counter",
		"Chases the probe took since the exporter started");
	struct prom_family cpu = PROM_FAMILY("memdiag_probe_cpu_seconds_total", "counter",
		"The probe's own CPU time since the exporter started: its cost (rate() is the share of one CPU)");

	prom_sample_start(f, &n);
	fprintf(f, " %" PRIu64 "\n", e->samples);
	prom_sample_start(f, &cpu);
	fprintf(f, " %.9g\n", e->cpu_sec);
	if (!e->have)
		return;
	sock_value(f, &lat, e->socket, e->latency_ns * 1e-9);
	sock_value(f, &noise, e->socket, e->noise_ns * 1e-9);
}

static void render_estimate(const struct export_estimate *e, double now_unix,
			    FILE *f)
{
	struct prom_family avail = PROM_FAMILY("memdiag_estimate_available", "gauge",
		"1 when the probe's latency could be placed on a calibrated curve, 0 with the reason when not (no curve, a stale one)");
	struct prom_family bw = PROM_FAMILY("memdiag_estimated_dram_bandwidth_bytes_per_second", "gauge",
		"Estimated, not counted: the DRAM bandwidth at which the calibrated curve has the probe's latency (every process's and neighbour's load)");
	struct prom_family util = PROM_FAMILY("memdiag_estimated_dram_utilization_ratio", "gauge",
		"Estimated: memdiag_estimated_dram_bandwidth_bytes_per_second over the curve's sustainable peak");
	struct prom_family verd = PROM_FAMILY("memdiag_estimated_verdict", "gauge",
		"Estimated: 1 for the label the probe's latency has on the curve (idle, ok, latency-rising, bandwidth-bound, saturated; unknown where the curve or the sample cannot tell), 0 for the others");
	struct prom_family age = PROM_FAMILY("memdiag_estimate_curve_age_seconds", "gauge",
		"Seconds since the calibrated curve the estimates are placed on was made");
	const struct probe_est *p = &e->est;
	int l;

	if (!e->have)
		return;
	prom_sample_start(f, &avail);
	prom_sock_label(f, e->socket);
	prom_label(f, false, "reason", p->valid ? "" : p->reason);
	fprintf(f, "} %d\n", p->valid ? 1 : 0);
	if (e->have_curve_time && p->valid)
		sock_value(f, &age, e->socket, now_unix - e->curve_created_unix);
	if (!p->valid)
		return;
	sock_value(f, &bw, e->socket, p->bandwidth_gbps * 1e9);
	sock_value(f, &util, e->socket, p->utilization);
	for (l = VERDICT_IDLE; l <= VERDICT_SATURATED + 1; l++) {
		bool unknown = l > VERDICT_SATURATED;

		prom_sample_start(f, &verd);
		prom_sock_label(f, e->socket);
		prom_label(f, false, "verdict", unknown ? "unknown" :
			   verdict_label_name((enum verdict_label)l));
		fprintf(f, "} %d\n", unknown ? !p->label_known :
			p->label_known && p->label == (enum verdict_label)l);
	}
}

int export_estimate_render(const struct export_estimate *e, double now_unix,
			   FILE *f)
{
	struct prom_family cf = PROM_FAMILY("memdiag_probe_mode", "gauge",
		"1: this exporter serves the counter-free probe's estimates (export --probe), not the memdiag module's counters (memdiag_up is absent)");

	prom_sample_start(f, &cf);
	fputs(" 1\n", f);
	render_probe(e, f);
	render_estimate(e, now_unix, f);
	return ferror(f) ? -1 : 0;
}
