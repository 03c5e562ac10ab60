// SPDX-License-Identifier: GPL-2.0
/*
 * imc.c - the memory controllers' CAS counters: count CAS reads and writes
 * in two counters of every channel's PMON box (found by imc_find.c) while
 * a session runs.
 *
 * Counters are programmed only
 * between memdiag_imc_start() and memdiag_imc_stop(), both under
 * memdiag_lock, and stop() writes back every control value start() found.
 *
 * The uncore has no arbitration: perf's intel_uncore driver, PCM or likwid
 * may reset or reprogram a box at any time. Each sample therefore reads the
 * controls back; a changed control or a counter step no wrap can explain
 * bumps the socket's epoch (that interval is invalid) and counting resumes
 * from a new baseline. A control someone else enabled is left alone.
 */
#include <linux/kernel.h>
#include <linux/math64.h>

#include "memdiag.h"
#include "imc.h"

/* No channel moves 10^10 CAS (640 GB) a second: a bigger step is a reset. */
#define IMC_MAX_CAS_PER_SEC	10000000000ULL

static u32 imc_epoch[MEMDIAG_MAX_SOCKETS];

static u32 box_rd(struct imc_box *b, unsigned int off)
{
	u32 v = 0;

	if (b->map)
		return plat()->mmio_read(b->map, off, 4);
	if (plat()->pci_read(&b->pci, off, &v))
		return ~0u;
	return v;
}

static void box_wr(struct imc_box *b, unsigned int off, u32 v)
{
	if (b->map)
		plat()->mmio_write(b->map, off, 4, v);
	else
		plat()->pci_write(&b->pci, off, v);
}

static unsigned int ctl_off(struct imc_box *b, int i)
{
	return b->ctl0 + i * imc_desc->ctl_stride;
}

static u64 box_ctr(struct imc_box *b, int i)
{
	unsigned int off = b->ctr0 + i * imc_desc->ctr_stride;
	u64 v;

	u32 hi, lo;

	if (b->map) {
		v = plat()->mmio_read(b->map, off, 8);
	} else {
		/*
		 * Two config reads can straddle a carry into the high dword:
		 * read high, low, high, and take low again if high moved.
		 */
		hi = box_rd(b, off + 4);
		lo = box_rd(b, off);
		v = box_rd(b, off + 4);
		if (v != hi)
			lo = box_rd(b, off);
		v = v << 32 | lo;
	}
	return v & GENMASK_ULL(imc_desc->ctr_bits - 1, 0);
}

/* A control someone is using: enabled, or (no enable bit) set at all. */
static bool ctl_in_use(u32 ctl)
{
	return imc_desc->ctl_en ? ctl & imc_desc->ctl_en : ctl != 0;
}

/* Pick two free counters of @b; false if it has fewer. */
static bool pick_counters(struct imc_box *b, char *msg, size_t len)
{
	int i, n = 0;
	u32 box = box_rd(b, imc_desc->box_ctl);

	if (box == ~0u || box & imc_desc->box_frz) {
		snprintf(msg, len,
			 "IMC channel %u of socket %u is frozen or unreadable (box control 0x%x): another tool (perf's uncore_imc, PCM, likwid) controls it; stop it and retry",
			 b->chan, b->socket, box);
		return false;
	}
	for (i = 0; i < imc_desc->n_ctrs && n < 2; i++) {
		u32 ctl = box_rd(b, ctl_off(b, i));

		if (!ctl_in_use(ctl)) {
			b->ctr[n] = i;
			b->saved[n++] = ctl;
		}
	}
	if (n < 2) {
		snprintf(msg, len,
			 "IMC channel %u of socket %u has no two free counters: another tool (perf's uncore_imc, PCM, likwid) is using them; stop it and retry",
			 b->chan, b->socket);
		return false;
	}
	return true;
}

static void box_restore(struct imc_box *b)
{
	box_wr(b, ctl_off(b, b->ctr[RD]), b->saved[RD]);
	box_wr(b, ctl_off(b, b->ctr[WR]), b->saved[WR]);
	b->programmed = false;
}

static void box_baseline(struct imc_box *b)
{
	memdiag_ext64_start(&b->ext[RD], box_ctr(b, b->ctr[RD]), imc_desc->ctr_bits);
	memdiag_ext64_start(&b->ext[WR], box_ctr(b, b->ctr[WR]), imc_desc->ctr_bits);
}

/**
 * memdiag_imc_start() - program CAS read and write counts on every box
 * @msg: why not, when the return value is negative
 * @len: size of @msg
 *
 * Either every box is programmed or none is.
 */
int memdiag_imc_start(char *msg, size_t len)
{
	unsigned int i;

	for (i = 0; i < imc_n_boxes; i++)
		if (!pick_counters(&imc_boxes[i], msg, len))
			return -EBUSY;

	for (i = 0; i < imc_n_boxes; i++) {
		struct imc_box *b = &imc_boxes[i];

		b->prog[RD] = imc_desc->rd_event | imc_desc->rd_umask << 8 | imc_desc->ctl_en;
		b->prog[WR] = imc_desc->wr_event | imc_desc->wr_umask << 8 | imc_desc->ctl_en;
		box_wr(b, ctl_off(b, b->ctr[RD]), b->prog[RD]);
		box_wr(b, ctl_off(b, b->ctr[WR]), b->prog[WR]);
		b->programmed = true;
		b->lost = false;
		if (box_rd(b, ctl_off(b, b->ctr[RD])) != b->prog[RD] ||
		    box_rd(b, ctl_off(b, b->ctr[WR])) != b->prog[WR]) {
			snprintf(msg, len,
				 "IMC counter control writes on channel %u of socket %u did not stick",
				 b->chan, b->socket);
			while (1) {
				box_restore(&imc_boxes[i]);
				if (!i--)
					break;
			}
			return -EIO;
		}
		box_baseline(b);
	}
	return 0;
}

void memdiag_imc_stop(void)
{
	unsigned int i;

	/* a box another agent took over keeps that agent's values */
	for (i = 0; i < imc_n_boxes; i++) {
		if (imc_boxes[i].programmed && !imc_boxes[i].lost)
			box_restore(&imc_boxes[i]);
		imc_boxes[i].programmed = false;
	}
}

/* Re-check a box's controls; false if the interval is not to be trusted. */
static bool box_check(struct imc_box *b)
{
	bool ok = true;
	int k;

	for (k = RD; k <= WR; k++) {
		u32 ctl = box_rd(b, ctl_off(b, b->ctr[k]));

		if (ctl == b->prog[k])
			continue;
		ok = false;
		if (ctl_in_use(ctl)) {
			/* someone else's now: never clobber it */
			pr_warn_ratelimited("memdiag: IMC channel %u of socket %u was reprogrammed by another agent (0x%x); no longer counting it\n",
					    b->chan, b->socket, ctl);
			b->lost = true;
			return false;
		}
		box_wr(b, ctl_off(b, b->ctr[k]), b->prog[k]);
	}
	if (!ok)
		box_baseline(b);
	return ok;
}

/**
 * memdiag_imc_sample() - add every box's counts into the snapshots
 * @snap: one per socket, indexed by socket
 * @n: number of entries in @snap
 * @dt_ns: time since the last sample, bounding a plausible step
 */
void memdiag_imc_sample(struct memdiag_snap *snap, unsigned int n, u64 dt_ns)
{
	u64 max = div_u64(IMC_MAX_CAS_PER_SEC, 1000) * div_u64(dt_ns, 1000000) +
		  (1ULL << 24);
	unsigned int i;
	int k;

	for (i = 0; i < imc_n_boxes; i++) {
		struct imc_box *b = &imc_boxes[i];
		struct memdiag_snap *s;

		if (b->socket >= n)
			continue;
		s = &snap[b->socket];
		if (b->programmed && !b->lost) {
			if (!box_check(b))
				imc_epoch[b->socket]++;
			else
				for (k = RD; k <= WR; k++)
					if (!memdiag_ext64_update(&b->ext[k],
								  box_ctr(b, b->ctr[k]),
								  imc_desc->ctr_bits, max))
						imc_epoch[b->socket]++;
		}
		s->has_imc = true;
		s->rd_bytes += b->ext[RD].total * 64;
		s->wr_bytes += b->ext[WR].total * 64;
		/* per channel from the same reading as the totals */
		if (s->nr_chan < MEMDIAG_MAX_CHANNELS) {
			s->chan[s->nr_chan].id = b->chan;
			s->chan[s->nr_chan].rd_bytes = b->ext[RD].total * 64;
			s->chan[s->nr_chan].wr_bytes = b->ext[WR].total * 64;
			s->nr_chan++;
		}
	}
	for (i = 0; i < n && i < MEMDIAG_MAX_SOCKETS; i++)
		snap[i].imc_epoch = imc_epoch[i];
}
