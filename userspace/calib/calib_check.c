// SPDX-License-Identifier: GPL-2.0
/*
 * calib_check.c - what calibrate measures besides its curve, so that the
 * curve can be judged (curve_quality.c): read-delay at delay 0 over a
 * pool as large as the generators' on all generator CPUs and on one
 * (another kernel, another harness: it does not share the generators'
 * timing or byte counting), and how much CPU the generators were denied
 * while the curve was measured (steal time, the CPU pressure PSI shows).
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_check.h"

/* /proc/stat's first line: all CPUs' time, and the steal in it */
static bool read_cpu_time(uint64_t *total, uint64_t *steal)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return false;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 8)
		return false;
	*steal = v[7];
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	return true;
}

/* PSI: microseconds some task waited for a CPU (CONFIG_PSI kernels) */
static bool read_cpu_pressure(uint64_t *us)
{
	FILE *f = fopen("/proc/pressure/cpu", "re");
	char line[256];
	bool ok = false;

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f))
		ok = sscanf(line, "some avg10=%*f avg60=%*f avg300=%*f total=%" SCNu64,
			    us) == 1;
	fclose(f);
	return ok;
}

void calib_starve_begin(struct calib_starve *m)
{
	memset(m, 0, sizeof(*m));
	m->t0 = kern_now();
	m->have_stat = read_cpu_time(&m->total, &m->steal);
	m->have_psi = read_cpu_pressure(&m->psi_us);
}

void calib_starve_end(const struct calib_starve *m, struct curve_check *c)
{
	uint64_t total, steal, us;
	double wall = kern_now() - m->t0;

	c->steal_share = NAN;
	c->cpu_pressure_share = NAN;
	if (m->have_stat && read_cpu_time(&total, &steal) && total > m->total)
		c->steal_share = (double)(steal - m->steal) /
				 (double)(total - m->total);
	if (m->have_psi && read_cpu_pressure(&us) && wall > 0)
		c->cpu_pressure_share = (double)(us - m->psi_us) / 1e6 / wall;
}

/* read-delay at delay 0 on @n CPUs from @cpu over @bytes: its GB/s */
static int read_gbps(const int *cpu, unsigned int n, size_t bytes,
		     double *gbps, char *err, size_t errsz)
{
	struct kern_cfg cfg = { 0 };
	struct read_delay_result r;

	cfg.nthreads = n;
	cfg.cpu = cpu;
	cfg.reps = 3;
	cfg.min_time = 0.5;
	if (read_delay_run(&cfg, bytes, 0, &r, err, errsz))
		return -1;
	*gbps = r.gbps.median;
	return 0;
}

int calib_check_reads(const struct calib_socket *so,
		      const struct calib_plan *p, struct curve_check *c,
		      char *err, size_t errsz)
{
	unsigned int n = (unsigned int)so->nr_cpu - 1, i;
	int *cpu = calloc(n ? n : 1, sizeof(*cpu));
	int rc = -1;

	if (!cpu) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	/* the generator CPUs: all but the chase's */
	for (i = 0; i < n; i++)
		cpu[i] = (int)so->cpu[i + 1];
	c->read_threads = n;
	c->read_bytes = p->pool_bytes;
	if (!read_gbps(cpu, n, p->pool_bytes, &c->read_gbps, err, errsz) &&
	    (n == 1 || !read_gbps(cpu, 1, p->pool_bytes, &c->read_one_gbps,
				  err, errsz))) {
		/* one generator CPU: the two reads are one */
		if (n == 1)
			c->read_one_gbps = c->read_gbps;
		c->measured = true;
		rc = 0;
	}
	free(cpu);
	return rc;
}
