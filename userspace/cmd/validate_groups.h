/* SPDX-License-Identifier: GPL-2.0 */
/* validate_groups.h - "validate --groups" (validate_groups.c) for cmd_validate.c. */

#ifndef MEMDIAGCTL_VALIDATE_GROUPS_H
#define MEMDIAGCTL_VALIDATE_GROUPS_H

struct opts;

/* validate --groups: resctrl's MBM against the memory controllers */
int validate_groups(const char *cmd, const struct opts *o);

#endif /* MEMDIAGCTL_VALIDATE_GROUPS_H */
