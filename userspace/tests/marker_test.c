// SPDX-License-Identifier: GPL-2.0
/*
 * marker_test.c - libmemdiag-marker's API without the module (kselftest
 * harness): its errors, nesting per thread (a thread cannot close
 * another's region), exact call counts from many threads at once, the
 * results line it appends to $MEMDIAG_MARKER_FILE (json-c), and the
 * reason it gives for having no counters.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include "memdiag_marker.h"

#define THREADS 8
#define CALLS 2000

/* The results file, made for each test; NULL after reading it. */
static char path[64];

static void use_file(void)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/marker_test.XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	setenv(MEMDIAG_MARKER_ENV, path, 1);
}

/* The region @name of the last line of the file, or NULL (a new ref). */
static struct json_object *region(const char *name, struct json_object **doc)
{
	char line[1 << 16], last[1 << 16] = "";
	struct json_object *regs, *r, *n;
	FILE *f = fopen(path, "r");
	size_t i;

	*doc = NULL;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f))
		snprintf(last, sizeof(last), "%s", line);
	fclose(f);
	*doc = json_tokener_parse(last);
	if (!*doc || !json_object_object_get_ex(*doc, "regions", &regs))
		return NULL;
	for (i = 0; i < json_object_array_length(regs); i++) {
		r = json_object_array_get_idx(regs, i);
		if (json_object_object_get_ex(r, "name", &n) &&
		    !strcmp(json_object_get_string(n), name))
			return r;
	}
	return NULL;
}

static long long field(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ?
	       (long long)json_object_get_int64(v) : -1;
}

TEST(errors_before_init_and_bad_names)
{
	char longname[MEMDIAG_MARKER_NAME_MAX + 2];

	errno = 0;
	EXPECT_EQ(-1, memdiag_marker_start("x"));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, memdiag_marker_init());
	EXPECT_EQ(-1, memdiag_marker_start(""));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, memdiag_marker_start(NULL));
	EXPECT_EQ(EINVAL, errno);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	EXPECT_EQ(-1, memdiag_marker_start(longname));
	EXPECT_EQ(ENAMETOOLONG, errno);
	longname[MEMDIAG_MARKER_NAME_MAX] = '\0';	/* the longest allowed */
	EXPECT_EQ(0, memdiag_marker_start(longname));
	EXPECT_EQ(0, memdiag_marker_stop(longname));
	EXPECT_EQ(-1, memdiag_marker_stop("never-started"));
	EXPECT_EQ(ENOENT, errno);
	unsetenv(MEMDIAG_MARKER_ENV);
	EXPECT_EQ(-1, memdiag_marker_close());
	EXPECT_EQ(ENOENT, errno);
}

TEST(nesting_depth_is_bounded)
{
	int i;

	ASSERT_EQ(0, memdiag_marker_init());
	for (i = 0; i < MEMDIAG_MARKER_DEPTH_MAX; i++)
		ASSERT_EQ(0, memdiag_marker_start("deep"));
	EXPECT_EQ(-1, memdiag_marker_start("deeper"));
	EXPECT_EQ(ENOSPC, errno);
	for (i = 0; i < MEMDIAG_MARKER_DEPTH_MAX; i++)
		ASSERT_EQ(0, memdiag_marker_stop("deep"));
	EXPECT_EQ(-1, memdiag_marker_stop("deep"));
	unsetenv(MEMDIAG_MARKER_ENV);
	memdiag_marker_close();
}

static void *other_thread_stops(void *arg)
{
	/* the region is the main thread's: not ours to close */
	*(int *)arg = memdiag_marker_stop("mine") == -1 && errno == ENOENT;
	return NULL;
}

TEST(a_thread_cannot_close_another_threads_region)
{
	struct json_object *doc, *r;
	pthread_t th;
	int refused = 0;

	use_file();
	ASSERT_EQ(0, memdiag_marker_init());
	ASSERT_EQ(0, memdiag_marker_start("mine"));
	ASSERT_EQ(0, pthread_create(&th, NULL, other_thread_stops, &refused));
	pthread_join(th, NULL);
	EXPECT_TRUE(refused);
	EXPECT_EQ(0, memdiag_marker_stop("mine"));
	EXPECT_EQ(0, memdiag_marker_close());
	r = region("mine", &doc);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(1, field(r, "calls"));
	json_object_put(doc);
	unlink(path);
}

static void *hammer(void *arg)
{
	int i, *fails = arg;

	for (i = 0; i < CALLS; i++) {
		if (memdiag_marker_start("outer") < 0 ||
		    memdiag_marker_start("inner") < 0 ||
		    memdiag_marker_stop("inner") < 0 ||
		    memdiag_marker_stop("outer") < 0)
			(*fails)++;
	}
	return NULL;
}

TEST(many_threads_count_every_call_and_say_why_no_counters)
{
	struct json_object *doc, *r, *why;
	pthread_t th[THREADS];
	int fails[THREADS] = { 0 }, i;
	const char *reason;

	use_file();
	ASSERT_EQ(0, memdiag_marker_init());
	reason = memdiag_marker_counters_reason();
	ASSERT_NE(NULL, reason);	/* no module on the host */
	for (i = 0; i < THREADS; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, hammer, &fails[i]));
	for (i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, fails[i]);
	}
	EXPECT_EQ(0, memdiag_marker_close());
	r = region("inner", &doc);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(THREADS * CALLS, field(r, "calls"));
	EXPECT_EQ(0, field(r, "counted_calls"));
	EXPECT_LT(0, field(r, "time_ns"));
	ASSERT_TRUE(json_object_object_get_ex(r, "counters_reason", &why));
	EXPECT_NE(NULL, strstr(json_object_get_string(why), "memdiag"));
	json_object_put(doc);
	r = region("outer", &doc);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(THREADS * CALLS, field(r, "calls"));
	json_object_put(doc);
	unlink(path);
}

TEST_HARNESS_MAIN
