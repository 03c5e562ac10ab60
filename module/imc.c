// SPDX-License-Identifier: GPL-2.0
/*
 * imc.c - the memory controllers' CAS counters: count the generation's
 * events (imc_desc->events: CAS reads and writes, per sub-channel where the
 * hardware splits them) in as many counters of every channel's PMON box
 * (found by imc_find.c) while a session runs, and add them up by meaning.
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
static bool imc_running;	/* between start() and stop() (not the DF) */

/*
 * One row per access kind of uarch.h (imc_access[] at the end of this
 * file), as the kernel's struct intel_uncore_ops: how the family counts
 * (the Data Fabric's channels take turns, imc_df.c; every other kind has
 * a box per channel, here) and how a box's registers are reached: a
 * dword of the box (a read that fails gives all-ones, as an absent PCI
 * box) and a counter, masked to the type's counter width.
 */
struct imc_access {
	int (*start)(char *msg, size_t len);
	void (*stop)(void);
	void (*sample)(struct memdiag_snap *snap, unsigned int n, u64 dt_ns);
	/* NULL: the boxes do not depend on CPUs being online */
	void (*cpu_online)(unsigned int cpu);
	void (*cpu_offline)(unsigned int cpu);
	u32 (*read32)(struct imc_box *b, unsigned int off);
	void (*write32)(struct imc_box *b, unsigned int off, u32 v);
	u64 (*read_ctr)(struct imc_box *b, unsigned int off);
	bool box_ctl;		/* a box control, whose freeze bit is checked */
};

static const struct imc_access *acc(void);

static u32 pci_rd(struct imc_box *b, unsigned int off)
{
	u32 v;

	return plat()->pci_read(&b->pci, off, &v) ? ~0u : v;
}

static void pci_wr(struct imc_box *b, unsigned int off, u32 v)
{
	plat()->pci_write(&b->pci, off, v);
}

/*
 * Two config reads can straddle a carry into the high dword: read high,
 * low, high, and take low again if high moved.
 */
static u64 pci_ctr(struct imc_box *b, unsigned int off)
{
	u32 hi = pci_rd(b, off + 4), lo = pci_rd(b, off);
	u64 v = pci_rd(b, off + 4);

	if (v != hi)
		lo = pci_rd(b, off);
	return (v << 32 | lo) & GENMASK_ULL(imc_type->ctr_bits - 1, 0);
}

static u32 mmio_rd(struct imc_box *b, unsigned int off)
{
	return plat()->mmio_read(b->map, off, 4);
}

static void mmio_wr(struct imc_box *b, unsigned int off, u32 v)
{
	plat()->mmio_write(b->map, off, 4, v);
}

static u64 mmio_ctr(struct imc_box *b, unsigned int off)
{
	return plat()->mmio_read(b->map, off, 8) &
	       GENMASK_ULL(imc_type->ctr_bits - 1, 0);
}

/*
 * MSR boxes (AMD UMC): @msr read or written on an online CPU of the
 * box's socket; a read that fails gives all-ones, as an absent PCI box.
 */
static u64 box_msr(struct imc_box *b, u32 msr, bool write, u64 val)
{
	struct memdiag_msr_op op = { msr, write, val };
	unsigned int cpu = memdiag_socket_cpu(b->socket, nr_cpu_ids);

	if (cpu >= nr_cpu_ids || plat()->msr_batch(cpu, &op, 1) || op.err)
		return U64_MAX;
	return op.val;
}

static u32 msr_rd(struct imc_box *b, unsigned int off)
{
	return box_msr(b, off, false, 0);
}

static void msr_wr(struct imc_box *b, unsigned int off, u32 v)
{
	box_msr(b, off, true, v);
}

/* keeps the saturation flag (bit ctr_bits) for box_update() */
static u64 msr_ctr(struct imc_box *b, unsigned int off)
{
	return box_msr(b, off, false, 0) & GENMASK_ULL(imc_type->ctr_bits, 0);
}

static u32 box_rd(struct imc_box *b, unsigned int off)
{
	return acc()->read32(b, off);
}

static void box_wr(struct imc_box *b, unsigned int off, u32 v)
{
	acc()->write32(b, off, v);
}

static unsigned int ctl_off(struct imc_box *b, int i)
{
	return b->ctl0 + i * imc_type->ctl_stride;
}

static u64 box_ctr(struct imc_box *b, int i)
{
	return acc()->read_ctr(b, b->ctr0 + i * imc_type->ctr_stride);
}

/* A control someone is using: enabled, or (no enable bit) set at all. */
static bool ctl_in_use(u32 ctl)
{
	return imc_type->ctl_en ? ctl & imc_type->ctl_en : ctl != 0;
}

/* Pick a free counter of @b for every event; false if it has fewer. */
static bool pick_counters(struct imc_box *b, char *msg, size_t len)
{
	unsigned int n = 0;
	int i;
	u32 box = acc()->box_ctl ? box_rd(b, imc_type->box_ctl) : 0;

	if (box == ~0u || box & imc_type->box_frz) {
		snprintf(msg, len,
			 "IMC channel %u of socket %u is frozen or unreadable (box control 0x%x): another tool (perf's uncore_imc, PCM, likwid) controls it; stop it and retry",
			 b->chan, b->socket, box);
		return false;
	}
	for (i = 0; i < b->n_ctrs && n < imc_desc->n_events; i++) {
		u32 ctl = box_rd(b, ctl_off(b, i));

		if (!ctl_in_use(ctl)) {
			b->ctr[n] = i;
			b->saved[n++] = ctl;
		}
	}
	if (n < imc_desc->n_events) {
		snprintf(msg, len,
			 "IMC channel %u of socket %u has %u free counters of %u, %u needed: another tool (perf's uncore_imc, PCM, likwid) is using them; stop it and retry",
			 b->chan, b->socket, n, b->n_ctrs,
			 imc_desc->n_events);
		return false;
	}
	return true;
}

static void box_restore(struct imc_box *b)
{
	unsigned int k;

	for (k = 0; k < imc_desc->n_events; k++)
		box_wr(b, ctl_off(b, b->ctr[k]), b->saved[k]);
	b->programmed = false;
}

static void box_baseline(struct imc_box *b)
{
	unsigned int k;

	for (k = 0; k < imc_desc->n_events; k++)
		memdiag_ext64_start(&b->ext[k], box_ctr(b, b->ctr[k]),
				    imc_type->ctr_bits);
}

/* The control value counting event @k. */
static u32 event_ctl(unsigned int k)
{
	const struct memdiag_imc_event *e = &imc_desc->events[k];

	return e->event | e->umask << 8 | e->extra | imc_type->ctl_en;
}

/* Program every event's counter; false if a write did not stick. */
static bool box_program(struct imc_box *b)
{
	unsigned int k;
	bool ok = true;

	for (k = 0; k < imc_desc->n_events; k++) {
		b->prog[k] = event_ctl(k);
		box_wr(b, ctl_off(b, b->ctr[k]), b->prog[k]);
	}
	b->programmed = true;
	b->lost = false;
	for (k = 0; k < imc_desc->n_events; k++)
		ok &= box_rd(b, ctl_off(b, b->ctr[k])) == b->prog[k];
	return ok;
}

/* Program the generation's events on every box; all or none. */
static int boxes_start(char *msg, size_t len)
{
	unsigned int i;

	/* an MSR box of a socket with no CPU online waits for one (hotplug) */
	for (i = 0; i < imc_n_boxes; i++) {
		struct imc_box *b = &imc_boxes[i];

		b->offline = acc()->cpu_online &&
			     memdiag_socket_cpu(b->socket, nr_cpu_ids) >=
			     nr_cpu_ids;
		if (!b->offline && !pick_counters(b, msg, len))
			return -EBUSY;
	}

	for (i = 0; i < imc_n_boxes; i++) {
		struct imc_box *b = &imc_boxes[i];

		if (b->offline)
			continue;
		if (!box_program(b)) {
			snprintf(msg, len,
				 "IMC counter control writes on channel %u of socket %u did not stick",
				 b->chan, b->socket);
			while (1) {
				if (!imc_boxes[i].offline)
					box_restore(&imc_boxes[i]);
				if (!i--)
					break;
			}
			return -EIO;
		}
		box_baseline(b);
	}
	imc_running = true;
	return 0;
}

static void boxes_stop(void)
{
	unsigned int i;

	/* a box another agent took over keeps that agent's values */
	for (i = 0; i < imc_n_boxes; i++) {
		if (imc_boxes[i].programmed && !imc_boxes[i].lost)
			box_restore(&imc_boxes[i]);
		imc_boxes[i].programmed = false;
	}
	imc_running = false;
}

/* Re-check a box's controls; false if the interval is not to be trusted. */
static bool box_check(struct imc_box *b)
{
	bool ok = true;
	unsigned int k;

	for (k = 0; k < imc_desc->n_events; k++) {
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

/*
 * A counter that saturates (AMD UMC) is zeroed once its top bit is set,
 * long before it can stop: the counts up to @v are kept, those between
 * the read and the write (nanoseconds' worth) are lost, as in the
 * kernel's amd_uncore_umc_read(). One that did stop (its flag, bit
 * ctr_bits, set: nobody zeroed it in time) lost counts: true, the interval
 * is invalid, and counting restarts from zero.
 */
static bool box_saturation(struct imc_box *b, unsigned int k, u64 *v)
{
	unsigned int bits = imc_type->ctr_bits;
	unsigned int off = b->ctr0 + b->ctr[k] * imc_type->ctr_stride;
	bool stopped = *v & BIT_ULL(bits);

	if (stopped || *v & BIT_ULL(bits - 1)) {
		if (!stopped)
			memdiag_ext64_update(&b->ext[k], *v, bits, U64_MAX);
		box_msr(b, off, true, 0);
		memdiag_ext64_start(&b->ext[k], 0, bits);
	}
	return stopped;
}

/* Read every counter of @b; false if the interval is not to be trusted. */
static bool box_update(struct imc_box *b, u64 max)
{
	unsigned int k;
	bool ok = true;

	if (!box_check(b))
		return false;
	for (k = 0; k < imc_desc->n_events; k++) {
		u64 v = box_ctr(b, b->ctr[k]);

		if (imc_type->saturates && box_saturation(b, k, &v))
			ok = false;
		else
			ok &= memdiag_ext64_update(&b->ext[k], v,
						   imc_type->ctr_bits, max);
	}
	return ok;
}

/*
 * Bytes moved through @b since load, by meaning: the sum over its events
 * (on Granite Rapids a channel's two sub-channels) of count x bytes.
 */
static void box_bytes(const struct imc_box *b, u64 *bytes)
{
	unsigned int k;

	memset(bytes, 0, MEMDIAG_IMC_MEANINGS * sizeof(*bytes));
	for (k = 0; k < imc_desc->n_events; k++) {
		const struct memdiag_imc_event *e = &imc_desc->events[k];

		bytes[e->meaning] += b->ext[k].total * e->bytes;
	}
}

/* Add every box's counts into the snapshots (@dt_ns bounds a step). */
static void boxes_sample(struct memdiag_snap *snap, unsigned int n, u64 dt_ns)
{
	u64 max = div_u64(IMC_MAX_CAS_PER_SEC, 1000) * div_u64(dt_ns, 1000000) +
		  (1ULL << 24);
	unsigned int i;

	for (i = 0; i < imc_n_boxes; i++) {
		struct imc_box *b = &imc_boxes[i];
		struct memdiag_snap *s;
		u64 bytes[MEMDIAG_IMC_MEANINGS];

		if (b->socket >= n)
			continue;
		s = &snap[b->socket];
		if (b->programmed && !b->lost && !box_update(b, max))
			imc_epoch[b->socket]++;
		box_bytes(b, bytes);
		s->has_imc = true;
		s->rd_bytes += bytes[MEMDIAG_IMC_READ];
		s->wr_bytes += bytes[MEMDIAG_IMC_WRITE];
		/* per channel from the same reading as the totals */
		if (s->nr_chan < MEMDIAG_MAX_CHANNELS) {
			s->chan[s->nr_chan].id = b->chan;
			s->chan[s->nr_chan].rd_bytes = bytes[MEMDIAG_IMC_READ];
			s->chan[s->nr_chan].wr_bytes = bytes[MEMDIAG_IMC_WRITE];
			s->nr_chan++;
		}
	}
	for (i = 0; i < n && i < MEMDIAG_MAX_SOCKETS; i++)
		snap[i].imc_epoch = imc_epoch[i];
}

/*
 * The UMC boxes of @cpu's socket, @cpu its last CPU going offline: the
 * counts so far kept, the controls put back while a CPU can still reach
 * them; the socket is not counted, and in no snapshot, until one returns.
 */
static void umc_cpu_offline(unsigned int cpu)
{
	unsigned int s = memdiag_socket_of(cpu), i;
	bool any = false;

	if (!imc_running || memdiag_socket_cpu(s, cpu) < nr_cpu_ids)
		return;
	for (i = 0; i < imc_n_boxes; i++) {
		struct imc_box *b = &imc_boxes[i];

		if (b->socket != s || b->offline)
			continue;
		if (b->programmed && !b->lost) {
			box_update(b, U64_MAX);
			if (!b->lost)
				box_restore(b);
		}
		b->programmed = false;
		b->offline = true;
		any = true;
	}
	if (any)
		imc_epoch[s]++;
}

/*
 * The first CPU of a socket back online: its UMC boxes claimed and
 * programmed again as at a session start; one whose counters are someone
 * else's by now stays uncounted, and the log says why.
 */
static void umc_cpu_online(unsigned int cpu)
{
	char msg[MEMDIAG_REASON_LEN];
	unsigned int s = memdiag_socket_of(cpu), i;
	bool any = false;

	if (!imc_running)
		return;
	for (i = 0; i < imc_n_boxes; i++) {
		struct imc_box *b = &imc_boxes[i];

		if (b->socket != s || !b->offline)
			continue;
		b->offline = false;
		any = true;
		if (!pick_counters(b, msg, sizeof(msg))) {
			b->lost = true;
		} else if (!box_program(b)) {
			box_restore(b);
			snprintf(msg, sizeof(msg),
				 "IMC counter control writes on channel %u did not stick",
				 b->chan);
			b->lost = true;
		} else {
			box_baseline(b);
			continue;
		}
		pr_warn("memdiag: socket %u is back online, its memory channel %u not counted: %s\n",
			s, b->chan, msg);
	}
	if (any)
		imc_epoch[s]++;
}

static const struct imc_access imc_access[] = {
	[MEMDIAG_IMC_PCI] = {
		boxes_start, boxes_stop, boxes_sample, NULL, NULL,
		pci_rd, pci_wr, pci_ctr, true },
	[MEMDIAG_IMC_MMIO] = {
		boxes_start, boxes_stop, boxes_sample, NULL, NULL,
		mmio_rd, mmio_wr, mmio_ctr, true },
	[MEMDIAG_IMC_DISCOVERY] = {
		boxes_start, boxes_stop, boxes_sample, NULL, NULL,
		mmio_rd, mmio_wr, mmio_ctr, true },
	[MEMDIAG_IMC_MSR] = {
		boxes_start, boxes_stop, boxes_sample,
		umc_cpu_online, umc_cpu_offline,
		msr_rd, msr_wr, msr_ctr, false },
	[MEMDIAG_IMC_DF] = {
		memdiag_imc_df_start, memdiag_imc_df_stop,
		memdiag_imc_df_sample, memdiag_imc_df_cpu_online,
		memdiag_imc_df_cpu_offline },
};

static const struct imc_access *acc(void)
{
	return &imc_access[imc_type->access];
}

/**
 * memdiag_imc_start() - program the generation's events
 * @msg: why not, when the return value is negative
 * @len: size of @msg
 *
 * Either everything is programmed or nothing is.
 */
int memdiag_imc_start(char *msg, size_t len)
{
	lockdep_assert_held(&memdiag_lock);
	return acc()->start(msg, len);
}

void memdiag_imc_stop(void)
{
	lockdep_assert_held(&memdiag_lock);
	acc()->stop();
}

/**
 * memdiag_imc_sample() - add what the counters counted into the snapshots
 * @snap: one per socket, indexed by socket
 * @n: number of entries in @snap
 * @dt_ns: time since the last sample, bounding a plausible step
 */
void memdiag_imc_sample(struct memdiag_snap *snap, unsigned int n, u64 dt_ns)
{
	acc()->sample(snap, n, dt_ns);
}

/*
 * Hotplug. The DF node and the UMC boxes of a socket are reached through
 * its CPUs, so its last CPU going offline puts their controls back
 * (imc_df.c for the DF) and the first one back claims them again. PCI
 * and MMIO boxes (discovery's included) do not depend on CPUs being
 * online.
 */
int memdiag_imc_cpu_online(unsigned int cpu)
{
	if (!imc_type || !acc()->cpu_online)
		return 0;
	mutex_lock(&memdiag_lock);
	acc()->cpu_online(cpu);
	mutex_unlock(&memdiag_lock);
	return 0;
}

int memdiag_imc_cpu_offline(unsigned int cpu)
{
	if (!imc_type || !acc()->cpu_offline)
		return 0;
	mutex_lock(&memdiag_lock);
	acc()->cpu_offline(cpu);
	mutex_unlock(&memdiag_lock);
	return 0;
}
