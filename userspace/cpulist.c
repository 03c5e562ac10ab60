// SPDX-License-Identifier: GPL-2.0
/* cpulist.c - compress CPU numbers into ranges for the text output. */

#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpulist.h"

/* Append ",a" or ",a-b" (no comma first); snprintf keeps @buf terminated. */
static void append(char *buf, size_t size, size_t *len, bool first,
		   uint32_t a, uint32_t b)
{
	size_t room = *len < size ? size - *len : 0;
	char *at = room ? buf + *len : NULL;
	const char *sep = first ? "" : ",";
	int n;

	if (a == b)
		n = snprintf(at, room, "%s%u", sep, a);
	else
		n = snprintf(at, room, "%s%u-%u", sep, a, b);
	if (n > 0)
		*len += (size_t)n;
}

size_t cpulist_format(char *buf, size_t size, const uint32_t *cpu, size_t n)
{
	size_t len = 0, i = 0, j;

	if (size)
		buf[0] = '\0';
	while (i < n) {
		/* the UINT32_MAX test keeps the +1 from wrapping to CPU 0 */
		for (j = i; j + 1 < n && cpu[j] != UINT32_MAX &&
			    cpu[j + 1] == cpu[j] + 1; j++)
			;
		append(buf, size, &len, i == 0, cpu[i], cpu[j]);
		i = j + 1;
	}
	return len;
}

#define CPULIST_MAX 65536u	/* more than any kernel's NR_CPUS */

int cpulist_parse(const char *s, const cpu_set_t *allowed, uint32_t **cpu,
		  size_t *n, char *err, size_t size)
{
	const char *q = s;
	unsigned long lo, hi, c;
	uint32_t *list = NULL, *grown;
	size_t nr = 0, i;
	char *end;

	*cpu = NULL;
	*n = 0;
	for (;;) {
		if (*q < '0' || *q > '9')
			goto bad;
		errno = 0;
		lo = strtoul(q, &end, 10);
		hi = lo;
		q = end;
		if (*q == '-') {
			q++;
			if (*q < '0' || *q > '9')
				goto bad;
			hi = strtoul(q, &end, 10);
			q = end;
		}
		/* with @allowed, the loop stops at the first CPU outside it */
		if (errno || hi < lo || (!allowed && hi >= CPULIST_MAX))
			goto bad;
		for (c = lo; c <= hi; c++) {
			if (allowed && (c >= CPU_SETSIZE ||
					!CPU_ISSET((int)c, allowed))) {
				snprintf(err, size,
					 "CPU %lu is not online or not allowed for this process",
					 c);
				free(list);
				return -1;
			}
			for (i = 0; i < nr; i++) {
				if (list[i] == c) {
					snprintf(err, size, "CPU %lu is listed twice",
						 c);
					free(list);
					return -1;
				}
			}
			grown = realloc(list, (nr + 1) * sizeof(*list));
			if (!grown) {
				snprintf(err, size, "out of memory");
				free(list);
				return -1;
			}
			list = grown;
			list[nr++] = (uint32_t)c;
		}
		if (!*q)
			break;
		if (*q++ != ',')
			goto bad;
	}
	*cpu = list;
	*n = nr;
	return 0;
bad:
	snprintf(err, size, "'%s' is not a CPU list (like 0-3,8)", s);
	free(list);
	return -1;
}
