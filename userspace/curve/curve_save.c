// SPDX-License-Identifier: GPL-2.0
/*
 * curve_save.c - write a curve file with json-c, atomically: a reader
 * (watch, in another process) sees the old file or the new one, never a
 * part.
 */

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "curve.h"
#include "curve_quality.h"

/*
 * json-c's add functions leave @v to the caller when they fail (only for
 * lack of memory): these take it in every case, so building stops at the
 * first failure and one put() of the root frees the tree. Doubles keep 6
 * significant digits, more than any measurement here has.
 */
/* json-c's null is a NULL object: only the fingerprint has them. */
static bool add_or_null(json_object *o, const char *key, json_object *v)
{
	if (json_object_object_add(o, key, v)) {
		json_object_put(v);
		return false;
	}
	return true;
}

static bool add(json_object *o, const char *key, json_object *v)
{
	if (!v)
		return false;
	return add_or_null(o, key, v);
}

static bool push(json_object *a, json_object *v)
{
	if (!v)
		return false;
	if (json_object_array_add(a, v)) {
		json_object_put(v);
		return false;
	}
	return true;
}

static json_object *num(double v)
{
	char s[32];

	snprintf(s, sizeof(s), "%.6g", v);
	return json_object_new_double_s(v, s);
}

/* The percentiles when known (a file that had none keeps none). */
static bool add_pct(json_object *o, const struct curve_point *p)
{
	if (p->latency_p50_ns == 0 && p->latency_p90_ns == 0 &&
	    p->latency_p99_ns == 0)
		return true;
	return add(o, "latency_p50_ns", num(p->latency_p50_ns)) &&
	       add(o, "latency_p90_ns", num(p->latency_p90_ns)) &&
	       add(o, "latency_p99_ns", num(p->latency_p99_ns));
}

static json_object *point_json(const struct curve_point *p)
{
	json_object *o = json_object_new_object();

	if (o && add(o, "threads", json_object_new_int64(p->threads)) &&
	    add(o, "delay", json_object_new_uint64(p->delay)) &&
	    add(o, "bandwidth_gbps", num(p->bandwidth_gbps)) &&
	    add(o, "read_gbps", num(p->read_gbps)) &&
	    add(o, "write_gbps", num(p->write_gbps)) &&
	    add(o, "latency_ns", num(p->latency_ns)) && add_pct(o, p) &&
	    add(o, "cov", num(p->cov)) &&
	    add(o, "repeats", json_object_new_int64(p->repeats)))
		return o;
	json_object_put(o);
	return NULL;
}

static json_object *mix_json(const struct curve_mix *m)
{
	json_object *o = json_object_new_object();
	const char *pf = curve_pf_name(m->prefetch);
	json_object *a;
	size_t i;

	if (!o || !add(o, "read_fraction", num(m->read_fraction)) ||
	    !add(o, "prefetch", json_object_new_string(pf)) ||
	    !add(o, "peak_index", json_object_new_uint64(m->peak_index)) ||
	    !add(o, "points", json_object_new_array()))
		goto err;
	json_object_object_get_ex(o, "points", &a);
	for (i = 0; i < m->nr_points; i++)
		if (!push(a, point_json(&m->points[i])))
			goto err;
	return o;
err:
	json_object_put(o);
	return NULL;
}

static json_object *socket_json(const struct curve_socket *s)
{
	json_object *o = json_object_new_object();
	json_object *a;
	size_t i;

	if (!o || !add(o, "socket", json_object_new_int64(s->socket)) ||
	    !add(o, "cpus", json_object_new_string(s->cpus)) ||
	    !add(o, "chase_cpu", json_object_new_int64(s->chase_cpu)) ||
	    !add(o, "idle_latency_ns", num(s->idle_latency_ns)) ||
	    !add(o, "curves", json_object_new_array()))
		goto err;
	json_object_object_get_ex(o, "curves", &a);
	for (i = 0; i < s->nr_mixes; i++)
		if (!push(a, mix_json(&s->mixes[i])))
			goto err;
	if (curve_quality_add(o, s))
		goto err;
	return o;
err:
	json_object_put(o);
	return NULL;
}

static json_object *curve_json(const struct curve *c)
{
	json_object *o = json_object_new_object();
	json_object *fp, *a;
	unsigned int f;
	size_t i;

	if (!o || !add(o, "format", json_object_new_string(CURVE_FORMAT)) ||
	    !add(o, "version", json_object_new_int(CURVE_VERSION)) ||
	    !add(o, "created", json_object_new_string(c->created)) ||
	    !add(o, "tool_version", json_object_new_string(c->tool_version)) ||
	    !add(o, "bandwidth_source",
		 json_object_new_string(curve_source_name(c->source))) ||
	    !add(o, "fingerprint", json_object_new_object()) ||
	    !add(o, "sockets", json_object_new_array()))
		goto err;
	json_object_object_get_ex(o, "fingerprint", &fp);
	json_object_object_get_ex(o, "sockets", &a);
	for (f = 0; f < NR_CURVE_FP; f++)
		if (c->fp.v[f] ? !add(fp, curve_fp_key(f),
				     json_object_new_string(c->fp.v[f])) :
		    !add_or_null(fp, curve_fp_key(f), NULL))
			goto err;
	for (i = 0; i < c->nr_sockets; i++)
		if (!push(a, socket_json(&c->sockets[i])))
			goto err;
	return o;
err:
	json_object_put(o);
	return NULL;
}

/* mkdir -p for the file's directory, 0755. */
int curve_make_dirs(const char *path)
{
	char dir[PATH_MAX], *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return errno = ENAMETOOLONG, -1;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

int curve_save(const char *path, const struct curve *c, char *why,
	       size_t size)
{
	char tmp[PATH_MAX], sub[CURVE_WHY_SIZE];
	json_object *o;
	int fd, e;

	if (curve_check(c, sub, sizeof(sub)))
		return curve_fail(EINVAL, why, size, "not writing %s: %s", path, sub);
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return curve_fail(ENAMETOOLONG, why, size, "%s: path too long", path);
	o = curve_json(c);
	if (!o)
		return curve_fail(ENOMEM, why, size, "out of memory");
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		json_object_put(o);
		return curve_fail(e, why, size, "%s: cannot create a file beside it: %s",
				  path, strerror(e));
	}
	if (json_object_to_fd(fd, o, JSON_C_TO_STRING_PRETTY |
			      JSON_C_TO_STRING_SPACED |
			      JSON_C_TO_STRING_NOSLASHESCAPE) ||
	    write(fd, "\n", 1) != 1 || fchmod(fd, 0644) || fsync(fd)) {
		e = errno ? errno : EIO;
		goto err;
	}
	if (close(fd)) {
		fd = -1;
		e = errno;
		goto err;
	}
	json_object_put(o);
	if (rename(tmp, path)) {
		e = errno;
		unlink(tmp);
		return curve_fail(e, why, size, "%s: %s", path, strerror(e));
	}
	return 0;
err:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	json_object_put(o);
	return curve_fail(e, why, size, "%s: cannot write: %s", tmp, strerror(e));
}
