// SPDX-License-Identifier: GPL-2.0
/* info.c - fetch, check and summarize the module's get-info reply. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "info.h"
#include "names.h"

int md_check_proto(uint32_t version, struct cli_error *err)
{
	if (version == MEMDIAG_FAMILY_VERSION)
		return MDC_EXIT_OK;
	return cli_error_set(err, MDC_EXIT_PROTO, "protocol version mismatch",
			     "%s speaks protocol %u but the loaded memdiag module speaks %u: use the %s built with that module",
			     PROG, (unsigned int)MEMDIAG_FAMILY_VERSION,
			     version, PROG);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Errors about a malformed reply name the attribute by its spec name. */
#define KEY_SPEC(a) name_info_attr(MEMDIAG_A_INFO_##a)

/*
 * What each attribute of the reply must look like. MNL_TYPE_UNSPEC marks
 * what this memdiagctl doesn't read; attributes a newer module adds are
 * skipped the same way.
 */
static const enum mnl_attr_data_type info_types[] = {
	[MEMDIAG_A_INFO_PROTO_VERSION] = MNL_TYPE_U32,
	[MEMDIAG_A_INFO_VENDOR] = MNL_TYPE_NUL_STRING,
	[MEMDIAG_A_INFO_FAMILY] = MNL_TYPE_U32,
	[MEMDIAG_A_INFO_MODEL] = MNL_TYPE_U32,
	[MEMDIAG_A_INFO_STEPPING] = MNL_TYPE_U32,
	[MEMDIAG_A_INFO_MODEL_NAME] = MNL_TYPE_NUL_STRING,
	[MEMDIAG_A_INFO_UARCH] = MNL_TYPE_NUL_STRING,
	[MEMDIAG_A_INFO_UARCH_REASON] = MNL_TYPE_NUL_STRING,
	[MEMDIAG_A_INFO_PLATFORM] = MNL_TYPE_U32,
	[MEMDIAG_A_INFO_NR_SOCKETS] = MNL_TYPE_U32,
	[MEMDIAG_A_INFO_SOCKET] = MNL_TYPE_NESTED,
	[MEMDIAG_A_INFO_CAPABILITY] = MNL_TYPE_NESTED,
	[MEMDIAG_A_INFO_TSC_KHZ] = MNL_TYPE_U32,
	[MEMDIAG_A_INFO_CORE_MODE] = MNL_TYPE_U32,
	[MEMDIAG_A_INFO_CORE_MODE_REASON] = MNL_TYPE_NUL_STRING,
	[MEMDIAG_A_INFO_CORE_RESTORE_FAILED_CPUS] = MNL_TYPE_U32,
};
_Static_assert(ARRAY_SIZE(info_types) == MEMDIAG_A_INFO_MAX + 1,
	       "info_types does not cover MEMDIAG_A_INFO_MAX");

static const enum mnl_attr_data_type socket_types[] = {
	[MEMDIAG_A_SOCKET_ID] = MNL_TYPE_U32,
	[MEMDIAG_A_SOCKET_PACKAGE_ID] = MNL_TYPE_U32,
	[MEMDIAG_A_SOCKET_CPU] = MNL_TYPE_U32,
	[MEMDIAG_A_SOCKET_NUMA_NODES] = MNL_TYPE_U32,
	[MEMDIAG_A_SOCKET_DF_NODE] = MNL_TYPE_NESTED,
	[MEMDIAG_A_SOCKET_DF_NODES_REASON] = MNL_TYPE_NUL_STRING,
};
_Static_assert(ARRAY_SIZE(socket_types) == MEMDIAG_A_SOCKET_MAX + 1,
	       "socket_types does not cover MEMDIAG_A_SOCKET_MAX");

static const enum mnl_attr_data_type cap_types[] = {
	[MEMDIAG_A_CAPABILITY_ID] = MNL_TYPE_U32,
	[MEMDIAG_A_CAPABILITY_AVAILABLE] = MNL_TYPE_U8,
	[MEMDIAG_A_CAPABILITY_REASON] = MNL_TYPE_NUL_STRING,
	[MEMDIAG_A_CAPABILITY_VERIFIED] = MNL_TYPE_U8,
};
_Static_assert(ARRAY_SIZE(cap_types) == MEMDIAG_A_CAPABILITY_MAX + 1,
	       "cap_types does not cover MEMDIAG_A_CAPABILITY_MAX");

/* 1: known and well-formed, 0: unknown (skip), -1: malformed. */
static int check_attr(const struct nlattr *attr,
		      const enum mnl_attr_data_type *types, size_t nr_types)
{
	uint16_t type = mnl_attr_get_type(attr);

	if (type >= nr_types || types[type] == MNL_TYPE_UNSPEC)
		return 0;
	return mnl_attr_validate(attr, types[type]) < 0 ? -1 : 1;
}

static int malformed(char *why, size_t size, const char *set, unsigned int type,
		     const char *name)
{
	snprintf(why, size, "attribute %s%s%s (type %u) has the wrong size",
		 set ? set : "", set ? "." : "", name ? name : "?", type);
	errno = EBADMSG;
	return -1;
}

static void *grow(void *array, size_t *nr, size_t size)
{
	void *p = realloc(array, (*nr + 1) * size);

	if (p) {
		memset((char *)p + *nr * size, 0, size);
		(*nr)++;
	}
	return p;
}

static int parse_socket(const struct nlattr *nest, struct info *info,
			char *why, size_t size)
{
	const struct nlattr *attr;
	struct info_socket *sockets, *s;
	size_t max_cpu = 0;

	sockets = grow(info->socket, &info->nr_socket, sizeof(*sockets));
	if (!sockets)
		return -1;
	info->socket = sockets;
	s = &sockets[info->nr_socket - 1];

	mnl_attr_for_each_nested(attr, nest)
		max_cpu++;
	s->cpu = calloc(max_cpu ? max_cpu : 1, sizeof(*s->cpu));
	if (!s->cpu)
		return -1;
	mnl_attr_for_each_nested(attr, nest) {
		uint16_t type = mnl_attr_get_type(attr);

		switch (check_attr(attr, socket_types, ARRAY_SIZE(socket_types))) {
		case -1:
			return malformed(why, size, KEY_SPEC(SOCKET), type,
					 name_socket_attr(type));
		case 0:
			continue;
		}
		if (type == MEMDIAG_A_SOCKET_CPU)
			s->cpu[s->nr_cpu++] = mnl_attr_get_u32(attr);
		else if (df_nodes_take(&s->df, attr, MEMDIAG_A_SOCKET_DF_NODE,
				       MEMDIAG_A_SOCKET_DF_NODES_REASON) < 0)
			return malformed(why, size, KEY_SPEC(SOCKET), type,
					 name_socket_attr(type));
		else
			s->tb[type] = attr;
	}
	return 0;
}

static int parse_cap(const struct nlattr *nest, struct info *info,
		     char *why, size_t size)
{
	const struct nlattr *attr;
	struct info_cap *caps;

	caps = grow(info->cap, &info->nr_cap, sizeof(*caps));
	if (!caps)
		return -1;
	info->cap = caps;
	mnl_attr_for_each_nested(attr, nest) {
		uint16_t type = mnl_attr_get_type(attr);

		switch (check_attr(attr, cap_types, ARRAY_SIZE(cap_types))) {
		case -1:
			return malformed(why, size, KEY_SPEC(CAPABILITY), type,
					 name_capability_attr(type));
		case 0:
			continue;
		}
		caps[info->nr_cap - 1].tb[type] = attr;
	}
	return 0;
}

/* Check the whole reply before printing any of it. -1 sets errno. */
static int info_parse(const struct nlmsghdr *nlh, struct info *info,
		      char *why, size_t size)
{
	const struct nlattr *attr;
	int ret = 0;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr)) {
		snprintf(why, size, "no generic netlink header");
		errno = EBADMSG;
		return -1;
	}
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		uint16_t type = mnl_attr_get_type(attr);

		switch (check_attr(attr, info_types, ARRAY_SIZE(info_types))) {
		case -1:
			return malformed(why, size, NULL, type,
					 name_info_attr(type));
		case 0:
			continue;
		}
		if (type == MEMDIAG_A_INFO_SOCKET)
			ret = parse_socket(attr, info, why, size);
		else if (type == MEMDIAG_A_INFO_CAPABILITY)
			ret = parse_cap(attr, info, why, size);
		else
			info->tb[type] = attr;
		if (ret < 0)
			return -1;
	}
	return 0;
}

void info_free(struct info *info)
{
	size_t i;

	for (i = 0; i < info->nr_socket; i++)
		free(info->socket[i].cpu);
	free(info->socket);
	free(info->cap);
}

static uint32_t u32(const struct nlattr *attr)
{
	return mnl_attr_get_u32(attr);
}

int info_check(const struct nlmsghdr *nlh, struct info *info,
	       struct cli_error *err)
{
	const struct nlattr *version;
	char why[160];

	cli_error_init(err);
	memset(info, 0, sizeof(*info));
	errno = 0;
	if (info_parse(nlh, info, why, sizeof(why)) < 0) {
		if (errno == ENOMEM)
			return cli_error_set(err, MDC_EXIT_LOCAL,
					     "cannot read the get-info reply",
					     "%s", strerror(ENOMEM));
		return cli_error_set(err, MDC_EXIT_KERNEL,
				     "malformed get-info reply from the memdiag module",
				     "%s", why);
	}
	version = info->tb[MEMDIAG_A_INFO_PROTO_VERSION];
	if (version)
		return md_check_proto(mnl_attr_get_u32(version), err);
	return MDC_EXIT_OK;
}

int info_summarize(const struct nlmsghdr *nlh, struct info_summary *sum,
		   struct cli_error *err)
{
	const struct nlattr *const *tb;
	struct info info;
	size_t i;
	int rc;

	memset(sum, 0, sizeof(*sum));
	rc = info_check(nlh, &info, err);
	if (rc != MDC_EXIT_OK)
		goto out;
	tb = info.tb;
	if (tb[MEMDIAG_A_INFO_NR_SOCKETS]) {
		sum->have_nr_sockets = true;
		sum->nr_sockets = u32(tb[MEMDIAG_A_INFO_NR_SOCKETS]);
	}
	if (tb[MEMDIAG_A_INFO_TSC_KHZ])
		sum->tsc_khz = u32(tb[MEMDIAG_A_INFO_TSC_KHZ]);
	if (tb[MEMDIAG_A_INFO_PLATFORM]) {
		sum->have_platform = true;
		sum->platform = u32(tb[MEMDIAG_A_INFO_PLATFORM]);
	}
	if (tb[MEMDIAG_A_INFO_CORE_MODE]) {
		sum->have_core_mode = true;
		sum->core_mode = u32(tb[MEMDIAG_A_INFO_CORE_MODE]);
	}
	if (tb[MEMDIAG_A_INFO_CORE_MODE_REASON])
		snprintf(sum->core_mode_reason, sizeof(sum->core_mode_reason),
			 "%s", mnl_attr_get_str(tb[MEMDIAG_A_INFO_CORE_MODE_REASON]));
	sum->socket = calloc(info.nr_socket ? info.nr_socket : 1,
			     sizeof(*sum->socket));
	if (!sum->socket) {
		rc = cli_error_set(err, MDC_EXIT_LOCAL,
				   "cannot read the get-info reply", "%s",
				   strerror(ENOMEM));
		goto out;
	}
	for (i = 0; i < info.nr_socket; i++)
		if (info.socket[i].tb[MEMDIAG_A_SOCKET_ID])
			sum->socket[sum->nr_socket++] =
				u32(info.socket[i].tb[MEMDIAG_A_SOCKET_ID]);
	for (i = 0; i < info.nr_cap; i++) {
		const struct nlattr *const *ctb = info.cap[i].tb;
		struct info_cap_summary *c;
		uint32_t id;

		if (!ctb[MEMDIAG_A_CAPABILITY_ID])
			continue;
		id = u32(ctb[MEMDIAG_A_CAPABILITY_ID]);
		if (id >= ARRAY_SIZE(sum->cap))
			continue;	/* one this memdiagctl doesn't use */
		c = &sum->cap[id];
		c->listed = true;
		c->available = ctb[MEMDIAG_A_CAPABILITY_AVAILABLE] &&
			       mnl_attr_get_u8(ctb[MEMDIAG_A_CAPABILITY_AVAILABLE]);
		if (ctb[MEMDIAG_A_CAPABILITY_REASON])
			snprintf(c->reason, sizeof(c->reason), "%s",
				 mnl_attr_get_str(ctb[MEMDIAG_A_CAPABILITY_REASON]));
	}
out:
	info_free(&info);
	if (rc != MDC_EXIT_OK)
		info_summary_free(sum);
	return rc;
}

void info_summary_free(struct info_summary *sum)
{
	free(sum->socket);
	sum->socket = NULL;
	sum->nr_socket = 0;
}

int info_fetch(struct nl *nl, const struct nl_family *fam,
	       struct nlmsghdr **reply, struct cli_error *err)
{
	struct nlmsghdr *req;
	struct nl_error e;

	cli_error_init(err);
	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_GET_INFO,
			   MEMDIAG_FAMILY_VERSION, 0);
	mnl_attr_put_u32(req, MEMDIAG_A_INFO_PROTO_VERSION,
			 MEMDIAG_FAMILY_VERSION);
	if (nl_do(nl, req, reply, &e) < 0)
		return cli_error_nl(err, "get-info request failed", &e,
				    name_info_attr);
	if (!*reply)
		return cli_error_set(err, MDC_EXIT_KERNEL, "get-info request failed",
				     "the memdiag module acknowledged without a reply");
	snprintf(err->warning, sizeof(err->warning), "%s", e.msg);
	return MDC_EXIT_OK;
}
