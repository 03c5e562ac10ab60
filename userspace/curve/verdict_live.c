// SPDX-License-Identifier: GPL-2.0
/*
 * verdict_live.c - the verdict of watch and snapshot: which curve file,
 * whether it fits this machine, which curve a sample's prefetcher state
 * selects, and one print path for its text columns and JSON keys.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdict_live.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void verdict_src_open(struct verdict_src *vs, const char *path)
{
	struct curve_fp now;

	memset(vs, 0, sizeof(*vs));
	if (curve_find_load(path, &vs->curve, vs->path, sizeof(vs->path),
			    vs->reason, sizeof(vs->reason))) {
		curve_free(&vs->curve);
		vs->unreadable = true;
		return;
	}
	curve_fp_collect(&now, NULL);
	if (curve_fp_compare(&vs->curve.fp, &now, vs->reason,
			     sizeof(vs->reason)))
		curve_free(&vs->curve);
	else
		vs->usable = true;
	curve_fp_free(&now);
}

void verdict_src_close(struct verdict_src *vs)
{
	curve_free(&vs->curve);
	vs->usable = false;
}

/*
 * The curve state a sample's prefetcher mask selects: no mask (no
 * prefetcher control) is "unchanged", none off is "on", all @nr_pf off
 * is "off"; a part off has no curve (-1).
 */
static int pf_state(const struct snap *s, size_t nr_pf)
{
	uint32_t off;

	if (!snap_has(s, MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED))
		return CURVE_PF_UNCHANGED;
	off = (uint32_t)s->v[MEMDIAG_A_SNAPSHOT_PREFETCH_DISABLED];
	if (!off)
		return CURVE_PF_ON;
	if (nr_pf && (size_t)__builtin_popcount(off) == nr_pf)
		return CURVE_PF_OFF;
	return -1;
}

static bool has_state(const struct curve_socket *cs, enum curve_pf pf)
{
	size_t i;

	for (i = 0; i < cs->nr_mixes; i++)
		if (cs->mixes[i].prefetch == pf)
			return true;
	return false;
}

void verdict_channels_of(const struct interval *m, uint64_t *bytes,
			 uint32_t *ids, struct verdict_channels *ch)
{
	size_t i, n = 0;

	/* AMD's DF channels were counted for different times: left out */
	for (i = 0; i < m->nr_chan; i++) {
		if (m->chan[i].rdwr)
			continue;
		ids[n] = m->chan[i].id;
		bytes[n++] = m->chan[i].read_bytes + m->chan[i].write_bytes;
	}
	ch->bytes = bytes;
	ch->id = ids;
	ch->nr = n;
}

void verdict_live(const struct verdict_src *vs, const struct interval *m,
		  const struct snap *s, size_t nr_pf,
		  const struct verdict_channels *ch, struct verdict *v)
{
	const struct curve_socket *cs;
	struct verdict_in in = {
		.read_gbps = m->read_gbps,
		.write_gbps = m->write_gbps,
		.total_gbps = m->total_gbps,
		.measured_latency_ns = verdict_measured_latency_ns(m),
	};
	const char *fp_pf, *no_bw;
	int pf;

	if (!vs->usable) {
		verdict_none(v, vs->reason);
		return;
	}
	if (!m->valid) {
		verdict_none(v, "no verdict: the counters restarted in this interval");
		return;
	}
	no_bw = verdict_no_bandwidth(m);
	if (no_bw) {
		verdict_none(v, no_bw);
		return;
	}
	cs = curve_socket_find(&vs->curve, m->socket);
	pf = pf_state(s, nr_pf);
	if (pf < 0) {
		verdict_none(v, "no curve for prefetchers partly off: restore them or calibrate in that state");
		return;
	}
	/*
	 * A curve taken without prefetcher control ("unchanged") describes
	 * the state the fingerprint recorded: it serves that state.
	 */
	fp_pf = vs->curve.fp.v[CURVE_FP_PREFETCH];
	if (cs && pf != CURVE_PF_UNCHANGED && !has_state(cs, pf) &&
	    fp_pf && !strcmp(fp_pf, curve_pf_name(pf)))
		pf = CURVE_PF_UNCHANGED;
	if (ch) {
		in.channel_bytes = ch->bytes;
		in.channel_id = ch->id;
		in.nr_channels = ch->nr;
	}
	verdict_compute(cs, pf, &in, v);
}

void verdict_num(struct printer *p, const char *key, const char *fmt,
		 const char *nullfmt, double v)
{
	if (isfinite(v))
		print_double(p, PRINT_ANY, key, fmt, v);
	else
		print_string(p, PRINT_ANY, key, nullfmt, NULL);
}

/* The verdict object's keys, in the order verdict_print() writes them. */
static const char *const verdict_keys[] = {
	"utilization", "peak_gbps", "headroom_gbps", "expected_latency_ns",
	"stress", "label", "latency_disagreement", "imbalanced_channel",
	"imbalanced_channel_share", "bandwidth_source", "curve_reliable",
	"utilization_checked", "read_fraction_assumed",
};

/* Key @name inside the verdict object, or "verdict_" @name when flat. */
static const char *vkey(char *buf, size_t size, bool flat, const char *name)
{
	if (!flat)
		return name;
	snprintf(buf, size, "verdict_%s", name);
	return buf;
}

#define K(name) vkey(key, sizeof(key), flat, name)

void verdict_print(struct printer *p, const struct verdict *v,
		   enum curve_source src, bool flat)
{
	const char *dis = verdict_disagree_name(v->disagree);
	char key[48];
	size_t i;

	if (!v->valid) {
		print_textf(p, "  %6s  %6s  %6s  %s", "-", "-", "-", "-");
		if (!flat)
			print_string(p, PRINT_JSON, "verdict", "%s", NULL);
		for (i = 0; flat && i < ARRAY_SIZE(verdict_keys); i++)
			print_string(p, PRINT_JSON, K(verdict_keys[i]), "%s", NULL);
		print_string(p, PRINT_JSON, "verdict_reason", "%s", v->reason);
		return;
	}
	print_textf(p, "  %6.1f", 100 * v->place.utilization);
	if (!flat)
		print_open_object(p, "verdict");
	print_double(p, PRINT_JSON, K("utilization"), "%f", v->place.utilization);
	print_double(p, PRINT_JSON, K("peak_gbps"), "%f", v->place.peak_gbps);
	print_double(p, PRINT_JSON, K("headroom_gbps"), "%f",
		     v->place.headroom_gbps);
	verdict_num(p, K("expected_latency_ns"), "  %6.1f", "  %6s",
		    v->place.expected_latency_ns);
	print_double(p, PRINT_ANY, K("stress"), "  %6.2f", v->stress);
	print_string(p, PRINT_ANY, K("label"), "  %s",
		     verdict_label_name(v->label));
	if (!v->curve_judged)
		print_textf(p, " (curve not judged)");
	else if (!v->curve_reliable)
		print_textf(p, " (unreliable curve: calibrate --show)");
	else if (!v->utilization_checked)
		print_textf(p, " (peak unchecked)");
	if (v->read_fraction_assumed)
		print_textf(p, " (no read/write split: lowest peak)");
	print_string(p, PRINT_JSON, K("latency_disagreement"), "%s", dis);
	if (dis)
		print_textf(p, " (measured latency %s)", dis);
	if (v->imbalanced) {
		print_uint(p, PRINT_ANY, K("imbalanced_channel"), " (channel %u",
			   v->imbalanced_channel);
		print_double(p, PRINT_JSON, K("imbalanced_channel_share"), "%f",
			     v->imbalanced_share);
		print_textf(p, " carries %.0f%%)", 100 * v->imbalanced_share);
	} else {
		print_string(p, PRINT_JSON, K("imbalanced_channel"), "%s", NULL);
		print_string(p, PRINT_JSON, K("imbalanced_channel_share"), "%s",
			     NULL);
	}
	print_string(p, PRINT_JSON, K("bandwidth_source"), "%s",
		     curve_source_name(src));
	print_bool(p, PRINT_JSON, K("curve_reliable"), "%s", v->curve_reliable);
	print_bool(p, PRINT_JSON, K("utilization_checked"), "%s",
		   v->utilization_checked);
	print_bool(p, PRINT_JSON, K("read_fraction_assumed"), "%s",
		   v->read_fraction_assumed);
	if (!flat)
		print_close_object(p);
	print_string(p, PRINT_JSON, "verdict_reason", "%s", NULL);
}
