/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attr_int.h - what attr.c (resctrl's MBM) and core_src.c (the module's
 * core estimate) share: the groups of a scan, and each source's sample.
 */

#ifndef MEMDIAGCTL_ATTR_INT_H
#define MEMDIAGCTL_ATTR_INT_H

#include "attr.h"

/* The attr group of @cg, added when new; -ENOSPC beyond a->max. */
int attr_group_of(struct attr *a, const struct cg_group *cg);
/* The group of @key, or -1. */
int attr_find_group(const struct attr *a, const char *key);
/* Forget the groups the last scan did not find. */
int attr_drop_gone_groups(struct attr *a);
/* Whether cgroup @path is @root or below it. */
bool attr_under(const char *path, const char *root);

int attr_core_sample(struct attr *a, char *why, size_t size);
void attr_core_free(struct attr *a);

#endif /* MEMDIAGCTL_ATTR_INT_H */
