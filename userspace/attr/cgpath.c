// SPDX-License-Identifier: GPL-2.0
/*
 * cgpath.c - who a cgroup path belongs to, read from its components'
 * names alone (the kubelet's, runc's, CRI-O's, Podman's, systemd's and
 * Slurm's naming), and the group of "top --by" it falls in. No I/O.
 */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cgpath.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One component of a path, inside it: not NUL-terminated. */
struct comp {
	const char *s;
	size_t len;
};

/* Where a service group starts (CG_BY_SERVICE): its deepest anchor. */
enum anchor {
	ANCHOR_NONE,
	ANCHOR_UNIT,		/* a .service or .scope */
	ANCHOR_JOB,		/* Slurm's job_<id> */
	ANCHOR_CONTAINER,	/* a container's directory that is no scope */
};

/* Where a walk is in the kubelet's cgroupfs layout. */
enum kube_at {
	KUBE_NONE,
	KUBE_ROOT,		/* just below "kubepods" */
	KUBE_QOS,		/* just below "kubepods/<qos>" */
};

/* What walking a path's components, top down, found. */
struct path_walk {
	struct cg_ident id;	/* the innermost of each thing found */
	enum cg_kind last;	/* what the innermost component is */
	enum kube_at kube;
	char kube_qos[16];	/* cgroupfs: the QoS directory passed */
	bool slurm;		/* below a component naming Slurm */
	bool slices_only;	/* only .slice components so far */
	struct comp first;	/* the first component */
	struct comp lead_slice;	/* the innermost of the leading slices */
	struct comp parent;	/* the component before the current one */
	enum anchor anchor;
	struct comp anchor_comp;
	size_t anchor_end;	/* the path's length up to the anchor */
	bool anchor_named;	/* only slices above it: its name is unique */
};

/* The runtimes' prefixes of a container's cgroup name. */
static const struct {
	const char *prefix;
	const char *runtime;
} runtimes[] = {
	{ "cri-containerd", "containerd" },
	{ "crio", "crio" },
	{ "crio-conmon", "crio" },	/* the container's monitor */
	{ "docker", "docker" },
	{ "libpod", "libpod" },
	{ "libpod-conmon", "libpod" },
};

#define CONTAINER_ID_LEN 64	/* runc's ids: 64 hex digits */
#define UUID_LEN 36		/* 8-4-4-4-12 */
#define STATIC_UID_LEN 32	/* a static pod's: its manifest's hash */
#define JOB_DIGITS 20		/* a Slurm job id: a uint32_t, with room */

static bool comp_is(struct comp c, const char *word)
{
	return c.len == strlen(word) && !memcmp(c.s, word, c.len);
}

/* @s ends with @suffix and has more before it. */
static bool has_suffix(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && !memcmp(s + len - n, suffix, n);
}

static bool hex_digits(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return len > 0;
}

/* @c into @buf of @size as a string; the callers checked that it fits. */
static void copy_comp(char *buf, size_t size, const char *s, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
}

/* A systemd unit's kind from its suffix; CG_KIND_CGROUP when none. */
static enum cg_kind unit_kind(struct comp c)
{
	if (has_suffix(c.s, c.len, ".service"))
		return CG_KIND_SERVICE;
	if (has_suffix(c.s, c.len, ".scope"))
		return CG_KIND_SCOPE;
	if (has_suffix(c.s, c.len, ".slice"))
		return CG_KIND_SLICE;
	return CG_KIND_CGROUP;
}

/*
 * A pod UID as a cgroup name spells it, into @uid with the API's dashes:
 * 8-4-4-4-12 hex digits with @sep for the dashes ('_' in systemd's names,
 * where '-' nests slices; '-' in cgroupfs'), or the 32 bare hex digits
 * the kubelet gives a static pod (a hash of its manifest).
 */
static bool parse_uid(const char *s, size_t len, char sep,
		      char uid[UUID_LEN + 1])
{
	char out[UUID_LEN + 1];
	size_t i;

	if (len == STATIC_UID_LEN && hex_digits(s, len)) {
		copy_comp(uid, UUID_LEN + 1, s, len);
		return true;
	}
	if (len != UUID_LEN)
		return false;
	for (i = 0; i < len; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != sep)
				return false;
			out[i] = '-';
		} else if (isxdigit((unsigned char)s[i])) {
			out[i] = s[i];
		} else {
			return false;
		}
	}
	copy_comp(uid, UUID_LEN + 1, out, len);
	return true;
}

static const char *runtime_of(const char *prefix, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(runtimes); i++)
		if (strlen(runtimes[i].prefix) == len &&
		    !memcmp(runtimes[i].prefix, prefix, len))
			return runtimes[i].runtime;
	return NULL;
}

static void set_container(struct cg_ident *id, const char *cid,
			  const char *runtime)
{
	copy_comp(id->container_id, sizeof(id->container_id), cid,
		  CONTAINER_ID_LEN);
	copy_comp(id->runtime, sizeof(id->runtime), runtime, strlen(runtime));
}

/*
 * A container's cgroup: "<prefix>-<id>" with a runtime's prefix, as a
 * systemd scope ("cri-containerd-<id>.scope") or a plain directory
 * (CRI-O's or Podman's cgroupfs "crio-<id>"); or the bare id where
 * @bare_runtime is given (in a pod, or in Docker's cgroupfs "docker").
 */
static bool parse_container(struct comp c, const char *bare_runtime,
			    struct cg_ident *id)
{
	size_t len = c.len, at;
	const char *runtime;

	if (has_suffix(c.s, len, ".scope"))
		len -= strlen(".scope");
	if (len == c.len && len == CONTAINER_ID_LEN && bare_runtime &&
	    hex_digits(c.s, len)) {
		set_container(id, c.s, bare_runtime);
		return true;
	}
	if (len < CONTAINER_ID_LEN + 2)
		return false;
	at = len - CONTAINER_ID_LEN;
	if (c.s[at - 1] != '-' || !hex_digits(c.s + at, CONTAINER_ID_LEN))
		return false;
	runtime = runtime_of(c.s, at - 1);
	if (!runtime)
		return false;
	set_container(id, c.s + at, runtime);
	return true;
}

/* @s (@len bytes) ends with the word "kubepods": "kubepods", "x-kubepods". */
static bool ends_with_kubepods(const char *s, size_t len)
{
	static const char word[] = "kubepods";
	size_t n = sizeof(word) - 1;

	return len >= n && !memcmp(s + len - n, word, n) &&
	       (len == n || s[len - n - 1] == '-');
}

/* The QoS class a pod slice's name gives before "-pod<uid>" (@head). */
static const char *slice_qos(const char *s, size_t head)
{
	static const char *const qos[] = { "burstable", "besteffort" };
	size_t i, n;

	if (ends_with_kubepods(s, head))
		return "guaranteed";
	for (i = 0; i < 2; i++) {
		n = strlen(qos[i]);
		if (head > n + 1 && s[head - n - 1] == '-' &&
		    !memcmp(s + head - n, qos[i], n) &&
		    ends_with_kubepods(s, head - n - 1))
			return qos[i];
	}
	return NULL;
}

/*
 * "<prefix>:<id>" after a pod slice's name: containerd taking runc's
 * systemd "slice:prefix:id" as a cgroupfs path makes such a directory.
 */
static bool parse_colon_container(const char *s, size_t len,
				  struct cg_ident *id)
{
	const char *colon = memchr(s, ':', len), *runtime;
	size_t n;

	if (!colon)
		return false;
	n = (size_t)(colon - s);
	runtime = runtime_of(s, n);
	if (!runtime || len - n - 1 != CONTAINER_ID_LEN ||
	    !hex_digits(colon + 1, CONTAINER_ID_LEN))
		return false;
	set_container(id, colon + 1, runtime);
	return true;
}

/*
 * A pod's slice under the systemd cgroup driver: "<root>-pod<uid>.slice"
 * (Guaranteed) or "<root>-<qos>-pod<uid>.slice", <root> "kubepods" or
 * "<prefix>-kubepods" (kind's "kubelet-kubepods"); or that name and
 * ":<prefix>:<id>", a container's directory in the pod (@container).
 */
static bool parse_pod_slice(struct comp c, struct cg_ident *id,
			    bool *container)
{
	const char *colon = memchr(c.s, ':', c.len), *dash, *qos;
	size_t name = colon ? (size_t)(colon - c.s) : c.len, len, head;
	char uid[UUID_LEN + 1];

	if (!has_suffix(c.s, name, ".slice"))
		return false;
	len = name - strlen(".slice");
	dash = memrchr(c.s, '-', len);
	if (!dash)
		return false;
	head = (size_t)(dash - c.s);
	if (len - head < 4 || memcmp(dash + 1, "pod", 3))
		return false;
	qos = slice_qos(c.s, head);
	if (!qos || !parse_uid(dash + 4, len - head - 4, '_', uid))
		return false;
	memcpy(id->pod_uid, uid, sizeof(uid));
	copy_comp(id->qos, sizeof(id->qos), qos, strlen(qos));
	id->container_id[0] = '\0';
	id->runtime[0] = '\0';
	*container = colon && parse_colon_container(colon + 1,
						     c.len - name - 1, id);
	return true;
}

/*
 * The kubelet's cgroupfs layout: "kubepods/[burstable/|besteffort/]
 * pod<uid>", kubepods anywhere (below a --cgroup-root). True at the pod.
 */
static bool take_cgroupfs_pod(struct path_walk *w, struct comp c)
{
	enum kube_at at = w->kube;
	char uid[UUID_LEN + 1];

	w->kube = KUBE_NONE;
	if (at == KUBE_ROOT &&
	    (comp_is(c, "burstable") || comp_is(c, "besteffort"))) {
		copy_comp(w->kube_qos, sizeof(w->kube_qos), c.s, c.len);
		w->kube = KUBE_QOS;
		return false;
	}
	if (at != KUBE_NONE && c.len > 3 && !memcmp(c.s, "pod", 3) &&
	    parse_uid(c.s + 3, c.len - 3, '-', uid)) {
		memcpy(w->id.pod_uid, uid, sizeof(uid));
		snprintf(w->id.qos, sizeof(w->id.qos), "%s",
			 at == KUBE_QOS ? w->kube_qos : "guaranteed");
		w->id.container_id[0] = '\0';
		w->id.runtime[0] = '\0';
		return true;
	}
	if (comp_is(c, "kubepods"))
		w->kube = KUBE_ROOT;
	return false;
}

/* Slurm's "job_<id>" below a component naming Slurm, into @id. */
static bool take_job(struct path_walk *w, struct comp c)
{
	size_t n = strlen("job_");
	bool job = w->slurm && c.len > n && c.len - n <= JOB_DIGITS &&
		   !memcmp(c.s, "job_", n);
	size_t i;

	for (i = n; job && i < c.len; i++)
		job = isdigit((unsigned char)c.s[i]);
	if (job)
		copy_comp(w->id.slurm_job, sizeof(w->id.slurm_job), c.s + n,
			  c.len - n);
	/* slurm's v1 "slurm", v2 "slurmstepd.scope", "<node>_slurmstepd" */
	if (memmem(c.s, c.len, "slurm", 5))
		w->slurm = true;
	return job;
}

/* Component @c, which ends at byte @end of the path, into @w. */
static void take_comp(struct path_walk *w, struct comp c, size_t end)
{
	enum cg_kind kind = unit_kind(c);
	bool pod, container = false, job;
	const char *bare = NULL;

	pod = parse_pod_slice(c, &w->id, &container);
	if (!pod)
		pod = take_cgroupfs_pod(w, c);
	else
		w->kube = KUBE_NONE;
	if (w->id.pod_uid[0] && !pod)
		bare = "";	/* the runtime is not in the name */
	else if (comp_is(w->parent, "docker"))
		bare = "docker";
	if (!pod)
		container = parse_container(c, bare, &w->id);
	job = take_job(w, c);

	if (kind != CG_KIND_CGROUP)
		copy_comp(w->id.unit, sizeof(w->id.unit), c.s, c.len);
	w->last = pod && !container ? CG_KIND_POD :
		  job ? CG_KIND_SLURM_JOB : kind;
	if (kind == CG_KIND_SERVICE || kind == CG_KIND_SCOPE || job ||
	    container) {
		w->anchor = kind == CG_KIND_SERVICE || kind == CG_KIND_SCOPE ?
			    ANCHOR_UNIT : job ? ANCHOR_JOB : ANCHOR_CONTAINER;
		w->anchor_comp = c;
		w->anchor_end = end;
		w->anchor_named = w->slices_only;
	}
	if (kind != CG_KIND_SLICE)
		w->slices_only = false;
	else if (w->slices_only)
		w->lead_slice = c;
	if (!w->first.len)
		w->first = c;
	w->parent = c;
}

/*
 * Walk @path's components into @w. Empty, "." and ".." components are
 * refused: the kernel writes none, and they would give one cgroup two
 * keys (".." is what a thread outside our cgroup namespace shows).
 */
static int walk_path(const char *path, struct path_walk *w)
{
	size_t len, at = 1, end;
	const char *slash;
	struct comp c;

	memset(w, 0, sizeof(*w));
	w->last = CG_KIND_ROOT;
	w->slices_only = true;
	if (!path)
		return -EINVAL;
	len = strnlen(path, PATH_MAX);
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	if (path[0] != '/')
		return -EINVAL;
	while (len > 1 && at <= len) {
		slash = memchr(path + at, '/', len - at);
		end = slash ? (size_t)(slash - path) : len;
		c = (struct comp){ path + at, end - at };
		if (!c.len || c.len > NAME_MAX || comp_is(c, ".") ||
		    comp_is(c, ".."))
			return -EINVAL;
		take_comp(w, c, end);
		at = end + 1;
	}
	return 0;
}

int cg_parse(const char *path, struct cg_ident *id)
{
	struct path_walk w;
	int ret = walk_path(path, &w);

	memset(id, 0, sizeof(*id));
	if (ret)
		return ret;
	*id = w.id;
	id->kind = w.last;
	return 0;
}

/* @key = @s's first @len bytes; -ENOSPC when they do not fit. */
static int put_key(char *key, size_t size, const char *s, size_t len)
{
	if (len >= size)
		return -ENOSPC;
	memcpy(key, s, len);
	key[len] = '\0';
	return 0;
}

static int __attribute__((format(printf, 3, 4)))
key_printf(char *key, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(key, size, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

/* CG_BY_SERVICE's key of @path (walked into @w); cgpath.h has the rules. */
static int service_key(const char *path, const struct path_walk *w,
		       char *key, size_t size, struct cg_ident *id)
{
	const struct comp *a = &w->anchor_comp;

	switch (w->anchor) {
	case ANCHOR_JOB:
		id->kind = CG_KIND_SLURM_JOB;
		return key_printf(key, size, "job_%s", id->slurm_job);
	case ANCHOR_UNIT:
		id->kind = unit_kind(*a);
		copy_comp(id->unit, sizeof(id->unit), a->s, a->len);
		if (w->anchor_named)
			return put_key(key, size, a->s, a->len);
		return put_key(key, size, path, w->anchor_end);
	case ANCHOR_CONTAINER:
		id->kind = CG_KIND_CGROUP;
		return put_key(key, size, path, w->anchor_end);
	case ANCHOR_NONE:
		break;
	}
	if (!w->first.len) {
		id->kind = CG_KIND_ROOT;
		return put_key(key, size, "/", 1);
	}
	if (w->lead_slice.len) {
		id->kind = CG_KIND_SLICE;
		copy_comp(id->unit, sizeof(id->unit), w->lead_slice.s,
			  w->lead_slice.len);
		return put_key(key, size, w->lead_slice.s, w->lead_slice.len);
	}
	id->kind = CG_KIND_CGROUP;
	return put_key(key, size, path,
		       (size_t)(w->first.s + w->first.len - path));
}

int cg_key(const char *path, enum cg_by by, char *key, size_t size,
	   struct cg_ident *id)
{
	struct path_walk w;
	int ret = walk_path(path, &w);

	*id = w.id;
	if (ret) {
		/* nothing */
	} else if (by == CG_BY_CGROUP) {
		id->kind = w.last;
		ret = put_key(key, size, path, strlen(path));
	} else if (by == CG_BY_POD && w.id.pod_uid[0]) {
		id->kind = CG_KIND_POD;
		ret = key_printf(key, size, "pod:%s", w.id.pod_uid);
	} else if (by == CG_BY_POD || by == CG_BY_SERVICE) {
		ret = service_key(path, &w, key, size, id);
	} else {
		ret = -EINVAL;
	}
	if (ret) {
		memset(id, 0, sizeof(*id));
		if (size)
			key[0] = '\0';
	}
	return ret;
}

static const char *const by_names[] = {
	[CG_BY_POD] = "pod",
	[CG_BY_SERVICE] = "service",
	[CG_BY_CGROUP] = "cgroup",
};

static const char *const kind_names[] = {
	[CG_KIND_CGROUP] = "cgroup",
	[CG_KIND_POD] = "pod",
	[CG_KIND_SERVICE] = "service",
	[CG_KIND_SCOPE] = "scope",
	[CG_KIND_SLICE] = "slice",
	[CG_KIND_SLURM_JOB] = "slurm-job",
	[CG_KIND_ROOT] = "root",
};

const char *cg_by_name(enum cg_by by)
{
	return (unsigned int)by < ARRAY_SIZE(by_names) ? by_names[by] : NULL;
}

int cg_by_parse(const char *s)
{
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(by_names); i++)
		if (!strcmp(s, by_names[i]))
			return (int)i;
	return -1;
}

const char *cg_kind_name(enum cg_kind kind)
{
	return (unsigned int)kind < ARRAY_SIZE(kind_names) ?
	       kind_names[kind] : NULL;
}
