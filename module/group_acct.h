/* SPDX-License-Identifier: GPL-2.0 */
/*
 * group_acct.h - the core estimate's DRAM bytes per cgroup (group_acct.c),
 * for session.c, which starts and stops it with the sessions that ask for
 * it, and genl_group.c, which reads it.
 */
#ifndef _MEMDIAG_GROUP_ACCT_H
#define _MEMDIAG_GROUP_ACCT_H

#include <linux/types.h>

struct memdiag_group_bytes {
	u32 socket;
	u64 cgroup_id;		/* 0: cgroups that found no slot */
	u64 bytes;
};

int memdiag_groups_get(char *msg, size_t len);
void memdiag_groups_put(unsigned int n);
void memdiag_groups_cpu_online(unsigned int cpu);
void memdiag_groups_cpu_offline(unsigned int cpu);
int memdiag_groups_read(bool fold_first, struct memdiag_group_bytes **out,
			size_t *n);

#endif /* _MEMDIAG_GROUP_ACCT_H */
