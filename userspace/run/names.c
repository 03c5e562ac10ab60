// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - what kernel-specific options share: lists of names
 * (--mix, --variant, --timing) and which instructions the CPU may be asked for,
 * with the hook the tests use to pretend a CPU lacks some.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run.h"

int run_parse_names(const char *cmd, const char *opt, const char *what,
		    const char *s, const char *const *names, unsigned int nr,
		    bool list, unsigned int *mask)
{
	const char *q = s, *end;
	char all[256];
	unsigned int i;
	size_t len;

	run_name_list(all, sizeof(all), names, nr, (1u << nr) - 1);
	*mask = 0;
	if (list && (!*s || *s == ',' || s[strlen(s) - 1] == ',' ||
		     strstr(s, ",,")))
		return cli_usage(cmd, "option '%s': '%s' is not a comma list of %s names: use %s (or a comma list of them)",
				 opt, s, what, all);
	for (;;) {
		end = list ? strchr(q, ',') : NULL;
		len = end ? (size_t)(end - q) : strlen(q);
		for (i = 0; i < nr; i++)
			if (strlen(names[i]) == len && !strncmp(q, names[i], len))
				break;
		if (i == nr)
			return cli_usage(cmd, "option '%s': '%.*s' is not a %s: use %s%s",
					 opt, (int)len, q, what, all,
					 list ? " (or a comma list of them)" : "");
		if (*mask & (1u << i))
			return cli_usage(cmd, "option '%s': %s '%s' is listed twice",
					 opt, what, names[i]);
		*mask |= 1u << i;
		if (!end)
			return MDC_EXIT_OK;
		q = end + 1;
	}
}

void run_name_list(char *buf, size_t size, const char *const *names,
		   unsigned int nr, unsigned int mask)
{
	unsigned int i, n = 0, total = 0;
	size_t len = 0;

	for (i = 0; i < nr; i++)
		total += !!(mask & (1u << i));
	buf[0] = 0;
	for (i = 0; i < nr && len < size; i++) {
		if (!(mask & (1u << i)))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					!n ? "" : n + 1 == total ? " or " : ", ",
					names[i]);
		n++;
	}
}

/* Whether MEMDIAG_TEST_HIDE_CPU lists @name. */
static bool hidden(const char *name)
{
	const char *q = getenv("MEMDIAG_TEST_HIDE_CPU"), *end;
	size_t len;

	while (q && *q) {
		end = strchr(q, ',');
		len = end ? (size_t)(end - q) : strlen(q);
		if (strlen(name) == len && !strncmp(q, name, len))
			return true;
		q = end ? end + 1 : NULL;
	}
	return false;
}

bool run_cpu_has(enum kern_cpu_feature f)
{
	return kern_cpu_has(f) && !hidden(kern_cpu_feature_name[f]);
}

bool run_fits_memory(uint64_t bytes)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || size <= 0)
		return true;
	return bytes / 3 <= (uint64_t)pages / 4 * (uint64_t)size;
}

int run_timing_option(const char *cmd, const char *arg, enum kern_timing *t)
{
	unsigned int mask;
	int rc;

	rc = run_parse_names(cmd, "--timing", "timing", arg, kern_timing_name,
			     KERN_NR_TIMINGS, false, &mask);
	if (rc == MDC_EXIT_OK)
		*t = (enum kern_timing)__builtin_ctz(mask);
	return rc;
}
