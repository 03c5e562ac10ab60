/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel API difference memdiag depends on, in one place.
 *
 * memdiag builds on 5.10 through 6.18. Where a difference is a macro it is
 * tested with #ifdef. Where it is a function, struct member or enum that
 * stable or Debian kernels may have backported, a version threshold is used
 * only when the old API is known to survive past it. Only Debian's 6.1 and
 * 6.12 are built and tested by the project's test command.
 */
#ifndef _MEMDIAG_COMPAT_H
#define _MEMDIAG_COMPAT_H

#include <linux/version.h>
#include <linux/capability.h>
#include <linux/jump_label.h>
#include <linux/netlink.h>
#include <asm/msr.h>

/*
 * 6.16 renamed the 64-bit MSR helpers from *l* to *q* and kept wrappers for
 * only some of the old names; the *l* forms are real functions, so #ifdef
 * cannot see them. Write the new names and map them back on older kernels.
 * memdiag reaches MSRs only through platform_hw.c's per-CPU batch, which
 * needs just the local safe accessors.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
#define rdmsrq_safe(msr, q)		rdmsrl_safe(msr, q)
#define wrmsrq_safe(msr, q)		wrmsrl_safe(msr, q)
#endif

/*
 * genl_family.resv_start_op appeared in 6.1 and was not backported; below
 * it the core applies no strict header checks and memdiag's per-op policies
 * still validate every attribute strictly.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
#define MEMDIAG_HAVE_RESV_START_OP 1
#endif

/*
 * The privilege a process needs to join the monitor group, checked by the
 * genetlink core itself at bind time (a family's own .bind callback cannot
 * refuse: genl_bind() ignores its return value). 6.8 introduced the
 * GENL_MCAST_CAP_* flags, tested in the user namespace owning the socket's
 * netns; Debian backported them to 6.1.176. Older kernels with the 5.12
 * group flags (or their Dec 2023 stable backports) honour only
 * GENL_UNS_ADMIN_PERM, i.e. CAP_NET_ADMIN. Kernels older than that have no
 * group flags member and memdiag does not build there, which is the safe
 * outcome: an unguarded monitor group would leak every sample.
 */
#ifdef GENL_MCAST_CAP_SYS_ADMIN
#define MEMDIAG_MCGRP_PERM		GENL_MCAST_CAP_SYS_ADMIN
#else
#define MEMDIAG_MCGRP_PERM		GENL_UNS_ADMIN_PERM
#endif

/*
 * Parsed request attributes of a dump: genl_dumpit_info() held them
 * directly until 6.6 changed its layout and added genl_info_dump().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define memdiag_dump_attrs(cb)	(genl_info_dump(cb)->attrs)
#else
#define memdiag_dump_attrs(cb)	(genl_dumpit_info(cb)->attrs)
#endif

/*
 * NL_SET_ERR_MSG() takes a string literal; this sets a static message
 * chosen at run time (from a table) the same way, trace point included.
 */
static inline void memdiag_set_err_msg(struct netlink_ext_ack *extack,
				       const char *msg)
{
	do_trace_netlink_extack(msg);
	if (extack)
		extack->_msg = msg;
}

/*
 * The family's pre_doit hook gets the op as a struct genl_ops until 6.2
 * split do and dump ops, after which it gets a struct genl_split_ops.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define memdiag_genl_hook_ops	genl_split_ops
#else
#define memdiag_genl_hook_ops	genl_ops
#endif

/* CAP_PERFMON exists from 5.8, below memdiag's oldest supported kernel. */
#ifndef CAP_PERFMON
#error "memdiag needs CAP_PERFMON (Linux 5.8 or later)"
#endif

/*
 * A CPU's last-level cache id (cpu_llc_id): exported get_llc_id() on 6.1,
 * the inline per_cpu_llc_id() over cpu_info.topo once the x86 topology
 * rework moved it there (6.12 has it; the threshold is not verified
 * against the kernels in between, which are not built here).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define memdiag_llc_id(cpu)	((int)per_cpu_llc_id(cpu))
#else
#define memdiag_llc_id(cpu)	((int)get_llc_id(cpu))
#endif

/*
 * lockdep_assert_cpus_held(), for a module. The kernel's own is not
 * exported on 6.1 or 6.12 (a module that calls it fails modpost; later
 * kernels export it, from a version not checked here). With jump labels,
 * static_key_disable_cpuslocked() is exported and asserts the hotplug lock
 * before anything else, and on a key that was never enabled it then does
 * nothing. Without lockdep there is nothing to check, as with the kernel's;
 * a lockdep kernel without jump labels is not checked (make check-debug's
 * kernel has both).
 */
#if defined(CONFIG_LOCKDEP) && defined(CONFIG_JUMP_LABEL)
static inline void memdiag_lockdep_assert_cpus_held(void)
{
	static struct static_key never_enabled = STATIC_KEY_INIT_FALSE;

	static_key_disable_cpuslocked(&never_enabled);
}
#else
static inline void memdiag_lockdep_assert_cpus_held(void) { }
#endif

#endif /* _MEMDIAG_COMPAT_H */
