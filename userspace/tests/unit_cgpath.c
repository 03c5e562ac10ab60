// SPDX-License-Identifier: GPL-2.0
/*
 * unit_cgpath.c - unit tests: a cgroup path's pod, container, unit and
 * Slurm job, and its group for each --by (cgpath.c), case by case from
 * tests/data/cgroup-paths.txt; the names, the key's buffer, the lengths.
 */

#include <libgen.h>
#include <limits.h>

#include "cgpath.h"
#include "helpers.h"
#include "units.h"

#define CGPATH_CASES "cgroup-paths.txt"
#define CASE_FIELDS 10
#define FIELD_MAX (2 * PATH_MAX)	/* the longest path, decoded */

/* The columns of the cases file. */
enum { F_PATH, F_BY, F_KEY, F_KIND, F_POD, F_QOS, F_CID, F_RUNTIME,
	F_UNIT, F_JOB };

static const char *const case_columns[CASE_FIELDS] = {
	"path", "by", "key", "kind", "pod uid", "qos", "container id",
	"runtime", "unit", "slurm job",
};

struct cgpath_case {
	int line;
	char f[CASE_FIELDS][FIELD_MAX];
};

/* The unit: "unit.bin -f cgpath" runs its tests alone */
FIXTURE(cgpath) {
	struct cgpath_case *c;
};

FIXTURE_SETUP(cgpath)
{
	self->c = calloc(1, sizeof(*self->c));
	ASSERT_NE(NULL, self->c);
}

FIXTURE_TEARDOWN(cgpath)
{
	free(self->c);
}

/*
 * The cases file: in data/ beside the binary (tests/), wherever the
 * tests run from; else tests/data/ of the current directory.
 */
static FILE *open_cases(char *path, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;

	if (n > 0) {
		exe[n] = '\0';
		snprintf(path, size, "%s/data/" CGPATH_CASES, dirname(exe));
		f = fopen(path, "re");
		if (f)
			return f;
	}
	snprintf(path, size, "tests/data/" CGPATH_CASES);
	return fopen(path, "re");
}

/* Append @ch to @out (@o bytes so far); false when full. */
static bool put_byte(char *out, size_t size, size_t *o, char ch)
{
	if (*o + 1 >= size)
		return false;
	out[(*o)++] = ch;
	return true;
}

/* "\{N*TEXT}" at @in (after the backslash): TEXT N times; its length. */
static size_t repeat(const char *in, size_t len, char *out, size_t size,
		     size_t *o)
{
	char *end;
	const char *text, *close;
	unsigned long n = strtoul(in + 1, &end, 10), i;
	size_t t;

	if (*end != '*')
		return 0;
	text = end + 1;
	close = memchr(text, '}', len - (size_t)(text - in));
	if (!close)
		return 0;
	for (i = 0; i < n; i++)
		for (t = 0; text + t < close; t++)
			if (!put_byte(out, size, o, text[t]))
				return 0;
	return (size_t)(close - in) + 1;
}

/* Decode field @in (@len bytes) into @out; false when it cannot be. */
static bool decode_field(const char *in, size_t len, char *out, size_t size)
{
	size_t i, o = 0, used;
	char hex[3] = "";
	char ch;

	for (i = 0; i < len; i++) {
		ch = in[i];
		if (ch == '\\' && ++i < len) {
			ch = in[i];
			if (ch == '{') {
				used = repeat(in + i, len - i, out, size, &o);
				if (!used)
					return false;
				i += used - 1;
				continue;
			}
			if (ch == 'x' && i + 2 < len) {
				memcpy(hex, in + i + 1, 2);
				ch = (char)strtoul(hex, NULL, 16);
				i += 2;
			} else if (ch == 't' || ch == 'n') {
				ch = ch == 't' ? '\t' : '\n';
			}
		}
		if (!ch || !put_byte(out, size, &o, ch))
			return false;
	}
	out[o] = '\0';
	return true;
}

/* Split @line at its unescaped '|' into @c; false when it is no case. */
static bool split_case(char *line, struct cgpath_case *c)
{
	size_t start = 0, i, n = 0, len = strcspn(line, "\n");

	for (i = 0; i <= len && n < CASE_FIELDS; i++) {
		if (i < len && line[i] == '\\') {
			i++;
			continue;
		}
		if (i < len && line[i] != '|')
			continue;
		if (!decode_field(line + start, i - start, c->f[n],
				  sizeof(c->f[n])))
			return false;
		if (n && !strcmp(c->f[n], "-"))
			c->f[n][0] = '\0';
		n++;
		start = i + 1;
	}
	return n == CASE_FIELDS && i > len;
}

/* The error an expected key "!EINVAL" names: -EINVAL; 1 when unknown. */
static int error_named(const char *name)
{
	if (!strcmp(name, "EINVAL"))
		return -EINVAL;
	if (!strcmp(name, "ENAMETOOLONG"))
		return -ENAMETOOLONG;
	if (!strcmp(name, "ENOSPC"))
		return -ENOSPC;
	return 1;
}

static bool ident_empty(const struct cg_ident *id)
{
	static const struct cg_ident empty;

	return !memcmp(id, &empty, sizeof(empty));
}

/* What cg_parse() says of the path: what cg_key() said, but the group. */
static void check_parse(struct __test_metadata *_metadata,
			const struct cgpath_case *c, const struct cg_ident *id,
			int by)
{
	struct cg_ident parsed;

	ok(!cg_parse(c->f[F_PATH], &parsed) &&
	   !strcmp(parsed.pod_uid, id->pod_uid) &&
	   !strcmp(parsed.qos, id->qos) &&
	   !strcmp(parsed.container_id, id->container_id) &&
	   !strcmp(parsed.runtime, id->runtime) &&
	   !strcmp(parsed.slurm_job, id->slurm_job),
	   "line %d: cg_parse() finds what cg_key() did", c->line);
	if (by == CG_BY_CGROUP)
		ok(parsed.kind == id->kind && !strcmp(parsed.unit, id->unit),
		   "line %d: cg_parse()'s kind and unit are --by cgroup's",
		   c->line);
}

static void check_case(struct __test_metadata *_metadata,
		       const struct cgpath_case *c)
{
	static const int col[] = { F_POD, F_QOS, F_CID, F_RUNTIME, F_UNIT,
				   F_JOB };
	char key[CG_KEY_MAX], label[64];
	int by = cg_by_parse(c->f[F_BY]), err = 0, ret;
	const char *got[6];
	struct cg_ident id;
	size_t i;

	if (by < 0)
		by = atoi(c->f[F_BY]);	/* an unknown one */
	if (c->f[F_KEY][0] == '!')
		err = error_named(c->f[F_KEY] + 1);
	memset(key, 'x', sizeof(key));
	memset(&id, 0x55, sizeof(id));
	ret = cg_key(c->f[F_PATH], by, key, sizeof(key), &id);
	ok(ret == err, "line %d: cg_key() returns %d, want %d", c->line,
	   ret, err);
	if (err || ret) {
		ok(!key[0] && ident_empty(&id),
		   "line %d: an error leaves the key and ident empty", c->line);
		return;
	}
	snprintf(label, sizeof(label), "line %d: key", c->line);
	is_str(key, c->f[F_KEY], label);
	snprintf(label, sizeof(label), "line %d: kind", c->line);
	is_str(cg_kind_name(id.kind), c->f[F_KIND], label);
	got[0] = id.pod_uid;
	got[1] = id.qos;
	got[2] = id.container_id;
	got[3] = id.runtime;
	got[4] = id.unit;
	got[5] = id.slurm_job;
	for (i = 0; i < 6; i++) {
		snprintf(label, sizeof(label), "line %d: %s", c->line,
			 case_columns[col[i]]);
		is_str(got[i], c->f[col[i]], label);
	}
	check_parse(_metadata, c, &id, by);
}

TEST_F(cgpath, cases)
{
	unsigned int n = 0, by[3] = { 0 }, errors = 0;
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	FILE *f = open_cases(path, sizeof(path));
	int no = 0, b;

	ASSERT_NE(NULL, f) TH_LOG("no %s", CGPATH_CASES);
	while (getline(&line, &cap, f) > 0) {
		no++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		self->c->line = no;
		if (!ok(split_case(line, self->c), "%s:%d: not a case", path,
			no))
			continue;
		check_case(_metadata, self->c);
		n++;
		b = cg_by_parse(self->c->f[F_BY]);
		if (b >= 0)
			by[b]++;
		errors += self->c->f[F_KEY][0] == '!';
	}
	free(line);
	fclose(f);
	printf("# %s: %u cases (%u pod, %u service, %u cgroup; %u errors)\n",
	       path, n, by[CG_BY_POD], by[CG_BY_SERVICE], by[CG_BY_CGROUP],
	       errors);
	ok(n >= 100 && by[CG_BY_POD] >= 20 && by[CG_BY_SERVICE] >= 40 &&
	   by[CG_BY_CGROUP] >= 15 && errors >= 10,
	   "every --by and the errors have their cases: %u", n);
}

TEST_F(cgpath, names)
{
	int i;

	for (i = CG_BY_POD; i <= CG_BY_CGROUP; i++)
		ok(cg_by_name(i) && cg_by_parse(cg_by_name(i)) == i,
		   "--by %d: a name that parses back", i);
	is_str(cg_by_name(CG_BY_SERVICE), "service", "--by service");
	ok(cg_by_parse("Pod") == -1 && cg_by_parse("") == -1 &&
	   cg_by_parse(NULL) == -1 && !cg_by_name(CG_BY_CGROUP + 1),
	   "no other --by");
	for (i = CG_KIND_CGROUP; i <= CG_KIND_ROOT; i++)
		ok(cg_kind_name(i) && strlen(cg_kind_name(i)) <= 9,
		   "kind %d has a name of 9 columns at most", i);
	is_str(cg_kind_name(CG_KIND_SLURM_JOB), "slurm-job", "a Slurm job");
	ok(!cg_kind_name(CG_KIND_ROOT + 1), "no other kind");
}

TEST_F(cgpath, key_buffer)
{
	const char *pod = "/kubepods/pod0a1b2c3d-4e5f-4061-8273-9485a6b7c8d9";
	struct cg_ident id;
	char key[64];

	ok(!cg_key("/system.slice/nginx.service", CG_BY_SERVICE, key, 14,
		   &id) && !strcmp(key, "nginx.service"),
	   "a key that just fits");
	ok(cg_key("/system.slice/nginx.service", CG_BY_SERVICE, key, 13,
		  &id) == -ENOSPC && !key[0] && ident_empty(&id),
	   "one byte short: -ENOSPC, the key and ident empty");
	ok(!cg_key(pod, CG_BY_POD, key, 41, &id) &&
	   cg_key(pod, CG_BY_POD, key, 40, &id) == -ENOSPC,
	   "pod:<uid> needs 41 bytes");
	ok(cg_key("/", CG_BY_CGROUP, NULL, 0, &id) == -ENOSPC,
	   "no buffer at all: -ENOSPC, nothing written");
	ok(cg_key(NULL, CG_BY_CGROUP, key, sizeof(key), &id) == -EINVAL &&
	   cg_parse(NULL, &id) == -EINVAL, "no path: -EINVAL");
}

/* A path of @len bytes: components of NAME_MAX bytes ("/aaa.../aaa"). */
static void long_path(char *p, size_t len, char fill)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = i % (NAME_MAX + 1) ? fill : '/';
	p[len] = '\0';
}

TEST_F(cgpath, lengths)
{
	static char path[PATH_MAX + 2], key[CG_KEY_MAX];
	struct cg_ident id;

	long_path(path, PATH_MAX - 1, 'a');
	ok(!cg_key(path, CG_BY_CGROUP, key, sizeof(key), &id) &&
	   !strcmp(key, path), "PATH_MAX - 1 bytes: the key is all of it");
	long_path(path, PATH_MAX, 'a');
	ok(cg_key(path, CG_BY_CGROUP, key, sizeof(key), &id) ==
	   -ENAMETOOLONG, "PATH_MAX bytes: -ENAMETOOLONG");
	long_path(path, PATH_MAX + 1, 'a');
	ok(cg_parse(path, &id) == -ENAMETOOLONG, "and beyond");
	/* a unit of NAME_MAX bytes is kept whole, not cut */
	memset(path, 'u', sizeof(path));
	memcpy(path, "/system.slice/", 14);
	memcpy(path + 14 + NAME_MAX - 8, ".service", sizeof(".service"));
	ok(!cg_key(path, CG_BY_SERVICE, key, sizeof(key), &id) &&
	   strlen(key) == NAME_MAX && !strcmp(id.unit, key) &&
	   id.kind == CG_KIND_SERVICE, "a unit of NAME_MAX bytes");
}
