// SPDX-License-Identifier: GPL-2.0
/*
 * mountinfo.c - read sysroot's /proc/self/mountinfo (proc(5)): the
 * mount point is field 5, the file system type and super options follow
 * the " - " separator.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mountinfo.h"
#include "sysroot.h"

/* Undo the kernel's \ooo escapes (space, tab, newline, backslash) in place. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* Split @line into @m; -EINVAL when it is not a mountinfo line. */
static int parse_line(char *line, struct mountinfo_entry *m)
{
	char *field[6], *sep, *save = NULL, *tok;
	int i;

	sep = strstr(line, " - ");
	if (!sep)
		return -EINVAL;
	*sep = '\0';
	tok = strtok_r(line, " ", &save);
	for (i = 0; i < 5 && tok; i++, tok = strtok_r(NULL, " ", &save))
		field[i] = tok;
	if (i < 5)
		return -EINVAL;
	save = NULL;
	field[0] = strtok_r(sep + 3, " \n", &save);	/* type */
	field[1] = strtok_r(NULL, " \n", &save);	/* source */
	field[2] = strtok_r(NULL, " \n", &save);	/* super options */
	if (!field[0] || !field[1])
		return -EINVAL;
	unescape(field[4]);
	m->mount = field[4];
	m->fstype = field[0];
	m->options = field[2] ? field[2] : "";
	return 0;
}

int mountinfo_each(int (*fn)(const struct mountinfo_entry *m, void *arg),
		   void *arg)
{
	char path[PATH_MAX], *line = NULL;
	struct mountinfo_entry m;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	if (sysroot_path(path, sizeof(path), "/proc/self/mountinfo"))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!ret && getline(&line, &cap, f) > 0) {
		ret = parse_line(line, &m);
		if (!ret)
			ret = fn(&m, arg);
	}
	free(line);
	fclose(f);
	return ret;
}
