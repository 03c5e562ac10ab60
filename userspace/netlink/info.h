/* SPDX-License-Identifier: GPL-2.0 */
/*
 * info.h - the memdiag module's get-info reply: fetched, checked and
 * summarized. Nothing here prints; failures come back in a cli_error.
 */

#ifndef MEMDIAGCTL_INFO_H
#define MEMDIAGCTL_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/memdiag.h>

#include "df_nodes.h"
#include "error.h"
#include "nl.h"

struct info_socket {
	const struct nlattr *tb[MEMDIAG_A_SOCKET_MAX + 1];
	uint32_t *cpu;
	size_t nr_cpu;
	struct df_nodes df;	/* AMD Zen 2/3: channel -> node table */
};

struct info_cap {
	const struct nlattr *tb[MEMDIAG_A_CAPABILITY_MAX + 1];
};

/* The reply, checked; the attributes point into the message. */
struct info {
	const struct nlattr *tb[MEMDIAG_A_INFO_MAX + 1];
	struct info_socket *socket;
	size_t nr_socket;
	struct info_cap *cap;
	size_t nr_cap;
};

/* Send get-info; *@reply is the malloc()ed reply. Returns an exit code. */
int info_fetch(struct nl *nl, const struct nl_family *fam,
	       struct nlmsghdr **reply, struct cli_error *err);

/*
 * Check the whole reply (sizes of every known attribute, the protocol
 * version) into @info before anything of it is used; info_free() it
 * either way. Returns an exit code.
 */
int info_check(const struct nlmsghdr *nlh, struct info *info,
	       struct cli_error *err);
void info_free(struct info *info);

struct info_cap_summary {
	bool listed;		/* the module reported this capability */
	bool available;
	char reason[256];	/* "" when it gave none */
};

/* What snapshot, watch and run need to know from get-info. */
struct info_summary {
	bool have_nr_sockets;
	uint32_t nr_sockets;
	uint32_t *socket;	/* the socket ids, as listed */
	size_t nr_socket;
	uint32_t tsc_khz;	/* 0 when not reported */
	bool have_platform;
	uint32_t platform;	/* MEMDIAG_PLATFORM_HW or _SIM */
	bool have_core_mode;
	uint32_t core_mode;
	char core_mode_reason[256];
	struct info_cap_summary cap[MEMDIAG_CAPABILITY_MAX + 1];
};

/* Check a get-info reply and summarize it: an exit code. */
int info_summarize(const struct nlmsghdr *nlh, struct info_summary *sum,
		   struct cli_error *err);
void info_summary_free(struct info_summary *sum);

/* MDC_EXIT_PROTO unless @version is the protocol this memdiagctl speaks. */
int md_check_proto(uint32_t version, struct cli_error *err);

#endif /* MEMDIAGCTL_INFO_H */
