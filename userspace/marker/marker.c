// SPDX-License-Identifier: GPL-2.0
/*
 * marker.c - libmemdiag-marker's API (memdiag_marker.h): regions by name,
 * a stack of open regions per thread, the deltas of each call added to its
 * region under the process's one lock.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/memdiag.h>

#include "marker_int.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct mk_state mk = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The counters a region sums; the epochs say when a sum broke. */
static const unsigned int summed[] = {
	A(TIME_NS), A(DRAM_READ_BYTES), A(DRAM_WRITE_BYTES),
	A(INSTRUCTIONS), A(CYCLES), A(REF_CYCLES), A(L1D_PEND_MISS),
	A(L1_MISS), A(LFB_HIT), A(L1_MISS_ANY), A(OFFCORE_DRAM_READS),
};

static const unsigned int epoch[NR_GROUPS] = {
	[GROUP_IMC] = A(IMC_EPOCH), [GROUP_CORE] = A(CORE_EPOCH),
};

/* One open region of this thread. */
struct mk_frame {
	char name[MEMDIAG_MARKER_NAME_MAX + 1];	/* mk.reg moves: a copy */
	size_t region;
	uint64_t t0;
	bool counted;		/* @snap holds the start's counters */
	struct snap *snap;	/* mk.nr_sock of them */
	bool *have;
	char why[MK_REASON];	/* when !counted */
};

static __thread struct mk_frame stack[MEMDIAG_MARKER_DEPTH_MAX];
static __thread unsigned int depth;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void at_exit(void)
{
	if (mk.init)
		memdiag_marker_close();
}

int memdiag_marker_init(void)
{
	static bool registered;

	pthread_mutex_lock(&mk.lock);
	if (!mk.init) {
		mk.init = true;
		mk.written = false;
		mk_connect();
		/* results also when the program forgets close() */
		if (!registered && atexit(at_exit) == 0)
			registered = true;
	}
	pthread_mutex_unlock(&mk.lock);
	return 0;
}

const char *memdiag_marker_counters_reason(void)
{
	const char *r;

	pthread_mutex_lock(&mk.lock);
	r = !mk.init ? "memdiag_marker_init() was not called" :
	    mk.reason[0] ? mk.reason : NULL;
	pthread_mutex_unlock(&mk.lock);
	return r;
}

/* The region @name, added when new; -1 when out of memory. Under lock. */
static long region(const char *name)
{
	struct mk_region *r;
	size_t i;

	for (i = 0; i < mk.nr_reg; i++)
		if (!strcmp(mk.reg[i].name, name))
			return (long)i;
	r = realloc(mk.reg, (mk.nr_reg + 1) * sizeof(*r));
	if (!r)
		return -1;
	mk.reg = r;
	r = &mk.reg[mk.nr_reg];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	for (i = 0; i < mk.nr_sock; i++)
		r->sock[i].id = mk.sock_id[i];
	return (long)mk.nr_reg++;
}

int memdiag_marker_start(const char *name)
{
	struct mk_frame *f;
	long reg;

	if (!name || !*name || !mk.init) {
		errno = EINVAL;
		return -1;
	}
	if (strlen(name) > MEMDIAG_MARKER_NAME_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (depth >= MEMDIAG_MARKER_DEPTH_MAX) {
		errno = ENOSPC;
		return -1;
	}
	f = &stack[depth];
	f->snap = NULL;
	f->have = NULL;
	snprintf(f->name, sizeof(f->name), "%s", name);
	pthread_mutex_lock(&mk.lock);
	reg = region(name);
	if (reg >= 0 && mk.nr_sock) {
		f->snap = calloc(mk.nr_sock, sizeof(*f->snap));
		f->have = calloc(mk.nr_sock, sizeof(*f->have));
	}
	if (reg < 0 || (mk.nr_sock && (!f->snap || !f->have))) {
		pthread_mutex_unlock(&mk.lock);
		free(f->snap);
		free(f->have);
		errno = ENOMEM;
		return -1;
	}
	f->region = (size_t)reg;
	f->counted = mk_snapshot(f->snap, f->have, f->why, sizeof(f->why)) == 0;
	pthread_mutex_unlock(&mk.lock);
	depth++;
	/* last: the snapshot's own time is not the region's */
	f->t0 = now_ns();
	return 0;
}

/* Add socket @i's deltas from @a to @b to @s. */
static void add_socket(struct mk_sum *s, const struct snap *a,
		       const struct snap *b)
{
	unsigned int g, k, at;

	for (g = 0; g < NR_GROUPS; g++) {
		at = epoch[g];
		if (!s->broke[g] && snap_has(a, at) && snap_has(b, at) &&
		    a->v[at] != b->v[at]) {
			s->broke[g] = true;
			s->from[g] = a->v[at];
			s->to[g] = b->v[at];
		}
	}
	for (k = 0; k < ARRAY_SIZE(summed); k++) {
		at = summed[k];
		/* a counter missing once is unknown over the region */
		if (!snap_has(a, at) || !snap_has(b, at)) {
			s->have &= ~(1u << at);
			continue;
		}
		if (!s->started)
			s->have |= 1u << at;
		if (s->have & (1u << at))
			s->v[at] += b->v[at] - a->v[at];
	}
	s->started = true;
}

/* The call of @f ended at @t1 with @end (or @why): into its region. */
static void account(struct mk_frame *f, uint64_t t1, const struct snap *end,
		    const bool *have, const char *why)
{
	struct mk_region *r = &mk.reg[f->region];
	size_t i;

	r->calls++;
	r->time_ns += t1 - f->t0;
	if (!why) {
		r->counted++;
		for (i = 0; i < mk.nr_sock; i++)
			if (f->have[i] && have[i])
				add_socket(&r->sock[i], &f->snap[i], &end[i]);
	} else if (!r->why[0]) {
		snprintf(r->why, sizeof(r->why), "%s", why);
	}
}

int memdiag_marker_stop(const char *name)
{
	struct snap end[MK_MAX_SOCK];
	bool have[MK_MAX_SOCK];
	char why[MK_REASON];
	uint64_t t1 = now_ns();
	struct mk_frame f;
	unsigned int i;
	bool ok;

	for (i = depth; i-- > 0;)
		if (name && !strcmp(stack[i].name, name))
			break;
	if (!name || i >= depth || !mk.init) {
		errno = ENOENT;
		return -1;
	}
	f = stack[i];
	/* an inner region left open stays open: only this one closes */
	memmove(&stack[i], &stack[i + 1], (depth - i - 1) * sizeof(stack[0]));
	depth--;
	pthread_mutex_lock(&mk.lock);
	ok = f.counted && mk_snapshot(end, have, why, sizeof(why)) == 0;
	account(&f, t1, end, have, ok ? NULL : f.counted ? why : f.why);
	pthread_mutex_unlock(&mk.lock);
	free(f.snap);
	free(f.have);
	return 0;
}

int memdiag_marker_close(void)
{
	const char *path = getenv(MEMDIAG_MARKER_ENV);
	int rc = 0;

	pthread_mutex_lock(&mk.lock);
	if (!mk.init) {
		pthread_mutex_unlock(&mk.lock);
		errno = EINVAL;
		return -1;
	}
	if (!path || !*path) {
		errno = ENOENT;
		rc = -1;
	} else if (!mk.written) {
		rc = mk_write(path);
	}
	mk.written = true;
	mk_disconnect();
	free(mk.reg);
	mk.reg = NULL;
	mk.nr_reg = 0;
	mk.nr_sock = 0;
	mk.init = false;
	pthread_mutex_unlock(&mk.lock);
	return rc;
}
