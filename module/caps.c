// SPDX-License-Identifier: GPL-2.0
/*
 * caps.c - write down, once at load time, which capabilities this machine
 * offers and why the others are missing, from what main.c's probes found.
 * It only records: the core mode (msr or perf) is core.c's to choose.
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

/* core-latency and offcore from memdiag_core_init()'s result and reason. */
void memdiag_caps_core(struct memdiag_state *st, int err, const char *why)
{
	/* AMD's latency is the MAB occupancy, Intel's L1D_PEND_MISS */
	core_cap_set(st, MEMDIAG_CAPABILITY_CORE_LATENCY,
		     st->uarch->core[MEMDIAG_EV_MAB_OCC].perf ?
		     MEMDIAG_EV_MAB_OCC : MEMDIAG_EV_PENDING,
		     st->uarch->latency_reason, err, why);
	core_cap_set(st, MEMDIAG_CAPABILITY_OFFCORE, MEMDIAG_EV_OFFCORE,
		     st->uarch->offcore_reason, err, why);
}
