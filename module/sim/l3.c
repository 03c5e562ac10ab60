// SPDX-License-Identifier: GPL-2.0
/*
 * l3.c - AMD's L3 PMU (uarch zen2 to zen5): six control/counter pairs
 * per CCX at MSR_F16H_L2I_PERF_CTL/CTR + 2i, reached from any CPU of the
 * CCX, counting the uarch's events (uarch.c): Zen 4/5's
 * l3_xi_sampled_latency (0xac) and its requests (0xad), DRAM near (umask
 * bit 0) and far (bit 1); Zen 2/3's xi_sys_fill_latency (0x90) and
 * xi_ccx_sdp_req1 (0x9a), near and far together.
 *
 * The sim's CCX is one core (the guests have two cores a socket, so a
 * socket has two CCXs to add up; Genoa's CCX has eight). Each CCX's
 * requests arrive at the socket's knobs' rates, each taking
 * l3_dram_latency_cycles core clocks; a latency counter adds those clocks
 * divided by the event's scale-down (10 on Zen 4/5, 16 on Zen 2/3). A
 * control setting a bit outside its family's layout fails, and one that
 * lacks any bit of the layout that makes every core, thread and slice
 * count (Zen 3 on: EnAllCores, EnAllSlices, ThreadMask 3; Zen 2:
 * SliceMask 0xf, ThreadMask 0xff) sees only one in MDSIM_L3_PART of the
 * events, as a real one sees only some cores' or slices' share, so that a
 * missing bit shows. (perf's JSON says Zen 2/3's two events ignore the
 * masks; the sim checks them anyway, so that memdiag's layout is what the
 * kernel's amd/uncore.c writes.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/topology.h>

#include "sim.h"

#define L3_EN		BIT_ULL(22)
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

/* The uarch's event a control counts, or NULL. */
static const struct mdsim_l3_event *ctl_event(u64 ctl)
{
	const struct mdsim_uarch *ua = mdsim.ua;
	unsigned int i;

	if (!(ctl & L3_EN))
		return NULL;
	for (i = 0; i < ua->n_l3_events; i++)
		if (ua->l3_events[i].event == (ctl & 0xff) &&
		    ua->l3_events[i].umask == ((ctl >> 8) & 0xff))
			return &ua->l3_events[i];
	return NULL;
}

static void ccx_advance(struct mdsim_ccx *x, u64 now)
{
	u64 v[MDSIM_L3_KINDS];
	unsigned int i, k;

	for (k = 0; k < MDSIM_L3_KINDS; k++)
		v[k] = mdsim_clock_at(&x->clk[k], now);
	for (i = 0; i < MDSIM_L3_CTRS; i++) {
		const struct mdsim_l3_event *e = ctl_event(x->ctl[i]);
		unsigned long kinds = e ? e->kinds : 0;
		u64 all = mdsim.ua->l3_all, d = 0, div;

		if (!e)
			continue;
		div = e->div * ((x->ctl[i] & all) == all ? 1 : MDSIM_L3_PART);
		for_each_set_bit(k, &kinds, MDSIM_L3_KINDS)
			d += div_u64(v[k], div) - div_u64(x->last[k], div);
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
	if (*val & ~(idx % 2 ? MDSIM_CTR_MASK : mdsim.ua->l3_bits | L3_EN))
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
		/* requests and core clocks per ns */
		mdsim_clock_set(&x->clk[MDSIM_L3_REQ_NEAR], now, near,
				NSEC_PER_SEC);
		mdsim_clock_set(&x->clk[MDSIM_L3_REQ_FAR], now, far,
				NSEC_PER_SEC);
		mdsim_clock_set(&x->clk[MDSIM_L3_LAT_NEAR], now, near * lat,
				NSEC_PER_SEC);
		mdsim_clock_set(&x->clk[MDSIM_L3_LAT_FAR], now, far * lat,
				NSEC_PER_SEC);
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
