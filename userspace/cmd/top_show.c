// SPDX-License-Identifier: GPL-2.0
/*
 * top_show.c - one socket's interval of "memdiagctl top": the socket line
 * (its own bytes, the verdict, the groups' sum, other, unattributed),
 * then a row per group, in one print path for text and JSON. Text fits
 * the terminal's width; a pipe gets whole lines.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "top.h"

/* the columns before the group's name, with a source column of 6 */
#define GROUP_COLS 34

/* The source column's width: one source per table, its name's length. */
static int source_cols(const struct top_view *v)
{
	int n = (int)strlen(attr_source_name(v->source));

	return n > 6 ? n : 6;
}

static double gbps(uint64_t bytes, double s)
{
	return s > 0 ? (double)bytes / s / 1e9 : NAN;
}

static double sgbps(int64_t bytes, double s)
{
	return s > 0 ? (double)bytes / s / 1e9 : NAN;
}

static double share(double part, const struct recon *r)
{
	return r->have_socket && r->socket_bytes ?
		part / (double)r->socket_bytes : NAN;
}

/* A name cut to what the terminal has left, with a '+' where it was cut. */
static void fit(char *out, size_t size, const char *name, unsigned int cols)
{
	size_t n = strlen(name);

	if (!cols || n <= cols || cols < 2) {
		snprintf(out, size, "%s", name);
		return;
	}
	snprintf(out, size, "%.*s+", (int)cols - 1, name);
}

static void socket_line(struct printer *p, const struct top_view *v,
			const struct recon *r, const struct snap_judged *j,
			const char *socket_why)
{
	double s = v->interval_s;

	print_uint(p, PRINT_ANY, "socket", "socket %u", r->socket_id);
	print_double(p, PRINT_JSON, "interval_s", "%g", s);
	if (r->have_socket) {
		print_u64(p, PRINT_JSON, "socket_bytes", "%" PRIu64,
			  r->socket_bytes);
		print_double(p, PRINT_ANY, "socket_gbps",
			     "  %.2f GB/s (memory controllers)",
			     gbps(r->socket_bytes, s));
	} else {
		/* the reason once on stderr; every JSON line carries it */
		print_string(p, PRINT_JSON, "socket_reason", "%s", socket_why);
		print_textf(p, "  no socket count (said above)");
	}
	if (j && j->v.valid)
		print_string(p, PRINT_ANY, "verdict", "  verdict %s",
			     verdict_label_name(j->v.label));
	print_u64(p, PRINT_JSON, "groups_bytes", "%" PRIu64, r->groups_total);
	print_double(p, PRINT_ANY, "groups_gbps", "\n  groups %.2f GB/s",
		     gbps(r->groups_total, s));
	print_double(p, PRINT_JSON, "other_bytes", "%.0f", (double)r->other);
	print_double(p, PRINT_ANY, "other_gbps", "  other %.2f",
		     sgbps(r->other, s));
	if (r->have_socket) {
		print_double(p, PRINT_JSON, "unattributed_bytes", "%.0f",
			     (double)r->unattributed);
		print_double(p, PRINT_ANY, "unattributed_gbps",
			     "  unattributed %.2f (socket - groups)\n",
			     sgbps(r->unattributed, s));
	} else {
		print_textf(p, "  unattributed - (no socket count)\n");
	}
}

static void group_row(struct printer *p, const struct top_view *v,
		      const struct recon *r, const struct recon_row *row)
{
	const struct cg_ident *id = &row->g->id;
	char name[CG_KEY_MAX + 2];
	unsigned int cols;

	print_open_object(p, NULL);
	verdict_num(p, "gbps", "%8.2f", "%8s", gbps(row->bytes, v->interval_s));
	verdict_num(p, "share", "  %5.1f%%", "  %6s",
		    100 * share((double)row->bytes, r));
	print_textf(p, "  %-*s", source_cols(v), attr_source_name(v->source));
	print_string(p, PRINT_JSON, "source", "%s",
		     attr_source_name(v->source));
	print_string(p, PRINT_ANY, "kind", "  %-9s", cg_kind_name(id->kind));
	print_u64(p, PRINT_JSON, "bytes", "%" PRIu64, row->bytes);
	cols = GROUP_COLS + source_cols(v) - 6;
	fit(name, sizeof(name), row->g->key,
	    v->width > cols ? v->width - cols : 0);
	print_string(p, PRINT_TEXT, NULL, "  %s\n", name);
	print_string(p, PRINT_JSON, "group", "%s", row->g->key);
	if (id->pod_uid[0])
		print_string(p, PRINT_JSON, "pod_uid", "%s", id->pod_uid);
	if (id->container_id[0])
		print_string(p, PRINT_JSON, "container_id", "%s",
			     id->container_id);
	if (id->unit[0])
		print_string(p, PRINT_JSON, "unit", "%s", id->unit);
	print_close_object(p);
}

/* Counts worth a look: what resctrl refused or could not count. */
static void notes(struct printer *p, const struct attr *a)
{
	const struct rc_attach_stats *st = &a->gs.st;
	const struct rc_read_stats *rs = &a->rs;

	print_open_object(p, "notes");
	print_textf(p, "  notes:");
	print_uint(p, PRINT_ANY, "no_rmid", " no-RMID(ENOSPC) %u", st->enospc);
	print_uint(p, PRINT_ANY, "rmid_limbo", " limbo(EBUSY) %u", st->ebusy);
	print_uint(p, PRINT_ANY, "exited", " exited(ESRCH) %u", st->esrch);
	print_uint(p, PRINT_ANY, "refused", " refused %u", st->refused);
	print_uint(p, PRINT_ANY, "no_counter", " no-counter %u", st->no_cntr);
	print_uint(p, PRINT_ANY, "unavailable", " Unavailable %u",
		   rs->unavailable);
	print_uint(p, PRINT_ANY, "unassigned", " Unassigned %u",
		   rs->unassigned);
	print_uint(p, PRINT_ANY, "resets", " resets %u", rs->resets);
	print_uint(p, PRINT_ANY, "garbage", " unreadable %u",
		   rs->garbage + rs->error);
	print_u64(p, PRINT_ANY, "shared", " shared %" PRIu64,
		  (uint64_t)a->shared);
	print_u64(p, PRINT_ANY, "unowned", " unowned %" PRIu64,
		  (uint64_t)a->unowned);
	print_u64(p, PRINT_ANY, "groups_over_max", " over-max %" PRIu64 "\n",
		  (uint64_t)a->scan.over_max);
	print_close_object(p);
}

static bool any_note(const struct attr *a)
{
	const struct rc_attach_stats *st = &a->gs.st;
	const struct rc_read_stats *rs = &a->rs;

	return st->enospc || st->ebusy || st->esrch || st->refused ||
	       st->no_cntr || rs->unavailable || rs->unassigned ||
	       rs->resets || rs->garbage || rs->error || a->shared ||
	       a->unowned || a->scan.over_max;
}

int top_show(const char *cmd, const struct top_view *v,
	     const struct attr *a, const struct recon *r,
	     const struct snap_judged *j, const char *socket_why)
{
	struct printer p;
	size_t i;

	print_init(&p, stdout, v->json, v->pretty);
	print_open_object(&p, NULL);
	print_string(&p, PRINT_JSON, "by", "%s", cg_by_name(v->by));
	socket_line(&p, v, r, j, socket_why);
	print_textf(&p, "%8s  %6s  %-*s  %-9s  %s\n", "GB/s", "share",
		    source_cols(v), "source", "kind", "group");
	print_open_array(&p, "groups");
	for (i = 0; i < r->nr_rows; i++)
		group_row(&p, v, r, &r->rows[i]);
	print_close_array(&p);
	print_u64(&p, PRINT_JSON, "groups_active", "%" PRIu64,
		  (uint64_t)r->nr_active);
	print_textf(&p, "%8.2f  ", sgbps(r->other, v->interval_s));
	if (r->have_socket)
		print_textf(&p, "%5.1f%%", 100 * share((double)r->other, r));
	else
		print_textf(&p, "%6s", "-");
	print_textf(&p, "  %-*s  %-9s  other (%zu more groups, threads in none)\n",
		    source_cols(v), attr_source_name(v->source), "-",
		    r->nr_active - r->nr_rows);
	if (v->json || any_note(a))
		notes(&p, a);
	print_close_object(&p);
	return cli_output_end(cmd, &p);
}
