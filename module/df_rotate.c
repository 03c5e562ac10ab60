// SPDX-License-Identifier: GPL-2.0
/*
 * df_rotate.c - the turns of a Data Fabric node's DRAM channels on its
 * counters (see df_rotate.h). The caller programs chan_of[] after
 * memdiag_df_rot_plan(), reads the counters and passes the values to
 * memdiag_df_rot_begin(); at the next sample it reads them again for
 * memdiag_df_rot_end(), then plans the next turn.
 */
#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/types.h>
#endif
#include "df_rotate.h"

/**
 * memdiag_df_rot_init() - a node's channels, none counted yet
 * @r: the node's state
 * @n_chans: channels (events) of the node
 * @n_ctrs: counters memdiag has on the node
 * @ctr_bits: counter width (they wrap)
 * @fixed: the channels to count all the time (bit i: channel i); 0:
 *	every channel in turn. At most @n_ctrs of them.
 */
int memdiag_df_rot_init(struct memdiag_df_rot *r, unsigned int n_chans,
			unsigned int n_ctrs, unsigned int ctr_bits, u32 fixed)
{
	unsigned int i, n_fixed = 0;

	if (!n_chans || n_chans > MEMDIAG_DF_MAX_CHANS || !n_ctrs ||
	    n_ctrs > MEMDIAG_DF_MAX_CTRS || !ctr_bits || ctr_bits > 64)
		return -EINVAL;
	for (i = 0; i < 32; i++)
		if (fixed & (1u << i)) {
			if (i >= n_chans)
				return -EINVAL;
			n_fixed++;
		}
	if (n_fixed > n_ctrs)
		return -E2BIG;
	memset(r, 0, sizeof(*r));
	r->n_chans = n_chans;
	r->n_ctrs = n_ctrs;
	r->ctr_bits = ctr_bits;
	r->fixed = fixed;
	for (i = 0; i < MEMDIAG_DF_MAX_CTRS; i++)
		r->chan_of[i] = -1;
	return 0;
}

/**
 * memdiag_df_rot_plan() - choose the channels of the next interval
 * @r: the node's state, not counting (after end(), or new)
 *
 * Rotating: the next n_ctrs channels, wrapping round, so that over
 * n_chans / gcd(n_chans, n_ctrs) turns every channel is counted equally
 * often. Fixed: the fixed channels, in order.
 *
 * Return: true if chan_of[] changed (the controls must be rewritten).
 */
bool memdiag_df_rot_plan(struct memdiag_df_rot *r)
{
	s8 want[MEMDIAG_DF_MAX_CTRS];
	unsigned int i, k = 0;

	for (i = 0; i < MEMDIAG_DF_MAX_CTRS; i++)
		want[i] = -1;
	if (r->fixed) {
		for (i = 0; i < r->n_chans; i++)
			if (r->fixed & (1u << i))
				want[k++] = i;
	} else {
		for (k = 0; k < r->n_ctrs && k < r->n_chans; k++)
			want[k] = (r->next + k) % r->n_chans;
		r->next = (r->next + k) % r->n_chans;
	}
	if (!memcmp(want, r->chan_of, sizeof(want)))
		return false;
	memcpy(r->chan_of, want, sizeof(want));
	return true;
}

/* The midpoint of a clock bracket, and half its width in *@err. */
static u64 df_mid(u64 lo_ns, u64 hi_ns, u64 *err)
{
	if (hi_ns < lo_ns)
		hi_ns = lo_ns;
	*err = (hi_ns - lo_ns) / 2;
	return lo_ns + *err;
}

/**
 * memdiag_df_rot_begin() - the planned channels count from now
 * @r: the node's state
 * @lo_ns: the clock just before @raw was read (after the controls were
 *	written)
 * @hi_ns: the clock just after
 * @raw: the value of every counter (index = counter)
 */
void memdiag_df_rot_begin(struct memdiag_df_rot *r, u64 lo_ns, u64 hi_ns,
			  const u64 *raw)
{
	u64 mask = GENMASK_ULL(r->ctr_bits - 1, 0);
	unsigned int i;

	for (i = 0; i < r->n_ctrs; i++)
		r->base[i] = raw[i] & mask;
	r->begin_ns = df_mid(lo_ns, hi_ns, &r->begin_err_ns);
	r->counting = true;
}

/*
 * A turn shorter than this only adds to a channel's rate: its length is
 * the difference of two clock readings taken after two batches of MSR
 * reads, and a few microseconds of jitter in them (a snapshot right after
 * a sample) would make a rate that the next, long turn then extrapolates.
 */
#define DF_RATE_MIN_NS	1000000ULL

/*
 * A turn whose ends are uncertain by more than 1/DF_CLOCK_TOL of its
 * length sets no rate: a reader paused between the counter reads and a
 * clock reading (a vCPU descheduled under QEMU/TCG, a preempted worker on
 * PREEMPT_RT) would make its rate tens of percent off, and the next turn
 * would extrapolate the channels it counted with it.
 */
#define DF_CLOCK_TOL	100

/*
 * The interval's share of every channel's estimate: a counted channel its
 * @step, which becomes its rate (added to it, for a turn shorter than
 * DF_RATE_MIN_NS; left as it was for a turn clocked @loose, unless the
 * channel has none); one not counted its last rate over @dt, or, never
 * counted yet, the mean step of the channels counted now.
 */
static void df_estimate(struct memdiag_df_rot *r, const u64 *step, u64 dt,
			bool loose)
{
	bool counted[MEMDIAG_DF_MAX_CHANS] = {};
	u64 sum = 0, n = 0;
	unsigned int i, c;

	for (i = 0; i < r->n_ctrs; i++) {
		if (r->chan_of[i] < 0)
			continue;
		c = r->chan_of[i];
		counted[c] = true;
		r->est[c] += step[i];
		if (loose && r->rate_ns[c]) {
			/* the channel's last rate stands */
		} else if (dt < DF_RATE_MIN_NS && r->rate_ns[c]) {
			r->rate_counts[c] += step[i];
			r->rate_ns[c] += dt;
		} else {
			r->rate_counts[c] = step[i];
			r->rate_ns[c] = dt;
		}
		sum += step[i];
		n++;
	}
	for (c = 0; c < r->n_chans; c++) {
		/* a fixed set is what the user asked for: no guesses */
		if (counted[c] || r->fixed)
			continue;
		if (r->rate_ns[c])
			r->est[c] += mul_u64_u64_div_u64(r->rate_counts[c], dt,
							 r->rate_ns[c]);
		else if (n)
			r->est[c] += div64_u64(sum, n);
	}
}

/*
 * The time between the last turn's end and this one's begin (the
 * controls rewritten, the new baseline read) is in no turn: each channel
 * adds its rate over it to the estimate. Only a gap shorter than the turn
 * and than DF_GAP_MAX_NS (plus the two ends' clock uncertainty, which a
 * paused reader widens) is one: a longer one is a pause (hotplug, a new
 * session), whose traffic is not counted.
 */
#define DF_GAP_MAX_NS	5000000ULL

static void df_estimate_gap(struct memdiag_df_rot *r, u64 dt)
{
	u64 gap;
	unsigned int c;

	if (!r->end_ns || r->end_ns > r->begin_ns || r->fixed)
		return;
	gap = r->begin_ns - r->end_ns;
	if (gap >= dt || gap >= DF_GAP_MAX_NS + r->end_err_ns + r->begin_err_ns)
		return;
	for (c = 0; c < r->n_chans; c++)
		if (r->rate_ns[c])
			r->est[c] += mul_u64_u64_div_u64(r->rate_counts[c], gap,
							 r->rate_ns[c]);
}

/**
 * memdiag_df_rot_end() - add what each counted channel counted
 * @r: the node's state
 * @lo_ns: the clock just before @raw was read
 * @hi_ns: the clock just after
 * @raw: the value of every counter
 * @max_step: the most counts one counter can take in this interval; a
 *	bigger step (after at most one wrap) is a counter someone reset
 *
 * A channel gets its counts and the time from begin() to now (midpoint
 * to midpoint). If any counter's step is implausible, nothing of the
 * interval is kept (the channels' counts and times stay consistent) and
 * false is returned.
 */
bool memdiag_df_rot_end(struct memdiag_df_rot *r, u64 lo_ns, u64 hi_ns,
			const u64 *raw, u64 max_step)
{
	u64 mask = GENMASK_ULL(r->ctr_bits - 1, 0);
	u64 step[MEMDIAG_DF_MAX_CTRS], now_ns, err, dt;
	unsigned int i;
	bool loose;

	if (!r->counting)
		return false;
	r->counting = false;
	for (i = 0; i < r->n_ctrs; i++) {
		step[i] = ((raw[i] & mask) - r->base[i]) & mask;
		if (r->chan_of[i] >= 0 && step[i] > max_step) {
			r->dropped++;
			r->end_ns = 0;
			return false;
		}
	}
	now_ns = df_mid(lo_ns, hi_ns, &err);
	if (now_ns < r->begin_ns) {
		r->dropped++;
		r->end_ns = 0;
		return false;
	}
	dt = now_ns - r->begin_ns;
	loose = (err + r->begin_err_ns) * DF_CLOCK_TOL > dt;
	r->unclocked += loose;
	for (i = 0; i < r->n_ctrs; i++) {
		if (r->chan_of[i] < 0)
			continue;
		r->counts[r->chan_of[i]] += step[i];
		r->counted_ns[r->chan_of[i]] += dt;
	}
	df_estimate(r, step, dt, loose);
	df_estimate_gap(r, dt);
	r->end_ns = now_ns;
	r->end_err_ns = err;
	return true;
}
