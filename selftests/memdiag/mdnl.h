/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mdnl.h - minimal generic netlink client for memdiag's selftests.
 *
 * Deliberately independent of userspace/ (memdiagctl): the tests check the
 * module's answers with their own decoding, so a bug shared by the CLI and
 * the module cannot hide itself.
 */
#ifndef _MDNL_H
#define _MDNL_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

struct mdnl {
	struct mnl_socket *nl;
	uint16_t family_id;
	uint32_t family_version;
	uint32_t seq;
	bool has_op[64];		/* indexed by command */
	char mcgrp_name[8][32];
	uint32_t mcgrp_id[8];
	int n_mcgrps;
};

/* The kernel's answer to one request. */
struct mdnl_reply {
	int error;			/* 0 or a negative errno */
	char extack[256];		/* NLMSGERR_ATTR_MSG, "" if none */
	uint32_t bad_attr_offs;		/* NLMSGERR_ATTR_OFFS, 0 if none */
	char buf[65536];		/* the reply message (last one) */
	size_t len;
};

/* CLOCK_MONOTONIC in nanoseconds: the tests' deadlines and delays. */
uint64_t mdnl_now_ns(void);

/* Open a socket and resolve @family; -errno (ENOENT: family absent). */
int mdnl_open(struct mdnl *m, const char *family);
void mdnl_close(struct mdnl *m);

/* Start a request: a genetlink header for @cmd in @buf. */
struct nlmsghdr *mdnl_req(struct mdnl *m, char *buf, uint8_t cmd,
			  uint16_t flags);

/* Send @nlh and collect the reply or error into @r; returns r->error. */
int mdnl_call(struct mdnl *m, struct nlmsghdr *nlh, struct mdnl_reply *r);

/*
 * The same, handing each reply message to @each instead of keeping the
 * last (a dump's many); a dump's error arrives in its DONE.
 */
typedef void (*mdnl_msg_fn)(const struct nlmsghdr *h, void *arg);
int mdnl_dump(struct mdnl *m, struct nlmsghdr *nlh, struct mdnl_reply *r,
	      mdnl_msg_fn each, void *arg);

/* Payload attributes of the reply (after the genetlink header). */
struct nlattr *mdnl_reply_attrs(struct mdnl_reply *r, size_t *len);

/* What a child running as nobody does; 0 or -errno. */
typedef int (*mdnl_nobody_fn)(struct mdnl *m, struct mdnl_reply *r, void *arg);

/*
 * Fork, drop to nobody without capabilities, open a memdiag socket and run
 * @fn(@arg) on it (@arg in shared memory to see what it wrote); returns its
 * errno and copies the extack text it got into @extack.
 */
int mdnl_as_nobody(mdnl_nobody_fn fn, void *arg, char *extack, size_t len);

/* Write @val ("Y" or "N") to memdiag's unprivileged_read; 0 or -errno. */
int mdnl_set_unprivileged_read(const char *val);

#endif /* _MDNL_H */
