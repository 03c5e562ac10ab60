/* SPDX-License-Identifier: GPL-2.0 */
/* snapshot.h - read snapshot and snapshot-ntf messages into struct snap. */

#ifndef MEMDIAGCTL_SNAPSHOT_H
#define MEMDIAGCTL_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include "metrics.h"

/* One channel nest of a snapshot. */
struct snap_channel {
	uint32_t have;		/* bit n: channel attribute n present */
	uint32_t id;
	uint64_t read_bytes, write_bytes;
	uint64_t rdwr_bytes, counted_ns;	/* AMD's DF */
};

/*
 * Check and read a snapshot message (generic netlink header first). Every
 * attribute this memdiagctl knows must have its exact size (4 bytes for a
 * u32, 8 for a u64), channel nests included; pad attributes and unknown
 * ones are skipped. socket is required. Returns 0, or -1 with errno
 * EBADMSG and what is wrong in @why.
 */
int snap_parse(const struct nlmsghdr *nlh, struct snap *s, char *why,
	       size_t size);

/* Read a channel nest of a message snap_parse() accepted. */
void snap_channel_parse(const struct nlattr *nest, struct snap_channel *c);

#endif /* MEMDIAGCTL_SNAPSHOT_H */
