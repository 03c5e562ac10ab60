// SPDX-License-Identifier: GPL-2.0
/*
 * kcsan_canary.c - a planted data race: the positive control of "make
 * check-kcsan" (Documentation/races.rst).
 *
 * A KCSAN run that reports nothing is worth something only if KCSAN, as
 * memdiag's tests run it, would have reported a race that was there.
 * Writing a count N to /sys/kernel/debug/memdiag_sim/kcsan_canary runs N
 * plain, unlocked read-modify-writes of one shared word; two writers on
 * two CPUs race on it, and selftests/memdiag/kcsan-canary.sh passes only
 * when KCSAN reports a data race in mdsim_canary_rmw().
 *
 * The race is deliberate and harmless: nothing reads the word's value.
 * It lives in this test-only module, which no package ships (dkms.conf
 * and debian/rules leave module/sim/ out), so memdiag.ko gains no racy
 * code for its sake.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "sim.h"

/* at most this many per write, so that one write ends within seconds */
#define CANARY_MAX_RMW	100000000UL

static unsigned long canary_word;

/*
 * noinline: KCSAN names this function in its report, and the test looks
 * for the name, which must not contain "kcsan_" or "tsan_": KCSAN takes
 * such frames for its own and leaves them out of its reports, which would
 * then name debugfs's full_proxy_write() instead. The accesses are plain
 * on purpose (no READ_ONCE, no atomic, no data_race()): that is the race
 * KCSAN must see. barrier()
 * keeps one load and one store per turn; without it the compiler could
 * keep the word in a register for the whole loop, leaving one access.
 */
static noinline void mdsim_canary_rmw(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		canary_word++;
		barrier();
		/* the kernel does not preempt: let others on this CPU run */
		if (!(i & 0xffff))
			cond_resched();
	}
}

static ssize_t canary_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	unsigned long n;
	int err;

	err = kstrtoul_from_user(ubuf, len, 0, &n);
	if (err || !n || n > CANARY_MAX_RMW) {
		pr_err("kcsan_canary: expected a count of read-modify-writes, 1 to %lu\n",
		       CANARY_MAX_RMW);
		return -EINVAL;
	}
	mdsim_canary_rmw(n);
	return len;
}

static const struct file_operations canary_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= canary_write,
	.llseek	= noop_llseek,
};

void mdsim_canary_debugfs(struct dentry *root)
{
	debugfs_create_file("kcsan_canary", 0200, root, NULL,
			    &canary_fops);
}
