// SPDX-License-Identifier: GPL-2.0
/*
 * curve.c - read a curve file (Documentation/curves.rst) with json-c into
 * struct curve: types here, ranges and cross-field rules in curve_check.c.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "curve.h"
#include "curve_json.h"
#include "curve_quality.h"

/* A file larger than this is not a curve file (a curve has ~100 points). */
#define CURVE_MAX_FILE (16u << 20)

static const char *const pf_names[NR_CURVE_PF] = {
	[CURVE_PF_ON] = "on",
	[CURVE_PF_OFF] = "off",
	[CURVE_PF_UNCHANGED] = "unchanged",
};

const char *curve_pf_name(enum curve_pf pf)
{
	return pf < NR_CURVE_PF ? pf_names[pf] : NULL;
}

const char *curve_source_name(enum curve_source s)
{
	return s == CURVE_SRC_IMC ? "imc" : "kernel";
}

int curve_fail(int err, char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	errno = err;
	return -1;
}


static int bad(const struct jctx *x, const char *key, const char *what)
{
	return curve_fail(EINVAL, x->why, x->size, "%s%s%s: %s", x->at,
		    *x->at ? "." : "", key, what);
}

static int member(const struct jctx *x, json_object *o, const char *key,
		  json_type t, json_object **v)
{
	static const char *const type_name[] = {
		[json_type_boolean] = "a boolean", [json_type_double] = "a number",
		[json_type_int] = "a number", [json_type_object] = "an object",
		[json_type_array] = "an array", [json_type_string] = "a string",
	};

	if (!json_object_object_get_ex(o, key, v))
		return bad(x, key, "missing");
	if (json_object_is_type(*v, t))
		return 0;
	/* a number may be written either way (1 or 1.0) */
	if (t == json_type_double && json_object_is_type(*v, json_type_int))
		return 0;
	if (t < (json_type)(sizeof(type_name) / sizeof(type_name[0])) &&
	    type_name[t]) {
		char what[32];

		snprintf(what, sizeof(what), "not %s", type_name[t]);
		return bad(x, key, what);
	}
	return bad(x, key, "wrong type");
}

static int get_double(const struct jctx *x, json_object *o, const char *key,
		      double *d)
{
	json_object *v;

	if (member(x, o, key, json_type_double, &v))
		return -1;
	*d = json_object_get_double(v);
	if (!isfinite(*d))
		return bad(x, key, "not a finite number");
	return 0;
}

static int get_uint(const struct jctx *x, json_object *o, const char *key,
		    uint64_t max, uint64_t *u)
{
	json_object *v;
	int64_t i;

	if (member(x, o, key, json_type_int, &v))
		return -1;
	errno = 0;
	i = json_object_get_int64(v);
	/* json-c saturates at INT64_MAX and says so in errno */
	if (i < 0 || errno == ERANGE || (uint64_t)i > max)
		return bad(x, key, "out of range");
	*u = (uint64_t)i;
	return 0;
}

static int get_u32(const struct jctx *x, json_object *o, const char *key,
		   uint32_t *u)
{
	uint64_t v;

	if (get_uint(x, o, key, UINT32_MAX, &v))
		return -1;
	*u = (uint32_t)v;
	return 0;
}

/* A required string member, copied. */
static int get_string(const struct jctx *x, json_object *o, const char *key,
		      char **s)
{
	json_object *v;

	if (member(x, o, key, json_type_string, &v))
		return -1;
	*s = strdup(json_object_get_string(v));
	return *s ? 0 : curve_fail(ENOMEM, x->why, x->size, "out of memory");
}

static int get_enum(const struct jctx *x, json_object *o, const char *key,
		    const char *const *names, unsigned int n, unsigned int *e)
{
	json_object *v;
	const char *s;
	unsigned int i;

	if (member(x, o, key, json_type_string, &v))
		return -1;
	s = json_object_get_string(v);
	for (i = 0; i < n; i++) {
		if (!strcmp(s, names[i])) {
			*e = i;
			return 0;
		}
	}
	return bad(x, key, "not one of the allowed values");
}

/* The readers above for the other parts of the file (curve_json.h). */
int curve_json_bad(const struct jctx *x, const char *key, const char *what)
{
	return bad(x, key, what);
}

int curve_json_double(const struct jctx *x, json_object *o, const char *key,
		      double *d)
{
	return get_double(x, o, key, d);
}

int curve_json_uint(const struct jctx *x, json_object *o, const char *key,
		    uint64_t max, uint64_t *u)
{
	return get_uint(x, o, key, max, u);
}

int curve_json_string(const struct jctx *x, json_object *o, const char *key,
		      char **s)
{
	return get_string(x, o, key, s);
}

/* An array member with at least @min elements: its length, or -1. */
static long get_array(const struct jctx *x, json_object *o, const char *key,
		      size_t min, json_object **a)
{
	size_t n;

	if (member(x, o, key, json_type_array, a))
		return -1;
	n = json_object_array_length(*a);
	if (n < min) {
		char what[48];

		snprintf(what, sizeof(what), "needs at least %zu element%s",
			 min, min == 1 ? "" : "s");
		return bad(x, key, what);
	}
	return (long)n;
}

/* Element @i of @a, which must be an object: checked like a member. */
static json_object *element(const struct jctx *x, json_object *a,
			    const char *key, size_t i)
{
	json_object *e = json_object_array_get_idx(a, i);
	char name[64];

	if (json_object_is_type(e, json_type_object))
		return e;
	snprintf(name, sizeof(name), "%s[%zu]", key, i);
	bad(x, name, "not an object");
	return NULL;
}

/* An optional number: 0 when absent, else as get_double(). */
static int get_opt_double(const struct jctx *x, json_object *o,
			  const char *key, double *d)
{
	json_object *v;

	*d = 0;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	return get_double(x, o, key, d);
}

static int parse_point(const struct jctx *x, json_object *o,
		       struct curve_point *p)
{
	uint64_t delay;

	if (get_u32(x, o, "threads", &p->threads) ||
	    get_uint(x, o, "delay", UINT64_MAX, &delay) ||
	    get_double(x, o, "bandwidth_gbps", &p->bandwidth_gbps) ||
	    get_double(x, o, "read_gbps", &p->read_gbps) ||
	    get_double(x, o, "write_gbps", &p->write_gbps) ||
	    get_double(x, o, "latency_ns", &p->latency_ns) ||
	    get_opt_double(x, o, "latency_p50_ns", &p->latency_p50_ns) ||
	    get_opt_double(x, o, "latency_p90_ns", &p->latency_p90_ns) ||
	    get_opt_double(x, o, "latency_p99_ns", &p->latency_p99_ns) ||
	    get_double(x, o, "cov", &p->cov) ||
	    get_u32(x, o, "repeats", &p->repeats))
		return -1;
	p->delay = delay;
	return 0;
}

static int parse_mix(const struct jctx *x, json_object *o,
		     struct curve_mix *m)
{
	struct jctx px = *x;
	char at[128];
	json_object *a, *e;
	uint64_t peak;
	unsigned int pf = 0;
	long n, i;

	if (get_double(x, o, "read_fraction", &m->read_fraction) ||
	    get_enum(x, o, "prefetch", pf_names, NR_CURVE_PF, &pf) ||
	    get_uint(x, o, "peak_index", SIZE_MAX, &peak))
		return -1;
	m->prefetch = pf;
	m->peak_index = peak;
	n = get_array(x, o, "points", 2, &a);
	if (n < 0)
		return -1;
	m->points = calloc(n, sizeof(*m->points));
	if (!m->points)
		return curve_fail(ENOMEM, x->why, x->size, "out of memory");
	m->nr_points = n;
	px.at = at;
	for (i = 0; i < n; i++) {
		e = element(x, a, "points", i);
		if (!e)
			return -1;
		snprintf(at, sizeof(at), "%s.points[%ld]", x->at, i);
		if (parse_point(&px, e, &m->points[i]))
			return -1;
	}
	return 0;
}

static int parse_socket(const struct jctx *x, json_object *o,
			struct curve_socket *s)
{
	struct jctx mx = *x;
	char at[96];
	json_object *a, *e;
	long n, i;

	if (get_u32(x, o, "socket", &s->socket) ||
	    get_string(x, o, "cpus", &s->cpus) ||
	    get_u32(x, o, "chase_cpu", &s->chase_cpu) ||
	    get_double(x, o, "idle_latency_ns", &s->idle_latency_ns))
		return -1;
	n = get_array(x, o, "curves", 1, &a);
	if (n < 0)
		return -1;
	s->mixes = calloc(n, sizeof(*s->mixes));
	if (!s->mixes)
		return curve_fail(ENOMEM, x->why, x->size, "out of memory");
	s->nr_mixes = n;
	mx.at = at;
	for (i = 0; i < n; i++) {
		e = element(x, a, "curves", i);
		if (!e)
			return -1;
		snprintf(at, sizeof(at), "%s.curves[%ld]", x->at, i);
		if (parse_mix(&mx, e, &s->mixes[i]))
			return -1;
	}
	return curve_quality_parse(x, o, s);
}

static int parse_fp(const struct jctx *x, json_object *o, struct curve_fp *fp)
{
	json_object *v;
	unsigned int f;

	for (f = 0; f < NR_CURVE_FP; f++) {
		if (!json_object_object_get_ex(o, curve_fp_key(f), &v))
			return bad(x, curve_fp_key(f), "missing");
		if (json_object_is_type(v, json_type_null))
			continue;
		if (!json_object_is_type(v, json_type_string))
			return bad(x, curve_fp_key(f), "not a string or null");
		fp->v[f] = strdup(json_object_get_string(v));
		if (!fp->v[f])
			return curve_fail(ENOMEM, x->why, x->size, "out of memory");
	}
	return 0;
}

static int parse_top(const struct jctx *x, json_object *o, struct curve *c)
{
	static const char *const src_names[] = { "imc", "kernel" };
	struct jctx sx = *x;
	char at[48];
	json_object *v, *a, *e;
	uint64_t version;
	unsigned int src = 0;
	long n, i;

	if (!json_object_is_type(o, json_type_object))
		return curve_fail(EINVAL, x->why, x->size, "not a JSON object");
	if (member(x, o, "format", json_type_string, &v))
		return -1;
	if (strcmp(json_object_get_string(v), CURVE_FORMAT))
		return bad(x, "format", "not \"" CURVE_FORMAT "\"");
	if (get_uint(x, o, "version", UINT32_MAX, &version))
		return -1;
	if (version != CURVE_VERSION)
		return curve_fail(EINVAL, x->why, x->size,
			    "version: %" PRIu64
			    " is not supported (this memdiagctl reads version %d)",
			    version, CURVE_VERSION);
	c->version = version;
	if (get_string(x, o, "created", &c->created) ||
	    get_string(x, o, "tool_version", &c->tool_version) ||
	    get_enum(x, o, "bandwidth_source", src_names, 2, &src))
		return -1;
	c->source = src;
	if (member(x, o, "fingerprint", json_type_object, &v))
		return -1;
	sx.at = "fingerprint";
	if (parse_fp(&sx, v, &c->fp))
		return -1;
	n = get_array(x, o, "sockets", 1, &a);
	if (n < 0)
		return -1;
	c->sockets = calloc(n, sizeof(*c->sockets));
	if (!c->sockets)
		return curve_fail(ENOMEM, x->why, x->size, "out of memory");
	c->nr_sockets = n;
	sx.at = at;
	for (i = 0; i < n; i++) {
		e = element(x, a, "sockets", i);
		if (!e)
			return -1;
		snprintf(at, sizeof(at), "sockets[%ld]", i);
		if (parse_socket(&sx, e, &c->sockets[i]))
			return -1;
	}
	return 0;
}

/* The whole file into a NUL-terminated buffer, refusing huge ones. */
static char *slurp(const char *path, size_t *len, char *why, size_t size)
{
	struct stat st;
	char *buf;
	ssize_t r;
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		curve_fail(errno, why, size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size > CURVE_MAX_FILE) {
		close(fd);
		curve_fail(EINVAL, why, size, "%s: not a regular file under %u MiB",
		     path, CURVE_MAX_FILE >> 20);
		return NULL;
	}
	buf = malloc(st.st_size + 1);
	if (!buf) {
		close(fd);
		curve_fail(ENOMEM, why, size, "out of memory");
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		r = read(fd, buf + got, st.st_size - got);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		got += r;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

static json_object *parse_json(const char *path, const char *buf, size_t len,
			       char *why, size_t size)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error err;
	json_object *o;

	if (!tok) {
		curve_fail(ENOMEM, why, size, "out of memory");
		return NULL;
	}
	/* strict: no comments, no trailing commas, nothing after the object */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	/* the terminating NUL tells json-c the input ends ("null", "12") */
	o = json_tokener_parse_ex(tok, buf, (int)len + 1);
	err = json_tokener_get_error(tok);
	if (!o || err != json_tokener_success) {
		if (err == json_tokener_success)	/* the literal null */
			curve_fail(EINVAL, why, size, "%s: not a JSON object", path);
		else if (!len)
			curve_fail(EINVAL, why, size, "%s: empty", path);
		else if (err == json_tokener_continue ||
			 tok->char_offset >= (int)len)	/* failed at the NUL */
			curve_fail(EINVAL, why, size, "%s: truncated (the JSON ends early)",
			     path);
		else
			curve_fail(EINVAL, why, size, "%s: not valid JSON at byte %d: %s",
			     path, tok->char_offset,
			     json_tokener_error_desc(err));
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

int curve_load(const char *path, struct curve *c, char *why, size_t size)
{
	struct jctx x = { .why = why, .size = size, .at = "" };
	char sub[CURVE_WHY_SIZE];
	json_object *o;
	size_t len;
	char *buf;
	int rc;

	memset(c, 0, sizeof(*c));
	buf = slurp(path, &len, why, size);
	if (!buf)
		return -1;
	o = parse_json(path, buf, len, why, size);
	free(buf);
	if (!o)
		return -1;
	x.why = sub;
	x.size = sizeof(sub);
	rc = parse_top(&x, o, c);
	json_object_put(o);
	if (!rc)
		rc = curve_check(c, sub, sizeof(sub));
	if (rc) {
		int e = errno;

		snprintf(why, size, "%s: %s", path, sub);
		errno = e;
	}
	return rc;
}

int curve_default_path(char *buf, size_t size)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (geteuid() == 0)
		n = snprintf(buf, size, "%s/%s", CURVE_SYSTEM_DIR, CURVE_FILE);
	else if (state && *state == '/')	/* the spec: relative is invalid */
		n = snprintf(buf, size, "%s/memdiag/%s", state, CURVE_FILE);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.local/state/memdiag/%s", home,
			     CURVE_FILE);
	else
		return errno = ENOENT, -1;
	if (n < 0 || (size_t)n >= size)
		return errno = ENAMETOOLONG, -1;
	return 0;
}

int curve_find_load(const char *path, struct curve *c, char *used,
		    size_t used_size, char *why, size_t size)
{
	const char *sys = CURVE_SYSTEM_DIR "/" CURVE_FILE;
	char own[PATH_MAX] = "";

	if (path) {
		snprintf(used, used_size, "%s", path);
		return curve_load(path, c, why, size);
	}
	if (!curve_default_path(own, sizeof(own)) && strcmp(own, sys)) {
		snprintf(used, used_size, "%s", own);
		if (!curve_load(own, c, why, size))
			return 0;
		if (errno != ENOENT)
			return -1;
		curve_free(c);
	} else {
		own[0] = '\0';	/* root's own is the system file */
	}
	snprintf(used, used_size, "%s", sys);
	if (!curve_load(sys, c, why, size))
		return 0;
	if (errno == ENOENT) {
		/* where it looked: root does not read a user's curve */
		snprintf(why, size, "no curve in %.200s%s%.200s: run memdiagctl calibrate",
			 own[0] ? own : "", own[0] ? " or " : "", sys);
		errno = ENOENT;
	}
	return -1;
}

void curve_fp_free(struct curve_fp *fp)
{
	unsigned int f;

	for (f = 0; f < NR_CURVE_FP; f++) {
		free(fp->v[f]);
		fp->v[f] = NULL;
	}
}

void curve_free(struct curve *c)
{
	size_t i, j;

	for (i = 0; i < c->nr_sockets; i++) {
		for (j = 0; j < c->sockets[i].nr_mixes; j++)
			free(c->sockets[i].mixes[j].points);
		free(c->sockets[i].mixes);
		free(c->sockets[i].cpus);
	}
	free(c->sockets);
	free(c->created);
	free(c->tool_version);
	curve_fp_free(&c->fp);
	memset(c, 0, sizeof(*c));
}

const struct curve_socket *curve_socket_find(const struct curve *c,
					     uint32_t socket)
{
	size_t i;

	for (i = 0; i < c->nr_sockets; i++)
		if (c->sockets[i].socket == socket)
			return &c->sockets[i];
	return NULL;
}
