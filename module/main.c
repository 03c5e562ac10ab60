// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - memdiag module parameters, load and unload.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <asm/processor.h>

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

static int __init memdiag_init(void)
{
	int err;

	memdiag.uarch = memdiag_uarch_match(memdiag.uarch_reason,
					    sizeof(memdiag.uarch_reason));
	memdiag_caps_probe(&memdiag);

	err = memdiag_genl_init();
	if (err) {
		pr_err("memdiag: registering the generic netlink family failed: %d\n",
		       err);
		return err;
	}
	pr_info("memdiag: %s (%s family 0x%x model 0x%x stepping %u), platform %s, %u sockets\n",
		memdiag.uarch ? memdiag.uarch->name : "unsupported processor",
		boot_cpu_data.x86_vendor_id, boot_cpu_data.x86,
		boot_cpu_data.x86_model, boot_cpu_data.x86_stepping,
		memdiag.platform == MEMDIAG_PLATFORM_SIM ? "sim" : "hw",
		memdiag_nr_sockets());
	return 0;
}

static void __exit memdiag_exit(void)
{
	memdiag_genl_exit();
}

module_init(memdiag_init);
module_exit(memdiag_exit);

MODULE_DESCRIPTION("Per-socket DRAM bandwidth and load latency counters");
MODULE_AUTHOR("memdiag developers");
MODULE_LICENSE("GPL");
