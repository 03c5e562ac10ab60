// SPDX-License-Identifier: GPL-2.0
/*
 * caps.c - decide, once at load time, which capabilities this machine
 * offers and write down why the others are missing.
 *
 * Every probe only reads: PCI device presence, CPUID, and one MSR read
 * that is allowed to fault. The reasons end up verbatim in get-info, so
 * they say what was looked for and what a user can do about it.
 */
#include <linux/kernel.h>
#include <linux/pci.h>
#include <linux/cpumask.h>
#include <asm/processor.h>
#include <asm/cpufeature.h>
#include <asm/msr-index.h>

#include "compat.h"
#include "memdiag.h"

/* PMON discovery tables: DVSEC capability whose id is 1 (uncore_discovery.h) */
#define DISCOVERY_DVSEC_CAP	0x23
#define DISCOVERY_DVSEC_ID_REG	0x8
#define DISCOVERY_DVSEC_PMON	0x1

static __printf(3, 4) void cap_set(struct memdiag_cap *cap, bool available,
		    const char *fmt, ...)
{
	va_list ap;

	cap->available = available;
	va_start(ap, fmt);
	vsnprintf(cap->reason, sizeof(cap->reason), fmt, ap);
	va_end(ap);
}

static const char *vm_hint(void)
{
	return boot_cpu_has(X86_FEATURE_HYPERVISOR) ?
	       " (this is a virtual machine; the hypervisor does not expose it)" :
	       "";
}

static bool has_discovery_table(void)
{
	struct pci_dev *dev = NULL;
	u32 id;
	int pos;

	while ((dev = pci_get_device(PCI_VENDOR_ID_INTEL, PCI_ANY_ID, dev))) {
		pos = 0;
		while ((pos = pci_find_next_ext_capability(dev, pos,
							   DISCOVERY_DVSEC_CAP))) {
			if (pci_read_config_dword(dev, pos + DISCOVERY_DVSEC_ID_REG,
						  &id))
				continue;
			if ((id & 0xffff) == DISCOVERY_DVSEC_PMON) {
				pci_dev_put(dev);
				return true;
			}
		}
	}
	return false;
}

static void probe_imc(const struct memdiag_uarch *u, struct memdiag_cap *cap)
{
	struct pci_dev *dev;

	if (u->imc_access == MEMDIAG_IMC_DISCOVERY) {
		if (!has_discovery_table()) {
			cap_set(cap, false,
				"no PMON discovery table (PCI DVSEC 0x23, id 1) found, so the %s memory controllers cannot be located%s",
				u->name, vm_hint());
			return;
		}
	} else {
		dev = pci_get_device(PCI_VENDOR_ID_INTEL, u->imc_pci_device,
				     NULL);
		if (!dev) {
			cap_set(cap, false,
				"no %s memory controller PCI device (8086:%04x) found%s",
				u->name, u->imc_pci_device, vm_hint());
			return;
		}
		pci_dev_put(dev);
	}
	cap_set(cap, false,
		"the %s memory controllers are present, but this memdiag version does not program them yet",
		u->name);
}

/* Core and offcore events both need the architectural PMU of CPUID 0xA. */
static void probe_core_pmu(const struct memdiag_uarch *u,
			   struct memdiag_cap *core, struct memdiag_cap *ocr)
{
	unsigned int eax = 0, version, gp;

	if (boot_cpu_data.cpuid_level >= 0xa)
		eax = cpuid_eax(0xa);
	version = eax & 0xff;
	gp = (eax >> 8) & 0xff;

	if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON) || version < 2) {
		cap_set(core, false,
			"CPUID leaf 0xA reports architectural perfmon version %u, memdiag needs 2 or later%s",
			version, vm_hint());
		cap_set(ocr, false, "%s", core->reason);
		return;
	}
	if (gp < u->gp_counters_min) {
		cap_set(core, false,
			"CPUID leaf 0xA reports %u general-purpose counters per CPU, the %s events need %u%s",
			gp, u->name, u->gp_counters_min, vm_hint());
		cap_set(ocr, false, "%s", core->reason);
		return;
	}
	cap_set(core, false,
		"the core PMU is present, but this memdiag version does not program it yet");
	cap_set(ocr, false, "%s", core->reason);
}

static void probe_prefetch(struct memdiag_cap *cap)
{
	unsigned int cpu = cpumask_first(cpu_online_mask);
	u64 val;

	if (rdmsrq_safe_on_cpu(cpu, MSR_MISC_FEATURE_CONTROL, &val)) {
		cap_set(cap, false,
			"reading MSR 0x%x (MISC_FEATURE_CONTROL) on CPU %u faulted%s",
			MSR_MISC_FEATURE_CONTROL, cpu, vm_hint());
		return;
	}
	cap_set(cap, false,
		"MSR 0x%x is readable, but this memdiag version does not change prefetchers yet",
		MSR_MISC_FEATURE_CONTROL);
}

/**
 * memdiag_caps_probe() - fill @st->caps for the platform and uarch in @st
 * @st: state with platform and uarch already set
 */
void memdiag_caps_probe(struct memdiag_state *st)
{
	const struct memdiag_uarch *u = st->uarch;
	struct memdiag_cap *caps = st->caps;
	unsigned int i;

	if (st->platform == MEMDIAG_PLATFORM_SIM) {
		for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++)
			cap_set(&caps[i], false,
				"the simulated platform has no register model in this memdiag version");
		return;
	}
	if (!u) {
		for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++)
			cap_set(&caps[i], false,
				"unsupported processor: %s family 0x%x model 0x%x (see uarch-reason)",
				boot_cpu_data.x86_vendor_id, boot_cpu_data.x86,
				boot_cpu_data.x86_model);
		return;
	}

	probe_imc(u, &caps[MEMDIAG_CAPABILITY_IMC_BANDWIDTH]);
	probe_core_pmu(u, &caps[MEMDIAG_CAPABILITY_CORE_LATENCY],
		       &caps[MEMDIAG_CAPABILITY_OFFCORE]);
	probe_prefetch(&caps[MEMDIAG_CAPABILITY_PREFETCH_CONTROL]);
}
