// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - memdiag module parameters, load and unload.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "memdiag.h"

struct memdiag_state memdiag;

bool memdiag_unprivileged_read;
module_param_named(unprivileged_read, memdiag_unprivileged_read, bool, 0644);
MODULE_PARM_DESC(unprivileged_read,
		 "Let users without CAP_PERFMON or CAP_SYS_ADMIN read (default: N)");

/* indexed by enum memdiag_platform: "auto" selects the real hardware */
static const char * const platform_names[MEMDIAG_PLATFORM_MAX + 1] = {
	[MEMDIAG_PLATFORM_HW] = "auto",
	[MEMDIAG_PLATFORM_SIM] = "sim",
};

static int platform_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(platform_names, val);

	if (i < 0) {
		pr_err("memdiag: platform=%s is not valid: use platform=auto (the real hardware) or platform=sim\n",
		       val);
		return -EINVAL;
	}
	memdiag.platform = i;
	return 0;
}

static int platform_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", platform_names[memdiag.platform]);
}

static const struct kernel_param_ops platform_ops = {
	.set = platform_set,
	.get = platform_get,
};
module_param_cb(platform, &platform_ops, NULL, 0444);
MODULE_PARM_DESC(platform,
		 "Register source: auto (the real hardware, default) or sim (memdiag_sim.ko)");

/* indexed by enum memdiag_core_mode: "auto" leaves the choice to memdiag */
static const char * const core_names[MEMDIAG_CORE_MODE_MAX + 1] = {
	[MEMDIAG_CORE_MODE_NONE] = "auto",
	[MEMDIAG_CORE_MODE_MSR] = "msr",
	[MEMDIAG_CORE_MODE_PERF] = "perf",
};

static int core_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(core_names, val);

	if (i < 0) {
		pr_err("memdiag: core=%s is not valid: use core=auto, core=msr or core=perf\n",
		       val);
		return -EINVAL;
	}
	memdiag.core_pref = i;
	return 0;
}

static int core_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", core_names[memdiag.core_pref]);
}

static const struct kernel_param_ops core_ops = {
	.set = core_set,
	.get = core_get,
};
module_param_cb(core, &core_ops, NULL, 0444);
MODULE_PARM_DESC(core,
		 "Core counters through: auto (default: msr if free, else perf), msr or perf");

/*
 * Load: each step below sets up what the error path and memdiag_exit()
 * take down, in reverse order. The probes only read the machine.
 */
static int __init memdiag_init(void)
{
	char why[MEMDIAG_REASON_LEN];
	int err;

	err = memdiag_platform_get(&memdiag);
	if (err)
		return err;
	memdiag.uarch = memdiag_uarch_match(&memdiag.ident, memdiag.uarch_reason,
					    sizeof(memdiag.uarch_reason));
	/* prefetchers are described apart from the counters, per family */
	memdiag_prefetch_probe(&memdiag,
			       &memdiag.caps[MEMDIAG_CAPABILITY_PREFETCH_CONTROL]);
	if (memdiag.uarch) {
		/* the IMC boxes: memdiag_imc_free() */
		if (memdiag.uarch->imc) {
			err = memdiag_imc_discover(&memdiag, why, sizeof(why));
			memdiag_caps_imc(&memdiag, err, why);
		} else {
			memdiag_caps_imc(&memdiag, -ENODEV,
					 memdiag.uarch->imc_reason);
		}
		/* the L3 PMUs of the CCXs: memdiag_l3_exit() */
		err = memdiag_l3_init(&memdiag, why, sizeof(why));
		memdiag_caps_l3(&memdiag, err, why);
	}
	/* per-CPU core counter state, the core mode: memdiag_core_exit() */
	err = memdiag_core_init(&memdiag, why, sizeof(why));
	if (memdiag.uarch)
		memdiag_caps_core(&memdiag, err, why);
	else
		memdiag_caps_unsupported(&memdiag);

	err = memdiag_prefetch_init();
	if (err) {
		pr_err("memdiag: setting up prefetcher control failed: %d\n", err);
		goto free;
	}
	err = memdiag_session_init(memdiag_genl_publish);
	if (err) {
		pr_err("memdiag: setting up CPU hotplug and socket release handling failed: %d\n",
		       err);
		goto prefetch;
	}
	err = memdiag_genl_init();
	if (err) {
		pr_err("memdiag: registering the generic netlink family failed: %d\n",
		       err);
		goto session;
	}
	pr_info("memdiag: %s (%s family 0x%x model 0x%x stepping %u), platform %s, %u sockets\n",
		memdiag.uarch ? memdiag.uarch->name : "unsupported processor",
		memdiag.ident.vendor, memdiag.ident.family, memdiag.ident.model,
		memdiag.ident.stepping, memdiag.plat->name,
		memdiag_nr_sockets());
	return 0;

session:
	memdiag_session_exit();
prefetch:
	memdiag_prefetch_exit();
free:
	memdiag_core_exit();
	memdiag_l3_exit();
	memdiag_imc_free();
	memdiag_platform_put(&memdiag);
	return err;
}

/*
 * Sessions end first: every register memdiag wrote is put back and the
 * sampler stops publishing before the family goes away.
 */
static void __exit memdiag_exit(void)
{
	memdiag_session_exit();
	memdiag_genl_exit();
	memdiag_prefetch_exit();
	memdiag_core_exit();
	memdiag_l3_exit();
	memdiag_imc_free();
	memdiag_platform_put(&memdiag);
}

module_init(memdiag_init);
module_exit(memdiag_exit);

MODULE_DESCRIPTION("Per-socket DRAM bandwidth and load latency counters");
MODULE_AUTHOR("memdiag developers");
MODULE_LICENSE("GPL");
