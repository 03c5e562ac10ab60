// SPDX-License-Identifier: GPL-2.0
/*
 * core_perf.c - the same core events as core.c, counted through in-kernel
 * perf events instead of the PMU MSRs, so that memdiag coexists with the
 * NMI watchdog and other perf users: perf schedules the counters and
 * memdiag writes no register. Used with core=perf, and by core=auto when
 * perf already holds the PMU.
 *
 * One pinned, CPU-bound event per counter and online CPU, created when the
 * counting starts and released when it stops. perf keeps 64-bit counts,
 * so no extension is needed; an interval in which perf could not keep an
 * event on its counter (running < enabled) is reported invalid. CPUs that
 * come online during a session are not counted until the next one.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/err.h>
#include <linux/cpumask.h>
#include <linux/perf_event.h>

#include "memdiag.h"

struct perf_cpu {
	struct perf_event *ev[MEMDIAG_CORE_NR];
	u64 lost[MEMDIAG_CORE_NR];	/* enabled - running, last read */
};

static struct perf_cpu *pcpu;
static const struct memdiag_core_event *events, *fix_events;
static u32 perf_epoch[MEMDIAG_MAX_SOCKETS];

/* The raw event of counter @e: a table row, or NULL for a generic one. */
static const struct memdiag_core_event *raw_event(int e)
{
	if (e < MEMDIAG_EV_NR)
		return &events[e];
	return fix_events ? &fix_events[e - MEMDIAG_EV_NR] : NULL;
}

/*
 * Whether counter @e is counted: AMD has no reference-cycles event, and
 * perf pairs only the events amd_is_pair_event_code() names, so a merged
 * event (Zen 3's ls_alloc_mab_count) would count a quarter, rounded down
 * each cycle: left out, and with it the L1 miss latency.
 */
static bool counted(int e)
{
	const struct memdiag_core_event *d = raw_event(e);

	return d ? d->perf && !d->merge : e >= MEMDIAG_EV_NR;
}

/* The perf attributes of counter @e: raw event, or a generic fixed one. */
static void perf_attr(int e, struct perf_event_attr *attr)
{
	static const u64 fixed[] = {
		PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
		PERF_COUNT_HW_REF_CPU_CYCLES,
	};
	const struct memdiag_core_event *d = raw_event(e);

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->pinned = 1;
	if (!d) {
		attr->type = PERF_TYPE_HARDWARE;
		attr->config = fixed[e - MEMDIAG_EV_NR];
		return;
	}
	attr->type = PERF_TYPE_RAW;
	attr->config = d->event | (u64)d->umask << 8;
	attr->config1 = d->offcore_rsp;
}

void memdiag_core_perf_stop(void)
{
	unsigned int cpu;
	int e;

	if (!pcpu)
		return;
	for_each_possible_cpu(cpu)
		for (e = 0; e < MEMDIAG_CORE_NR; e++)
			if (pcpu[cpu].ev[e])
				perf_event_release_kernel(pcpu[cpu].ev[e]);
	kfree(pcpu);
	pcpu = NULL;
}

/**
 * memdiag_core_perf_start() - create the events on every online CPU
 * @core: the uarch's core events
 * @fix: its events for instructions, cycles and reference cycles where
 *	the PMU has no fixed counters, or NULL
 * @msg: why not, when the return value is negative
 * @len: size of @msg
 */
int memdiag_core_perf_start(const struct memdiag_core_event *core,
			    const struct memdiag_core_event *fix,
			    char *msg, size_t len)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int cpu;
	int e;

	events = core;
	fix_events = fix;
	pcpu = kcalloc(nr_cpu_ids, sizeof(*pcpu), GFP_KERNEL);
	if (!pcpu)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		for (e = 0; e < MEMDIAG_CORE_NR; e++) {
			if (!counted(e))
				continue;
			perf_attr(e, &attr);
			ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
							      NULL, NULL);
			if (IS_ERR(ev)) {
				long err = PTR_ERR(ev);

				snprintf(msg, len,
					 "perf could not count core event 0x%llx on CPU %u (error %ld)%s",
					 attr.config, cpu, err,
					 err == -ENOENT || err == -EOPNOTSUPP ?
					 ": the kernel has no core PMU" : "");
				memdiag_core_perf_stop();
				/* no core PMU: nothing to measure, not a failure */
				return err == -ENOENT ? -EOPNOTSUPP : err;
			}
			pcpu[cpu].ev[e] = ev;
		}
	}
	return 0;
}

/* Sum every CPU's perf counts into its socket's snapshot. */
void memdiag_core_perf_sample(struct memdiag_snap *snap, unsigned int n)
{
	unsigned int cpu, s;
	u64 enabled, running;
	int e;

	if (!pcpu)
		return;
	for (s = 0; s < n && s < MEMDIAG_MAX_SOCKETS; s++) {
		snap[s].has_core = true;
		snap[s].core_epoch = perf_epoch[s];
		for (e = 0; e < MEMDIAG_CORE_NR; e++)
			snap[s].has[e] = counted(e);
	}
	for_each_possible_cpu(cpu) {
		bool counted = false;

		s = memdiag_socket_of(cpu);
		if (s >= n || s >= MEMDIAG_MAX_SOCKETS)
			continue;
		for (e = 0; e < MEMDIAG_CORE_NR; e++) {
			if (!pcpu[cpu].ev[e])
				continue;
			snap[s].ctr[e] += perf_event_read_value(pcpu[cpu].ev[e],
								&enabled, &running);
			/* perf could not keep it counting for a while: not trusted */
			if (enabled - running != pcpu[cpu].lost[e]) {
				pcpu[cpu].lost[e] = enabled - running;
				snap[s].core_epoch = ++perf_epoch[s];
			}
			counted = true;
		}
		snap[s].nr_cpus += counted;
	}
}
