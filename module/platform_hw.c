// SPDX-License-Identifier: GPL-2.0
/*
 * platform_hw.c - register access on the real processor.
 */
#include <linux/pci.h>
#include <linux/smp.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <asm/processor.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>

#include "compat.h"
#include "platform.h"

static void hw_cpu_ident(struct memdiag_cpu_ident *id)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	unsigned int dummy;

	memset(id, 0, sizeof(*id));
	strscpy(id->vendor, c->x86_vendor_id, sizeof(id->vendor));
	strscpy(id->model_name, c->x86_model_id, sizeof(id->model_name));
	id->family = c->x86;
	id->model = c->x86_model;
	id->stepping = c->x86_stepping;
	id->hypervisor = boot_cpu_has(X86_FEATURE_HYPERVISOR);
	id->tsc_khz = tsc_khz;
	if (boot_cpu_has(X86_FEATURE_ARCH_PERFMON) && c->cpuid_level >= 0xa) {
		id->cpuid_0a_eax = cpuid_eax(0xa);
		id->cpuid_0a_edx = cpuid_edx(0xa);
	}
	if (boot_cpu_has(X86_FEATURE_PERFMON_V2))
		cpuid(0x80000022, &id->cpuid_ext22_eax, &id->cpuid_ext22_ebx,
		      &id->cpuid_ext22_ecx, &dummy);
	id->perfctr_llc = boot_cpu_has(X86_FEATURE_PERFCTR_LLC);
	id->perfctr_nb = boot_cpu_has(X86_FEATURE_PERFCTR_NB);
	id->perfctr_core = boot_cpu_has(X86_FEATURE_PERFCTR_CORE);
}

static int hw_llc_id(unsigned int cpu)
{
	return memdiag_llc_id(cpu);
}

struct hw_batch {
	struct memdiag_msr_op *ops;
	unsigned int n;
};

/* Runs in IPI context on the target CPU: no allocation, no sleeping. */
static void hw_batch_fn(void *arg)
{
	struct hw_batch *b = arg;
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		struct memdiag_msr_op *op = &b->ops[i];

		if (op->clock) {
			op->val = ktime_get_ns();
			op->err = 0;
		} else if (op->write) {
			op->err = wrmsrq_safe(op->msr, op->val) ? -EIO : 0;
		} else {
			op->err = rdmsrq_safe(op->msr, &op->val) ? -EIO : 0;
		}
	}
}

static int hw_msr_batch(unsigned int cpu, struct memdiag_msr_op *ops,
			unsigned int n)
{
	struct hw_batch b = { .ops = ops, .n = n };

	return smp_call_function_single(cpu, hw_batch_fn, &b, 1);
}

static int hw_msr_read_local(u32 msr, u64 *val)
{
	return rdmsrq_safe(msr, val) ? -EIO : 0;
}

static int hw_pci_get(u16 device, unsigned int index, struct memdiag_pci *pci)
{
	unsigned int id = device == 0xffff ? PCI_ANY_ID : device;
	struct pci_dev *dev = NULL;

	do {
		dev = pci_get_device(PCI_VENDOR_ID_INTEL, id, dev);
	} while (dev && index--);
	if (!dev)
		return -ENODEV;
	pci->domain = pci_domain_nr(dev->bus);
	pci->bus = dev->bus->number;
	pci->devfn = dev->devfn;
	pci->vendor = dev->vendor;
	pci->device = dev->device;
	pci->priv = dev;
	return 0;
}

static void hw_pci_put(struct memdiag_pci *pci)
{
	pci_dev_put(pci->priv);
	pci->priv = NULL;
}

static int hw_pci_read(const struct memdiag_pci *pci, unsigned int off,
		       u32 *val)
{
	return pcibios_err_to_errno(pci_read_config_dword(pci->priv, off, val));
}

static int hw_pci_write(const struct memdiag_pci *pci, unsigned int off,
			u32 val)
{
	return pcibios_err_to_errno(pci_write_config_dword(pci->priv, off, val));
}

static int hw_pci_socket(const struct memdiag_pci *pci)
{
	struct pci_dev *dev = pci->priv;
	int node = pcibus_to_node(dev->bus);
	unsigned int cpu;

	if (node == NUMA_NO_NODE)
		return -1;
	cpu = cpumask_first_and(cpumask_of_node(node), cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		return -1;
	/* memdiag numbers sockets by logical package (topology.c) */
	return topology_logical_package_id(cpu);
}

static void *hw_mmio_map(u64 phys, size_t len)
{
	return (void __force *)ioremap(phys, len);
}

static void hw_mmio_unmap(void *map)
{
	iounmap((void __iomem __force *)map);
}

static u64 hw_mmio_read(void *map, unsigned int off, unsigned int width)
{
	void __iomem *p = (void __iomem __force *)map + off;

	return width == 8 ? readq(p) : readl(p);
}

static void hw_mmio_write(void *map, unsigned int off, unsigned int width,
			  u64 val)
{
	void __iomem *p = (void __iomem __force *)map + off;

	if (width == 8)
		writeq(val, p);
	else
		writel(val, p);
}

const struct memdiag_platform_ops memdiag_hw_platform = {
	.name		= "hw",
	.perf_pmu	= true,
	.cpu_ident	= hw_cpu_ident,
	.msr_batch	= hw_msr_batch,
	.msr_read_local	= hw_msr_read_local,
	.pci_get	= hw_pci_get,
	.pci_put	= hw_pci_put,
	.pci_read	= hw_pci_read,
	.pci_write	= hw_pci_write,
	.pci_socket	= hw_pci_socket,
	.llc_id		= hw_llc_id,
	.mmio_map	= hw_mmio_map,
	.mmio_unmap	= hw_mmio_unmap,
	.mmio_read	= hw_mmio_read,
	.mmio_write	= hw_mmio_write,
	.df_read	= memdiag_hw_df_read,
};
