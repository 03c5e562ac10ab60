// SPDX-License-Identifier: GPL-2.0
/*
 * df.c - AMD Zen 2/3's Data Fabric PMU (uarch zen2, zen3): four 48-bit
 * control/counter pairs per socket at MSR_F15H_NB_PERF_CTL/CTR + 2i,
 * reached from any CPU of the socket (the sim's DF node is the socket,
 * as in NPS1), counting dram_channel_data_controller_N: event 0x07 +
 * 0x40 N, umask 0x38, in amd/uncore.c's "event14" control layout.
 *
 * A counter counts its channel's CAS reads and writes together: what the
 * channel's box (imc.c) has counted since load, knob rates and injects
 * alike, so that the DF and the knobs can never disagree. Counters wrap
 * at 48 bits, as the hardware's do.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/topology.h>

#include "sim.h"

#define DF_EN		BIT_ULL(22)
/* event 7:0, umask 15:8, EN 22, event 11:8 at 35:32, event 13:12 at 60:59 */
#define DF_CTL_BITS	(GENMASK_ULL(15, 0) | DF_EN | GENMASK_ULL(35, 32) | \
			 GENMASK_ULL(60, 59))
#define DF_CHAN_UMASK	0x38

/* The channel a control counts, or -1. */
static int ctl_chan(u64 ctl)
{
	unsigned int ev = (ctl & 0xff) | ((ctl >> 32) & 0xf) << 8 |
			  ((ctl >> 59) & 0x3) << 12;
	unsigned int c;

	if (!(ctl & DF_EN) || ((ctl >> 8) & 0xff) != DF_CHAN_UMASK ||
	    ev < 0x07 || (ev - 0x07) % 0x40)
		return -1;
	c = (ev - 0x07) / 0x40;
	return c < mdsim.ua->n_chans ? c : -1;
}

/* Add what every channel moved since the last advance to its counters. */
static void df_advance(struct mdsim_socket *sock)
{
	u64 d[MDSIM_MAX_CHANS];
	unsigned int c, i;
	int ch;

	for (c = 0; c < mdsim.ua->n_chans; c++) {
		struct mdsim_box *b = &sock->box[c];
		u64 total;

		mdsim_box_advance(b);
		total = b->cas[0] + b->cas[1];
		d[c] = total - sock->df.last[c];
		sock->df.last[c] = total;
	}
	for (i = 0; i < MDSIM_DF_CTRS; i++) {
		ch = ctl_chan(sock->df.ctl[i]);
		if (ch >= 0)
			sock->df.ctr[i] = (sock->df.ctr[i] + d[ch]) &
					  MDSIM_CTR_MASK;
	}
}

static struct mdsim_socket *df_socket(unsigned int cpu)
{
	unsigned int s = topology_logical_package_id(cpu);

	if (!mdsim.ua->df || s >= mdsim.n_sockets)
		return NULL;
	return &mdsim.sockets[s];
}

/**
 * mdsim_df_access() - DF MSR @idx from 0xC0010240 on @cpu's socket
 * @cpu: the CPU the access runs on
 * @idx: MSR - 0xC0010240: control i at 2i, its counter at 2i + 1
 * @write: write *@val, else read into it
 * @val: the value
 *
 * Return: 0, or -EIO for a register or bit the DF does not have.
 */
int mdsim_df_access(unsigned int cpu, unsigned int idx, bool write, u64 *val)
{
	struct mdsim_socket *sock = df_socket(cpu);
	u64 *reg;

	lockdep_assert_held(&mdsim.lock);
	if (!sock || idx >= 2 * MDSIM_DF_CTRS)
		return -EIO;
	df_advance(sock);
	reg = idx % 2 ? &sock->df.ctr[idx / 2] : &sock->df.ctl[idx / 2];
	if (!write) {
		*val = *reg;
		return 0;
	}
	if (*val & ~(idx % 2 ? MDSIM_CTR_MASK : DF_CTL_BITS))
		return -EIO;
	*reg = *val;
	sock->df.written |= BIT(idx);
	return 0;
}

/*
 * regs: the DF MSRs of @cpu's socket written since load, from @msr0 on.
 * They are the socket's: core.c lists them under its first CPU only.
 */
void mdsim_df_show(struct seq_file *m, unsigned int cpu, u32 msr0)
{
	struct mdsim_socket *sock = df_socket(cpu);
	unsigned int i;

	lockdep_assert_held(&mdsim.lock);
	if (!sock)
		return;
	df_advance(sock);
	for (i = 0; i < 2 * MDSIM_DF_CTRS; i++)
		if (sock->df.written & BIT(i))
			seq_printf(m, "msr %u 0x%x 0x%llx\n", cpu, msr0 + i,
				   i % 2 ? sock->df.ctr[i / 2] :
				   sock->df.ctl[i / 2]);
}
