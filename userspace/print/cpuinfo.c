// SPDX-License-Identifier: GPL-2.0
/* cpuinfo.c - one value of /proc/cpuinfo (meta.h), for meta and the curves. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"

char *cpuinfo_value(const char *key)
{
	char line[1024], *v = NULL, *p;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return NULL;
	while (!v && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, n) || !strchr(" \t:", line[n]))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		p += strspn(p + 1, " \t") + 1;
		p[strcspn(p, "\n")] = '\0';
		v = strdup(p);
	}
	fclose(f);
	return v;
}
