// SPDX-License-Identifier: GPL-2.0
/*
 * imc.c - an IMC channel's PMON box: box control, four counter controls and
 * counters, the fixed DCLK counter, and what they count.
 *
 * The same box sits in a channel's PCI config space (skx) or in MMIO (icx,
 * spr); the generation's layout table says at which offsets. Registers are
 * accessed a dword at a time, so a 48-bit counter in config space is two
 * registers and an MMIO counter read with an 8-byte access is read whole.
 * Callers advance the box once per access, so the two halves of a counter
 * are never torn.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/topology.h>

#include "sim.h"

/* Counter control: event 7:0, umask 15:8, edge 18, EN 22, invert 23, threshold 31:24 */
#define CTL_BITS	0xffc4ffffU	/* 16 and 19-21 read as 0 */
#define CTL_RST		BIT(17)		/* self-clearing: zero the counter */
#define CTL_OTHER_EVENT	(BIT(18) | BIT(23) | GENMASK(31, 24))
#define FIXED_EN	BIT(22)
#define FIXED_RST	BIT(19)		/* self-clearing: zero the counter */

#define DCLK_NUM	6		/* 1.2e9 DCLK per second: 6 per 5 ns */
#define DCLK_DEN	5

/* Channel @i's share of the socket's CAS, over weight_sum(). */
static u64 chan_weight(unsigned int i)
{
	return mdsim.ua->chan_weight ? mdsim.ua->chan_weight[i] : 1;
}

static u64 weight_sum(void)
{
	unsigned int i;
	u64 w = 0;

	for (i = 0; i < mdsim.ua->n_chans; i++)
		w += chan_weight(i);
	return w;
}

/*
 * CAS per ns on channel i = mbps * 10^6 / 64 * weight_i / weight_sum /
 * 10^9 (equal weights: the socket's rate over n_chans)
 */
static u64 cas_den(void)
{
	return 64000ULL * weight_sum();
}

void mdsim_box_init(struct mdsim_box *b, unsigned int socket, unsigned int id)
{
	u64 now = ktime_get_ns();

	b->socket = socket;
	b->id = id;
	b->clk[MDSIM_K_CAS_RD] = (struct mdsim_clock){ 0, cas_den(), now, 0 };
	b->clk[MDSIM_K_CAS_WR] = (struct mdsim_clock){ 0, cas_den(), now, 0 };
	b->clk[MDSIM_K_DCLK] = (struct mdsim_clock){ DCLK_NUM, DCLK_DEN, now, 0 };
}

static const struct mdsim_box_reg *box_reg(unsigned int off, bool exact,
					   unsigned int *row)
{
	const struct mdsim_box_layout *l = mdsim.ua->layout;
	unsigned int i;

	for (i = 0; i < l->n_regs; i++) {
		const struct mdsim_box_reg *r = &l->regs[i];

		if (r->off == off || (!exact && r->width == 8 && r->off + 4 == off)) {
			*row = i;
			return r;
		}
	}
	return NULL;
}

/* The whole register a row belongs to. */
static u64 field_get(const struct mdsim_box *b, const struct mdsim_box_reg *r)
{
	switch (r->field) {
	case MDSIM_BOX_CTL:
		return b->box_ctl;
	case MDSIM_BOX_CTLN:
		return b->ctl[r->idx];
	case MDSIM_BOX_CTR:
		return b->ctr[r->idx];
	case MDSIM_BOX_FIXED_CTL:
		return b->fixed_ctl;
	default:
		return b->fixed_ctr;
	}
}

static void field_set(struct mdsim_box *b, const struct mdsim_box_reg *r,
		      u64 v)
{
	switch (r->field) {
	case MDSIM_BOX_CTL:
		b->box_ctl = v;
		break;
	case MDSIM_BOX_CTLN:
		b->ctl[r->idx] = v;
		break;
	case MDSIM_BOX_CTR:
		b->ctr[r->idx] = v;
		break;
	case MDSIM_BOX_FIXED_CTL:
		b->fixed_ctl = v;
		break;
	default:
		b->fixed_ctr = v;
	}
}

/* Bits of the register a poke may set, before the row's shift. */
static u64 field_bits(const struct mdsim_box_reg *r)
{
	switch (r->field) {
	case MDSIM_BOX_CTL:
		return mdsim.ua->box_keep;
	case MDSIM_BOX_CTLN:
		return CTL_BITS;
	case MDSIM_BOX_FIXED_CTL:
		return FIXED_EN;
	default:
		return MDSIM_CTR_MASK;
	}
}

static u64 row_mask(const struct mdsim_box_reg *r)
{
	return r->width == 8 ? U64_MAX : U32_MAX;
}

static u64 row_get(const struct mdsim_box *b, const struct mdsim_box_reg *r)
{
	return (field_get(b, r) >> r->shift) & row_mask(r);
}

/* What counter @i counts now: a mask of IMC kinds, 0 if nothing. */
static u8 ctr_kinds(const struct mdsim_box *b, unsigned int i)
{
	const struct mdsim_uarch *ua = mdsim.ua;
	u32 ctl = b->ctl[i];
	unsigned int e;

	if ((b->box_ctl & ua->box_frz) || (ua->ctl_en && !(ctl & ua->ctl_en)) ||
	    (ctl & CTL_OTHER_EVENT & ~ua->ctl_en))
		return 0;
	for (e = 0; e < ua->n_imc_events; e++)
		if ((ctl & 0xff) == ua->imc_events[e].event &&
		    ((ctl >> 8) & 0xff) == ua->imc_events[e].umask)
			return ua->imc_events[e].kinds;
	return 0;
}

static u64 kinds_sum(u8 kinds, const u64 *d)
{
	u64 sum = 0;
	unsigned int k;

	for (k = 0; k < MDSIM_IMC_KINDS; k++)
		if (kinds & BIT(k))
			sum += d[k];
	return sum;
}

/*
 * Split @d's CAS between the two sub-channels: of a channel's n CAS so
 * far, sub-channel 0 has (n + 1) / 2 and sub-channel 1 n / 2.
 */
static void split_sch(struct mdsim_box *b, u64 *d)
{
	unsigned int k;

	for (k = 0; k < 2; k++) {
		u64 old = b->cas[k], new = old + d[MDSIM_K_CAS_RD + k];

		b->cas[k] = new;
		d[MDSIM_K_CAS_RD_SCH0 + 2 * k] = (new + 1) / 2 - (old + 1) / 2;
		d[MDSIM_K_CAS_RD_SCH1 + 2 * k] = new / 2 - old / 2;
	}
}

/* Add @d[kind] (kinds with a clock) events to @b's counters that count them. */
static void box_add(struct mdsim_box *b, const u64 *d)
{
	u64 all[MDSIM_IMC_KINDS];
	unsigned int i;

	memcpy(all, d, MDSIM_IMC_NR * sizeof(*d));
	split_sch(b, all);
	for (i = 0; i < MDSIM_BOX_CTRS; i++) {
		u64 n = b->ctr[i] + kinds_sum(ctr_kinds(b, i), all);

		/* AMD's UMC counters stop at the top and set bit 48 */
		if (mdsim.ua->umc_per && n > MDSIM_CTR_MASK)
			b->ctr[i] = MDSIM_CTR_MASK | BIT_ULL(MDSIM_CTR_BITS);
		else
			b->ctr[i] = n & MDSIM_CTR_MASK;
	}
	if (!(b->box_ctl & mdsim.ua->box_frz) && (b->fixed_ctl & FIXED_EN))
		b->fixed_ctr = (b->fixed_ctr + d[MDSIM_K_DCLK]) & MDSIM_CTR_MASK;
}

static void box_advance_at(struct mdsim_box *b, u64 now)
{
	u64 d[MDSIM_IMC_NR], v;
	unsigned int k;

	lockdep_assert_held(&mdsim.lock);
	for (k = 0; k < MDSIM_IMC_NR; k++) {
		v = mdsim_clock_at(&b->clk[k], now);
		d[k] = v - b->last[k];
		b->last[k] = v;
	}
	box_add(b, d);
}

void mdsim_box_advance(struct mdsim_box *b)
{
	box_advance_at(b, ktime_get_ns());
}

/* A dword of the box; 0 where nothing is modelled. */
u32 mdsim_box_read32(struct mdsim_box *b, unsigned int off)
{
	const struct mdsim_box_reg *r;
	unsigned int row;

	r = box_reg(off, false, &row);
	if (!r)
		return 0;
	return (field_get(b, r) >> (r->shift + (off - r->off) * 8)) & U32_MAX;
}

/*
 * A dword written by software. Counters are read-only, and the reset bits
 * act and read back as 0. Resetting the controls also clears the fixed
 * control: the sim's choice, the documentation being silent on it.
 */
void mdsim_box_write32(struct mdsim_box *b, unsigned int off, u32 val)
{
	const struct mdsim_uarch *ua = mdsim.ua;
	const struct mdsim_box_reg *r;
	unsigned int row, i;

	r = box_reg(off, true, &row);
	if (!r || r->width != 4)
		return;
	switch (r->field) {
	case MDSIM_BOX_CTL:
		if (val & ua->box_rst_ctrl) {
			memset(b->ctl, 0, sizeof(b->ctl));
			b->fixed_ctl = 0;
		}
		if (val & ua->box_rst_ctrs) {
			for (i = 0; i < MDSIM_BOX_CTRS; i++)
				b->ctr[i] = 0;
			b->fixed_ctr = 0;
		}
		b->box_ctl = val & ua->box_keep;
		break;
	case MDSIM_BOX_CTLN:
		if (val & CTL_RST)
			b->ctr[r->idx] = 0;
		b->ctl[r->idx] = val & CTL_BITS;
		break;
	case MDSIM_BOX_FIXED_CTL:
		if (val & FIXED_RST)
			b->fixed_ctr = 0;
		b->fixed_ctl = val & FIXED_EN;
		break;
	default:
		return;		/* counters: writes ignored */
	}
	b->written |= BIT_ULL(row);
}

/* debugfs "poke": set a box register as it is, without side effects. */
int mdsim_box_poke(struct mdsim_box *b, unsigned int off, u64 val)
{
	const struct mdsim_box_reg *r;
	unsigned int row;
	u64 bits, v;

	r = box_reg(off, true, &row);
	if (!r) {
		pr_err("poke: no register at offset 0x%x of the box\n", off);
		return -EINVAL;
	}
	bits = (field_bits(r) >> r->shift) & row_mask(r);
	if (val & ~bits) {
		pr_err("poke: the register at offset 0x%x cannot hold 0x%llx: bits 0x%llx are reserved\n",
		       off, val, val & ~bits);
		return -EINVAL;
	}
	mdsim_box_advance(b);
	v = field_get(b, r) & ~(bits << r->shift);
	field_set(b, r, v | val << r->shift);
	b->written |= BIT_ULL(row);
	return 0;
}

int mdsim_box_peek(struct mdsim_box *b, unsigned int off, u64 *val)
{
	const struct mdsim_box_reg *r;
	unsigned int row;

	r = box_reg(off, true, &row);
	if (!r) {
		pr_err("peek: no register at offset 0x%x of the box\n", off);
		return -EINVAL;
	}
	mdsim_box_advance(b);
	*val = row_get(b, r);
	return 0;
}

/* Lines "PREFIX OFFSET VALUE" for the box's registers written since load. */
void mdsim_box_show(struct seq_file *m, struct mdsim_box *b,
		    const char *prefix)
{
	const struct mdsim_box_layout *l = mdsim.ua->layout;
	unsigned int i;

	mdsim_box_advance(b);
	for (i = 0; i < l->n_regs; i++)
		if (b->written & BIT_ULL(i))
			seq_printf(m, "%s 0x%x 0x%llx\n", prefix, l->regs[i].off,
				   row_get(b, &l->regs[i]));
}

/* Bring a socket's boxes up to date at the old rates, then use the new. */
void mdsim_imc_knob_changed(unsigned int socket)
{
	struct mdsim_socket *sock = &mdsim.sockets[socket];
	u64 now = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < mdsim.ua->n_chans; i++) {
		struct mdsim_box *b = &sock->box[i];

		box_advance_at(b, now);
		mdsim_clock_set(&b->clk[MDSIM_K_CAS_RD], now,
				sock->knob[MDSIM_KNOB_READ_BW] * chan_weight(i),
				cas_den());
		mdsim_clock_set(&b->clk[MDSIM_K_CAS_WR], now,
				sock->knob[MDSIM_KNOB_WRITE_BW] * chan_weight(i),
				cas_den());
	}
}

/* Add @count CAS at once, spread over the socket's channels. */
int mdsim_imc_inject(unsigned int socket, enum mdsim_imc_kind kind, u64 count)
{
	struct mdsim_socket *sock = &mdsim.sockets[socket];
	unsigned int i, n = mdsim.ua->n_chans;
	u64 now = ktime_get_ns(), share, rem, d[MDSIM_IMC_NR] = {};

	share = div64_u64_rem(count, n, &rem);
	for (i = 0; i < n; i++) {
		box_advance_at(&sock->box[i], now);
		d[kind] = share + (i < rem);
		box_add(&sock->box[i], d);
	}
	return 0;
}

/**
 * mdsim_umc_access() - AMD UMC MSR @idx from 0xC0010800 on @cpu's socket
 * @cpu: the CPU the access runs on
 * @idx: MSR - 0xC0010800: control 2i and counter 2i + 1 of the UMC
 *	counters, umc_per of them per box
 * @write: write *@val, else read into it
 * @val: the value
 *
 * Return: 0, or -EIO for a bit the register does not have.
 */
int mdsim_umc_access(unsigned int cpu, unsigned int idx, bool write, u64 *val)
{
	unsigned int s = topology_logical_package_id(cpu);
	unsigned int per = 2 * mdsim.ua->umc_per;
	struct mdsim_box *b;

	lockdep_assert_held(&mdsim.lock);
	if (s >= mdsim.n_sockets || !per || idx / per >= mdsim.ua->n_chans)
		return -EIO;
	b = &mdsim.sockets[s].box[idx / per];
	if (!write)
		return mdsim_box_peek(b, idx % per, val) ? -EIO : 0;
	return mdsim_box_poke(b, idx % per, *val) ? -EIO : 0;
}

/*
 * regs: the UMC MSRs of @cpu's socket written since load, from @msr0 on.
 * They are the socket's: core.c lists them under its first CPU only.
 */
void mdsim_umc_show(struct seq_file *m, unsigned int cpu, u32 msr0)
{
	const struct mdsim_box_layout *l = mdsim.ua->layout;
	unsigned int s = topology_logical_package_id(cpu);
	unsigned int per = 2 * mdsim.ua->umc_per, k, i;
	struct mdsim_box *b;

	lockdep_assert_held(&mdsim.lock);
	if (s >= mdsim.n_sockets || !per)
		return;
	for (k = 0; k < mdsim.ua->n_chans; k++) {
		b = &mdsim.sockets[s].box[k];
		mdsim_box_advance(b);
		for (i = 0; i < l->n_regs; i++)
			if (b->written & BIT_ULL(i))
				seq_printf(m, "msr %u 0x%x 0x%llx\n", cpu,
					   msr0 + k * per + l->regs[i].off,
					   row_get(b, &l->regs[i]));
	}
}
