// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_read.c - a group's mbm_total_bytes in every L3 domain (in each
 * SNC node's mon_sub_L3_* where there are some), as bytes per socket
 * since the last read. The files count up in 64 bits from the group's
 * creation; anything else (a word, a value that went down) starts the
 * file over and its delta is skipped, so no rate is ever negative.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resctrl.h"

static const char *const value_names[] = {
	[RC_VALUE_OK] = "ok",
	[RC_VALUE_UNAVAILABLE] = "Unavailable",
	[RC_VALUE_UNASSIGNED] = "Unassigned",
	[RC_VALUE_ERROR] = "Error",
	[RC_VALUE_GONE] = "gone",
	[RC_VALUE_GARBAGE] = "not a number",
};

const char *rc_value_name(enum rc_value v)
{
	return v <= RC_VALUE_GARBAGE ? value_names[v] : "?";
}

enum rc_value rc_parse_value(const char *text, uint64_t *v)
{
	unsigned long long n;
	char *end;

	if (!strcmp(text, "Unavailable"))
		return RC_VALUE_UNAVAILABLE;
	if (!strcmp(text, "Unassigned"))
		return RC_VALUE_UNASSIGNED;
	if (!strcmp(text, "Error"))
		return RC_VALUE_ERROR;
	if (text[0] < '0' || text[0] > '9')
		return RC_VALUE_GARBAGE;
	errno = 0;
	n = strtoull(text, &end, 10);
	if (errno || *end)
		return RC_VALUE_GARBAGE;	/* beyond 64 bits, or trailing */
	*v = n;
	return RC_VALUE_OK;
}

size_t rc_nr_counters(const struct resctrl *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr_dom; i++)
		n += r->dom[i].nr_sub ? r->dom[i].nr_sub : 1;
	return n;
}

/* One file's value; RC_VALUE_GONE when it cannot be opened. */
static enum rc_value read_file(const char *path, uint64_t *v)
{
	char buf[64];
	size_t n;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return RC_VALUE_GONE;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return rc_parse_value(buf, v);
}

/* Account one file's reading @val against its last value in @c. */
static void account(struct rc_counter *c, enum rc_value val, uint64_t v,
		    uint64_t *bytes, struct rc_read_stats *st)
{
	switch (val) {
	case RC_VALUE_OK:
		if (c->have && v >= c->last)
			*bytes += v - c->last;
		else if (c->have)
			st->resets++;
		c->last = v;
		c->have = true;
		return;
	case RC_VALUE_UNAVAILABLE:
		st->unavailable++;
		break;
	case RC_VALUE_UNASSIGNED:
		st->unassigned++;
		break;
	case RC_VALUE_ERROR:
		st->error++;
		break;
	case RC_VALUE_GONE:
		st->gone++;
		break;
	default:
		st->garbage++;
		break;
	}
	c->have = false;	/* the next number is a new start */
}

int rc_read_group(const struct resctrl *r, const char *dir,
		  struct rc_counter *state, uint64_t *bytes,
		  struct rc_read_stats *st)
{
	unsigned int gone = st->gone;
	char path[PATH_MAX];
	size_t i, k = 0, n = 0;

	for (i = 0; i < r->nr_dom; i++) {
		const struct rc_domain *d = &r->dom[i];
		size_t s, subs = d->nr_sub ? d->nr_sub : 1;

		for (s = 0; s < subs; s++, k++) {
			uint64_t v = 0, delta = 0;
			enum rc_value val;
			int len;

			if (d->nr_sub)
				len = snprintf(path, sizeof(path),
					       "%s/%s%smon_data/mon_L3_%02u/mon_sub_L3_%02u/mbm_total_bytes",
					       r->root, dir, *dir ? "/" : "",
					       d->id, d->sub[s]);
			else
				len = snprintf(path, sizeof(path),
					       "%s/%s%smon_data/mon_L3_%02u/mbm_total_bytes",
					       r->root, dir, *dir ? "/" : "",
					       d->id);
			val = len < (int)sizeof(path) ?
				read_file(path, &v) : RC_VALUE_GONE;
			account(&state[k], val, v, &delta, st);
			if (d->socket >= 0)
				bytes[d->socket] += delta;
			n++;
		}
	}
	/* every file gone: the group itself is */
	return n && st->gone - gone == n ? -ENOENT : 0;
}
