/* SPDX-License-Identifier: GPL-2.0 */
/* nl.h - generic netlink requests, replies and errors over libmnl. */

#ifndef MEMDIAGCTL_NL_H
#define MEMDIAGCTL_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/genetlink.h>
#include <libmnl/libmnl.h>

/* Requests are small; put variable-length data with mnl_attr_put_*_check(). */
#define NL_TX_SIZE 8192

struct nl_op {
	uint32_t id;		/* the family's command number */
	uint32_t flags;		/* GENL_ADMIN_PERM, GENL_CMD_CAP_DO, ... */
};

struct nl_mcgrp {
	char name[GENL_NAMSIZ];
	uint32_t id;		/* what nl_subscribe() takes */
};

/* A generic netlink family as CTRL_CMD_GETFAMILY describes it. */
struct nl_family {
	char name[GENL_NAMSIZ];
	uint16_t id;		/* the nlmsg_type of its messages */
	uint32_t version;
	uint32_t hdrsize;
	uint32_t maxattr;
	struct nl_op *ops;
	size_t nr_ops;
	struct nl_mcgrp *mcgrps;
	size_t nr_mcgrps;
};

/*
 * Why a call failed. @kernel tells a kernel's NLMSG_ERROR (or failed
 * NLMSG_DONE) from a local failure (socket calls, memory, a malformed
 * reply). The extended ack fields may also be set on success, when the
 * kernel attached a warning to its ack.
 */
struct nl_error {
	int err;		/* positive errno; 0 when the call succeeded */
	bool kernel;
	char msg[256];		/* NLMSGERR_ATTR_MSG, "" when none */
	long bad_offs;		/* NLMSGERR_ATTR_OFFS into the request, or -1 */
	int bad_type;		/* top-level attribute holding bad_offs, or -1 */
	bool bad_inside;	/* bad_offs lies inside bad_type, not at it */
	long miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
	bool miss_nested;	/* the missing attribute belongs in a nest */
};

struct nl {
	struct mnl_socket *sock;
	uint32_t portid;
	uint32_t seq;
	void *rx;		/* grows to the largest message received */
	size_t rx_size;
	_Alignas(struct nlmsghdr) char tx[NL_TX_SIZE];
};

int nl_open(struct nl *nl, struct nl_error *e);
void nl_close(struct nl *nl);

/*
 * Start a request to @family in nl->tx; an ack is requested unless
 * @flags has NLM_F_DUMP, so every exchange has a definite end.
 */
struct nlmsghdr *nl_msg_start(struct nl *nl, uint16_t family, uint8_t cmd,
			      uint8_t version, uint16_t flags);

/*
 * Send @req and feed each reply message to @cb until the ack, NLMSG_DONE
 * or an error. Returns 0, or -1 with @e filled in.
 */
int nl_exchange(struct nl *nl, const struct nlmsghdr *req, mnl_cb_t cb,
		void *data, struct nl_error *e);

/*
 * A "do" request: *@reply is a malloc()ed copy of the one reply message,
 * or NULL when the kernel only acked.
 */
int nl_do(struct nl *nl, const struct nlmsghdr *req, struct nlmsghdr **reply,
	  struct nl_error *e);

/* Resolve a family by name; ENOENT from the kernel means it isn't there. */
int nl_family_get(struct nl *nl, const char *name, struct nl_family *fam,
		  struct nl_error *e);
void nl_family_free(struct nl_family *fam);
bool nl_family_has_op(const struct nl_family *fam, uint32_t cmd);
const struct nl_mcgrp *nl_family_mcgrp(const struct nl_family *fam,
				       const char *name);

/*
 * Join a multicast group, e.g. nl_family_mcgrp(fam, "monitor")->id, or
 * leave it. While subscribed, nl_exchange() drops the notifications that
 * arrive between the replies to its request (they have sequence number 0).
 */
int nl_subscribe(struct nl *nl, uint32_t group, struct nl_error *e);
int nl_unsubscribe(struct nl *nl, uint32_t group, struct nl_error *e);

/* The socket's descriptor, to poll() it. */
int nl_fd(const struct nl *nl);

/* Ask for a receive buffer of @bytes (best effort: capped by rmem_max). */
void nl_set_rcvbuf(struct nl *nl, int bytes);

typedef void (*nl_msg_fn)(const struct nlmsghdr *nlh, void *data);

/*
 * Receive one datagram if one is waiting, without blocking, and call @fn
 * (unless NULL) on each message in it. Returns 1 when one was received,
 * 0 when none was waiting, -1 with @e filled in on an error: ENOBUFS
 * means notifications were lost because the receive buffer was full (the
 * socket works on).
 */
int nl_recv_msgs(struct nl *nl, nl_msg_fn fn, void *data, struct nl_error *e);

/* Discard whatever is waiting to be received. */
void nl_drain(struct nl *nl);

#endif /* MEMDIAGCTL_NL_H */
