/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memdiag.h - types and functions shared by memdiag's source files.
 */
#ifndef _MEMDIAG_H
#define _MEMDIAG_H

#include <linux/types.h>
#include <uapi/linux/memdiag.h>

#include "uarch.h"

#define MEMDIAG_REASON_LEN	192

/* One capability: can it be used, and if not, why (for get-info). */
struct memdiag_cap {
	bool available;
	char reason[MEMDIAG_REASON_LEN];
};

/* What the module found at load time; read-only afterwards. */
struct memdiag_state {
	enum memdiag_platform platform;
	const struct memdiag_uarch *uarch;	/* NULL: unsupported */
	char uarch_reason[MEMDIAG_REASON_LEN];
	struct memdiag_cap caps[MEMDIAG_CAPABILITY_MAX + 1];
};

extern struct memdiag_state memdiag;
extern bool memdiag_unprivileged_read;

/* uarch.c */
const struct memdiag_uarch *memdiag_uarch_match(char *reason, size_t len);

/* caps.c */
void memdiag_caps_probe(struct memdiag_state *st);

/* topology.c */
unsigned int memdiag_socket_of(unsigned int cpu);
unsigned int memdiag_socket_package(unsigned int socket);
unsigned int memdiag_max_sockets(void);
unsigned int memdiag_nr_sockets(void);

/* genl.c */
int memdiag_genl_init(void);
void memdiag_genl_exit(void);

#endif /* _MEMDIAG_H */
