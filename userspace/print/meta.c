// SPDX-License-Identifier: GPL-2.0
/* meta.c - the archive metadata of a result (meta.h). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "csv.h"
#include "meta.h"

#ifndef MEMDIAGCTL_VERSION
#define MEMDIAGCTL_VERSION "unknown"
#endif
/* the Makefile's "git describe" of the tree built, "unknown" outside git */
#ifndef MEMDIAG_COMMIT
#define MEMDIAG_COMMIT "unknown"
#endif

/* argv as the kernel keeps it: NUL-separated, so nothing is re-quoted */
static void print_argv(struct printer *p)
{
	char buf[8192];
	size_t len = 0, i;
	FILE *f = fopen("/proc/self/cmdline", "re");

	if (f) {
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	if (!len) {
		print_string(p, PRINT_JSON, "argv", "%s", NULL);
		return;
	}
	buf[len] = '\0';
	print_open_array(p, "argv");
	for (i = 0; i < len; i += strlen(buf + i) + 1)
		print_string(p, PRINT_JSON, NULL, "%s", buf + i);
	print_close_array(p);
}

void meta_print(struct printer *p)
{
	char host[256], date[32];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	char *model = cpuinfo_value("model name");
	bool have_uname = uname(&u) == 0;

	print_open_object(p, "meta");
	host[sizeof(host) - 1] = '\0';
	print_string(p, PRINT_JSON, "hostname", "%s",
		     gethostname(host, sizeof(host) - 1) == 0 ? host : NULL);
	/* arm64 and others have no "model name": null, not a guess */
	print_string(p, PRINT_JSON, "cpu_model", "%s", model);
	print_string(p, PRINT_JSON, "kernel_release", "%s",
		     have_uname ? u.release : NULL);
	print_string(p, PRINT_JSON, "machine", "%s",
		     have_uname ? u.machine : NULL);
	print_string(p, PRINT_JSON, "memdiag_version", "%s", MEMDIAGCTL_VERSION);
	print_string(p, PRINT_JSON, "memdiag_commit", "%s", MEMDIAG_COMMIT);
	if (gmtime_r(&now, &tm) &&
	    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm))
		print_string(p, PRINT_JSON, "date", "%s", date);
	else
		print_string(p, PRINT_JSON, "date", "%s", NULL);
	print_argv(p);
	print_close_object(p);
	free(model);
}

int meta_csv(char **head, char **row)
{
	struct printer p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return -1;
	/* -j's object, so the columns are run --csv's "meta.*" ones */
	print_init(&p, f, true, false);
	print_open_object(&p, NULL);
	meta_print(&p);
	print_close_object(&p);
	rc = print_end(&p);
	rc = fclose(f) == EOF || rc ? -1 : csv_flat(buf, head, row);
	free(buf);
	return rc;
}
