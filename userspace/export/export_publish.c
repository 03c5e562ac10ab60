// SPDX-License-Identifier: GPL-2.0
/*
 * export_publish.c - what the exporter gives out: its notes on stderr
 * (each once), and the rendered metrics as the text a scrape copies and
 * as the node_exporter textfile. Both the HTTP side (cmd_export.c) and
 * the module side (export_conn.c) call it; it calls neither.
 */

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "export_daemon.h"

void export_note(struct exporter *x, const char *fmt, ...)
{
	char buf[sizeof(x->last_note)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!strcmp(buf, x->last_note))
		return;
	snprintf(x->last_note, sizeof(x->last_note), "%s", buf);
	cli_err("export", "note", "%s", buf);
}

static int write_textfile(struct exporter *x, const char *text, size_t len)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	FILE *f;

	/* not *.prom: node_exporter must never read a half-written file */
	snprintf(tmp, sizeof(tmp), "%s/." EXPORT_TEXTFILE ".%d", x->textfile_dir,
		 (int)getpid());
	snprintf(dst, sizeof(dst), "%s/" EXPORT_TEXTFILE, x->textfile_dir);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	if (fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		unlink(tmp);
		return -1;
	}
	if (chmod(tmp, 0644) < 0 || rename(tmp, dst) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Render the state and make it what scrapes and the textfile get. */
void export_publish(struct exporter *x)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool ok = f;

	if (f && x->probe) {
		ok = !export_estimate_render(&x->est, (double)time(NULL), f);
	} else if (f) {
		ok = !export_render(&x->st, f);
		if (ok)
			export_groups_render(&x->groups, f);
	}
	if (f && (ferror(f) | fclose(f)))
		ok = false;
	if (!ok) {
		export_note(x, "cannot render the metrics: %s", strerror(ENOMEM));
		free(text);
		return;
	}
	if (x->textfile_dir && write_textfile(x, text, len) < 0)
		export_note(x, "cannot write %s/%s: %s", x->textfile_dir,
		     EXPORT_TEXTFILE, strerror(errno));
	pthread_mutex_lock(&x->lock);
	free(x->text);
	x->text = text;
	x->len = len;
	pthread_mutex_unlock(&x->lock);
}
