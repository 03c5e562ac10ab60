/* SPDX-License-Identifier: GPL-2.0 */
/* names.h - the netlink spec's names for memdiag's enums and attributes. */

#ifndef MEMDIAGCTL_NAMES_H
#define MEMDIAGCTL_NAMES_H

#include <stdint.h>

/*
 * Each returns the name Documentation/netlink/specs/memdiag.yaml gives the
 * value, or NULL for a value this memdiagctl does not know (a newer module):
 * callers then print the number.
 */
const char *name_platform(uint32_t platform);
const char *name_capability(uint32_t capability);
const char *name_core_mode(uint32_t mode);

/* Attribute names, for JSON keys and for naming a rejected attribute. */
const char *name_info_attr(unsigned int type);
const char *name_socket_attr(unsigned int type);
const char *name_capability_attr(unsigned int type);
const char *name_snapshot_attr(unsigned int type);
const char *name_channel_attr(unsigned int type);
const char *name_prefetch_attr(unsigned int type);
const char *name_session_attr(unsigned int type);
const char *name_group_attr(unsigned int type);

#endif /* MEMDIAGCTL_NAMES_H */
