// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - memdiag_sim.ko: module parameter, load and unload, CPU hotplug,
 * and the platform ops memdiag.ko takes with symbol_get().
 *
 * The sim owns all its state, so what memdiag.ko programmed stays visible
 * in debugfs after memdiag.ko is unloaded; memdiag.ko's reference on the
 * exported ops keeps the sim loaded while it is in use.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/cpuhotplug.h>
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/topology.h>

#include "sim.h"

struct mdsim mdsim;

/* uarch=: checked while the module is loaded, so a bad value fails the load */
static int uarch_set(const char *val, const struct kernel_param *kp)
{
	char names[128];
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < mdsim_n_uarchs; i++) {
		if (sysfs_streq(val, mdsim_uarchs[i]->name)) {
			mdsim.ua = mdsim_uarchs[i];
			return 0;
		}
	}
	/* the names from the table itself, so the list cannot fall behind */
	for (i = 0; i < mdsim_n_uarchs; i++)
		n += scnprintf(names + n, sizeof(names) - n, " %s",
			       mdsim_uarchs[i]->name);
	pr_err("uarch=%s is not valid: use one of%s\n", val, names);
	return -EINVAL;
}

static int uarch_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", mdsim.ua->name);
}

static const struct kernel_param_ops uarch_ops = {
	.set = uarch_set,
	.get = uarch_get,
};

module_param_cb(uarch, &uarch_ops, NULL, 0444);
MODULE_PARM_DESC(uarch, "generation to model, the first of the sim's table by default; a name it lacks is refused with the table's names");

static int cpuhp_state;

/*
 * Each socket's uncore bus, deliberately not in socket order: code that
 * maps buses to sockets by their order, instead of reading the UBOX, gets
 * it wrong here as it would on many real machines.
 */
static const u8 mdsim_bus[MDSIM_MAX_SOCKETS] = {
	0x85, 0x17, 0x6a, 0xd0, 0x3b, 0xa4, 0x5e, 0xf2
};

/* Each socket's MMIO: representable in icx's base fields (bits 51:23). */
#define MDSIM_MMIO_BASE		0x7f00000000ULL
#define MDSIM_MMIO_STRIDE	0x100000000ULL

/* Sockets are the kernel's logical packages, as memdiag numbers them. */
static int mdsim_sockets_init(void)
{
	unsigned int n = topology_max_packages(), s, i, cpu;

	if (n > MDSIM_MAX_SOCKETS) {
		pr_err("%u sockets: the sim models at most %u (the UBOX maps 8 packages)\n",
		       n, MDSIM_MAX_SOCKETS);
		return -EINVAL;
	}
	mdsim.sockets = kcalloc(n, sizeof(*mdsim.sockets), GFP_KERNEL);
	if (!mdsim.sockets)
		return -ENOMEM;
	mdsim.n_sockets = n;
	for (s = 0; s < n; s++) {
		struct mdsim_socket *sock = &mdsim.sockets[s];

		sock->id = s;
		sock->bus = mdsim_bus[s];
		sock->base = MDSIM_MMIO_BASE + s * MDSIM_MMIO_STRIDE;
		sock->package = U32_MAX;
		for (i = 0; i < mdsim.ua->n_chans; i++)
			mdsim_box_init(&sock->box[i], s, i);
		mdsim_l3_init(sock);
	}
	/* a socket with no CPU online now keeps its own number */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		s = topology_logical_package_id(cpu);
		if (s < n && mdsim.sockets[s].package == U32_MAX)
			mdsim.sockets[s].package =
				topology_physical_package_id(cpu);
	}
	cpus_read_unlock();
	for (s = 0; s < n; s++)
		if (mdsim.sockets[s].package == U32_MAX)
			mdsim.sockets[s].package = s;
	return 0;
}

static void mdsim_cpu_ident(struct memdiag_cpu_ident *id)
{
	const struct mdsim_uarch *ua = mdsim.ua;

	memset(id, 0, sizeof(*id));
	strscpy(id->vendor, ua->amd ? "AuthenticAMD" : "GenuineIntel",
		sizeof(id->vendor));
	snprintf(id->model_name, sizeof(id->model_name), "memdiag_sim %s",
		 ua->name);
	id->family = ua->family;
	id->model = ua->model;
	id->stepping = ua->stepping;
	id->hypervisor = false;
	id->tsc_khz = 2000000;	/* reference cycles run at 2.0 GHz */
	/* version, GP counters, 48-bit width, 7 architectural events */
	id->cpuid_0a_eax = ua->version | ua->n_gp << 8 | MDSIM_CTR_BITS << 16 |
			   7 << 24;
	/* three 48-bit fixed counters */
	id->cpuid_0a_edx = MDSIM_FIXED | MDSIM_CTR_BITS << 5;
	if (ua->amd) {
		/* no leaf 0xA */
		id->cpuid_0a_eax = 0;
		id->cpuid_0a_edx = 0;
		id->perfctr_llc = true;	/* the L3 PMU of l3.c */
		/* Zen 2/3: the DF counters, no PerfMonV2 (leaf 0x80000022) */
		id->perfctr_nb = ua->df;
		id->perfctr_core = true;
		if (ua->df)
			return;
		/* Zen 4/5: PerfMonV2 (EAX bit 0), core and UMC counters */
		id->cpuid_ext22_eax = BIT(0);
		id->cpuid_ext22_ebx = ua->n_gp |
				      (ua->n_chans * ua->umc_per) << 16;
		id->cpuid_ext22_ecx = GENMASK(ua->n_chans - 1, 0);
	}
}

const struct memdiag_platform_ops memdiag_sim_platform = {
	.name		= "sim",
	.cpu_ident	= mdsim_cpu_ident,
	.msr_batch	= mdsim_msr_batch,
	.msr_read_local	= mdsim_msr_read_local,
	.pci_get	= mdsim_pci_get,
	.pci_put	= mdsim_pci_put,
	.pci_read	= mdsim_pci_read,
	.pci_write	= mdsim_pci_write,
	.pci_socket	= mdsim_pci_socket,
	.llc_id		= mdsim_llc_id,
	.mmio_map	= mdsim_mmio_map,
	.mmio_unmap	= mdsim_mmio_unmap,
	.mmio_read	= mdsim_mmio_read,
	.mmio_write	= mdsim_mmio_write,
	.fail_alloc	= mdsim_fail_alloc,
	.df_read	= mdsim_df_read,
};
EXPORT_SYMBOL_GPL(memdiag_sim_platform);

/*
 * A CPU counts only while online: its counters are brought up to date
 * when it goes down and start again from when it comes back, so the time
 * it spent offline is not counted.
 */
static int mdsim_cpu_online(unsigned int cpu)
{
	mdsim_core_online(cpu);
	return 0;
}

static int mdsim_cpu_offline(unsigned int cpu)
{
	mdsim_core_offline(cpu);
	return 0;
}

static int __init mdsim_init(void)
{
	int err;

	if (!mdsim.ua)
		mdsim.ua = mdsim_uarchs[0];	/* the table's first */
	err = mdsim_df_maps_check();
	if (err)
		return err;
	mutex_init(&mdsim.lock);
	raw_spin_lock_init(&mdsim.ctr_lock);
	INIT_LIST_HEAD(&mdsim.maps);

	err = mdsim_sockets_init();
	if (err)
		return err;
	err = mdsim_core_init();
	if (err)
		goto err_sockets;
	err = mdsim_pci_init();
	if (err)
		goto err_core;
	err = mdsim_mmio_init();
	if (err)
		goto err_pci;
	err = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "memdiag_sim:online",
				mdsim_cpu_online, mdsim_cpu_offline);
	if (err < 0)
		goto err_mmio;
	cpuhp_state = err;
	err = mdsim_debugfs_init();
	if (err)
		goto err_cpuhp;

	pr_info("modelling %s (family 0x%x model 0x%x stepping %u) on %u sockets\n",
		mdsim.ua->name, mdsim.ua->family, mdsim.ua->model,
		mdsim.ua->stepping,
		mdsim.n_sockets);
	return 0;

err_cpuhp:
	cpuhp_remove_state(cpuhp_state);
err_mmio:
	mdsim_mmio_exit();
err_pci:
	mdsim_pci_exit();
err_core:
	mdsim_core_exit();
err_sockets:
	kfree(mdsim.sockets);
	return err;
}

static void __exit mdsim_exit(void)
{
	mdsim_debugfs_exit();
	cpuhp_remove_state(cpuhp_state);
	mdsim_mmio_exit();
	mdsim_pci_exit();
	mdsim_core_exit();
	kfree(mdsim.sockets);
}

module_init(mdsim_init);
module_exit(mdsim_exit);
MODULE_DESCRIPTION("memdiag_sim: register-level model of an Intel Xeon socket's PMU registers");
MODULE_LICENSE("GPL");
