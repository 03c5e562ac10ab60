/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export_daemon.h - "memdiagctl export" between its HTTP side
 * (cmd_export.c) and its module side (export_conn.c), both of
 * which publish through export_publish.c.
 */

#ifndef MEMDIAGCTL_EXPORT_DAEMON_H
#define MEMDIAGCTL_EXPORT_DAEMON_H

#include <pthread.h>

#include "export.h"
#include "export_estimate.h"
#include "export_groups.h"

/* the textfile in --textfile DIR that node_exporter reads */
#define EXPORT_TEXTFILE "memdiag.prom"

struct exporter {
	const char *listen;		/* NULL: no HTTP */
	const char *textfile_dir;	/* NULL: no textfile */
	const char *curve_path;		/* NULL: the default places */
	struct curve curve;		/* what st.curve points to, if loaded */
	/* which curve serves, or why none: said once the module is read */
	char curve_note[CURVE_WHY_SIZE + 128];
	bool curve_noted;
	const struct curve_socket *probe_curve;	/* --probe's; NULL: why */
	char probe_why[CURVE_WHY_SIZE];	/* no estimate, and why */
	uint32_t interval_ms;
	uint32_t df_channels;		/* --df-channels mask; 0: not asked */
	double threshold;
	struct export_state st;
	bool probe;			/* --probe: estimates, no module */
	struct export_estimate est;	/* what --probe serves */
	size_t top;			/* --top: groups per socket */
	struct export_groups groups;	/* per-group series */
	bool groups_noted;		/* why there are none, said */

	pthread_mutex_t lock;		/* guards text and len */
	char *text;			/* what a scrape gets */
	size_t len;
	char last_note[300];		/* the last note given */
};

/* Render the state: the text scrapes get, and the textfile. */
void export_publish(struct exporter *x);

/* A note on stderr, unless it is the one given last (retries). */
void export_note(struct exporter *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Keep a session with the module, feed its snapshots to x->st and publish
 * after each batch, reconnecting whenever the module goes away, until
 * @sfd (a signalfd) is readable. An exit code.
 */
int export_run(struct exporter *x, int sfd);

/*
 * --probe's curve: socket 0's of --curve FILE or the default places, into
 * x->probe_curve (NULL: x->probe_why says why). A --curve FILE that cannot
 * be read is an error naming it (MDC_EXIT_LOCAL, reported), as in every
 * command that reads a curve; no usable curve only leaves the estimates
 * out.
 */
int export_probe_curve(struct exporter *x);

/*
 * --probe: the counter-free probe's sample every interval into x->est,
 * published after each, until @sfd is readable. An exit code.
 */
int export_probe_run(struct exporter *x, int sfd);

#endif /* MEMDIAGCTL_EXPORT_DAEMON_H */
