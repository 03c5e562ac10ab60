// SPDX-License-Identifier: GPL-2.0
/*
 * l3.c - AMD Zen 4/5's L3 PMU (uarch zen4, zen5): six control/counter
 * pairs per CCX at MSR_F16H_L2I_PERF_CTL/CTR + 2i, reached from any CPU of
 * the CCX, counting l3_xi_sampled_latency (0xac) and its requests (0xad),
 * DRAM near (umask bit 0) and far (bit 1).
 *
 * The sim's CCX is one core (the guests have two cores a socket, so a
 * socket has two CCXs to add up; Genoa's CCX has eight). Each CCX's
 * sampled DRAM requests arrive at the socket's knobs' rates, each taking
 * l3_dram_latency_cycles core clocks; the latency counter adds a tenth of
 * that (perf's metric multiplies it by 10). A counter whose control lacks
 * any of EnAllCores, EnAllSlices and ThreadMask 3 sees only one in
 * MDSIM_L3_PART of the events, as a real one sees only some cores' or
 * slices' share, so that a missing bit shows.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/topology.h>

#include "sim.h"

#define L3_EN		BIT_ULL(22)
#define L3_ALL		(0x3ULL << 56 | BIT_ULL(47) | BIT_ULL(46))
/* event, umask, EN, CoreId, EnAllSlices, EnAllCores, SliceId, ThreadMask */
#define L3_CTL_BITS	(GENMASK_ULL(15, 0) | L3_EN | GENMASK_ULL(44, 42) | \
			 GENMASK_ULL(50, 46) | GENMASK_ULL(57, 56))
#define MDSIM_L3_PART	8

/*
 * The CCX of @cpu: its core within its socket (the sim's choice), taken
 * at load (mdsim_core_init()), as x86 zeroes an offline CPU's core id.
 */
static unsigned int ccx_of(unsigned int cpu)
{
	return mdsim.cpus[cpu].ccx;
}

int mdsim_llc_id(unsigned int cpu)
{
	return topology_logical_package_id(cpu) * MDSIM_CCX_PER_SOCKET +
	       ccx_of(cpu);
}

/* Which kinds (BIT(enum mdsim_l3_kind)) a control counts. */
static unsigned int ctl_kinds(u64 ctl)
{
	unsigned int um = (ctl >> 8) & 0x3;

	if (!(ctl & L3_EN))
		return 0;
	switch (ctl & 0xff) {
	case 0xac:
		return um;				/* LAT_NEAR, LAT_FAR */
	case 0xad:
		return um << MDSIM_L3_REQ_NEAR;		/* REQ_NEAR, REQ_FAR */
	default:
		return 0;
	}
}

static void ccx_advance(struct mdsim_ccx *x, u64 now)
{
	u64 v[MDSIM_L3_KINDS];
	unsigned int i, k;

	for (k = 0; k < MDSIM_L3_KINDS; k++)
		v[k] = mdsim_clock_at(&x->clk[k], now);
	for (i = 0; i < MDSIM_L3_CTRS; i++) {
		unsigned long kinds = ctl_kinds(x->ctl[i]);
		bool all = (x->ctl[i] & L3_ALL) == L3_ALL;
		u64 d = 0;

		for_each_set_bit(k, &kinds, MDSIM_L3_KINDS)
			d += all ? v[k] - x->last[k] :
			     v[k] / MDSIM_L3_PART - x->last[k] / MDSIM_L3_PART;
		x->ctr[i] = (x->ctr[i] + d) & MDSIM_CTR_MASK;
	}
	memcpy(x->last, v, sizeof(v));
}

/**
 * mdsim_l3_access() - L3 PMU MSR @idx from 0xC0010230 on @cpu's CCX
 * @cpu: the CPU the access runs on
 * @idx: MSR - 0xC0010230: control i at 2i, its counter at 2i + 1
 * @write: write *@val, else read into it
 * @val: the value
 *
 * Return: 0, or -EIO for a bit the register does not have.
 */
int mdsim_l3_access(unsigned int cpu, unsigned int idx, bool write, u64 *val)
{
	unsigned int s = topology_logical_package_id(cpu);
	struct mdsim_ccx *x;
	u64 *reg;

	lockdep_assert_held(&mdsim.lock);
	if (s >= mdsim.n_sockets || idx >= 2 * MDSIM_L3_CTRS)
		return -EIO;
	x = &mdsim.sockets[s].ccx[ccx_of(cpu)];
	ccx_advance(x, ktime_get_ns());
	reg = idx % 2 ? &x->ctr[idx / 2] : &x->ctl[idx / 2];
	if (!write) {
		*val = *reg;
		return 0;
	}
	if (*val & ~(idx % 2 ? MDSIM_CTR_MASK : L3_CTL_BITS))
		return -EIO;
	*reg = *val;
	x->written |= BIT(idx);
	return 0;
}

/*
 * regs: the L3 PMU MSRs of @cpu's CCX written since load, from @msr0 on.
 * A CCX's registers are shared by its CPUs: core.c lists them under the
 * first CPU of the CCX only.
 */
void mdsim_l3_show(struct seq_file *m, unsigned int cpu, u32 msr0)
{
	unsigned int s = topology_logical_package_id(cpu), i;
	struct mdsim_ccx *x;

	lockdep_assert_held(&mdsim.lock);
	if (s >= mdsim.n_sockets)
		return;
	x = &mdsim.sockets[s].ccx[ccx_of(cpu)];
	ccx_advance(x, ktime_get_ns());
	for (i = 0; i < 2 * MDSIM_L3_CTRS; i++)
		if (x->written & BIT(i))
			seq_printf(m, "msr %u 0x%x 0x%llx\n", cpu, msr0 + i,
				   i % 2 ? x->ctr[i / 2] : x->ctl[i / 2]);
}

/* Knobs whose per-second latency count would overflow: -EOVERFLOW. */
int mdsim_l3_rates(const u64 *knob)
{
	u64 v;

	if (check_mul_overflow(knob[MDSIM_KNOB_L3_NEAR],
			       knob[MDSIM_KNOB_L3_LATENCY], &v) ||
	    check_mul_overflow(knob[MDSIM_KNOB_L3_FAR],
			       knob[MDSIM_KNOB_L3_LATENCY], &v))
		return -EOVERFLOW;
	return 0;
}

/* Bring a socket's CCXs up to date at the old rates, then use the new. */
void mdsim_l3_knob_changed(unsigned int socket)
{
	struct mdsim_socket *sock = &mdsim.sockets[socket];
	u64 now = ktime_get_ns(), lat = sock->knob[MDSIM_KNOB_L3_LATENCY];
	u64 near = sock->knob[MDSIM_KNOB_L3_NEAR];
	u64 far = sock->knob[MDSIM_KNOB_L3_FAR];
	unsigned int i;

	for (i = 0; i < MDSIM_CCX_PER_SOCKET; i++) {
		struct mdsim_ccx *x = &sock->ccx[i];

		ccx_advance(x, now);
		/* requests per ns; tenths of core clocks per ns */
		mdsim_clock_set(&x->clk[MDSIM_L3_REQ_NEAR], now, near,
				NSEC_PER_SEC);
		mdsim_clock_set(&x->clk[MDSIM_L3_REQ_FAR], now, far,
				NSEC_PER_SEC);
		mdsim_clock_set(&x->clk[MDSIM_L3_LAT_NEAR], now, near * lat,
				10 * NSEC_PER_SEC);
		mdsim_clock_set(&x->clk[MDSIM_L3_LAT_FAR], now, far * lat,
				10 * NSEC_PER_SEC);
	}
}

void mdsim_l3_init(struct mdsim_socket *sock)
{
	u64 now = ktime_get_ns();
	unsigned int i, k;

	for (i = 0; i < MDSIM_CCX_PER_SOCKET; i++)
		for (k = 0; k < MDSIM_L3_KINDS; k++)
			sock->ccx[i].clk[k] =
				(struct mdsim_clock){ 0, NSEC_PER_SEC, now, 0 };
}
