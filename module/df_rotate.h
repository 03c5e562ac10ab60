/* SPDX-License-Identifier: GPL-2.0 */
/*
 * df_rotate.h - which DRAM channels a Data Fabric node's few counters
 * count in each sample interval, and what each channel counted for how
 * long. Plain data and arithmetic, no register access, so that it also
 * builds into a host test (selftests/host/df_rotate_test.c).
 *
 * Zen 2 and Zen 3 count a channel's DRAM requests with one DF event per
 * channel, and a node has four counters for eight channels. The channels
 * therefore take turns: each interval counts n_ctrs of them, and each
 * channel keeps its counted bytes and the nanoseconds it was counted. A
 * reader's rate for a channel between two readings is the bytes over the
 * nanoseconds counted between them: the counted share of the interval,
 * scaled up to all of it.
 *
 * A turn's ends are clocked by a bracket: the clock read just before and
 * just after the counters (@lo, @hi). The counts belong to some moment
 * inside it; the turn's time runs between the brackets' midpoints, and a
 * turn whose brackets are wide against its length (a vCPU or a preempted
 * reader paused in the middle of a read) counts, but does not set the
 * rate that the channels it counted are extrapolated with while other
 * channels have the counters.
 */
#ifndef _MEMDIAG_DF_ROTATE_H
#define _MEMDIAG_DF_ROTATE_H

/* Channels of one node (Rome and Milan have 8; the sources list 8) */
#define MEMDIAG_DF_MAX_CHANS	16
#define MEMDIAG_DF_MAX_CTRS	4

struct memdiag_df_rot {
	u8 n_chans, n_ctrs, ctr_bits;
	u32 fixed;		/* channels always counted; 0: rotate */
	u8 next;		/* the first channel of the next turn */
	/* the channel counter i counts now, or -1 */
	s8 chan_of[MEMDIAG_DF_MAX_CTRS];
	u64 base[MEMDIAG_DF_MAX_CTRS];	/* counter values at begin() */
	u64 begin_ns;		/* the midpoint of begin()'s bracket */
	u64 begin_err_ns;	/* half its width */
	bool counting;
	/* since init: per channel, what was counted and for how long */
	u64 counts[MEMDIAG_DF_MAX_CHANS];
	u64 counted_ns[MEMDIAG_DF_MAX_CHANS];
	/*
	 * since init: per channel, the counts estimated for all the time
	 * counted (any channel's): counted intervals add their counts, the
	 * others the channel's last counted rate (rate_counts / rate_ns)
	 */
	u64 est[MEMDIAG_DF_MAX_CHANS];
	u64 rate_counts[MEMDIAG_DF_MAX_CHANS], rate_ns[MEMDIAG_DF_MAX_CHANS];
	u64 end_ns;		/* when the last kept turn ended; 0: none */
	u64 end_err_ns;		/* half the width of its bracket */
	u32 dropped;		/* intervals not counted (a reset seen) */
	u32 unclocked;		/* turns too loosely clocked to set a rate */
};

int memdiag_df_rot_init(struct memdiag_df_rot *r, unsigned int n_chans,
			unsigned int n_ctrs, unsigned int ctr_bits, u32 fixed);
bool memdiag_df_rot_plan(struct memdiag_df_rot *r);
void memdiag_df_rot_begin(struct memdiag_df_rot *r, u64 lo_ns, u64 hi_ns,
			  const u64 *raw);
bool memdiag_df_rot_end(struct memdiag_df_rot *r, u64 lo_ns, u64 hi_ns,
			const u64 *raw, u64 max_step);

#endif /* _MEMDIAG_DF_ROTATE_H */
