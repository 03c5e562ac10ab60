// SPDX-License-Identifier: GPL-2.0
/*
 * core_count.c - what the core PMU counters of every CPU count: the
 * socket's knobs as per-event clocks that never drift (see struct
 * mdsim_clock), added lazily to every counter whose controls select the
 * event, before any access to the CPU's PMU (core.c).
 *
 * AMD's Large Increment per Cycle events (Zen 3's ls_alloc_mab_count)
 * count exactly only on an even counter whose odd neighbour holds the
 * merge event (AMD_MERGE_EVENT_ENABLE, as amd/core.c writes it); alone,
 * they count a quarter of the events, rounded down each cycle.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <linux/ktime.h>
#include <asm/perf_event.h>

#include "sim.h"

#define EVTSEL_OTHER_EVENT	(ARCH_PERFMON_EVENTSEL_EDGE |	\
				 ARCH_PERFMON_EVENTSEL_INV |	\
				 ARCH_PERFMON_EVENTSEL_CMASK)
#define EVTSEL_RING		(ARCH_PERFMON_EVENTSEL_USR |	\
				 ARCH_PERFMON_EVENTSEL_OS)
#define FIXED_CTRL_RING		0x3ULL			/* OS | USR */
/* amd/core.c's AMD_MERGE_EVENT: event bits 11:0 all ones */
#define AMD_MERGE_EVENT		(0xfULL << 32 | 0xffULL)

/* What fixed counter j counts */
static const u8 fixed_kind[MDSIM_FIXED] = {
	MDSIM_K_INSTR, MDSIM_K_CYCLES, MDSIM_K_REF
};

/* Is AMD's merge event on the counter above @i, merging the pair? */
static bool merged(const struct mdsim_cpu *c, unsigned int i)
{
	u64 want = AMD_MERGE_EVENT | ARCH_PERFMON_EVENTSEL_ENABLE;

	return mdsim.ua->amd && i % 2 == 0 && i + 1 < mdsim.ua->n_gp &&
	       (c->evtsel[i + 1] & (AMD64_EVENTSEL_EVENT |
				    ARCH_PERFMON_EVENTSEL_ENABLE)) == want;
}

/* The event general counter @i counts now, or NULL. */
static const struct mdsim_core_event *gp_event(const struct mdsim_cpu *c,
					       unsigned int i)
{
	const struct mdsim_uarch *ua = mdsim.ua;
	u64 sel = c->evtsel[i];
	u64 evmask = ua->amd ? AMD64_EVENTSEL_EVENT : ARCH_PERFMON_EVENTSEL_EVENT;
	unsigned int e;

	/* before PerfMonV2 an AMD counter has no global enable */
	if (!(ua->legacy_core || (c->global_ctrl & BIT_ULL(i))) ||
	    !(sel & ARCH_PERFMON_EVENTSEL_ENABLE) || !(sel & EVTSEL_RING) ||
	    (sel & EVTSEL_OTHER_EVENT))
		return NULL;
	for (e = 0; e < ua->n_core_events; e++) {
		const struct mdsim_core_event *ev = &ua->core_events[e];

		if ((sel & evmask) != ev->event ||
		    ((sel & ARCH_PERFMON_EVENTSEL_UMASK) >> 8) != ev->umask)
			continue;
		/* an offcore event counts only the response it is set up for */
		if (ev->rsp >= 0 && c->rsp[ev->rsp] != ua->rsp_local_dram)
			return NULL;
		return ev;
	}
	return NULL;
}

static u8 fixed_kinds(const struct mdsim_cpu *c, unsigned int j)
{
	if (!(c->global_ctrl & BIT_ULL(MDSIM_FIXED_STATUS + j)) ||
	    !((c->fixed_ctrl >> (4 * j)) & FIXED_CTRL_RING))
		return 0;
	return BIT(fixed_kind[j]);
}

/* Add @d to a counter; a carry out of bit 47 sets its overflow bit. */
static void ctr_add(struct mdsim_cpu *c, u64 *ctr, u64 d, u64 status)
{
	if (!d)
		return;
	if (d > MDSIM_CTR_MASK - *ctr)
		c->status |= status;
	*ctr = (*ctr + d) & MDSIM_CTR_MASK;
}

static u64 kinds_sum(u8 kinds, const u64 *d)
{
	u64 sum = 0;
	unsigned int k;

	for (k = 0; k < MDSIM_CORE_NR; k++)
		if (kinds & BIT(k))
			sum += d[k];
	return sum;
}

/*
 * What general counter @i adds for @d[kind] events: a Large Increment per
 * Cycle event not merged with the counter above adds its events / 4,
 * rounded down each cycle (the sim's occupancy is steady over @d), as
 * amdzen3's ls_alloc_mab_count says.
 */
static u64 gp_delta(const struct mdsim_cpu *c, unsigned int i, const u64 *d)
{
	const struct mdsim_core_event *ev = gp_event(c, i);
	u64 sum, cyc = d[MDSIM_K_CYCLES];

	if (!ev)
		return 0;
	sum = kinds_sum(ev->kinds, d);
	if (!ev->large || merged(c, i))
		return sum;
	return cyc ? div64_u64(sum, 4 * cyc) * cyc : 0;
}

/* Add @d[kind] events to every counter that counts them. */
static void core_add(struct mdsim_cpu *c, const u64 *d)
{
	unsigned int i;

	for (i = 0; i < mdsim.ua->n_gp; i++)
		ctr_add(c, &c->pmc[i], gp_delta(c, i, d), BIT_ULL(i));
	for (i = 0; i < MDSIM_FIXED; i++)
		ctr_add(c, &c->fixed[i], kinds_sum(fixed_kinds(c, i), d),
			BIT_ULL(MDSIM_FIXED_STATUS + i));
}

/* Bring @cpu's counters up to @now (before any access to its PMU). */
void mdsim_core_advance(unsigned int cpu, u64 now)
{
	struct mdsim_cpu *c = &mdsim.cpus[cpu];
	u64 d[MDSIM_CORE_NR], v;
	unsigned int k;

	lockdep_assert_held(&mdsim.ctr_lock);
	if (!c->running)
		return;
	for (k = 0; k < MDSIM_CORE_NR; k++) {
		v = mdsim_clock_at(&c->clk[k], now);
		d[k] = v - c->last[k];
		c->last[k] = v;
	}
	core_add(c, d);
}

/**
 * mdsim_core_rates() - events per second each CPU of a socket counts
 * @knob: the socket's knobs
 * @rate: filled in, indexed by enum mdsim_core_kind
 *
 * Return: 0, or -EOVERFLOW if a rate does not fit 64 bits.
 */
int mdsim_core_rates(const u64 *knob, u64 *rate)
{
	u64 loads;

	if (check_add_overflow(knob[MDSIM_KNOB_L1_MISS],
			       knob[MDSIM_KNOB_LFB_HIT], &loads) ||
	    check_mul_overflow(knob[MDSIM_KNOB_LATENCY], loads,
			       &rate[MDSIM_K_PEND]) ||
	    check_mul_overflow(knob[MDSIM_KNOB_OFFCORE], 1000000ULL / 64,
			       &rate[MDSIM_K_OFFCORE]))
		return -EOVERFLOW;
	rate[MDSIM_K_L1_MISS] = knob[MDSIM_KNOB_L1_MISS];
	rate[MDSIM_K_LFB_HIT] = knob[MDSIM_KNOB_LFB_HIT];
	rate[MDSIM_K_INSTR] = 1000000000ULL;
	rate[MDSIM_K_CYCLES] = 2000000000ULL;
	rate[MDSIM_K_REF] = 2000000000ULL;
	return 0;
}

static struct mdsim_socket *cpu_socket(unsigned int cpu)
{
	unsigned int s = topology_logical_package_id(cpu);

	return s < mdsim.n_sockets ? &mdsim.sockets[s] : NULL;
}

/* Restart @cpu's clocks at @now with its socket's rates (after an advance). */
static void core_set_rates(unsigned int cpu, u64 now)
{
	struct mdsim_cpu *c = &mdsim.cpus[cpu];
	struct mdsim_socket *sock = cpu_socket(cpu);
	u64 rate[MDSIM_CORE_NR] = {};
	unsigned int k;

	if (!sock || mdsim_core_rates(sock->knob, rate))
		memset(rate, 0, sizeof(rate));
	/* a CPU told its own DRAM-fill rate (debugfs cpuN/offcore_read_mbps) */
	if (c->offcore_mbps)
		rate[MDSIM_K_OFFCORE] = c->offcore_mbps * (1000000ULL / 64);
	for (k = 0; k < MDSIM_CORE_NR; k++) {
		c->clk[k].num = rate[k];
		c->clk[k].den = NSEC_PER_SEC;
		c->clk[k].epoch = now;
		c->clk[k].base = c->last[k];
	}
}

void mdsim_core_online(unsigned int cpu)
{
	unsigned long flags;

	mutex_lock(&mdsim.lock);
	raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
	mdsim.cpus[cpu].running = true;
	core_set_rates(cpu, ktime_get_ns());
	raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
	mutex_unlock(&mdsim.lock);
}

void mdsim_core_offline(unsigned int cpu)
{
	unsigned long flags;

	mutex_lock(&mdsim.lock);
	raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
	mdsim_core_advance(cpu, ktime_get_ns());
	mdsim.cpus[cpu].running = false;
	raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
	mutex_unlock(&mdsim.lock);
}

static bool in_socket(unsigned int cpu, unsigned int socket)
{
	return mdsim.cpus[cpu].running &&
	       topology_logical_package_id(cpu) == socket;
}

/* Bring a socket's CPUs up to date at the old rates, then use the new. */
void mdsim_core_knob_changed(unsigned int socket)
{
	u64 now = ktime_get_ns();
	unsigned long flags;
	unsigned int cpu;

	lockdep_assert_held(&mdsim.lock);
	raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
	for_each_possible_cpu(cpu) {
		if (!in_socket(cpu, socket))
			continue;
		mdsim_core_advance(cpu, now);
		core_set_rates(cpu, now);
	}
	raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
}

/**
 * mdsim_core_set_cpu_offcore() - tell one CPU its own DRAM-fill rate
 * @cpu: the CPU
 * @mbps: MB/s its offcore read event counts (64 B per event); 0: its
 *	socket's offcore_read_mbps again
 */
void mdsim_core_set_cpu_offcore(unsigned int cpu, u64 mbps)
{
	u64 now = ktime_get_ns();
	unsigned long flags;

	lockdep_assert_held(&mdsim.lock);
	raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
	mdsim_core_advance(cpu, now);
	mdsim.cpus[cpu].offcore_mbps = mbps;
	if (mdsim.cpus[cpu].running)
		core_set_rates(cpu, now);
	raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
}

/**
 * mdsim_core_inject() - add @count events at once to a socket's counters
 * @socket: the socket
 * @kind: what happened
 * @count: how many times, spread over the socket's online CPUs, the
 *	remainder going to the lowest-numbered ones
 *
 * Return: 0, or -ENODEV if the socket has no online CPU.
 */
int mdsim_core_inject(unsigned int socket, enum mdsim_core_kind kind,
		      u64 count)
{
	u64 now = ktime_get_ns(), share, rem, d[MDSIM_CORE_NR] = {};
	unsigned int cpu, n = 0, i = 0;
	unsigned long flags;

	lockdep_assert_held(&mdsim.lock);
	for_each_possible_cpu(cpu)
		n += in_socket(cpu, socket);
	if (!n)
		return -ENODEV;
	share = div64_u64_rem(count, n, &rem);
	for_each_possible_cpu(cpu) {
		if (!in_socket(cpu, socket))
			continue;
		raw_spin_lock_irqsave(&mdsim.ctr_lock, flags);
		mdsim_core_advance(cpu, now);
		d[kind] = share + (i++ < rem);
		core_add(&mdsim.cpus[cpu], d);
		raw_spin_unlock_irqrestore(&mdsim.ctr_lock, flags);
	}
	return 0;
}
