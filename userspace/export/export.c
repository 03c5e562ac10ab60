// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - from snapshot notifications to Prometheus metrics: totals that
 * survive epoch changes, the last interval's latencies in seconds, the
 * prefetcher state, and why a missing value is missing.
 */

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "export.h"
#include "export_nodes.h"
#include "export_text.h"
#include "names.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x

void export_init(struct export_state *st, uint64_t interval_ns,
		 double threshold)
{
	memset(st, 0, sizeof(*st));
	st->interval_ns = interval_ns;
	st->threshold = threshold;
}

void export_set_up(struct export_state *st, bool up)
{
	size_t i;

	if (up && !st->up && st->nr_sock)
		st->reconnects++;
	st->up = up;
	for (i = 0; i < st->nr_sock; i++) {
		st->sock[i].have_last = false;
		st->sock[i].have_m = false;
		agg_init(&st->sock[i].agg, st->interval_ns, st->tsc_khz,
			 st->threshold);
	}
}

static struct export_socket *find_socket(struct export_state *st, uint32_t id)
{
	struct export_socket *s;
	size_t i;

	for (i = 0; i < st->nr_sock; i++)
		if (st->sock[i].id == id)
			return &st->sock[i];
	if (st->nr_sock == EXPORT_MAX_SOCKETS)
		return NULL;
	s = &st->sock[st->nr_sock++];
	memset(s, 0, sizeof(*s));
	s->id = id;
	agg_init(&s->agg, st->interval_ns, st->tsc_khz, st->threshold);
	return s;
}

/*
 * The curve for the live prefetcher state: on, off, or as the machine
 * was when memdiag cannot tell (no prefetcher control); -1 when they are
 * partly off, for which no curve is made.
 */
static int live_pf(const struct export_state *st, const struct snap *s)
{
	uint32_t all = st->nr_pf >= 32 ? ~0u : (1u << st->nr_pf) - 1;
	uint32_t off;

	if (!snap_has(s, A(PREFETCH_DISABLED)))
		return CURVE_PF_UNCHANGED;
	off = (uint32_t)s->v[A(PREFETCH_DISABLED)];
	if (!off && !s->v[A(PREFETCH_MIXED)])
		return CURVE_PF_ON;
	if (st->nr_pf && off == all)
		return CURVE_PF_OFF;
	return -1;
}

/* The verdict of the interval just ended (Documentation/curves.rst). */
static void judge(const struct export_state *st, struct export_socket *es,
		  const struct snap *s)
{
	struct verdict_in in = {
		.read_gbps = es->m.read_gbps,
		.write_gbps = es->m.write_gbps,
		.total_gbps = es->m.total_gbps,
		.measured_latency_ns = verdict_measured_latency_ns(&es->m),
	};
	const char *no_bw = verdict_no_bandwidth(&es->m);
	int pf = live_pf(st, s);

	es->have_v = true;
	if (!st->curve)
		verdict_none(&es->v, st->curve_reason);
	else if (no_bw)
		verdict_none(&es->v, no_bw);
	else if (pf < 0)
		verdict_none(&es->v, "the prefetchers are partly off: no curve is made for that");
	else
		verdict_compute(curve_socket_find(st->curve, es->id),
				(enum curve_pf)pf, &in, &es->v);
}

/* Add interval @d's per-channel bytes to @es's channel totals. */
static void add_channels(struct export_socket *es, const struct interval *d)
{
	struct snap_chan *t;
	size_t i, k;

	for (i = 0; i < d->nr_chan; i++) {
		for (k = 0; k < es->nr_chan_total &&
		     es->chan_total[k].id != d->chan[i].id; k++)
			;
		if (k == SNAP_MAX_CHANNELS)
			continue;
		t = &es->chan_total[k];
		if (k == es->nr_chan_total) {
			memset(t, 0, sizeof(*t));
			t->id = d->chan[i].id;
			es->nr_chan_total++;
		}
		t->read_bytes += d->chan[i].read_bytes;
		t->write_bytes += d->chan[i].write_bytes;
		t->rdwr = d->chan[i].rdwr;
		t->rdwr_bytes += d->chan[i].rdwr_bytes;
		t->counted_ns += d->chan[i].counted_ns;
	}
}

int export_feed(struct export_state *st, const struct snap *s)
{
	struct export_socket *es;
	struct interval d, m;
	unsigned int g;

	es = find_socket(st, (uint32_t)s->v[A(SOCKET)]);
	if (!es)
		return -1;
	if (es->have_last) {
		if (snap_has(s, A(TIME_NS)) && snap_has(&es->last, A(TIME_NS)) &&
		    s->v[A(TIME_NS)] <= es->last.v[A(TIME_NS)])
			return 0;	/* not newer: already counted */
		/* the totals: every consecutive pair the epochs allow */
		metrics_compute(&es->last, s, st->tsc_khz, st->threshold, &d);
		for (g = 0; g < NR_GROUPS; g++)
			if (d.brk[g].why != BREAK_NONE)
				es->breaks[g]++;
		if (d.have_read_bytes)
			es->total[TOTAL_READ] += d.read_bytes;
		if (d.have_write_bytes)
			es->total[TOTAL_WRITE] += d.write_bytes;
		if (d.have_offcore_bytes)
			es->total[TOTAL_OFFCORE] += d.offcore_bytes;
		if (d.have_rdwr_bytes)
			es->total[TOTAL_RDWR] += d.rdwr_bytes;
		add_channels(es, &d);
		export_nodes_add(&es->node_total, &d.df);
	}
	/* a counter is exported once the module has sent it */
	es->have[TOTAL_READ] |= snap_has(s, A(DRAM_READ_BYTES));
	es->have[TOTAL_WRITE] |= snap_has(s, A(DRAM_WRITE_BYTES));
	es->have[TOTAL_OFFCORE] |= snap_has(s, A(OFFCORE_DRAM_READS));
	es->have[TOTAL_RDWR] |= snap_has(s, A(DRAM_RDWR_BYTES));
	es->last = *s;
	es->have_last = true;
	if (agg_feed(&es->agg, s, &m) == 1) {
		es->m = m;
		es->have_m = true;
		judge(st, es, s);
	}
	return 0;
}

void prom_sample_start(FILE *f, struct prom_family *fam)
{
	if (!fam->started)
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help,
			fam->name, fam->type);
	fam->started = true;
	fputs(fam->name, f);
}

void prom_label(FILE *f, bool first, const char *name, const char *v)
{
	fprintf(f, "%s%s=\"", first ? "{" : ",", name);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

void prom_sock_label(FILE *f, uint32_t socket)
{
	char id[16];

	snprintf(id, sizeof(id), "%" PRIu32, socket);
	prom_label(f, true, "socket", id);
}

void prom_value_u64(FILE *f, uint64_t v)
{
	fprintf(f, "} %" PRIu64 "\n", v);
}

void prom_value(FILE *f, double v)
{
	fprintf(f, "} %.9g\n", v);
}

static void render_info(const struct export_state *st, FILE *f)
{
	struct prom_family up = PROM_FAMILY("memdiag_up", "gauge",
		"1 while the exporter reads snapshots from the memdiag module, 0 while it cannot (module not loaded, refused, stalled)");
	struct prom_family info = PROM_FAMILY("memdiag_info", "gauge",
		"The processor, microarchitecture, kernel and module the metrics come from (always 1)");
	struct prom_family cap = PROM_FAMILY("memdiag_capability_available", "gauge",
		"1 if the module can measure this capability here, 0 if not; reason says why not");
	struct prom_family rc = PROM_FAMILY("memdiag_exporter_reconnects_total", "counter",
		"Sessions the exporter started again after losing the module (rmmod, stall)");
	unsigned int i;

	prom_sample_start(f, &up);
	fprintf(f, " %d\n", st->up ? 1 : 0);
	prom_sample_start(f, &rc);
	fprintf(f, " %" PRIu64 "\n", st->reconnects);
	if (!st->up)
		return;
	prom_sample_start(f, &info);
	prom_label(f, true, "cpu_model", st->cpu_model);
	prom_label(f, false, "uarch", st->uarch);
	prom_label(f, false, "kernel", st->kernel);
	prom_label(f, false, "module_version", st->module_version);
	prom_label(f, false, "exporter_version", MEMDIAGCTL_VERSION);
	fputs("} 1\n", f);
	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++) {
		const char *name = name_capability(i);

		if (!st->cap[i].listed || !name)
			continue;
		prom_sample_start(f, &cap);
		prom_label(f, true, "capability", name);
		prom_label(f, false, "reason", st->cap[i].reason);
		fprintf(f, "} %d\n", st->cap[i].available ? 1 : 0);
	}
}

/* The channel series: reads, writes; AMD's DF: both, counted seconds. */
enum chan_series { CH_READ, CH_WRITE, CH_RDWR, CH_COUNTED, NR_CH_SERIES };

static double chan_value(const struct snap_chan *c, enum chan_series w)
{
	switch (w) {
	case CH_READ:
		return (double)c->read_bytes;
	case CH_WRITE:
		return (double)c->write_bytes;
	case CH_RDWR:
		return (double)c->rdwr_bytes;
	default:
		return (double)c->counted_ns / 1e9;
	}
}

/*
 * Per channel, under names of their own: were they memdiag_dram_*_bytes_
 * _total with a channel label, sum() over that name would count every
 * byte twice (once in the socket's series, once in its channels').
 */
static void render_channels(const struct export_state *st, FILE *f)
{
	struct prom_family fam[NR_CH_SERIES] = {
		PROM_FAMILY("memdiag_dram_channel_read_bytes_total", "counter",
			"Bytes read from DRAM through this memory channel (CAS), since the exporter started; the channels of a socket add up to memdiag_dram_read_bytes_total"),
		PROM_FAMILY("memdiag_dram_channel_write_bytes_total", "counter",
			"Bytes written to DRAM through this memory channel (CAS), since the exporter started; the channels of a socket add up to memdiag_dram_write_bytes_total"),
		PROM_FAMILY("memdiag_dram_channel_rdwr_bytes_total", "counter",
			"AMD Zen 2/3: bytes read and written through this memory channel while its Data Fabric event was counted (channels take turns on four counters), since the exporter started; its rate is rate() of this over rate() of memdiag_dram_channel_counted_seconds_total"),
		PROM_FAMILY("memdiag_dram_channel_counted_seconds_total", "counter",
			"AMD Zen 2/3: seconds this channel's Data Fabric event was counted, since the exporter started; over the elapsed time it is the fraction of time the channel was measured"),
	};
	const struct export_socket *s;
	const struct snap_chan *c;
	char id[16];
	size_t i, k;
	int w;

	for (w = 0; w < NR_CH_SERIES; w++)
		for (i = 0; i < st->nr_sock; i++) {
			s = &st->sock[i];
			for (k = 0; k < s->nr_chan_total; k++) {
				c = &s->chan_total[k];
				if (c->rdwr != (w >= CH_RDWR))
					continue;
				prom_sample_start(f, &fam[w]);
				prom_sock_label(f, s->id);
				snprintf(id, sizeof(id), "%" PRIu32, c->id);
				prom_label(f, false, "channel", id);
				if (w == CH_COUNTED)
					prom_value(f, chan_value(c, w));
				else
					prom_value_u64(f, (uint64_t)chan_value(c, w));
			}
		}
}

static void render_counters(const struct export_state *st, FILE *f)
{
	struct prom_family totals[NR_TOTALS] = {
		[TOTAL_READ] = PROM_FAMILY("memdiag_dram_read_bytes_total", "counter",
			"Bytes read from DRAM, counted by the memory controllers (CAS), since the exporter started"),
		[TOTAL_WRITE] = PROM_FAMILY("memdiag_dram_write_bytes_total", "counter",
			"Bytes written to DRAM, counted by the memory controllers (CAS), since the exporter started"),
		[TOTAL_OFFCORE] = PROM_FAMILY("memdiag_offcore_read_bytes_total", "counter",
			"64 bytes per offcore DRAM read of the socket's cores (demand and L1 prefetch), since the exporter started"),
		[TOTAL_RDWR] = PROM_FAMILY("memdiag_dram_rdwr_bytes_total", "counter",
			"AMD Zen 2/3: bytes read from and written to DRAM together, estimated from the Data Fabric's channel counts (channels take turns; an uncounted channel adds its last counted rate), since the exporter started"),
	};
	struct prom_family brk = PROM_FAMILY("memdiag_intervals_skipped_total", "counter",
		"Snapshot intervals left out of the totals because the counters restarted (epoch change) or went backwards");
	static const char *const group[NR_GROUPS] = { "imc", "core" };
	unsigned int g, t;
	size_t i;

	for (t = 0; t < NR_TOTALS; t++)
		for (i = 0; i < st->nr_sock; i++) {
			const struct export_socket *s = &st->sock[i];

			if (!s->have[t])
				continue;
			prom_sample_start(f, &totals[t]);
			prom_sock_label(f, s->id);
			prom_value_u64(f, s->total[t]);
		}
	render_channels(st, f);
	export_nodes_render(st, f);
	for (i = 0; i < st->nr_sock; i++)
		for (g = 0; g < NR_GROUPS; g++) {
			prom_sample_start(f, &brk);
			prom_sock_label(f, st->sock[i].id);
			prom_label(f, false, "group", group[g]);
			prom_value_u64(f, st->sock[i].breaks[g]);
		}
}

/* What a gauge of one socket shows (gauge_value()). */
enum gauge_src {
	G_L1M_SECONDS, G_LMR_SECONDS, G_LMR_CYCLES, G_CORE_HZ, G_SATURATED,
	G_L3_SECONDS, G_L3_CYCLES,
	G_UTIL, G_STRESS, G_HEADROOM, G_EXPECTED,
};

/* One gauge family: a row of the tables below. */
struct gauge {
	const char *name, *help;
	enum gauge_src src;
};

/*
 * @src of @s from its last interval or that interval's verdict; NaN when
 * @s has none, so that the gauge is absent (never 0).
 */
static double gauge_value(const struct export_socket *s, enum gauge_src src)
{
	const struct interval *m = s->have_m ? &s->m : NULL;
	const struct verdict *v = s->have_v && s->v.valid ? &s->v : NULL;

	if (src < G_UTIL && !m)
		return (double)NAN;
	if (src >= G_UTIL && !v)
		return (double)NAN;
	switch (src) {
	case G_L1M_SECONDS:
		return m->l1_miss_latency / m->core_ghz * 1e-9;
	case G_LMR_SECONDS:
		return m->load_miss_real_latency_ns * 1e-9;
	case G_LMR_CYCLES:
		return m->load_miss_real_latency;
	case G_CORE_HZ:
		return m->core_ghz * 1e9;
	case G_SATURATED:
		return m->saturated >= 0 ? m->saturated : (double)NAN;
	case G_L3_SECONDS:
		return m->l3_dram_latency_ns * 1e-9;
	case G_L3_CYCLES:
		return m->l3_dram_latency_cycles;
	case G_UTIL:
		return v->place.utilization;
	case G_STRESS:
		return v->stress;
	case G_HEADROOM:
		return v->place.headroom_gbps * 1e9;
	case G_EXPECTED:
		return v->place.expected_latency_ns * 1e-9;
	}
	return (double)NAN;
}

/* Each gauge of @g (@nr rows) for every socket that has a value. */
static void render_gauge_rows(const struct export_state *st, FILE *f,
			      const struct gauge *g, size_t nr)
{
	size_t r, i;

	for (r = 0; r < nr; r++) {
		struct prom_family fam = PROM_FAMILY(g[r].name, "gauge", g[r].help);

		for (i = 0; i < st->nr_sock; i++) {
			double v = gauge_value(&st->sock[i], g[r].src);

			if (!isfinite(v))
				continue;
			prom_sample_start(f, &fam);
			prom_sock_label(f, st->sock[i].id);
			prom_value(f, v);
		}
	}
}

static const struct gauge interval_gauges[] = {
	{ "memdiag_l1_miss_latency_seconds",
	  "Average L1 miss latency over the last interval: L1D_PEND_MISS.PENDING / L1 misses, at the core frequency",
	  G_L1M_SECONDS },
	{ "memdiag_load_miss_real_latency_seconds",
	  "Average load miss real latency over the last interval, at the core frequency",
	  G_LMR_SECONDS },
	{ "memdiag_load_miss_real_latency_cycles",
	  "Average load miss real latency over the last interval in core cycles (what the saturation threshold compares)",
	  G_LMR_CYCLES },
	{ "memdiag_core_frequency_hertz",
	  "Average unhalted core frequency of the socket over the last interval",
	  G_CORE_HZ },
	{ "memdiag_saturated",
	  "1 when the last interval's load miss real latency exceeded export --threshold (only with it): loads queue for DRAM bandwidth",
	  G_SATURATED },
	{ "memdiag_l3_dram_latency_seconds",
	  "AMD Zen 4/5: average DRAM latency of the requests the L3 sampled over the last interval (near and far DRAM), at the TSC frequency",
	  G_L3_SECONDS },
	{ "memdiag_l3_dram_latency_cycles",
	  "AMD Zen 4/5: average DRAM latency of the requests the L3 sampled over the last interval, in core clocks (perf's l3_read_miss_latency)",
	  G_L3_CYCLES },
};

static const struct gauge verdict_gauges[] = {
	{ "memdiag_dram_utilization_ratio",
	  "DRAM bandwidth of the last interval over the curve's sustainable peak at its read fraction",
	  G_UTIL },
	{ "memdiag_dram_stress_ratio",
	  "How far latency has climbed from idle to the curve's maximum, 0..1 (Documentation/curves.rst)",
	  G_STRESS },
	{ "memdiag_dram_headroom_bytes_per_second",
	  "The curve's sustainable peak minus the last interval's DRAM bandwidth, at least 0",
	  G_HEADROOM },
	{ "memdiag_expected_latency_seconds",
	  "The curve's load latency at the last interval's bandwidth",
	  G_EXPECTED },
};

#define NR_ROWS(a) (sizeof(a) / sizeof((a)[0]))

static void render_gauges(const struct export_state *st, FILE *f)
{
	struct prom_family thr = PROM_FAMILY("memdiag_saturation_threshold_cycles", "gauge",
		"The load miss real latency above which memdiag_saturated is 1 (export --threshold)");

	render_gauge_rows(st, f, interval_gauges, NR_ROWS(interval_gauges));
	/* a fixed threshold only when asked for: the verdict is the signal */
	if (st->threshold <= 0)
		return;
	prom_sample_start(f, &thr);
	fprintf(f, " %.9g\n", st->threshold);
}

/*
 * One prefetcher family (@mixed: the mixed mask, else the disabled one) of
 * every socket: the named prefetchers, and any other bit that is set.
 */
static void render_pf_mask(const struct export_state *st, FILE *f,
			   struct prom_family *fam, bool mixed)
{
	char bit[16];
	unsigned int b;
	size_t i;

	for (i = 0; i < st->nr_sock; i++) {
		const struct snap *s = &st->sock[i].last;
		uint32_t mask, any;

		if (!st->sock[i].have_last || !snap_has(s, A(PREFETCH_DISABLED)))
			continue;
		mask = (uint32_t)s->v[mixed ? A(PREFETCH_MIXED) : A(PREFETCH_DISABLED)];
		any = (uint32_t)(s->v[A(PREFETCH_MIXED)] | s->v[A(PREFETCH_DISABLED)]);
		for (b = 0; b < 32; b++) {
			bool named = b < st->nr_pf;

			if (!named && !(any & (1u << b)))
				continue;
			snprintf(bit, sizeof(bit), "bit%u", b);
			prom_sample_start(f, fam);
			prom_sock_label(f, st->sock[i].id);
			prom_label(f, false, "prefetcher", named ? st->pf_name[b] : bit);
			fprintf(f, "} %d\n", !!(mask & (1u << b)));
		}
	}
}

static void render_prefetch(const struct export_state *st, FILE *f)
{
	struct prom_family off = PROM_FAMILY("memdiag_prefetcher_disabled", "gauge",
		"1 when this hardware prefetcher is off on every CPU of the socket, else 0 (see memdiag_prefetcher_mixed)");
	struct prom_family mixed = PROM_FAMILY("memdiag_prefetcher_mixed", "gauge",
		"1 when CPUs of the socket differ in this prefetcher's state");
	struct prom_family chg = PROM_FAMILY("memdiag_prefetchers_changed", "gauge",
		"1 when memdiag changed the socket's prefetchers and has not restored them (memdiagctl prefetch restore)");
	size_t i;

	render_pf_mask(st, f, &off, false);
	render_pf_mask(st, f, &mixed, true);
	for (i = 0; i < st->nr_sock; i++) {
		const struct snap *s = &st->sock[i].last;

		if (!st->sock[i].have_last || !snap_has(s, A(PREFETCH_CHANGED)))
			continue;
		prom_sample_start(f, &chg);
		prom_sock_label(f, st->sock[i].id);
		fprintf(f, "} %d\n", s->v[A(PREFETCH_CHANGED)] ? 1 : 0);
	}
}

static void render_verdict(const struct export_state *st, FILE *f)
{
	struct prom_family avail = PROM_FAMILY("memdiag_verdict_available", "gauge",
		"1 when the last interval has a verdict from the calibrated curve (memdiagctl calibrate), 0 with the reason");
	struct prom_family verd = PROM_FAMILY("memdiag_verdict", "gauge",
		"1 for the verdict of the last interval (idle, ok, latency-rising, bandwidth-bound, saturated), 0 for the others");
	struct prom_family assumed = PROM_FAMILY("memdiag_verdict_read_fraction_assumed", "gauge",
		"1 when the verdict had no read/write split (AMD Zen 2/3's Data Fabric) and placed the socket total on the curve with the lowest peak, the highest utilization it can mean; 0 when the mix was measured");
	unsigned int l;
	size_t i;

	for (i = 0; i < st->nr_sock; i++) {
		const struct export_socket *es = &st->sock[i];

		if (!es->have_v)
			continue;
		prom_sample_start(f, &avail);
		prom_sock_label(f, es->id);
		prom_label(f, false, "reason", es->v.valid ? "" : es->v.reason);
		fprintf(f, "} %d\n", es->v.valid ? 1 : 0);
	}
	for (i = 0; i < st->nr_sock; i++) {
		const struct export_socket *es = &st->sock[i];

		if (!es->have_v || !es->v.valid)
			continue;
		for (l = VERDICT_IDLE; l <= VERDICT_SATURATED; l++) {
			prom_sample_start(f, &verd);
			prom_sock_label(f, es->id);
			prom_label(f, false, "verdict",
			      verdict_label_name((enum verdict_label)l));
			fprintf(f, "} %d\n", es->v.label == l);
		}
	}
	for (i = 0; i < st->nr_sock; i++) {
		const struct export_socket *es = &st->sock[i];

		if (!es->have_v || !es->v.valid)
			continue;
		prom_sample_start(f, &assumed);
		prom_sock_label(f, es->id);
		fprintf(f, "} %d\n", es->v.read_fraction_assumed ? 1 : 0);
	}
	render_gauge_rows(st, f, verdict_gauges, NR_ROWS(verdict_gauges));
}

int export_render(const struct export_state *st, FILE *f)
{
	render_info(st, f);
	if (st->up) {
		render_counters(st, f);
		render_gauges(st, f);
		render_verdict(st, f);
		render_prefetch(st, f);
	}
	return ferror(f) ? -1 : 0;
}
