// SPDX-License-Identifier: GPL-2.0
/*
 * caps.c - decide, once at load time, which capabilities this machine
 * offers and write down why the others are missing.
 *
 * Every probe only reads: PCI devices and their config space, CPUID, and
 * MSR reads that are allowed to fault. The reasons end up verbatim in
 * get-info, so they say what was looked for and what a user can do.
 */
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <asm/msr-index.h>

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

/**
 * memdiag_caps_probe() - fill @st->caps and the core mode
 * @st: state with platform, identity and uarch already set
 */
void memdiag_caps_probe(struct memdiag_state *st)
{
	struct memdiag_cap *caps = st->caps;
	char why[MEMDIAG_REASON_LEN];
	unsigned int i;

	st->core_mode = MEMDIAG_CORE_MODE_NONE;
	/* prefetchers are described apart from the counters, per family */
	memdiag_prefetch_probe(st, &caps[MEMDIAG_CAPABILITY_PREFETCH_CONTROL]);
	if (!st->uarch) {
		for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++) {
			if (i == MEMDIAG_CAPABILITY_PREFETCH_CONTROL)
				continue;
			cap_set(&caps[i], false,
				"unsupported processor: %s family 0x%x model 0x%x (see uarch-reason)",
				st->ident.vendor, st->ident.family, st->ident.model);
		}
		snprintf(st->core_mode_reason, sizeof(st->core_mode_reason),
			 "unsupported processor");
		return;
	}

	if (memdiag_imc_discover(st, why, sizeof(why)))
		cap_set(&caps[MEMDIAG_CAPABILITY_IMC_BANDWIDTH], false, "%s", why);
	else
		cap_set(&caps[MEMDIAG_CAPABILITY_IMC_BANDWIDTH], true, "%s", "");

	if (memdiag_core_init(st, why, sizeof(why))) {
		cap_set(&caps[MEMDIAG_CAPABILITY_CORE_LATENCY], false, "%s", why);
		cap_set(&caps[MEMDIAG_CAPABILITY_OFFCORE], false, "%s", why);
		snprintf(st->core_mode_reason, sizeof(st->core_mode_reason),
			 "%s", why);
	} else {
		cap_set(&caps[MEMDIAG_CAPABILITY_CORE_LATENCY], true, "%s", "");
		if (st->uarch->core[MEMDIAG_EV_OFFCORE].perf)
			cap_set(&caps[MEMDIAG_CAPABILITY_OFFCORE], true, "%s", "");
		else
			cap_set(&caps[MEMDIAG_CAPABILITY_OFFCORE], false,
				"%s has no offcore event in memdiag's table",
				st->uarch->name);
		memdiag_core_choose_mode(st);
	}
}
