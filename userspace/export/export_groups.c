// SPDX-License-Identifier: GPL-2.0
/*
 * export_groups.c - who uses the bandwidth, as Prometheus series: per
 * socket the K groups with the most bytes in the last interval
 * (memdiag_group_dram_bytes_total, a counter from the exporter's start),
 * plus group="other" and group="unattributed", so that a socket has at
 * most K + 2 series per source whatever the number of groups; and
 * memdiag_group_info for the shown groups' pod, container and unit.
 */

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "export_groups.h"
#include "export_text.h"

void export_groups_open(struct export_groups *g, size_t k, bool attach)
{
	*g = (struct export_groups){
		.k = k > EXPORT_GROUPS_MAX_K ? EXPORT_GROUPS_MAX_K : k,
	};
	if (!k) {
		snprintf(g->why, sizeof(g->why), "--top 0: no group series asked for");
		return;
	}
	if (attr_open(&g->a, CG_BY_POD, attach, EXPORT_GROUPS_MAX_GROUPS,
		      g->mbm_why, sizeof(g->mbm_why))) {
		/* the core estimate, once the module is there */
		g->core = true;
		snprintf(g->why, sizeof(g->why),
			 "no resctrl MBM (%.150s), and the memdiag module for the core estimate is not connected yet",
			 g->mbm_why);
		return;
	}
	g->opened = g->on = true;
}

/* Socket @id's last whole interval from the module: its bytes. */
static bool socket_bytes(const struct export_state *st, uint32_t id,
			 uint64_t *bytes)
{
	size_t i;

	for (i = 0; st->up && i < st->nr_sock; i++)
		if (st->sock[i].id == id && st->sock[i].have_m)
			return interval_dram_bytes(&st->sock[i].m, bytes);
	return false;
}

static void account(struct export_groups *g, size_t s,
		    const struct recon *r)
{
	struct export_group_socket *gs = &g->sock[s];
	size_t i;

	gs->id = r->socket_id;
	if (r->other > 0)
		gs->other_total += (uint64_t)r->other;
	gs->have_unattributed = r->have_socket;
	if (r->have_socket && r->unattributed > 0)
		gs->unattributed_total += (uint64_t)r->unattributed;
	else if (r->have_socket && r->unattributed < 0)
		gs->negative++;
	gs->nr_shown = r->nr_rows;
	for (i = 0; i < r->nr_rows; i++)
		gs->shown[i] = (int)(r->rows[i].g - g->a.g);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void export_groups_sample(struct export_groups *g,
			  const struct export_state *st)
{
	char why[ATTR_WHY];
	uint64_t now = now_ms();
	size_t s;

	/*
	 * resctrl updates its counts once a second (its overflow worker):
	 * a faster --interval reads the groups at most that often
	 */
	if (!g->on || (g->samples && now - g->sampled_ms < EXPORT_GROUPS_MIN_MS))
		return;
	g->sampled_ms = now;
	if (attr_sample(&g->a, why, sizeof(why)))
		return;
	if (g->samples++ == 0 || g->rebase) {
		g->rebase = false;
		return;		/* the baselines */
	}
	for (s = 0; s < g->a.rc.nr_socket; s++) {
		uint64_t bytes = 0;
		struct recon r;
		bool have = socket_bytes(st, g->a.rc.socket_id[s], &bytes);

		if (reconcile(&g->a, s, have, bytes, g->k, &r))
			return;
		account(g, s, &r);
		recon_free(&r);
	}
}

static void series(FILE *f, struct prom_family *fam, uint32_t socket,
		   const char *group, enum attr_source src, uint64_t v)
{
	prom_sample_start(f, fam);
	prom_sock_label(f, socket);
	prom_label(f, false, "group", group);
	prom_label(f, false, "source", attr_source_name(src));
	prom_value_u64(f, v);
}

static void info(FILE *f, struct prom_family *fam, const struct attr_group *ag)
{
	prom_sample_start(f, fam);
	prom_label(f, true, "group", ag->key);
	prom_label(f, false, "kind", cg_kind_name(ag->id.kind));
	prom_label(f, false, "pod_uid", ag->id.pod_uid);
	prom_label(f, false, "container_id", ag->id.container_id);
	prom_label(f, false, "unit", ag->id.unit);
	prom_value(f, 1);
}

/* Whether socket @s's row @i is a group an earlier row showed: one info. */
static bool shown_before(const struct export_groups *g, size_t s, size_t i)
{
	int want = g->sock[s].shown[i];
	size_t t, j;

	for (t = 0; t <= s; t++)
		for (j = 0; j < (t == s ? i : g->sock[t].nr_shown); j++)
			if (g->sock[t].shown[j] == want)
				return true;
	return false;
}

void export_groups_render(const struct export_groups *g, FILE *f)
{
	struct prom_family bytes = PROM_FAMILY("memdiag_group_dram_bytes_total",
		"counter",
		"DRAM bytes of a group (pod, service, cgroup) since the exporter started, by source; per socket the top groups of the last interval, group=\"other\" for the rest the source saw and group=\"unattributed\" for the socket's bytes beyond every group (each interval's part, never below zero)");
	struct prom_family neg = PROM_FAMILY("memdiag_group_mbm_over_socket_intervals_total",
		"counter",
		"Intervals in which MBM counted more bytes than the memory controllers (unattributed would be negative; counted here, not in unattributed)");
	struct prom_family inf = PROM_FAMILY("memdiag_group_info", "gauge",
		"What a group shown in memdiag_group_dram_bytes_total is: pod_uid joins kube_pod_info{uid}");
	size_t s, i;

	if (!g->opened || g->samples < 2)
		return;
	for (s = 0; s < g->a.rc.nr_socket; s++) {
		const struct export_group_socket *gs = &g->sock[s];

		for (i = 0; i < gs->nr_shown; i++)
			series(f, &bytes, gs->id, g->a.g[gs->shown[i]].key,
			       g->a.source, g->a.g[gs->shown[i]].bytes[s]);
		series(f, &bytes, gs->id, "other", g->a.source,
		       gs->other_total);
		if (gs->have_unattributed)
			series(f, &bytes, gs->id, "unattributed", g->a.source,
			       gs->unattributed_total);
	}
	for (s = 0; s < g->a.rc.nr_socket; s++) {
		prom_sample_start(f, &neg);
		prom_sock_label(f, g->sock[s].id);
		prom_value_u64(f, g->sock[s].negative);
	}
	for (s = 0; s < g->a.rc.nr_socket; s++)
		for (i = 0; i < g->sock[s].nr_shown; i++)
			if (!shown_before(g, s, i))
				info(f, &inf, &g->a.g[g->sock[s].shown[i]]);
}

void export_groups_close(struct export_groups *g)
{
	export_groups_disconnect(g);
	if (g->opened)
		attr_close(&g->a);
	g->opened = g->on = false;
}
