// SPDX-License-Identifier: GPL-2.0
/*
 * l3.c - the L3 miss latency AMD's L3 PMU measures: the uarch row's
 * events (Zen 4/5: l3_xi_sampled_latency and its requests, DRAM near and
 * far; Zen 2/3: xi_sys_fill_latency over xi_ccx_sdp_req1, every L3 miss)
 * in free counters of every CCX's L3 PMU, summed into the CCX's socket.
 *
 * The L3 PMU is one register set per CCX, shared by the CCX's cores:
 * amd/uncore.c groups CPUs by their LLC id and programs it from one of
 * them. memdiag does the same through any online CPU of the CCX. CCXs are
 * found among the CPUs online at load; one that has no CPU online then is
 * not counted.
 *
 * Only controls are written (counters are read against a baseline), only
 * between memdiag_l3_start() and memdiag_l3_stop(), both under
 * memdiag_lock, and stop() puts back every control start() found. Like
 * the UMC, the L3 PMU has no ownership API: perf's amd_l3 PMU may take a
 * counter at any time, so each sample reads the controls back; a control
 * someone else enabled is left alone and the CCX no longer counted.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include "memdiag.h"

/* No CCX counts 10^11 a second: a bigger step is a reset. */
#define L3_MAX_PER_SEC	100000000000ULL

struct l3_dom {
	int llc;
	unsigned int socket;
	bool programmed;
	bool lost;		/* another agent took a control over */
	bool restore_failed;	/* saved[] not all put back yet */
	u8 ctr[MEMDIAG_L3_MAX_EVENTS];	/* counter of each event */
	u64 saved[MEMDIAG_L3_MAX_EVENTS], prog[MEMDIAG_L3_MAX_EVENTS];
	struct memdiag_ext64 ext[MEMDIAG_L3_MAX_EVENTS];
};

static const struct memdiag_l3_pmu *l3;
static struct l3_dom *doms;
static unsigned int n_doms;
static bool running;
static u32 l3_epoch[MEMDIAG_MAX_SOCKETS];

static u32 ctl_msr(unsigned int i)
{
	return l3->ctl0 + i * l3->stride;
}

static u32 ctr_msr(unsigned int i)
{
	return l3->ctr0 + i * l3->stride;
}

static bool in_dom(const struct l3_dom *d, unsigned int cpu)
{
	return memdiag.plat->llc_id(cpu) == d->llc &&
	       memdiag_socket_of(cpu) == d->socket;
}

/* An online CPU of @d other than @except; nr_cpu_ids if none. */
static unsigned int dom_cpu(const struct l3_dom *d, unsigned int except)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != except && in_dom(d, cpu))
			return cpu;
	return nr_cpu_ids;
}

static struct l3_dom *dom_of(unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < n_doms; i++)
		if (in_dom(&doms[i], cpu))
			return &doms[i];
	return NULL;
}

/* Run @ops on a CPU of @d; -EIO if any access faulted. */
static int dom_batch(const struct l3_dom *d, struct memdiag_msr_op *ops,
		     unsigned int n)
{
	unsigned int cpu = dom_cpu(d, nr_cpu_ids), i;
	int err;

	if (cpu >= nr_cpu_ids)
		return -ENXIO;
	err = memdiag.plat->msr_batch(cpu, ops, n);
	for (i = 0; !err && i < n; i++)
		err = ops[i].err;
	return err;
}

/**
 * memdiag_l3_init() - find the CCXs and check their L3 PMU can be read
 * @st: the module state, uarch matched
 * @reason: why the capability is unavailable, when the return is negative
 * @len: size of @reason
 */
int memdiag_l3_init(struct memdiag_state *st, char *reason, size_t len)
{
	struct memdiag_msr_op op;
	unsigned int cpu;
	int err = 0;

	if (!st->uarch->l3) {
		snprintf(reason, len, "%s", st->uarch->l3_reason ?:
			 "no L3 PMU with a miss latency in memdiag's table for this processor (AMD Zen 2 to Zen 5 have one)");
		return -ENODEV;
	}
	if (!st->ident.perfctr_llc) {
		snprintf(reason, len,
			 "CPUID 0x80000001 ECX bit 28 (PerfCtrExtLLC) is clear: the L3 PMU counters are not there (a VM that does not pass them through?)");
		return -ENODEV;
	}
	doms = memdiag_kcalloc(nr_cpu_ids, sizeof(*doms));
	if (!doms) {
		snprintf(reason, len, "out of memory");
		return -ENOMEM;
	}
	l3 = st->uarch->l3;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (dom_of(cpu))
			continue;
		doms[n_doms].llc = st->plat->llc_id(cpu);
		doms[n_doms++].socket = memdiag_socket_of(cpu);
	}
	/* a read that faults: the MSRs are absent (a hypervisor's #GP) */
	op = (struct memdiag_msr_op){ ctl_msr(0) };
	if (n_doms)
		err = dom_batch(&doms[0], &op, 1);
	cpus_read_unlock();
	if (!n_doms || err) {
		snprintf(reason, len,
			 "reading the L3 PMU control MSR 0x%x failed (%d): no L3 PMU here",
			 ctl_msr(0), err);
		memdiag_l3_exit();
		return err ?: -ENODEV;
	}
	return 0;
}

/* Put back the controls of @d that still hold memdiag's values. */
static int dom_restore(struct l3_dom *d, unsigned int cpu)
{
	struct memdiag_msr_back back[MEMDIAG_L3_MAX_EVENTS];
	unsigned int k;
	int err = -ENXIO;

	for (k = 0; k < l3->n_events; k++)
		back[k] = (struct memdiag_msr_back){ ctl_msr(d->ctr[k]),
						     d->prog[k], d->saved[k] };
	if (cpu < nr_cpu_ids)
		err = memdiag_msr_put_back(cpu, back, l3->n_events);
	if (err && !d->restore_failed)
		pr_err("memdiag: putting back the L3 PMU controls of CCX %d (socket %u) failed (%d): kept, retried at the next session start, when a CPU of it comes online and at unload\n",
		       d->llc, d->socket, err);
	else if (!err && d->restore_failed)
		pr_info("memdiag: the L3 PMU controls of CCX %d are put back (retried)\n",
			d->llc);
	d->restore_failed = err != 0;
	d->programmed = false;
	return err;
}

/* Pick a free counter of @d for every event; false if it has fewer. */
static bool dom_pick(struct l3_dom *d, char *msg, size_t len)
{
	struct memdiag_msr_op op[8];
	unsigned int i, n = 0, busy = 0;
	int err;

	if (WARN_ON_ONCE(l3->n_ctrs > ARRAY_SIZE(op)))
		return false;
	for (i = 0; i < l3->n_ctrs; i++)
		op[i] = (struct memdiag_msr_op){ ctl_msr(i) };
	err = dom_batch(d, op, l3->n_ctrs);
	if (err) {
		snprintf(msg, len, "reading the L3 PMU controls of CCX %d (socket %u) failed (%d)",
			 d->llc, d->socket, err);
		return false;
	}
	for (i = 0; i < l3->n_ctrs; i++) {
		if (op[i].val & l3->ctl_en) {
			busy = i;
			continue;
		}
		if (n < l3->n_events) {
			d->ctr[n] = i;
			d->saved[n++] = op[i].val;
		}
	}
	if (n < l3->n_events) {
		snprintf(msg, len,
			 "the L3 PMU of CCX %d (socket %u) has %u free counters of %u, %u needed (MSR 0x%x holds 0x%llx): perf's amd_l3 PMU or another tool is using them; stop it and retry",
			 d->llc, d->socket, n, l3->n_ctrs, l3->n_events,
			 ctl_msr(busy), op[busy].val);
		return false;
	}
	return true;
}

/* Write, check and baseline @d's counters; false if a write did not stick. */
static bool dom_program(struct l3_dom *d)
{
	struct memdiag_msr_op op[3 * MEMDIAG_L3_MAX_EVENTS];
	unsigned int k, n = l3->n_events;

	for (k = 0; k < n; k++) {
		const struct memdiag_l3_event *e = &l3->events[k];

		d->prog[k] = e->event | (u64)e->umask << 8 | l3->ctl_extra |
			     l3->ctl_en;
		op[k] = (struct memdiag_msr_op){ ctl_msr(d->ctr[k]), true,
						 d->prog[k] };
		op[n + k] = (struct memdiag_msr_op){ ctl_msr(d->ctr[k]) };
		op[2 * n + k] = (struct memdiag_msr_op){ ctr_msr(d->ctr[k]) };
	}
	d->programmed = true;
	d->lost = false;
	if (dom_batch(d, op, 3 * n))
		return false;
	for (k = 0; k < n; k++) {
		if (op[n + k].val != d->prog[k])
			return false;
		memdiag_ext64_start(&d->ext[k], op[2 * n + k].val, l3->ctr_bits);
	}
	return true;
}

/* Program one CCX: its failed restore first, then free counters. */
static int dom_start(struct l3_dom *d, char *msg, size_t len)
{
	if (d->restore_failed &&
	    dom_restore(d, dom_cpu(d, nr_cpu_ids))) {
		snprintf(msg, len,
			 "the L3 PMU controls of CCX %d (socket %u) from an earlier session could not be put back: see the kernel log",
			 d->llc, d->socket);
		return -EIO;
	}
	if (!dom_pick(d, msg, len))
		return -EBUSY;
	if (!dom_program(d)) {
		snprintf(msg, len,
			 "the L3 PMU control writes on CCX %d (socket %u) did not stick",
			 d->llc, d->socket);
		dom_restore(d, dom_cpu(d, nr_cpu_ids));
		return -EIO;
	}
	return 0;
}

/**
 * memdiag_l3_start() - program the events on every CCX's L3 PMU
 * @msg: why not, when the return value is negative
 * @len: size of @msg
 *
 * Either every CCX is programmed or none is.
 */
int memdiag_l3_start(char *msg, size_t len)
{
	unsigned int i;
	int err;

	lockdep_assert_held(&memdiag_lock);
	for (i = 0; i < n_doms; i++) {
		err = dom_start(&doms[i], msg, len);
		if (err) {
			while (i--)
				dom_restore(&doms[i], dom_cpu(&doms[i], nr_cpu_ids));
			return err;
		}
	}
	running = true;
	return 0;
}

void memdiag_l3_stop(void)
{
	unsigned int i;

	lockdep_assert_held(&memdiag_lock);
	/* a CCX another agent took over keeps that agent's values */
	for (i = 0; i < n_doms; i++) {
		struct l3_dom *d = &doms[i];

		if (d->programmed && !d->lost)
			dom_restore(d, dom_cpu(d, nr_cpu_ids));
		d->programmed = false;
	}
	running = false;
}

/* Read @d's controls and counters; false if the interval is not to be trusted. */
static bool dom_update(struct l3_dom *d, u64 max)
{
	struct memdiag_msr_op op[2 * MEMDIAG_L3_MAX_EVENTS];
	unsigned int k, n = l3->n_events;
	bool ok = true;

	for (k = 0; k < n; k++) {
		op[k] = (struct memdiag_msr_op){ ctl_msr(d->ctr[k]) };
		op[n + k] = (struct memdiag_msr_op){ ctr_msr(d->ctr[k]) };
	}
	if (dom_batch(d, op, 2 * n))
		return false;
	for (k = 0; k < n; k++) {
		if (op[k].val == d->prog[k])
			continue;
		if (op[k].val & l3->ctl_en) {
			/* someone else's now: never clobber it */
			pr_warn_ratelimited("memdiag: the L3 PMU of CCX %d (socket %u) was reprogrammed by another agent (MSR 0x%x: 0x%llx); no longer counting it\n",
					    d->llc, d->socket, ctl_msr(d->ctr[k]),
					    op[k].val);
			d->lost = true;
			return false;
		}
		/* cleared under us: ours again, from a new baseline */
		if (!dom_program(d))
			d->lost = true;
		return false;
	}
	for (k = 0; k < n; k++)
		ok &= memdiag_ext64_update(&d->ext[k], op[n + k].val,
					   l3->ctr_bits, max);
	return ok;
}

/**
 * memdiag_l3_sample() - add every CCX's counts into its socket's snapshot
 * @snap: one per socket, indexed by socket
 * @n: number of entries in @snap
 * @dt_ns: time since the last sample, bounding a plausible step
 */
void memdiag_l3_sample(struct memdiag_snap *snap, unsigned int n, u64 dt_ns)
{
	u64 max = div_u64(L3_MAX_PER_SEC, 1000) * div_u64(dt_ns, 1000000) +
		  (1ULL << 24);
	unsigned int i, k;

	for (i = 0; i < n_doms; i++) {
		struct l3_dom *d = &doms[i];
		struct memdiag_snap *s;

		if (d->socket >= n)
			continue;
		s = &snap[d->socket];
		if (d->programmed && !d->lost && !dom_update(d, max) &&
		    d->socket < MEMDIAG_MAX_SOCKETS)
			l3_epoch[d->socket]++;
		s->has_l3 = true;
		for (k = 0; k < l3->n_events; k++) {
			const struct memdiag_l3_event *e = &l3->events[k];
			u64 v = d->ext[k].total * e->scale;

			if (e->meaning == MEMDIAG_L3_LATENCY)
				s->l3_lat_cycles += v;
			else
				s->l3_requests += v;
		}
	}
	for (i = 0; i < n && i < MEMDIAG_MAX_SOCKETS; i++)
		snap[i].l3_epoch = l3_epoch[i];
}

/* Hotplug: the first CPU of a CCX back online counts it again. */
int memdiag_l3_cpu_online(unsigned int cpu)
{
	char msg[MEMDIAG_REASON_LEN];
	struct l3_dom *d;

	if (!doms)
		return 0;
	mutex_lock(&memdiag_lock);
	d = dom_of(cpu);
	if (!d) {
		/* not online at load: its CCX is not counted (see the top) */
	} else if (running && !d->programmed && !d->lost) {
		if (dom_start(d, msg, sizeof(msg)))
			pr_warn("memdiag: not counting the L3 PMU of CCX %d: %s\n",
				d->llc, msg);
	} else if (!running && d->restore_failed) {
		dom_restore(d, cpu);
	}
	mutex_unlock(&memdiag_lock);
	return 0;
}

/*
 * Hotplug: the last CPU of a CCX going offline hands in its counts and
 * puts its controls back while they can still be reached.
 */
int memdiag_l3_cpu_offline(unsigned int cpu)
{
	struct l3_dom *d;

	if (!doms)
		return 0;
	mutex_lock(&memdiag_lock);
	d = dom_of(cpu);
	if (d && d->programmed && dom_cpu(d, cpu) >= nr_cpu_ids) {
		if (!d->lost && !dom_update(d, U64_MAX) &&
		    d->socket < MEMDIAG_MAX_SOCKETS)
			l3_epoch[d->socket]++;
		if (!d->lost)
			dom_restore(d, cpu);
		d->programmed = false;
	}
	mutex_unlock(&memdiag_lock);
	return 0;
}

/*
 * Unload: a last try at the restores that failed; what still fails is
 * named in the kernel log with the values to put back by hand.
 */
void memdiag_l3_exit(void)
{
	unsigned int i, k;

	cpus_read_lock();
	mutex_lock(&memdiag_lock);
	for (i = 0; i < n_doms; i++) {
		struct l3_dom *d = &doms[i];

		if (!d->restore_failed || !dom_restore(d, dom_cpu(d, nr_cpu_ids)))
			continue;
		for (k = 0; k < l3->n_events; k++)
			pr_err("memdiag: unloading with the L3 PMU control MSR 0x%x of CCX %d not put back (it was 0x%llx): a reboot clears it\n",
			       ctl_msr(d->ctr[k]), d->llc, d->saved[k]);
	}
	mutex_unlock(&memdiag_lock);
	cpus_read_unlock();
	kfree(doms);
	doms = NULL;
	n_doms = 0;
}
