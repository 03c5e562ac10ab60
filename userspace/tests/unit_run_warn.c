// SPDX-License-Identifier: GPL-2.0
/*
 * unit_run_warn.c - unit tests: the warnings of "run" (run/warn.c): when
 * a row is noisy, and the last-level cache read from a fake sysfs.
 */

#include <sys/stat.h>

#include "../../kernels/cache.h"
#include "helpers.h"
#include "run/warn.h"
#include "units.h"

/* the unit: "unit.bin -f run_warn" runs its tests alone */
FIXTURE(run_warn) {};
FIXTURE_SETUP(run_warn) {}
FIXTURE_TEARDOWN(run_warn) {}

/* The JSON of one row whose cov is @cov, and the warnings it left. */
static char *cov_row(struct __test_metadata *_metadata,
		     double cov, unsigned int *nr_warn)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	run_print_cov(&p, " %8.4f", cov, "stream 1M copy");
	*nr_warn = run_warn_count();
	run_warn_json(&p);
	print_close_object(&p);
	ok(print_end(&p) == 0, "run warn: output ends cleanly");
	buf_close(&b);
	return b.data;
}

TEST_F(run_warn, noisy)
{
	struct capture cap;
	unsigned int n;
	char *s, *err;

	ok(!run_cov_noisy(0.05), "run warn: CoV 0.05 is no noise");
	ok(!run_cov_noisy(RUN_NOISY_COV), "run warn: CoV at the threshold is no noise");
	ok(run_cov_noisy(0.19), "run warn: CoV 0.19 is noisy");
	ok(!run_cov_noisy(NAN), "run warn: an unknown CoV is not called noisy");

	s = cov_row(_metadata, 0.02, &n);
	has_str(s, "\"noisy\":false", "run warn: a quiet row says noisy false");
	ok(n == 0, "run warn: a quiet row leaves no warning (%u)", n);
	free(s);

	s = cov_row(_metadata, 0.19, &n);
	has_str(s, "\"noisy\":true", "run warn: a noisy row says noisy true");
	has_str(s, "\"cov\":0.19", "run warn: the noisy row keeps its cov");
	ok(n == 1, "run warn: a noisy row leaves one warning (%u)", n);
	has_str(s, "\"warnings\":[\"noisy: stream 1M copy: CoV 0.19 above 0.10",
		"run warn: the warning is in the document");
	free(s);
	capture_start(&cap);
	run_warn_flush("run");
	err = capture_end(&cap);
	has_str(err,
		"memdiagctl: run: warning: noisy: stream 1M copy: CoV 0.19 above 0.10 - rerun",
		"run warn: the warning goes to stderr");
	ok(run_warn_count() == 0, "run warn: flushed warnings are dropped");
	free(err);

	/* just above the bound: digits enough to read above it */
	s = cov_row(_metadata, 0.1004, &n);
	has_str(s, "noisy: stream 1M copy: CoV 0.1004 above 0.10 - rerun",
		"run warn: a CoV just above 0.10 prints as above it");
	free(s);
	capture_start(&cap);
	run_warn_flush("run");
	free(capture_end(&cap));
}

/* cpu0's cache index @idx of @level and @size in the fake sysfs @dir. */
static void fake_cache(const char *dir, int idx, int level, const char *size)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu0/cache/index%d", dir, idx);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/cpu0/cache/index%d/level", dir, idx);
	f = fopen(path, "w");
	fprintf(f, "%d\n", level);
	fclose(f);
	snprintf(path, sizeof(path), "%s/cpu0/cache/index%d/size", dir, idx);
	f = fopen(path, "w");
	fprintf(f, "%s\n", size);
	fclose(f);
}

TEST_F(run_warn, llc)
{
	char dir[] = "/tmp/memdiag-unit-sysfsXXXXXX", path[512];
	struct capture cap;
	char *err;

	if (!mkdtemp(dir)) {
		ok(false, "run warn: a temporary directory: %s", strerror(errno));
		return;
	}
	ok(kern_llc_bytes(dir, 0) == 0, "run warn: no cache listed: LLC unknown (0)");
	snprintf(path, sizeof(path), "%s/cpu0", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/cpu0/cache", dir);
	mkdir(path, 0755);
	fake_cache(dir, 0, 1, "48K");
	fake_cache(dir, 1, 1, "32K");
	fake_cache(dir, 2, 3, "32M");
	fake_cache(dir, 3, 2, "2048K");	/* after the L3: still not the LLC */
	ok(kern_llc_bytes(dir, 0) == 32ull << 20,
	   "run warn: the LLC is the highest level's size (%" PRIu64 ")",
	   kern_llc_bytes(dir, 0));

	setenv("MEMDIAG_TEST_SYSFS_CPU", dir, 1);
	run_check_llc(3ull << 20, "stream's three arrays");
	ok(run_warn_count() == 1, "run warn: 3M in a 32M LLC is warned about");
	run_check_llc(32ull << 20, "the read-delay array");
	ok(run_warn_count() == 2, "run warn: the LLC's own size still fits");
	run_check_llc((32ull << 20) + 4096, "the read-delay array");
	ok(run_warn_count() == 2, "run warn: above the LLC: no warning");
	capture_start(&cap);
	run_warn_flush("run");
	err = capture_end(&cap);
	has_str(err,
		"in cache: stream's three arrays, 3M in all, within this machine's 32M last-level",
		"run warn: the in-cache warning names the sizes");
	free(err);
	unsetenv("MEMDIAG_TEST_SYSFS_CPU");
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/cpu0/cache/index%d/level", dir, i);
		unlink(path);
		snprintf(path, sizeof(path), "%s/cpu0/cache/index%d/size", dir, i);
		unlink(path);
		snprintf(path, sizeof(path), "%s/cpu0/cache/index%d", dir, i);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/cpu0/cache", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/cpu0", dir);
	rmdir(path);
	rmdir(dir);
}
