// SPDX-License-Identifier: GPL-2.0
/*
 * curve_fp.c - the fingerprint of what a curve depends on, read from
 * /proc and /sys, and its comparison with a curve file's
 * (Documentation/curves.rst, "The fingerprint").
 */

#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "curve.h"
#include "meta.h"

/*
 * Each field's key in the curve file, what a mismatch of it is called in
 * the reason, and whether a mismatch makes the curve stale (the model
 * name follows the model; the prefetcher state selects a curve).
 */
static const struct {
	const char *key;
	const char *what;
	bool compared;
} fp_fields[NR_CURVE_FP] = {
	[CURVE_FP_CPU_VENDOR] = { "cpu_vendor", "CPU vendor", true },
	[CURVE_FP_CPU_MODEL] = { "cpu_model", "CPU model", true },
	[CURVE_FP_CPU_MODEL_NAME] = { "cpu_model_name", "CPU model name", false },
	[CURVE_FP_MICROCODE] = { "microcode", "microcode", true },
	[CURVE_FP_SOCKETS] = { "sockets", "socket count", true },
	[CURVE_FP_CORES] = { "cores", "core count", true },
	[CURVE_FP_CPUS] = { "cpus", "online CPU count", true },
	[CURVE_FP_MEMORY_BYTES] = { "memory_bytes", "memory size", true },
	[CURVE_FP_DIMMS] = { "dimms", "DIMM population", true },
	[CURVE_FP_NUMA] = { "numa", "NUMA layout", true },
	[CURVE_FP_KERNEL] = { "kernel", "kernel", true },
	[CURVE_FP_THP] = { "thp", "transparent hugepage setting", true },
	[CURVE_FP_PREFETCH] = { "prefetch", "prefetcher state", false },
	[CURVE_FP_UNCORE_KHZ] = { "uncore_khz", "uncore frequency limits", true },
};

const char *curve_fp_key(enum curve_fp_field f)
{
	return f < NR_CURVE_FP ? fp_fields[f].key : NULL;
}

int curve_fp_compare(const struct curve_fp *file, const struct curve_fp *now,
		     char *reason, size_t size)
{
	unsigned int f;

	for (f = 0; f < NR_CURVE_FP; f++) {
		if (!fp_fields[f].compared)
			continue;
		if (!file->v[f] || !now->v[f] || !strcmp(file->v[f], now->v[f]))
			continue;
		snprintf(reason, size, "curve is stale: %s changed (%s -> %s)",
			 fp_fields[f].what, file->v[f], now->v[f]);
		return 1;
	}
	return 0;
}

static char *dupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *dupf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* The first line of a small file, newline stripped, malloc()ed; or NULL. */
static char *read_line(const char *path)
{
	char buf[4096], *nl;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return strdup(buf);
}

static char *cpu_model(void)
{
	char *fam = cpuinfo_value("cpu family");
	char *mod = cpuinfo_value("model");
	char *step = cpuinfo_value("stepping"), *s = NULL;

	if (fam && mod && step)
		s = dupf("%s/%s/%s", fam, mod, step);
	free(fam);
	free(mod);
	free(step);
	return s;
}

/* Sockets and cores: distinct package ids and (package, core) pairs. */
static void topology(char **sockets, char **cores)
{
	long pkg[1024], core[1024][2];
	size_t np = 0, nc = 0, i, j;
	glob_t g;
	char path[512], *s;

	if (glob("/sys/devices/system/cpu/cpu[0-9]*/topology", 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc && nc < 1024; i++) {
		long p, c;

		snprintf(path, sizeof(path), "%s/physical_package_id", g.gl_pathv[i]);
		s = read_line(path);
		p = s ? strtol(s, NULL, 10) : -1;
		free(s);
		snprintf(path, sizeof(path), "%s/core_id", g.gl_pathv[i]);
		s = read_line(path);
		c = s ? strtol(s, NULL, 10) : -1;
		free(s);
		if (p < 0 || c < 0)
			goto out;
		for (j = 0; j < np && pkg[j] != p; j++)
			;
		if (j == np)
			pkg[np++] = p;
		for (j = 0; j < nc && (core[j][0] != p || core[j][1] != c); j++)
			;
		if (j == nc) {
			core[nc][0] = p;
			core[nc++][1] = c;
		}
	}
	if (np) {
		*sockets = dupf("%zu", np);
		*cores = dupf("%zu", nc);
	}
out:
	globfree(&g);
}

static char *memory_bytes(void)
{
	char line[256];
	unsigned long long kb;
	char *s = NULL;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return NULL;
	while (!s && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			s = dupf("%llu", (kb >> 20) << 30);
	fclose(f);
	return s;
}

/* Append "@a@sep@b" pieces to a malloc()ed string; NULL on ENOMEM. */
static char *append(char *s, const char *sep, const char *piece)
{
	char *r = s ? dupf("%s%s%s", s, sep, piece) : strdup(piece);

	free(s);
	return r;
}

/* The EDAC DIMMs, "location:sizeMB,..." in glob order (stable). */
static char *dimms(void)
{
	char path[512], *loc, *sz, *out = NULL;
	glob_t g;
	size_t i;

	if (glob("/sys/devices/system/edac/mc/mc[0-9]*/dimm[0-9]*", 0, NULL, &g))
		return NULL;
	for (i = 0; i < g.gl_pathc; i++) {
		snprintf(path, sizeof(path), "%s/dimm_location", g.gl_pathv[i]);
		loc = read_line(path);
		snprintf(path, sizeof(path), "%s/size", g.gl_pathv[i]);
		sz = read_line(path);
		if (loc && sz) {
			char *piece = dupf("%s:%sMB", loc, sz);

			out = piece ? append(out, ",", piece) : out;
			free(piece);
		}
		free(loc);
		free(sz);
	}
	globfree(&g);
	return out;
}

static int node_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	return atoi(strrchr(x, 'e') + 1) - atoi(strrchr(y, 'e') + 1);
}

/* "node:cpulist;..." in node order (glob's order puts node10 before node2). */
static char *numa(void)
{
	char path[512], *cpus, *piece, *out = NULL;
	glob_t g;
	size_t i;

	if (glob("/sys/devices/system/node/node[0-9]*", 0, NULL, &g))
		return NULL;
	qsort(g.gl_pathv, g.gl_pathc, sizeof(char *), node_cmp);
	for (i = 0; i < g.gl_pathc; i++) {
		snprintf(path, sizeof(path), "%s/cpulist", g.gl_pathv[i]);
		cpus = read_line(path);
		piece = dupf("%s:%s", strrchr(g.gl_pathv[i], 'e') + 1,
			     cpus ? cpus : "");
		out = piece ? append(out, ";", piece) : out;
		free(piece);
		free(cpus);
	}
	globfree(&g);
	return out;
}

/* The bracketed choice of "always [madvise] never". */
static char *thp(void)
{
	char *s = read_line("/sys/kernel/mm/transparent_hugepage/enabled");
	char *b = s ? strchr(s, '[') : NULL;
	char *e = b ? strchr(b, ']') : NULL;
	char *r = e ? strndup(b + 1, e - b - 1) : NULL;

	free(s);
	return r;
}

static char *uncore_khz(void)
{
	const char *dir = "/sys/devices/system/cpu/intel_uncore_frequency/package_00_die_00";
	char path[160], *lo, *hi, *r = NULL;

	snprintf(path, sizeof(path), "%s/min_freq_khz", dir);
	lo = read_line(path);
	snprintf(path, sizeof(path), "%s/max_freq_khz", dir);
	hi = read_line(path);
	if (lo && hi)
		r = dupf("%s-%s", lo, hi);
	free(lo);
	free(hi);
	return r;
}

void curve_fp_collect(struct curve_fp *fp, const char *prefetch)
{
	struct utsname u;
	long n;

	/* a field that cannot be read (or allocated) stays NULL: unknown */
	memset(fp, 0, sizeof(*fp));
	fp->v[CURVE_FP_CPU_VENDOR] = cpuinfo_value("vendor_id");
	fp->v[CURVE_FP_CPU_MODEL] = cpu_model();
	fp->v[CURVE_FP_CPU_MODEL_NAME] = cpuinfo_value("model name");
	fp->v[CURVE_FP_MICROCODE] = cpuinfo_value("microcode");
	topology(&fp->v[CURVE_FP_SOCKETS], &fp->v[CURVE_FP_CORES]);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n > 0)
		fp->v[CURVE_FP_CPUS] = dupf("%ld", n);
	fp->v[CURVE_FP_MEMORY_BYTES] = memory_bytes();
	fp->v[CURVE_FP_DIMMS] = dimms();
	fp->v[CURVE_FP_NUMA] = numa();
	if (!uname(&u))
		fp->v[CURVE_FP_KERNEL] = strdup(u.release);
	fp->v[CURVE_FP_THP] = thp();
	if (prefetch)
		fp->v[CURVE_FP_PREFETCH] = strdup(prefetch);
	fp->v[CURVE_FP_UNCORE_KHZ] = uncore_khz();
}

int curve_stale(const struct curve *c, char *reason, size_t size)
{
	struct curve_fp now;
	int rc;

	curve_fp_collect(&now, NULL);
	rc = curve_fp_compare(&c->fp, &now, reason, size);
	curve_fp_free(&now);
	return rc;
}
