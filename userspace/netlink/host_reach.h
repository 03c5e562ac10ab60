/* SPDX-License-Identifier: GPL-2.0 */
/*
 * host_reach.h - whether the memdiag module, and so its counters, can be
 * reached on this host at all: a kernel that cannot load modules (booted
 * with "nomodule", CONFIG_MODULES=n, modules_disabled=1), no headers to
 * build the module, a hypervisor that hides the uncore and core PMUs.
 * Read once per process; the messages of every command that needs the
 * module come from here, so they say the same.
 */

#ifndef MEMDIAGCTL_HOST_REACH_H
#define MEMDIAGCTL_HOST_REACH_H

#include <stdbool.h>
#include <stddef.h>

struct host_reach {
	bool no_modules;	/* this kernel cannot load any module */
	char no_modules_why[128];	/* "booted with 'nomodule'" */
	bool no_headers;	/* no /lib/modules/KVER/build to build it */
	bool hypervisor;	/* /proc/cpuinfo's "hypervisor" flag */
	char kernel[128];	/* uname -r */
};

/*
 * The facts of this host, read on the first call. The test hook
 * MEMDIAG_TEST_HOST_ROOT names a directory that stands in for "/" (its
 * proc/modules, proc/cmdline, proc/sys/kernel/modules_disabled,
 * proc/cpuinfo and lib/modules/KVER/build).
 */
const struct host_reach *host_reach(void);

/*
 * The commands that work without the module ("top, stat --marker, ..."),
 * which the messages below name: memdiagctl.c sets them at start from its
 * command table, which marks them in the help too. @cmds is kept, not
 * copied. Until set: "the commands marked '*' in its help".
 */
void host_reach_set_counter_free(const char *cmds);
const char *host_reach_counter_free(void);

/*
 * Why the module is out of reach, as one sentence for a "not loaded"
 * error: what cannot be done on this host and which commands work
 * without the module. "" where loading it is the way (then the caller
 * says how).
 */
void host_reach_why(const struct host_reach *h, char *buf, size_t size);

#endif /* MEMDIAGCTL_HOST_REACH_H */
