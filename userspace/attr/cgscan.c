// SPDX-License-Identifier: GPL-2.0
/*
 * cgscan.c - this host's cgroup hierarchy: found in mountinfo, walked
 * into the groups of "top --by", a group's threads listed, a thread's
 * cgroup read; every /proc and /sys path under sysroot.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgscan.h"
#include "mountinfo.h"
#include "sysroot.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define NO_GROUP SIZE_MAX	/* a cgroup whose group is not kept */
#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* How well a mount suits: lower is better (cgscan.h's order). */
enum hier_rank { RANK_V2, RANK_SYSTEMD, RANK_CPU, RANK_NONE };

static bool tok_is(const char *tok, size_t n, const char *word)
{
	return strlen(word) == n && !memcmp(tok, word, n);
}

/* A v1 super option that names no controller nor the hierarchy. */
static bool v1_option(const char *opt, size_t n)
{
	static const char *const opts[] = {
		"rw", "ro", "noprefix", "xattr", "clone_children",
		"cpuset_v2_mode", "favordynmods",
	};
	static const char agent[] = "release_agent=";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(opts); i++)
		if (tok_is(opt, n, opts[i]))
			return true;
	return n >= sizeof(agent) - 1 && !memcmp(opt, agent, sizeof(agent) - 1);
}

/*
 * The controllers and name among v1 super options @super, into @list
 * ("cpu,cpuacct", "name=systemd"), and how well the hierarchy suits.
 * When they do not fit, @list is the one that ranks it: a controller or
 * a name is on one v1 hierarchy only, so one names it (cg_of_tid()).
 */
static enum hier_rank v1_controllers(const char *super, char *list,
				     size_t size)
{
	enum hier_rank rank = RANK_NONE;
	const char *opt, *comma;
	bool fits = true;
	size_t len = 0, n;

	list[0] = '\0';
	for (opt = super; *opt; opt = *comma ? comma + 1 : comma) {
		comma = strchrnul(opt, ',');
		n = (size_t)(comma - opt);
		if (!n || v1_option(opt, n))
			continue;
		if (tok_is(opt, n, "name=systemd"))
			rank = RANK_SYSTEMD;
		else if (tok_is(opt, n, "cpu") && rank == RANK_NONE)
			rank = RANK_CPU;
		if (!fits || len + !!len + n >= size) {
			fits = false;
			continue;
		}
		if (len)
			list[len++] = ',';
		memcpy(list + len, opt, n);
		len += n;
		list[len] = '\0';
	}
	if (!fits)
		snprintf(list, size, "%s",
			 rank == RANK_SYSTEMD ? "name=systemd" : "cpu");
	return rank;
}

/* The best cgroup mount so far, as mountinfo_each() goes. */
struct hier_find {
	struct cg_hier *h;
	enum hier_rank best;
};

/* Mount @m into @arg's hierarchy when it suits better; 1 at cgroup2. */
static int take_mount(const struct mountinfo_entry *m, void *arg)
{
	struct hier_find *hf = arg;
	char list[sizeof(hf->h->v1_name)] = "";
	enum hier_rank rank;

	if (!strcmp(m->fstype, "cgroup2"))
		rank = RANK_V2;
	else if (!strcmp(m->fstype, "cgroup"))
		rank = v1_controllers(m->options, list, sizeof(list));
	else
		return 0;
	if (rank >= hf->best)
		return 0;
	if (sysroot_path(hf->h->mount, sizeof(hf->h->mount), "%s", m->mount))
		return -ENAMETOOLONG;
	hf->best = rank;
	hf->h->v2 = rank == RANK_V2;
	memcpy(hf->h->v1_name, list, sizeof(list));
	return rank == RANK_V2;	/* none can suit better */
}

int cg_hier_find(struct cg_hier *h, char *why, size_t size)
{
	struct hier_find hf = { .h = h, .best = RANK_NONE };
	int ret;

	memset(h, 0, sizeof(*h));
	ret = mountinfo_each(take_mount, &hf);
	if (ret > 0)
		ret = 0;
	if (!ret && hf.best == RANK_NONE) {
		snprintf(why, size,
			 "no cgroup2 mount, nor a v1 one of name=systemd or cpu, in %s/proc/self/mountinfo",
			 sysroot());
		ret = -ENOENT;
	} else if (ret) {
		snprintf(why, size, "cannot read %s/proc/self/mountinfo: %s",
			 sysroot(), strerror(-ret));
	}
	if (ret)
		memset(h, 0, sizeof(*h));
	return ret;
}

/* An error that says the cgroup (or thread) was removed meanwhile. */
static bool vanished(int err)
{
	return err == ENOENT || err == ENODEV || err == ESRCH;
}

/* @de is a subdirectory of @dfd: not "." nor "..", nor a symbolic link. */
static bool is_dir(int dfd, const struct dirent *de)
{
	struct stat st;

	if (de->d_name[0] == '.' &&
	    (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
		return false;
	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
	return !fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISDIR(st.st_mode);
}

/* readdir(), with its error (0 at the end) in @err. */
static struct dirent *next_entry(DIR *dir, int *err)
{
	struct dirent *de;

	errno = 0;
	de = readdir(dir);
	*err = de ? 0 : errno;
	return de;
}

/*
 * "/@name" after cgroup path @path of @len bytes (the root's is "/"):
 * the new length, or 0 (@path as it was) when it would reach PATH_MAX.
 */
static size_t path_push(char *path, size_t len, const char *name)
{
	size_t n = strlen(name), at = len == 1 ? 1 : len + 1;

	if (at + n >= PATH_MAX)
		return 0;
	path[at - 1] = '/';
	memcpy(path + at, name, n + 1);
	return at + n;
}

/* The walk of cg_scan(): the groups so far and a hash of their keys. */
struct scan_walk {
	enum cg_by by;
	size_t max;
	struct cg_scan *s;
	size_t cap;		/* of s->g */
	size_t *slot;		/* open addressing: a group's index + 1, or 0 */
	size_t nr_slot;		/* a power of two, over twice s->nr */
	char path[PATH_MAX];	/* the cgroup's, relative to the mount */
	char key[CG_KEY_MAX];	/* its key */
	struct cg_ident id;
};

/* FNV-1a */
static size_t key_hash(const char *key)
{
	uint64_t h = 14695981039346656037ull;

	while (*key) {
		h ^= (unsigned char)*key++;
		h *= 1099511628211ull;
	}
	return (size_t)h;
}

/* Where @key is in the hash, or the empty slot it would take. */
static size_t key_slot(const struct scan_walk *w, const char *key)
{
	size_t mask = w->nr_slot - 1, i = key_hash(key) & mask;

	while (w->slot[i] && strcmp(w->s->g[w->slot[i] - 1].key, key))
		i = (i + 1) & mask;
	return i;
}

static int grow_hash(struct scan_walk *w)
{
	size_t *old = w->slot, nr_old = w->nr_slot, i;

	w->nr_slot = nr_old ? 2 * nr_old : 64;
	w->slot = calloc(w->nr_slot, sizeof(*w->slot));
	if (!w->slot) {
		w->slot = old;
		w->nr_slot = nr_old;
		return -ENOMEM;
	}
	for (i = 0; i < w->s->nr; i++)
		w->slot[key_slot(w, w->s->g[i].key)] = i + 1;
	free(old);
	return 0;
}

/* A new group from the cgroup at w->path: index @gi. */
static int add_group(struct scan_walk *w, size_t *gi)
{
	struct cg_scan *s = w->s;
	struct cg_group *g;
	size_t cap;

	if (s->nr == w->cap) {
		cap = w->cap ? 2 * w->cap : 64;
		cap = cap < w->max ? cap : w->max;
		g = realloc(s->g, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		s->g = g;
		w->cap = cap;
	}
	if (2 * (s->nr + 1) > w->nr_slot && grow_hash(w))
		return -ENOMEM;
	g = &s->g[s->nr];
	*g = (struct cg_group){ .key = strdup(w->key),
				.path = strdup(w->path), .id = w->id,
				.nr_cgroups = 1 };
	if (!g->key || !g->path) {
		free(g->key);
		free(g->path);
		return -ENOMEM;
	}
	w->slot[key_slot(w, g->key)] = s->nr + 1;
	*gi = s->nr++;
	return 0;
}

/*
 * A second topmost cgroup, at @path, of group @g (cgpath.h's
 * exceptions): its path becomes the nearest common ancestor, which
 * cg_group_tids() searches, and the container, no longer one, is gone.
 */
static void widen_group(struct cg_group *g, const char *path)
{
	size_t i, cut = 0;

	for (i = 0; g->path[i] && g->path[i] == path[i]; i++)
		if (g->path[i] == '/')
			cut = i;
	if ((!g->path[i] || g->path[i] == '/') && (!path[i] || path[i] == '/'))
		cut = i;
	g->path[cut ? cut : 1] = '\0';
	g->id.container_id[0] = '\0';
	g->id.runtime[0] = '\0';
}

/* Count the cgroup at w->path, key w->key, in its group: @gi. */
static int place_cgroup(struct scan_walk *w, const char *parent_key,
			size_t parent_g, size_t *gi)
{
	struct cg_scan *s = w->s;
	size_t slot;

	*gi = NO_GROUP;
	s->nr_cgroups++;
	if (w->nr_slot) {
		slot = key_slot(w, w->key);
		if (w->slot[slot]) {
			*gi = w->slot[slot] - 1;
			s->g[*gi].nr_cgroups++;
			if (*gi != parent_g)
				widen_group(&s->g[*gi], w->path);
			return 0;
		}
	}
	if (parent_key && !strcmp(parent_key, w->key))
		return 0;	/* in its parent's group, not kept */
	if (s->nr >= w->max) {
		s->over_max++;
		return 0;
	}
	return add_group(w, gi);
}

/*
 * Walk cgroup @dfd (closed here) at w->path, @len bytes, @depth below
 * the root: its group, then its children. Only running out of memory,
 * or the root failing, stops the walk.
 */
static int walk_cgroup(struct scan_walk *w, int dfd, size_t len,
		       size_t depth, const char *parent_key, size_t parent_g)
{
	struct cg_scan *s = w->s;
	char *key = NULL;
	struct dirent *de;
	int ret, cfd, err;
	size_t gi, n;
	DIR *dir;

	if (cg_key(w->path, w->by, w->key, sizeof(w->key), &w->id)) {
		s->unreadable++;
		close(dfd);
		return 0;
	}
	ret = place_cgroup(w, parent_key, parent_g, &gi);
	dir = ret ? NULL : fdopendir(dfd);
	if (!dir) {
		err = errno;
		close(dfd);
		if (ret || !depth || err == ENOMEM)
			return ret ? ret : -err;
		s->unreadable += !vanished(err);
		return 0;
	}
	key = strdup(w->key);
	ret = key ? 0 : -ENOMEM;
	while (!ret && (de = next_entry(dir, &err))) {
		if (!is_dir(dirfd(dir), de))
			continue;
		n = path_push(w->path, len, de->d_name);
		if (depth >= CG_MAX_DEPTH || !n) {
			s->too_deep += depth >= CG_MAX_DEPTH;
			s->unreadable += depth < CG_MAX_DEPTH;	/* too long */
			w->path[len] = '\0';
			continue;
		}
		cfd = openat(dirfd(dir), de->d_name, DIR_FLAGS);
		if (cfd >= 0)
			ret = walk_cgroup(w, cfd, n, depth + 1, key, gi);
		else
			s->unreadable += !vanished(errno);
		w->path[len] = '\0';
	}
	if (!ret && err && !vanished(err))
		s->unreadable++;
	free(key);
	closedir(dir);
	return ret;
}

static int group_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cg_group *)a)->key,
		      ((const struct cg_group *)b)->key);
}

int cg_scan(const struct cg_hier *h, enum cg_by by, size_t max,
	    struct cg_scan *s)
{
	struct scan_walk *w;
	int dfd, ret;

	memset(s, 0, sizeof(*s));
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	*w = (struct scan_walk){ .by = by, .max = max, .s = s };
	w->path[0] = '/';
	dfd = open(h->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = dfd < 0 ? -errno : walk_cgroup(w, dfd, 1, 0, NULL, NO_GROUP);
	free(w->slot);
	free(w);
	if (ret) {
		cg_scan_free(s);
		return ret;
	}
	if (s->nr)
		qsort(s->g, s->nr, sizeof(*s->g), group_cmp);
	return 0;
}

void cg_scan_free(struct cg_scan *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		free(s->g[i].key);
		free(s->g[i].path);
	}
	free(s->g);
	memset(s, 0, sizeof(*s));
}

static int key_cmp(const void *key, const void *g)
{
	return strcmp(key, ((const struct cg_group *)g)->key);
}

const struct cg_group *cg_scan_find(const struct cg_scan *s, const char *key)
{
	if (!s->nr)
		return NULL;
	return bsearch(key, s->g, s->nr, sizeof(*s->g), key_cmp);
}

/* The walk of cg_group_tids(). */
struct tids_walk {
	const struct cg_hier *h;
	enum cg_by by;
	const char *key;	/* the group's */
	int (*fn)(pid_t tid, void *arg);
	void *arg;
	char path[PATH_MAX];	/* the cgroup's, relative to the mount */
	char scratch[CG_KEY_MAX];
	struct cg_ident id;
};

/* The cgroup at t->path is in the group. */
static bool in_group(struct tids_walk *t)
{
	return !cg_key(t->path, t->by, t->scratch, sizeof(t->scratch),
		       &t->id) && !strcmp(t->scratch, t->key);
}

/* A line of cgroup.threads or tasks: a thread id; 0 when it is none. */
static pid_t parse_tid(const char *line)
{
	char *end;
	long tid;

	errno = 0;
	tid = strtol(line, &end, 10);
	if (errno || end == line || (*end && *end != '\n') || tid <= 0 ||
	    tid > INT_MAX)
		return 0;
	return (pid_t)tid;
}

/* t->fn for each thread of cgroup @dfd; 0 when its file vanished. */
static int read_threads(struct tids_walk *t, int dfd)
{
	const char *name = t->h->v2 ? "cgroup.threads" : "tasks";
	char *line = NULL;
	size_t cap = 0;
	int fd, ret = 0;
	FILE *f;
	pid_t tid;

	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return vanished(errno) ? 0 : -errno;
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while (!ret) {
		errno = 0;
		if (getline(&line, &cap, f) < 0) {
			if (ferror(f) && !vanished(errno))
				ret = errno ? -errno : -EIO;
			break;
		}
		tid = parse_tid(line);
		ret = tid ? t->fn(tid, t->arg) : -EINVAL;
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * The threads of cgroup @dfd (closed here) at t->path, @len bytes,
 * @depth below the root, when it is in the group (@in), then of its
 * children in the group; below a widened group's path, which is not in
 * it, every child is searched.
 */
static int tids_cgroup(struct tids_walk *t, int dfd, size_t len,
		       size_t depth, bool in)
{
	int ret = in ? read_threads(t, dfd) : 0, cfd, err = 0;
	struct dirent *de;
	bool child_in;
	DIR *dir;
	size_t n;

	dir = ret ? NULL : fdopendir(dfd);
	if (!dir) {
		err = errno;
		close(dfd);
		return ret ? ret : vanished(err) ? 0 : -err;
	}
	while (!ret && depth < CG_MAX_DEPTH && (de = next_entry(dir, &err))) {
		if (!is_dir(dirfd(dir), de))
			continue;
		n = path_push(t->path, len, de->d_name);
		if (!n)
			continue;	/* too long to have a key */
		child_in = in_group(t);
		if (child_in || !in) {
			cfd = openat(dirfd(dir), de->d_name, DIR_FLAGS);
			if (cfd >= 0)
				ret = tids_cgroup(t, cfd, n, depth + 1,
						  child_in);
			else if (!vanished(errno))
				ret = -errno;
		}
		t->path[len] = '\0';
	}
	if (!ret && err && !vanished(err))
		ret = -err;
	closedir(dir);
	return ret;
}

/* How many components below the root @path ("/a/b") is. */
static size_t path_depth(const char *path)
{
	size_t depth = 0;

	for (; *path; path++)
		depth += *path == '/' && path[1];
	return depth;
}

int cg_group_tids(const struct cg_hier *h, enum cg_by by,
		  const struct cg_group *g,
		  int (*fn)(pid_t tid, void *arg), void *arg)
{
	struct tids_walk *t;
	char dir[PATH_MAX];
	int dfd, ret, n;

	n = snprintf(dir, sizeof(dir), "%s%s", h->mount, g->path);
	if (n < 0 || (size_t)n >= sizeof(dir) || strlen(g->path) >= PATH_MAX)
		return -ENAMETOOLONG;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	*t = (struct tids_walk){ .h = h, .by = by, .key = g->key, .fn = fn,
				 .arg = arg };
	memcpy(t->path, g->path, strlen(g->path) + 1);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		ret = -errno;
	else
		ret = tids_cgroup(t, dfd, strlen(t->path), path_depth(t->path),
				  in_group(t));
	free(t);
	return ret;
}

/* Whether the comma list @list (@len bytes) holds @tok (@n bytes). */
static bool has_token(const char *list, size_t len, const char *tok,
		      size_t n)
{
	const char *end = list + len, *comma;

	while (list < end) {
		comma = memchr(list, ',', (size_t)(end - list));
		if (!comma)
			comma = end;
		if ((size_t)(comma - list) == n && !memcmp(list, tok, n))
			return true;
		list = comma + 1;
	}
	return false;
}

/*
 * Whether v1 list @list of /proc/TID/cgroup (@len bytes) is hierarchy
 * @name's: one controller or name in common is enough, a controller
 * being on one hierarchy only (and the orders may differ).
 */
static bool same_v1(const char *list, size_t len, const char *name)
{
	const char *comma;

	for (; *name; name = *comma ? comma + 1 : comma) {
		comma = strchrnul(name, ',');
		if (comma > name &&
		    has_token(list, len, name, (size_t)(comma - name)))
			return true;
	}
	return false;
}

/*
 * The path of the record ("ID:list:path") that starts at @s, or NULL
 * when none does: the kernel writes paths unescaped, so a record starts
 * only at a line that begins with digits, a colon, a list and a colon.
 */
static const char *record_path(const char *s)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s || *p != ':')
		return NULL;
	p = strpbrk(p + 1, ":\n");
	return p && *p == ':' ? p + 1 : NULL;
}

/* The start of the record after the one at @from, or NULL. */
static const char *next_record(const char *from)
{
	const char *nl;

	for (nl = strchr(from, '\n'); nl; nl = strchr(nl + 1, '\n'))
		if (record_path(nl + 1))
			return nl + 1;
	return NULL;
}

/* Whether the record at @rec, whose path starts at @path, is @h's. */
static bool record_is(const struct cg_hier *h, const char *rec,
		      const char *path)
{
	const char *list = strchr(rec, ':') + 1;
	size_t len = (size_t)(path - 1 - list);

	if (h->v2)
		return rec[0] == '0' && list == rec + 2 && !len;
	return len && same_v1(list, len, h->v1_name);
}

#define CGROUP_FILE_MAX (1024 * 1024)	/* a hierarchy takes 4 KiB at most */

/* All of sysroot's /proc/@tid/cgroup into *@buf (NUL-terminated). */
static int read_cgroup_file(pid_t tid, char **buf, size_t *len)
{
	size_t cap = 0;
	char file[PATH_MAX], *grown;
	ssize_t n;
	int fd, ret = 0;

	*buf = NULL;
	*len = 0;
	if (sysroot_path(file, sizeof(file), "/proc/%d/cgroup", (int)tid))
		return -ENAMETOOLONG;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return vanished(errno) ? -ESRCH : -errno;
	do {
		if (*len + 1 >= cap) {
			cap = cap ? 2 * cap : 4096;
			grown = cap <= CGROUP_FILE_MAX ? realloc(*buf, cap) : NULL;
			if (!grown) {
				ret = cap <= CGROUP_FILE_MAX ? -ENOMEM : -EFBIG;
				break;
			}
			*buf = grown;
		}
		n = read(fd, *buf + *len, cap - *len - 1);
		if (n < 0 && errno != EINTR)
			ret = vanished(errno) ? -ESRCH : -errno;
		else if (n > 0)
			*len += (size_t)n;
	} while (!ret && n);
	close(fd);
	if (ret) {
		free(*buf);
		*buf = NULL;
		return ret;
	}
	(*buf)[*len] = '\0';
	return 0;
}

int cg_of_tid(const struct cg_hier *h, pid_t tid, char *path, size_t size)
{
	const char *rec, *p, *next, *end;
	char *buf;
	size_t len;
	int ret;

	if (size)
		path[0] = '\0';
	ret = read_cgroup_file(tid, &buf, &len);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (rec = buf; rec && *rec; rec = next) {
		p = record_path(rec);
		next = next_record(p ? p : rec);
		if (!p || !record_is(h, rec, p))
			continue;
		/* up to the newline before the next record, or the last */
		end = next ? next - 1 : buf + len;
		if (!next && end > p && end[-1] == '\n')
			end--;
		ret = (size_t)(end - p) < size ? 0 : -ENAMETOOLONG;
		if (!ret) {
			memcpy(path, p, (size_t)(end - p));
			path[end - p] = '\0';
		}
		break;
	}
	free(buf);
	return ret;
}
