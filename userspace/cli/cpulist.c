// SPDX-License-Identifier: GPL-2.0
/*
 * cpulist.c - CPU lists: parse "0-3,8" from the command line, compress CPU
 * numbers into ranges for the text output.
 */

#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#define WORD_BITS (8 * sizeof(unsigned long))

/*
 * Set bit @c of @seen; true if it was set already. A bitmap keeps the
 * duplicate check linear: "0-65535" is 65536 lookups, not 2^31.
 */
static bool seen_before(unsigned long *seen, unsigned long c)
{
	unsigned long bit = 1ul << (c % WORD_BITS);
	bool was = seen[c / WORD_BITS] & bit;

	seen[c / WORD_BITS] |= bit;
	return was;
}

/* Append @c to *@list, growing it by doubling. */
static int push(uint32_t **list, size_t *nr, size_t *cap, unsigned long c)
{
	uint32_t *grown;

	if (*nr == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		grown = realloc(*list, *cap * sizeof(**list));
		if (!grown)
			return -1;
		*list = grown;
	}
	(*list)[(*nr)++] = (uint32_t)c;
	return 0;
}

int cpulist_parse(const char *s, const cpu_set_t *allowed, uint32_t **cpu,
		  size_t *n, char *err, size_t size)
{
	unsigned long lo, hi, c, *seen;
	uint32_t *list = NULL;
	size_t nr = 0, cap = 0;
	const char *q = s;
	char *end;

	*cpu = NULL;
	*n = 0;
	/* with @allowed every CPU is below CPU_SETSIZE, far below this */
	seen = calloc(CPULIST_MAX / WORD_BITS, sizeof(*seen));
	if (!seen) {
		snprintf(err, size, "out of memory");
		return -1;
	}
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
				goto fail;
			}
			if (seen_before(seen, c)) {
				snprintf(err, size, "CPU %lu is listed twice", c);
				goto fail;
			}
			if (push(&list, &nr, &cap, c) < 0) {
				snprintf(err, size, "out of memory");
				goto fail;
			}
		}
		if (!*q)
			break;
		if (*q++ != ',')
			goto bad;
	}
	free(seen);
	*cpu = list;
	*n = nr;
	return 0;
bad:
	snprintf(err, size, "'%s' is not a CPU list (like 0-3,8)", s);
fail:
	free(seen);
	free(list);
	return -1;
}

int cpulist_possible(const char *path, uint32_t *nr)
{
	char line[4096], err[160];
	uint32_t *cpu, max = 0;
	size_t n, i;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (cpulist_parse(line, NULL, &cpu, &n, err, sizeof(err)) < 0 || !n)
		return -1;
	for (i = 0; i < n; i++)
		if (cpu[i] > max)
			max = cpu[i];
	free(cpu);
	*nr = max + 1;
	return 0;
}
