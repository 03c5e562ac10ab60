// SPDX-License-Identifier: GPL-2.0
/*
 * caps.c - write down, once at load time, which capabilities this machine
 * offers and why the others are missing, from what main.c's probes found.
 *
 * Every probe only reads: PCI devices and their config space, CPUID, and
 * MSR reads that are allowed to fault. The reasons end up verbatim in
 * get-info, so they say what was looked for and what a user can do.
 */
#include <linux/kernel.h>

#include "memdiag.h"

static __printf(3, 4) void cap_set(struct memdiag_cap *cap, bool available,
				   const char *fmt, ...)
{
	va_list ap;

	cap->available = available;
	va_start(ap, fmt);
	vsnprintf(cap->reason, sizeof(cap->reason), fmt, ap);
	va_end(ap);
}

/* A processor memdiag does not know: every counter capability says so. */
void memdiag_caps_unsupported(struct memdiag_state *st)
{
	unsigned int i;

	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++) {
		if (i == MEMDIAG_CAPABILITY_PREFETCH_CONTROL)
			continue;
		cap_set(&st->caps[i], false,
			"unsupported processor: %s family 0x%x model 0x%x (see uarch-reason)",
			st->ident.vendor, st->ident.family, st->ident.model);
	}
	snprintf(st->core_mode_reason, sizeof(st->core_mode_reason),
		 "unsupported processor");
}

/* imc-bandwidth from memdiag_imc_discover()'s result @err and reason. */
void memdiag_caps_imc(struct memdiag_state *st, int err, const char *why)
{
	cap_set(&st->caps[MEMDIAG_CAPABILITY_IMC_BANDWIDTH], !err, "%s",
		err ? why : "");
}

/* l3-dram-latency from memdiag_l3_init()'s result @err and reason. */
void memdiag_caps_l3(struct memdiag_state *st, int err, const char *why)
{
	cap_set(&st->caps[MEMDIAG_CAPABILITY_L3_DRAM_LATENCY], !err, "%s",
		err ? why : "");
}

/*
 * A core capability whose event the uarch row leaves out is missing on
 * that processor whatever the PMU offers: the row's reason comes first, so
 * that it is also what a VM without a PMU reports. Otherwise it is there
 * when the core counters are (@err 0), or missing for their reason @why.
 */
static void core_cap_set(struct memdiag_state *st, int cap, int ev,
			 const char *row_why, int err, const char *why)
{
	if (!st->uarch->core[ev].perf)
		cap_set(&st->caps[cap], false, "%s",
			row_why ? row_why : "no event for it in memdiag's table");
	else
		cap_set(&st->caps[cap], !err, "%s", err ? why : "");
}

/* core-latency, offcore and the core mode from memdiag_core_init()'s. */
void memdiag_caps_core(struct memdiag_state *st, int err, const char *why)
{
	/* AMD's latency is the MAB occupancy, Intel's L1D_PEND_MISS */
	core_cap_set(st, MEMDIAG_CAPABILITY_CORE_LATENCY,
		     st->uarch->core[MEMDIAG_EV_MAB_OCC].perf ?
		     MEMDIAG_EV_MAB_OCC : MEMDIAG_EV_PENDING,
		     st->uarch->latency_reason, err, why);
	core_cap_set(st, MEMDIAG_CAPABILITY_OFFCORE, MEMDIAG_EV_OFFCORE,
		     st->uarch->offcore_reason, err, why);
	if (err) {
		snprintf(st->core_mode_reason, sizeof(st->core_mode_reason),
			 "%s", why);
		return;
	}
	memdiag_core_choose_mode(st);
}

/**
 * memdiag_core_choose_mode() - msr or perf, and why, for get-info
 * @st: state whose core capability is available
 *
 * core=auto takes the MSRs when perf's reservation of the event selects
 * can be had right now (it is released again at once), perf otherwise.
 */
void memdiag_core_choose_mode(struct memdiag_state *st)
{
	char *r = st->core_mode_reason;
	size_t len = sizeof(st->core_mode_reason);

	if (st->core_pref == MEMDIAG_CORE_MODE_PERF) {
		st->core_mode = MEMDIAG_CORE_MODE_PERF;
		snprintf(r, len, "%s",
			 "core=perf: counting through in-kernel perf events, alongside the NMI watchdog and other perf users");
	} else if (st->core_pref == MEMDIAG_CORE_MODE_MSR) {
		st->core_mode = MEMDIAG_CORE_MODE_MSR;
		snprintf(r, len, "%s",
			 "core=msr: memdiag programs the PMU MSRs at session start and refuses while perf, the NMI watchdog or another tool holds them");
	} else if (memdiag_core_pmu_free()) {
		st->core_mode = MEMDIAG_CORE_MODE_MSR;
		snprintf(r, len, "%s",
			 "core=auto: the PMU is free, so memdiag programs its MSRs at session start");
	} else {
		st->core_mode = MEMDIAG_CORE_MODE_PERF;
		snprintf(r, len, "%s",
			 "core=auto: perf holds the PMU (the NMI watchdog or a perf user), so counting through in-kernel perf events");
	}
}
