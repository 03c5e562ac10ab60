// SPDX-License-Identifier: GPL-2.0
/*
 * counters_values.c - the counters of "memdiagctl run" as numbers: each
 * slot's sums turned into bytes, rates and latencies per socket (NaN with
 * the reason where a counter is missing or broke), and the totals and
 * volume ratios over the sockets; counters_print.c shows them.
 */

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <linux/memdiag.h>

#include "names.h"
#include "counters/counters.h"
#include "counters/counters_int.h"

#define A(x) MEMDIAG_A_SNAPSHOT_##x

/* The metrics one socket's sums give (@m), as metrics.c computes them. */
static void socket_metrics(const struct counters *c, const struct counters_slot *s,
			   const struct counters_socket *rs, struct interval *m)
{
	struct snap z, t;
	size_t k;

	memset(&z, 0, sizeof(z));
	memset(&t, 0, sizeof(t));
	snap_set(&z, A(SOCKET), rs->id);
	snap_set(&t, A(SOCKET), rs->id);
	if (s->ns) {
		snap_set(&z, A(TIME_NS), 0);
		snap_set(&t, A(TIME_NS), s->ns);
	}
	for (k = 0; !rs->missing && k < counters_nr_counted; k++) {
		unsigned int at = counters_counted[k].attr;

		if (!snap_has(&rs->sum, at) ||
		    rs->brk[counters_counted[k].group].why != BREAK_NONE)
			continue;
		snap_set(&z, at, 0);
		snap_set(&t, at, rs->sum.v[at]);
	}
	metrics_compute(&z, &t, c->tsc_khz, WATCH_DEFAULT_THRESHOLD, m);
}

static void describe_break(const struct group_state *b, const char *epoch,
			   char *buf, size_t size)
{
	if (b->why == BREAK_EPOCH)
		counters_say(buf, size,
			     "%s changed from %" PRIu64 " to %" PRIu64
			     " during the run (the counters were reset or reprogrammed), so the interval is invalid",
			     epoch, b->from, b->to);
	else
		counters_say(buf, size,
			     "%s went backwards without an epoch change, so the interval is invalid",
			     name_snapshot_attr(b->attr));
}

bool counters_shown(const struct counters *c, unsigned int k)
{
	return c->rdwr || (k != COUNTERS_RDWR_BYTES && k != COUNTERS_UNMEASURED);
}

/* Why the DRAM counters are absent. */
static void imc_absent(const struct counters *c, char *buf, size_t size)
{
	if (c->rdwr)
		counters_say(buf, size,
			     "the Data Fabric counts reads and writes together (rdwr_bytes): no read/write split on AMD Zen 2/3");
	else if (c->imc.listed && !c->imc.available)
		counters_say(buf, size, "%s is unavailable%s%s",
			     name_capability(MEMDIAG_CAPABILITY_IMC_BANDWIDTH),
			     c->imc.reason[0] ? ": " : "", c->imc.reason);
	else
		counters_say(buf, size, "the memdiag module sent no DRAM counters");
}

/* Why a counter of the core group is absent. */
static void core_absent(const struct counters *c,
			const struct info_cap_summary *cap, uint32_t cap_id,
			const char *what, char *buf, size_t size)
{
	if (c->core_mode == MEMDIAG_CORE_MODE_NONE)
		counters_say(buf, size,
			     "the core counters are not counted in this session (core-mode none)%s%s",
			     c->core_mode_reason[0] ? ": " : "", c->core_mode_reason);
	else if (cap->listed && !cap->available)
		counters_say(buf, size, "%s is unavailable%s%s", name_capability(cap_id),
			     cap->reason[0] ? ": " : "", cap->reason);
	else
		counters_say(buf, size, "the memdiag module sent no %s counters", what);
}

void counters_values(const struct counters *c, const struct counters_slot *s,
		     const struct counters_socket *rs, struct counters_values *out)
{
	const struct group_state *imc = &rs->brk[GROUP_IMC];
	const struct group_state *core = &rs->brk[GROUP_CORE];
	char brk_imc[COUNTERS_REASON] = "", brk_core[COUNTERS_REASON] = "";
	struct interval m;
	unsigned int k;

	memset(out, 0, sizeof(*out));
	socket_metrics(c, s, rs, &m);
	out->bytes[COUNTERS_READ_BYTES] = m.read_bytes;
	out->bytes[COUNTERS_WRITE_BYTES] = m.write_bytes;
	out->bytes[COUNTERS_OFFCORE_BYTES] = m.offcore_bytes;
	out->v[COUNTERS_READ_BYTES] = m.have_read_bytes ? (double)m.read_bytes : NAN;
	out->v[COUNTERS_WRITE_BYTES] = m.have_write_bytes ? (double)m.write_bytes : NAN;
	out->v[COUNTERS_READ_GBPS] = m.read_gbps;
	out->v[COUNTERS_WRITE_GBPS] = m.write_gbps;
	out->v[COUNTERS_OFFCORE_BYTES] = m.have_offcore_bytes ?
				   (double)m.offcore_bytes : NAN;
	out->v[COUNTERS_L1M_LAT] = m.l1_miss_latency;
	out->v[COUNTERS_LMR_LAT] = m.load_miss_real_latency;
	out->bytes[COUNTERS_RDWR_BYTES] = m.rdwr_bytes;
	out->v[COUNTERS_RDWR_BYTES] = m.have_rdwr_bytes ? (double)m.rdwr_bytes : NAN;
	out->v[COUNTERS_UNMEASURED] = rs->chan_seen && !rs->missing ?
		__builtin_popcount(rs->chan_seen & ~rs->chan_counted) : NAN;
	if (imc->why != BREAK_NONE)
		describe_break(imc, name_snapshot_attr(A(IMC_EPOCH)), brk_imc,
			       sizeof(brk_imc));
	if (core->why != BREAK_NONE)
		describe_break(core, name_snapshot_attr(A(CORE_EPOCH)), brk_core,
			       sizeof(brk_core));

	for (k = 0; k < NR_COUNTERS_METRICS; k++) {
		char *why = out->why[k];
		size_t sz = sizeof(out->why[k]);
		bool is_imc = k <= COUNTERS_WRITE_GBPS || k == COUNTERS_RDWR_BYTES;

		out->null[k] = !isfinite(out->v[k]);
		if (!out->null[k])
			continue;
		if (k == COUNTERS_UNMEASURED)
			counters_say(why, sz, "%s",
				     rs->missing ? "the socket was missing from a snapshot" :
				     "the memdiag module sent no Data Fabric channels");
		else if (rs->missing)
			counters_say(why, sz, "socket %u was missing from a snapshot",
				     rs->id);
		else if (is_imc && brk_imc[0])
			counters_say(why, sz, "%s", brk_imc);
		else if (!is_imc && brk_core[0])
			counters_say(why, sz, "%s", brk_core);
		else if (k == COUNTERS_RDWR_BYTES && rs->chan_seen)
			counters_say(why, sz,
				     "a fixed Data Fabric channel set (df-channels) counts some channels only: no socket total");
		else if (k == COUNTERS_RDWR_BYTES)
			imc_absent(c, why, sz);
		else if (is_imc && !snap_has(&rs->sum, k == COUNTERS_READ_BYTES ||
					     k == COUNTERS_READ_GBPS ?
					     A(DRAM_READ_BYTES) :
					     A(DRAM_WRITE_BYTES)))
			imc_absent(c, why, sz);
		else if (is_imc)
			counters_say(why, sz,
				     "the interval has no length (the module sent no time)");
		else if (k == COUNTERS_OFFCORE_BYTES)
			core_absent(c, &c->offcore, MEMDIAG_CAPABILITY_OFFCORE,
				    "offcore", why, sz);
		else if (!snap_has(&rs->sum, A(L1D_PEND_MISS)) ||
			 !snap_has(&rs->sum, A(L1_MISS)))
			core_absent(c, &c->core, MEMDIAG_CAPABILITY_CORE_LATENCY,
				    "load latency", why, sz);
		else if (k == COUNTERS_LMR_LAT && !snap_has(&rs->sum, A(L1_MISS_ANY)) &&
			 !snap_has(&rs->sum, A(LFB_HIT)))
			core_absent(c, &c->core, MEMDIAG_CAPABILITY_CORE_LATENCY,
				    "fill-buffer hit", why, sz);
		else
			counters_say(why, sz, "no load missed the L1 during the run");
	}
}

void counters_totals(const struct counters *c, const struct counters_slot *s,
		     struct counters_totals *t)
{
	struct counters_values v;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->have_read = t->have_write = t->have_offcore = true;
	t->have_rdwr = c->rdwr;
	for (i = 0; i < c->nr_sock; i++) {
		counters_values(c, s, &s->sock[i], &v);
		if (t->have_rdwr && v.null[COUNTERS_RDWR_BYTES]) {
			t->have_rdwr = false;
			counters_say(t->why_rdwr, sizeof(t->why_rdwr), "socket %u: %s",
				     s->sock[i].id, v.why[COUNTERS_RDWR_BYTES]);
		}
		t->rdwr += v.bytes[COUNTERS_RDWR_BYTES];
		if (!v.null[COUNTERS_UNMEASURED])
			t->unmeasured += (unsigned int)v.v[COUNTERS_UNMEASURED];
		if (t->have_read && v.null[COUNTERS_READ_BYTES]) {
			t->have_read = false;
			counters_say(t->why_read, sizeof(t->why_read), "socket %u: %s",
				     s->sock[i].id, v.why[COUNTERS_READ_BYTES]);
		}
		if (t->have_write && v.null[COUNTERS_WRITE_BYTES]) {
			t->have_write = false;
			counters_say(t->why_write, sizeof(t->why_write), "socket %u: %s",
				     s->sock[i].id, v.why[COUNTERS_WRITE_BYTES]);
		}
		if (t->have_offcore && v.null[COUNTERS_OFFCORE_BYTES]) {
			t->have_offcore = false;
			counters_say(t->why_offcore, sizeof(t->why_offcore),
				     "socket %u: %s", s->sock[i].id,
				     v.why[COUNTERS_OFFCORE_BYTES]);
		}
		t->read += v.bytes[COUNTERS_READ_BYTES];
		t->write += v.bytes[COUNTERS_WRITE_BYTES];
		t->offcore += v.bytes[COUNTERS_OFFCORE_BYTES];
	}
	t->ratio = t->offcore_ratio = NAN;
	if (!s->have_traffic)
		return;
	/* the DF: its socket totals; elsewhere reads plus writes */
	if (c->rdwr && !t->have_rdwr)
		counters_say(t->why_ratio, sizeof(t->why_ratio), "%s", t->why_rdwr);
	else if (!c->rdwr && (!t->have_read || !t->have_write))
		counters_say(t->why_ratio, sizeof(t->why_ratio), "%s",
			     !t->have_read ? t->why_read : t->why_write);
	else if (!s->traffic_bytes)
		counters_say(t->why_ratio, sizeof(t->why_ratio),
			     "the kernel moved no bytes");
	else
		t->ratio = (c->rdwr ? (double)t->rdwr :
			    (double)t->read + (double)t->write) /
			   (double)s->traffic_bytes;
	if (!t->have_offcore)
		counters_say(t->why_offcore_ratio, sizeof(t->why_offcore_ratio), "%s",
			     t->why_offcore);
	else if (!s->traffic_read_bytes)
		counters_say(t->why_offcore_ratio, sizeof(t->why_offcore_ratio),
			     "the kernel read no bytes");
	else
		t->offcore_ratio = (double)t->offcore /
				   (double)s->traffic_read_bytes;
}

bool counters_socket_valid(const struct counters_socket *rs)
{
	return !rs->missing && rs->brk[GROUP_IMC].why == BREAK_NONE &&
	       rs->brk[GROUP_CORE].why == BREAK_NONE;
}

/* Why @slot has no counters at all, or NULL when it has. */
const char *counters_slot_reason(const struct counters *c, size_t slot)
{
	if (!c)
		return "counters were not read for this run";
	if (!c->on)
		return c->reason;
	if (slot >= c->nr_slot)
		return "counters were not read for this kernel";
	if (c->slot[slot].failed)
		return c->slot[slot].why;
	if (!c->slot[slot].intervals)
		return "nothing was timed";
	return NULL;
}
