// SPDX-License-Identifier: GPL-2.0
/* cpulist.c - compress CPU numbers into ranges for the text output. */

#include <stdbool.h>
#include <stdio.h>

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
