// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_show.c - what "memdiagctl snapshot" prints of the raw
 * cumulative counters: the table (counters as rows, sockets as columns)
 * or the JSON, with the channels and the window's verdict.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memdiag.h>

#include "cli.h"
#include "cmd.h"
#include "df_nodes_show.h"
#include "names.h"
#include "snapshot.h"
#include "snapshot_show.h"
#include "snapshot_verdict.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The scalar attributes, in the spec's order: the table's rows (labelled
 * with the spec's names) and the JSON keys (Documentation/json.rst: the
 * spec name in snake_case, but DRAM bytes are read_bytes and write_bytes
 * as in watch and run, whose values are differences of these, and the
 * prefetch bitmasks end in _mask, as watch's prefetch_disabled is a list
 * of names).
 */
static const struct snap_row {
	unsigned int attr;
	const char *key;
} snap_rows[] = {
	{ MEMDIAG_A_SNAPSHOT_TIME_NS, "time_ns" },
	{ MEMDIAG_A_SNAPSHOT_IMC_EPOCH, "imc_epoch" },
	{ MEMDIAG_A_SNAPSHOT_DRAM_READ_BYTES, "read_bytes" },
	{ MEMDIAG_A_SNAPSHOT_DRAM_WRITE_BYTES, "write_bytes" },
	{ MEMDIAG_A_SNAPSHOT_DRAM_RDWR_BYTES, "rdwr_bytes" },
	{ MEMDIAG_A_SNAPSHOT_CORE_EPOCH, "core_epoch" },
	{ MEMDIAG_A_SNAPSHOT_NR_CPUS, "nr_cpus" },
	{ MEMDIAG_A_SNAPSHOT_INSTRUCTIONS, "instructions" },
	{ MEMDIAG_A_SNAPSHOT_CYCLES, "cycles" },
	{ MEMDIAG_A_SNAPSHOT_REF_CYCLES, "ref_cycles" },
	{ MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS, "l1d_pend_miss" },
	{ MEMDIAG_A_SNAPSHOT_L1_MISS, "l1_miss" },
	{ MEMDIAG_A_SNAPSHOT_LFB_HIT, "lfb_hit" },
	{ MEMDIAG_A_SNAPSHOT_L1_MISS_ANY, "l1_miss_any" },
	{ MEMDIAG_A_SNAPSHOT_OFFCORE_DRAM_READS, "offcore_dram_reads" },
	{ MEMDIAG_A_SNAPSHOT_MAB_OCCUPANCY, "mab_occupancy" },
	{ MEMDIAG_A_SNAPSHOT_MAB_ALLOCATIONS, "mab_allocations" },
	{ MEMDIAG_A_SNAPSHOT_L3_EPOCH, "l3_epoch" },
	{ MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_LATENCY_CYCLES,
	  "l3_sampled_dram_latency_cycles" },
	{ MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_REQUESTS, "l3_sampled_dram_requests" },
	{ MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED, "prefetch_disabled_mask" },
	{ MEMDIAG_A_SNAPSHOT_PREFETCH_MIXED, "prefetch_mixed_mask" },
	{ MEMDIAG_A_SNAPSHOT_PREFETCH_CHANGED, "prefetch_changed" },
};

#define LABEL_W 30	/* "l3-sampled-dram-latency-cycles" */
#define VALUE_W 20	/* UINT64_MAX */

struct snap_msg {
	const struct nlmsghdr *nlh;
	struct snap s;
	struct snap_channel *ch;
	size_t nr_ch;
	struct snap_judged *j;	/* the verdict, when asked for */
};

static int read_channels(struct snap_msg *m)
{
	const struct nlattr *attr;

	m->ch = calloc(m->s.nr_channels ? m->s.nr_channels : 1,
		       sizeof(*m->ch));
	if (!m->ch)
		return -1;
	mnl_attr_for_each(attr, m->nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) == MEMDIAG_A_SNAPSHOT_CHANNEL &&
		    m->nr_ch < m->s.nr_channels)
			snap_channel_parse(attr, &m->ch[m->nr_ch++]);
	return 0;
}

/* The channel ids any socket reported, ascending, without repeats. */
static size_t channel_ids(const struct snap_msg *m, size_t nr, uint32_t *ids)
{
	size_t n = 0, i, j, k;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < m[i].nr_ch; j++) {
			uint32_t id = m[i].ch[j].id;

			if (!(m[i].ch[j].have & (1u << MEMDIAG_A_CHANNEL_ID)))
				continue;
			for (k = 0; k < n && ids[k] < id; k++)
				;
			if (k < n && ids[k] == id)
				continue;
			memmove(&ids[k + 1], &ids[k], (n - k) * sizeof(*ids));
			ids[k] = id;
			n++;
		}
	}
	return n;
}

static const struct snap_channel *find_channel(const struct snap_msg *m,
					       uint32_t id)
{
	size_t i;

	for (i = 0; i < m->nr_ch; i++)
		if ((m->ch[i].have & (1u << MEMDIAG_A_CHANNEL_ID)) &&
		    m->ch[i].id == id)
			return &m->ch[i];
	return NULL;
}

/*
 * One counter of one socket, the one call both renderings go through: a
 * cell of the table in text ('-' when absent), "key":value in JSON (the
 * key left out when absent). prefetch_changed is a JSON boolean.
 */
static void cell(struct printer *p, const char *key, bool have, uint64_t v)
{
	if (!have) {
		print_textf(p, " %*s", VALUE_W, "-");
		return;
	}
	if (!strcmp(key, "prefetch_changed")) {
		print_bool(p, PRINT_JSON, key, "%s", v);
		print_u64(p, PRINT_TEXT, NULL, " %20" PRIu64, v);
		return;
	}
	print_u64(p, PRINT_ANY, key, " %20" PRIu64, v);
}

static void row_cell(struct printer *p, const struct snap *s,
		     const struct snap_row *row)
{
	cell(p, row->key, snap_has(s, row->attr), s->v[row->attr]);
}

/* The channel counters, in the spec's order, and their JSON keys. */
static const struct snap_row chan_rows[] = {
	{ MEMDIAG_A_CHANNEL_READ_BYTES, "read_bytes" },
	{ MEMDIAG_A_CHANNEL_WRITE_BYTES, "write_bytes" },
	{ MEMDIAG_A_CHANNEL_RDWR_BYTES, "rdwr_bytes" },
	{ MEMDIAG_A_CHANNEL_COUNTED_NS, "counted_ns" },
};

static uint64_t chan_attr(const struct snap_channel *c, unsigned int attr)
{
	switch (attr) {
	case MEMDIAG_A_CHANNEL_READ_BYTES:
		return c->read_bytes;
	case MEMDIAG_A_CHANNEL_WRITE_BYTES:
		return c->write_bytes;
	case MEMDIAG_A_CHANNEL_RDWR_BYTES:
		return c->rdwr_bytes;
	default:
		return c->counted_ns;
	}
}

/* Counter @row of channel @c, when reported. */
static void channel_cell(struct printer *p, const struct snap_channel *c,
			 const struct snap_row *row)
{
	bool have = c && (c->have & (1u << row->attr));

	cell(p, row->key, have, have ? chan_attr(c, row->attr) : 0);
}

/* Whether any socket's channel @id reported counter @row. */
static bool chan_row_used(const struct snap_msg *m, size_t nr, uint32_t id,
			  const struct snap_row *row)
{
	const struct snap_channel *c;
	size_t i;

	for (i = 0; i < nr; i++) {
		c = find_channel(&m[i], id);
		if (c && (c->have & (1u << row->attr)))
			return true;
	}
	return false;
}

/* AMD Zen 2/3: a row per NUMA node's sum, and why a socket has none */
static void print_text_nodes(struct printer *p, const struct snap_msg *m,
			     size_t nr)
{
	const struct df_nodes *d[64];
	uint64_t socket[64];
	size_t i;

	for (i = 0; i < nr && i < 64; i++) {
		d[i] = &m[i].s.df;
		socket[i] = m[i].s.v[MEMDIAG_A_SNAPSHOT_SOCKET];
	}
	df_nodes_snapshot_text(p, d, socket, i, LABEL_W, VALUE_W);
}

/* Counters as rows, sockets as columns, like perf stat's per-socket mode. */
static void print_text(struct printer *p, const struct snap_msg *m, size_t nr,
		       bool channels, const uint32_t *ids, size_t nr_ids)
{
	char head[32];
	size_t i, r;
	int w;

	print_textf(p, "%-*s", LABEL_W, "");
	for (i = 0; i < nr; i++) {
		snprintf(head, sizeof(head), "socket %" PRIu64,
			 m[i].s.v[MEMDIAG_A_SNAPSHOT_SOCKET]);
		print_textf(p, " %*s", VALUE_W, head);
	}
	print_textf(p, "\n");
	for (r = 0; r < ARRAY_SIZE(snap_rows); r++) {
		print_textf(p, "%-*s", LABEL_W, name_snapshot_attr(snap_rows[r].attr));
		for (i = 0; i < nr; i++)
			row_cell(p, &m[i].s, &snap_rows[r]);
		print_textf(p, "\n");
	}
	print_text_nodes(p, m, nr);
	for (r = 0; channels && r < nr_ids; r++) {
		for (w = 0; w < (int)ARRAY_SIZE(chan_rows); w++) {
			if (!chan_row_used(m, nr, ids[r], &chan_rows[w]))
				continue;
			snprintf(head, sizeof(head), "channel %u %s", ids[r],
				 name_channel_attr(chan_rows[w].attr));
			print_textf(p, "%-*s", LABEL_W, head);
			for (i = 0; i < nr; i++)
				channel_cell(p, find_channel(&m[i], ids[r]),
					     &chan_rows[w]);
			print_textf(p, "\n");
		}
	}
}

/* An array of one object per socket; absent counters are absent keys. */
static void print_json(struct printer *p, const struct snap_msg *m, size_t nr,
		       bool channels, enum curve_source src)
{
	const struct snap_channel *c;
	size_t i, r, w;

	print_open_array(p, NULL);
	for (i = 0; i < nr; i++) {
		print_open_object(p, NULL);
		print_u64(p, PRINT_JSON, "socket", "%" PRIu64,
			  m[i].s.v[MEMDIAG_A_SNAPSHOT_SOCKET]);
		for (r = 0; r < ARRAY_SIZE(snap_rows); r++)
			row_cell(p, &m[i].s, &snap_rows[r]);
		df_nodes_json(p, &m[i].s.df, true);
		if (channels) {
			print_open_array(p, "channels");
			for (r = 0; r < m[i].nr_ch; r++) {
				c = &m[i].ch[r];
				print_open_object(p, NULL);
				if (c->have & (1u << MEMDIAG_A_CHANNEL_ID))
					print_uint(p, PRINT_JSON, "id", "%u",
						   c->id);
				for (w = 0; w < ARRAY_SIZE(chan_rows); w++)
					if (c->have & (1u << chan_rows[w].attr))
						channel_cell(p, c, &chan_rows[w]);
				print_close_object(p);
			}
			print_close_array(p);
		}
		if (m[i].j)
			snapshot_judged_print(p, m[i].j, src);
		print_close_object(p);
	}
	print_close_array(p);
}

static int by_socket(const void *a, const void *b)
{
	uint64_t x = ((const struct snap_msg *)a)->s.v[MEMDIAG_A_SNAPSHOT_SOCKET];
	uint64_t y = ((const struct snap_msg *)b)->s.v[MEMDIAG_A_SNAPSHOT_SOCKET];

	return x < y ? -1 : x > y;
}

/* The verdict block under the table. */
static void print_text_judged(struct printer *p, const struct snap_msg *m,
			      size_t nr, enum curve_source src)
{
	size_t i;

	print_textf(p, "\n%s\n", SNAPSHOT_VERDICT_HEADER);
	for (i = 0; i < nr; i++)
		snapshot_judged_print(p, m[i].j, src);
}

int snapshot_show(const char *cmd, struct printer *p,
		  const struct nlmsghdr *const *msgs, size_t nr, bool channels)
{
	return snapshot_show_judged(cmd, p, msgs, nr, channels, NULL);
}

int snapshot_show_judged(const char *cmd, struct printer *p,
			 const struct nlmsghdr *const *msgs, size_t nr,
			 bool channels, const struct snapshot_window *w)
{
	enum curve_source src = w ? w->vs->curve.source : CURVE_SRC_IMC;
	struct snap_msg *m;
	uint32_t *ids = NULL;
	size_t i, nr_ids = 0, total_ch = 0;
	char why[160];
	int rc = MDC_EXIT_OK;

	m = calloc(nr ? nr : 1, sizeof(*m));
	if (!m)
		goto nomem;
	for (i = 0; i < nr; i++) {
		m[i].nlh = msgs[i];
		if (snap_parse(msgs[i], &m[i].s, why, sizeof(why)) < 0) {
			cli_err(cmd, "malformed snapshot reply from the memdiag module",
				"%s", why);
			rc = MDC_EXIT_KERNEL;
			goto out;
		}
		if (read_channels(&m[i]) < 0)
			goto nomem;
		if (w) {
			m[i].j = malloc(sizeof(*m[i].j));
			if (!m[i].j)
				goto nomem;
			snapshot_judge(w->before, w->nr_before, msgs[i],
				       w->tsc_khz, w->vs, m[i].j);
		}
		total_ch += m[i].nr_ch;
	}
	qsort(m, nr, sizeof(*m), by_socket);
	if (p->json) {
		print_json(p, m, nr, channels, src);
	} else {
		ids = calloc(total_ch ? total_ch : 1, sizeof(*ids));
		if (!ids)
			goto nomem;
		nr_ids = channel_ids(m, nr, ids);
		print_text(p, m, nr, channels, ids, nr_ids);
		if (w)
			print_text_judged(p, m, nr, src);
	}
	goto out;
nomem:
	cli_err(cmd, "cannot read the snapshot reply", "%s", strerror(ENOMEM));
	rc = MDC_EXIT_LOCAL;
out:
	for (i = 0; m && i < nr; i++) {
		free(m[i].ch);
		free(m[i].j);
	}
	free(m);
	free(ids);
	return rc;
}
