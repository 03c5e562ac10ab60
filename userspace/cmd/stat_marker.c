// SPDX-License-Identifier: GPL-2.0
/*
 * stat_marker.c - "memdiagctl stat --marker": the results file of
 * libmemdiag-marker (marker/marker_out.c, one JSON line per process,
 * json-c), merged by region name across processes and turned into
 * counters slots, so the regions print through run's one print path.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "marker/memdiag_marker.h"
#include "csv.h"
#include "names.h"
#include "stat_marker.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x

int stat_marker_begin(struct stat_marker *m, char *why, size_t size)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s/memdiag-marker.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(m->path);
	if (fd < 0) {
		snprintf(why, size, "cannot make the regions' file '%s': %s",
			 m->path, strerror(errno));
		return -1;
	}
	close(fd);
	if (setenv(MEMDIAG_MARKER_ENV, m->path, 1) < 0) {
		snprintf(why, size, "cannot set " MEMDIAG_MARKER_ENV ": %s",
			 strerror(errno));
		unlink(m->path);
		return -1;
	}
	m->on = true;
	return 0;
}

static uint64_t u64(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	return json_object_get_uint64(v);
}

/* The region @name, added when new (NULL when out of memory). */
static struct stat_region *region(struct stat_marker *m, const char *name,
				  size_t nr_sock)
{
	struct stat_region *r;
	size_t i;

	for (i = 0; i < m->nr_reg; i++)
		if (!strcmp(m->reg[i].name, name))
			return &m->reg[i];
	r = realloc(m->reg, (m->nr_reg + 1) * sizeof(*r));
	if (!r)
		return NULL;
	m->reg = r;
	r = &m->reg[m->nr_reg];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->a = calloc(nr_sock ? nr_sock : 1, sizeof(*r->a));
	r->b = calloc(nr_sock ? nr_sock : 1, sizeof(*r->b));
	r->have = calloc(nr_sock ? nr_sock : 1, sizeof(*r->have));
	if (!r->a || !r->b || !r->have) {
		free(r->a);
		free(r->b);
		free(r->have);
		return NULL;
	}
	m->nr_reg++;
	return r;
}

/* An attribute by the spec's name, or 0. */
static unsigned int attr_by_name(const char *name)
{
	unsigned int at;

	for (at = 1; at < SNAP_ATTRS; at++)
		if (name_snapshot_attr(at) && !strcmp(name_snapshot_attr(at), name))
			return at;
	return 0;
}

/* One socket's deltas of one process into socket @i of @r. */
static void add_socket(struct stat_region *r, size_t i, struct json_object *s)
{
	static const char *const key[][2] = {
		{ "imc_epoch_from", "imc_epoch_to" },
		{ "core_epoch_from", "core_epoch_to" },
	};
	static const unsigned int epoch[] = { A(IMC_EPOCH), A(CORE_EPOCH) };
	struct snap *a = &r->a[i], *b = &r->b[i];
	struct json_object *d, *from;
	bool first = !r->have[i];
	unsigned int g, at;
	uint32_t seen = 0;

	for (g = 0; g < 2; g++) {
		/* the first change is the one named; none: equal epochs */
		if (snap_has(a, epoch[g]) && a->v[epoch[g]] != b->v[epoch[g]])
			continue;
		if (json_object_object_get_ex(s, key[g][0], &from)) {
			snap_set(a, epoch[g], json_object_get_uint64(from));
			snap_set(b, epoch[g], u64(s, key[g][1]));
		} else if (first) {
			snap_set(a, epoch[g], 0);
			snap_set(b, epoch[g], 0);
		}
	}
	if (!json_object_object_get_ex(s, "deltas", &d) ||
	    !json_object_is_type(d, json_type_object))
		return;
	json_object_object_foreach(d, k, v) {
		at = attr_by_name(k);
		if (!at || at == A(SOCKET) || at == epoch[0] || at == epoch[1])
			continue;
		seen |= 1u << at;
		if (first) {
			snap_set(a, at, 0);
			snap_set(b, at, 0);
		}
		if (snap_has(b, at))
			b->v[at] += json_object_get_uint64(v);
	}
	/* a counter one process lacked is unknown for the region */
	b->have &= seen | (1u << A(SOCKET)) | (1u << epoch[0]) |
		   (1u << epoch[1]);
	r->have[i] = true;
}

/* One region object of one process into @m. */
static void add_region(struct stat_marker *m, const struct counters *c,
		       struct json_object *o, const char *reason)
{
	struct json_object *name, *socks, *why, *s;
	struct stat_region *r;
	size_t i, j, n;

	if (!json_object_object_get_ex(o, "name", &name) ||
	    !json_object_is_type(name, json_type_string))
		return;
	r = region(m, json_object_get_string(name), c->nr_sock);
	if (!r)
		return;
	r->calls += u64(o, "calls");
	r->time_ns += u64(o, "time_ns");
	r->counted += u64(o, "counted_calls");
	if (json_object_object_get_ex(o, "counters_reason", &why) &&
	    json_object_is_type(why, json_type_string))
		reason = json_object_get_string(why);
	if (reason && !r->why[0])
		snprintf(r->why, sizeof(r->why), "%s", reason);
	if (!json_object_object_get_ex(o, "sockets", &socks) ||
	    !json_object_is_type(socks, json_type_array))
		return;
	n = json_object_array_length(socks);
	for (j = 0; j < n; j++) {
		s = json_object_array_get_idx(socks, j);
		for (i = 0; i < c->nr_sock; i++)
			if (u64(s, "socket") == c->sock_id[i])
				add_socket(r, i, s);
	}
}

static void read_line(struct stat_marker *m, const struct counters *c,
		      const char *line)
{
	struct json_object *doc = json_tokener_parse(line), *regs, *why;
	const char *reason = NULL;
	size_t i;

	if (!doc || !json_object_object_get_ex(doc, "regions", &regs) ||
	    !json_object_is_type(regs, json_type_array)) {
		if (!m->bad[0])
			snprintf(m->bad, sizeof(m->bad), "%.80s", line);
		json_object_put(doc);
		return;
	}
	m->processes++;
	if (json_object_object_get_ex(doc, "counters_reason", &why) &&
	    json_object_is_type(why, json_type_string))
		reason = json_object_get_string(why);
	for (i = 0; i < json_object_array_length(regs); i++)
		add_region(m, c, json_object_array_get_idx(regs, i), reason);
	json_object_put(doc);
}

/* Region @r's sums into its slot of @c. */
static void fill_slot(struct stat_region *r, struct counters *c)
{
	const char *label[] = { r->name };
	const struct snap **pa, **pb;
	struct counters_slot *s;
	size_t i;

	r->slot = counters_next(c, 1, label);
	if (r->slot >= c->nr_slot)
		return;
	s = &c->slot[r->slot];
	if (r->why[0] || !r->counted) {
		s->failed = true;
		snprintf(s->why, sizeof(s->why), "%s", r->why[0] ? r->why :
			 "no call of the region was counted");
		return;
	}
	pa = calloc(c->nr_sock ? c->nr_sock : 1, sizeof(*pa));
	pb = calloc(c->nr_sock ? c->nr_sock : 1, sizeof(*pb));
	for (i = 0; pa && pb && i < c->nr_sock; i++) {
		snap_set(&r->a[i], A(SOCKET), c->sock_id[i]);
		snap_set(&r->b[i], A(SOCKET), c->sock_id[i]);
		pa[i] = r->have[i] ? &r->a[i] : NULL;
		pb[i] = r->have[i] ? &r->b[i] : NULL;
	}
	if (pa && pb)
		counters_add(c, r->slot, pa, pb);
	free(pa);
	free(pb);
	/* the calls, and the time the library measured around them */
	s->intervals = (unsigned int)r->counted;
	s->timed = (double)r->time_ns / 1e9;
}

void stat_marker_read(struct stat_marker *m, struct counters *c)
{
	char *line = NULL;
	size_t cap = 0, i;
	FILE *f;

	if (!m->on)
		return;
	f = fopen(m->path, "re");
	while (f && getline(&line, &cap, f) > 0)
		read_line(m, c, line);
	free(line);
	if (f)
		fclose(f);
	for (i = 0; i < m->nr_reg; i++)
		fill_slot(&m->reg[i], c);
}

void stat_marker_print(struct printer *p, const struct stat_marker *m,
		       const struct counters *c)
{
	const struct stat_region *r;
	size_t i;

	if (!m->on)
		return;
	print_open_array(p, "regions");
	if (m->nr_reg)
		print_textf(p, "regions (libmemdiag-marker, %u process%s):\n%-24s %10s %12s\n",
			    m->processes, m->processes == 1 ? "" : "es",
			    "region", "calls", "time_s");
	else
		print_textf(p, "regions: none: CMD reported no region (is it linked with libmemdiag-marker, and did it call memdiag_marker_init()?)\n");
	for (i = 0; i < m->nr_reg; i++) {
		r = &m->reg[i];
		print_open_object(p, NULL);
		print_string(p, PRINT_ANY, "name", "%-24s", r->name);
		print_u64(p, PRINT_ANY, "calls", " %10" PRIu64, r->calls);
		print_double(p, PRINT_ANY, "time_s", " %12.6f\n",
			     (double)r->time_ns / 1e9);
		print_u64(p, PRINT_JSON, "counted_calls", "%" PRIu64, r->counted);
		counters_json(p, c, r->slot);
		print_close_object(p);
	}
	print_close_array(p);
}

int stat_marker_csv(FILE *f, const struct stat_marker *m,
		    const struct counters *c)
{
	struct printer p;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc;

	if (!mem)
		return -1;
	print_init(&p, mem, true, false);
	print_open_object(&p, NULL);
	stat_marker_print(&p, m, c);
	print_close_object(&p);
	rc = print_end(&p);
	fclose(mem);
	if (rc == 0)
		rc = csv_table(f, buf, "regions");
	free(buf);
	return rc;
}

void stat_marker_end(struct stat_marker *m)
{
	size_t i;

	if (m->on) {
		unlink(m->path);
		unsetenv(MEMDIAG_MARKER_ENV);
	}
	for (i = 0; i < m->nr_reg; i++) {
		free(m->reg[i].a);
		free(m->reg[i].b);
		free(m->reg[i].have);
	}
	free(m->reg);
	memset(m, 0, sizeof(*m));
}
