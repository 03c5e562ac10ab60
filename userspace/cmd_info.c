// SPDX-License-Identifier: GPL-2.0
/* cmd_info.c - "memdiagctl info": the processor and what memdiag can do on it. */

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memdiag.h>

#include "cmd.h"
#include "cpulist.h"
#include "names.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * JSON keys (Documentation/json.rst): the spec's attribute names in
 * snake_case, repeated nests as arrays named in the plural. Errors about a
 * malformed reply name the attribute by its spec name instead (KEY_SPEC).
 */
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
};
_Static_assert(ARRAY_SIZE(info_types) == MEMDIAG_A_INFO_MAX + 1,
	       "info_types does not cover MEMDIAG_A_INFO_MAX");

static const enum mnl_attr_data_type socket_types[] = {
	[MEMDIAG_A_SOCKET_ID] = MNL_TYPE_U32,
	[MEMDIAG_A_SOCKET_PACKAGE_ID] = MNL_TYPE_U32,
	[MEMDIAG_A_SOCKET_CPU] = MNL_TYPE_U32,
};
_Static_assert(ARRAY_SIZE(socket_types) == MEMDIAG_A_SOCKET_MAX + 1,
	       "socket_types does not cover MEMDIAG_A_SOCKET_MAX");

static const enum mnl_attr_data_type cap_types[] = {
	[MEMDIAG_A_CAPABILITY_ID] = MNL_TYPE_U32,
	[MEMDIAG_A_CAPABILITY_AVAILABLE] = MNL_TYPE_U8,
	[MEMDIAG_A_CAPABILITY_REASON] = MNL_TYPE_NUL_STRING,
};
_Static_assert(ARRAY_SIZE(cap_types) == MEMDIAG_A_CAPABILITY_MAX + 1,
	       "cap_types does not cover MEMDIAG_A_CAPABILITY_MAX");

struct info_socket {
	const struct nlattr *tb[MEMDIAG_A_SOCKET_MAX + 1];
	uint32_t *cpu;
	size_t nr_cpu;
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

static void info_free(struct info *info)
{
	size_t i;

	for (i = 0; i < info->nr_socket; i++)
		free(info->socket[i].cpu);
	free(info->socket);
	free(info->cap);
}

/* An enum as its spec name, or as a number when this memdiagctl is older. */
static void print_enum(struct printer *p, enum print_type t, const char *key,
		       const char *fmt_name, const char *fmt_num,
		       const char *name, uint32_t v)
{
	if (name)
		print_string(p, t, key, fmt_name, name);
	else
		print_uint(p, t, key, fmt_num, v);
}

static void print_socket(struct printer *p, const struct info_socket *s)
{
	const struct nlattr *const *tb = s->tb;
	char *list;
	size_t i, len;

	print_open_object(p, NULL);
	if (tb[MEMDIAG_A_SOCKET_ID])
		print_uint(p, PRINT_ANY, "id", "  socket %u",
			   mnl_attr_get_u32(tb[MEMDIAG_A_SOCKET_ID]));
	if (tb[MEMDIAG_A_SOCKET_PACKAGE_ID])
		print_uint(p, PRINT_ANY, "package_id", "  package %u",
			   mnl_attr_get_u32(tb[MEMDIAG_A_SOCKET_PACKAGE_ID]));

	print_open_array(p, "cpus");
	for (i = 0; i < s->nr_cpu; i++)
		print_uint(p, PRINT_JSON, NULL, "%u", s->cpu[i]);
	print_close_array(p);

	len = cpulist_format(NULL, 0, s->cpu, s->nr_cpu);
	list = malloc(len + 1);
	if (list)
		cpulist_format(list, len + 1, s->cpu, s->nr_cpu);
	print_textf(p, "  cpus %s (%zu)\n",
		    !list ? "?" : s->nr_cpu ? list : "none", s->nr_cpu);
	free(list);
	print_close_object(p);
}

static void print_cap(struct printer *p, const struct info_cap *c)
{
	const struct nlattr *const *tb = c->tb;
	const struct nlattr *reason = tb[MEMDIAG_A_CAPABILITY_REASON];

	print_open_object(p, NULL);
	if (tb[MEMDIAG_A_CAPABILITY_ID]) {
		uint32_t id = mnl_attr_get_u32(tb[MEMDIAG_A_CAPABILITY_ID]);

		print_enum(p, PRINT_ANY, "id", "%-18s", "%-18u",
			   name_capability(id), id);
	} else {
		print_textf(p, "%-18s", "?");
	}
	if (tb[MEMDIAG_A_CAPABILITY_AVAILABLE])
		print_bool(p, PRINT_ANY, "available",
			   reason ? "%-11s" : "%s",
			   mnl_attr_get_u8(tb[MEMDIAG_A_CAPABILITY_AVAILABLE]));
	else
		print_textf(p, reason ? "%-11s" : "%s", "?");
	if (reason)
		print_string(p, PRINT_ANY, "reason", "%s",
			     mnl_attr_get_str(reason));
	print_textf(p, "\n");
	print_close_object(p);
}

static uint32_t u32(const struct nlattr *attr)
{
	return mnl_attr_get_u32(attr);
}

static void info_print(struct printer *p, const struct info *info)
{
	const struct nlattr *const *tb = info->tb;
	const struct nlattr *platform = tb[MEMDIAG_A_INFO_PLATFORM];
	size_t i;

	print_open_object(p, NULL);

	/* text: "memdiag protocol 1, platform hw" */
	if (tb[MEMDIAG_A_INFO_PROTO_VERSION])
		print_uint(p, PRINT_ANY, "proto_version",
			   "memdiag protocol %u",
			   u32(tb[MEMDIAG_A_INFO_PROTO_VERSION]));
	if (platform) {
		print_textf(p, tb[MEMDIAG_A_INFO_PROTO_VERSION] ? ", " : "memdiag ");
		print_enum(p, PRINT_TEXT, NULL, "platform %s", "platform %u",
			   name_platform(u32(platform)), u32(platform));
	}
	if (tb[MEMDIAG_A_INFO_PROTO_VERSION] || platform)
		print_textf(p, "\n");

	print_textf(p, "%-10s", "cpu");
	if (tb[MEMDIAG_A_INFO_VENDOR])
		print_string(p, PRINT_ANY, "vendor", "%s",
			     mnl_attr_get_str(tb[MEMDIAG_A_INFO_VENDOR]));
	if (tb[MEMDIAG_A_INFO_FAMILY])
		print_uint(p, PRINT_ANY, "family", " family %u",
			   u32(tb[MEMDIAG_A_INFO_FAMILY]));
	if (tb[MEMDIAG_A_INFO_MODEL])
		print_uint(p, PRINT_ANY, "model", " model %u",
			   u32(tb[MEMDIAG_A_INFO_MODEL]));
	if (tb[MEMDIAG_A_INFO_STEPPING])
		print_uint(p, PRINT_ANY, "stepping", " stepping %u",
			   u32(tb[MEMDIAG_A_INFO_STEPPING]));
	print_textf(p, "\n");
	if (tb[MEMDIAG_A_INFO_MODEL_NAME])
		print_string(p, PRINT_ANY, "model_name", "          %s\n",
			     mnl_attr_get_str(tb[MEMDIAG_A_INFO_MODEL_NAME]));

	if (tb[MEMDIAG_A_INFO_UARCH] || tb[MEMDIAG_A_INFO_UARCH_REASON])
		print_textf(p, "%-10s", "uarch");
	if (tb[MEMDIAG_A_INFO_UARCH])
		print_string(p, PRINT_ANY, "uarch", "%s",
			     mnl_attr_get_str(tb[MEMDIAG_A_INFO_UARCH]));
	if (tb[MEMDIAG_A_INFO_UARCH_REASON])
		print_string(p, PRINT_ANY, "uarch_reason", ": %s",
			     mnl_attr_get_str(tb[MEMDIAG_A_INFO_UARCH_REASON]));
	if (tb[MEMDIAG_A_INFO_UARCH] || tb[MEMDIAG_A_INFO_UARCH_REASON])
		print_textf(p, "\n");

	if (platform)
		print_enum(p, PRINT_JSON, "platform", "%s", "%u",
			   name_platform(u32(platform)), u32(platform));
	if (tb[MEMDIAG_A_INFO_TSC_KHZ])
		print_uint(p, PRINT_ANY, "tsc_khz", "tsc       %u kHz\n",
			   u32(tb[MEMDIAG_A_INFO_TSC_KHZ]));
	if (tb[MEMDIAG_A_INFO_CORE_MODE] || tb[MEMDIAG_A_INFO_CORE_MODE_REASON])
		print_textf(p, "%-10s", "core mode");
	if (tb[MEMDIAG_A_INFO_CORE_MODE])
		print_enum(p, PRINT_ANY, "core_mode", "%s", "%u",
			   name_core_mode(u32(tb[MEMDIAG_A_INFO_CORE_MODE])),
			   u32(tb[MEMDIAG_A_INFO_CORE_MODE]));
	if (tb[MEMDIAG_A_INFO_CORE_MODE_REASON])
		print_string(p, PRINT_ANY, "core_mode_reason",
			     tb[MEMDIAG_A_INFO_CORE_MODE] ? ": %s" : "%s",
			     mnl_attr_get_str(tb[MEMDIAG_A_INFO_CORE_MODE_REASON]));
	if (tb[MEMDIAG_A_INFO_CORE_MODE] || tb[MEMDIAG_A_INFO_CORE_MODE_REASON])
		print_textf(p, "\n");
	if (tb[MEMDIAG_A_INFO_NR_SOCKETS])
		print_uint(p, PRINT_ANY, "nr_sockets", "sockets   %u\n",
			   u32(tb[MEMDIAG_A_INFO_NR_SOCKETS]));

	/* JSON has the arrays even when empty, so consumers needn't test */
	print_open_array(p, "sockets");
	for (i = 0; i < info->nr_socket; i++)
		print_socket(p, &info->socket[i]);
	print_close_array(p);

	if (info->nr_cap)
		print_textf(p, "%-18s%-11s%s\n", "capability", "available",
			    "reason");
	print_open_array(p, "capabilities");
	for (i = 0; i < info->nr_cap; i++)
		print_cap(p, &info->cap[i]);
	print_close_array(p);

	print_close_object(p);
}

/* Parse @nlh into @info, reporting a malformed reply; an exit code. */
static int info_check(const char *cmd, const struct nlmsghdr *nlh,
		      struct info *info)
{
	const struct nlattr *version;
	char why[160];

	memset(info, 0, sizeof(*info));
	errno = 0;
	if (info_parse(nlh, info, why, sizeof(why)) < 0) {
		if (errno == ENOMEM) {
			cli_err(cmd, "cannot read the get-info reply", "%s",
				strerror(ENOMEM));
			return MDC_EXIT_LOCAL;
		}
		cli_err(cmd, "malformed get-info reply from the memdiag module",
			"%s", why);
		return MDC_EXIT_KERNEL;
	}
	version = info->tb[MEMDIAG_A_INFO_PROTO_VERSION];
	if (version)
		return cli_check_proto(cmd, mnl_attr_get_u32(version));
	return MDC_EXIT_OK;
}

int info_show(const char *cmd, struct printer *p, const struct nlmsghdr *nlh)
{
	struct info info;
	int rc;

	rc = info_check(cmd, nlh, &info);
	if (rc == MDC_EXIT_OK)
		info_print(p, &info);
	info_free(&info);
	return rc;
}

int info_summarize(const char *cmd, const struct nlmsghdr *nlh,
		   struct info_summary *sum)
{
	const struct nlattr *const *tb;
	struct info info;
	size_t i;
	int rc;

	memset(sum, 0, sizeof(*sum));
	rc = info_check(cmd, nlh, &info);
	if (rc != MDC_EXIT_OK)
		goto out;
	tb = info.tb;
	if (tb[MEMDIAG_A_INFO_NR_SOCKETS]) {
		sum->have_nr_sockets = true;
		sum->nr_sockets = u32(tb[MEMDIAG_A_INFO_NR_SOCKETS]);
	}
	if (tb[MEMDIAG_A_INFO_TSC_KHZ])
		sum->tsc_khz = u32(tb[MEMDIAG_A_INFO_TSC_KHZ]);
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
		cli_err(cmd, "cannot read the get-info reply", "%s",
			strerror(ENOMEM));
		rc = MDC_EXIT_LOCAL;
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

int info_check_socket(const char *cmd, const struct info_summary *sum,
		      uint32_t socket)
{
	size_t i;

	for (i = 0; i < sum->nr_socket; i++)
		if (sum->socket[i] == socket)
			return MDC_EXIT_OK;
	/* without a socket list, trust nr-sockets; without both, the module */
	if (!sum->nr_socket &&
	    (!sum->have_nr_sockets || socket < sum->nr_sockets))
		return MDC_EXIT_OK;
	if (sum->nr_socket) {
		char list[128];

		cpulist_format(list, sizeof(list), sum->socket, sum->nr_socket);
		return cli_usage(cmd, "option '--socket': there is no socket %u (the sockets are %s)",
				 socket, list);
	}
	return cli_usage(cmd, "option '--socket': there is no socket %u (there are %u sockets, from 0)",
			 socket, sum->nr_sockets);
}

int info_fetch(const char *cmd, struct nl *nl, const struct nl_family *fam,
	       struct nlmsghdr **reply)
{
	struct nlmsghdr *req;
	struct nl_error e;

	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_GET_INFO,
			   MEMDIAG_FAMILY_VERSION, 0);
	mnl_attr_put_u32(req, MEMDIAG_A_INFO_PROTO_VERSION,
			 MEMDIAG_FAMILY_VERSION);
	if (nl_do(nl, req, reply, &e) < 0)
		return cli_nl_fail(cmd, "get-info request failed", &e,
				   name_info_attr);
	if (!*reply) {
		cli_err(cmd, "get-info request failed",
			"the memdiag module acknowledged without a reply");
		return MDC_EXIT_KERNEL;
	}
	cli_nl_warn(cmd, &e);
	return MDC_EXIT_OK;
}

void cmd_info_usage(FILE *f)
{
	fputs("Usage: " PROG " info [-j|--json] [-p|--pretty]\n"
	      "\n"
	      "Show what the loaded memdiag module found: the processor (vendor,\n"
	      "family, model, stepping, brand string), the microarchitecture it\n"
	      "recognised (or why the processor is unsupported), the platform\n"
	      "(hw, or sim for the test simulator), the TSC frequency, how sessions\n"
	      "reach the core counters (core mode) and why, the sockets with their\n"
	      "online CPUs, and each capability with the reason when it is\n"
	      "unavailable.\n"
	      "\n"
	      "Options:\n"
	      "  -j, --json    print one JSON document; its keys are the netlink\n"
	      "                spec's attribute names in snake_case\n"
	      "  -p, --pretty  indent the JSON output (implies --json)\n"
	      "  -h, --help    print this help and exit\n", f);
}

static const struct option info_options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int cmd_info(const struct opts *gopts, int argc, char **argv)
{
	const char *cmd = "info";
	struct opts o = *gopts;
	struct nlmsghdr *reply = NULL;
	struct nl_family fam;
	struct printer p;
	struct nl nl;
	int c, rc;

	optind = 0;	/* rescan from argv[1] with a fresh getopt state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jph", info_options, NULL)) != -1) {
		switch (c) {
		case 'j':
			o.json = true;
			break;
		case 'p':
			o.json = o.pretty = true;
			break;
		case 'h':
			cmd_info_usage(stdout);
			return MDC_EXIT_OK;
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);

	rc = cli_connect(cmd, &nl, &fam);
	if (rc != MDC_EXIT_OK)
		return rc;
	rc = info_fetch(cmd, &nl, &fam, &reply);
	if (rc == MDC_EXIT_OK) {
		print_init(&p, stdout, o.json, o.pretty);
		rc = info_show(cmd, &p, reply);
		if (rc == MDC_EXIT_OK)
			rc = cli_output_end(cmd, &p);
	}
	free(reply);
	nl_family_free(&fam);
	nl_close(&nl);
	return rc;
}
