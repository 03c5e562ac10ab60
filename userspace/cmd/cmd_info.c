// SPDX-License-Identifier: GPL-2.0
/* cmd_info.c - "memdiagctl info": the processor and what memdiag can do on it. */

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memdiag.h>

#include "cmd.h"
#include "cpulist.h"
#include "df_nodes_show.h"
#include "info_show.h"
#include "names.h"
#include "opts.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * JSON keys (Documentation/json.rst): the spec's attribute names in
 * snake_case, repeated nests as arrays named in the plural.
 */

static uint32_t u32(const struct nlattr *attr)
{
	return mnl_attr_get_u32(attr);
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
	/* AMD's NPS (or Intel's SNC): the DRAM counters stay per socket */
	if (tb[MEMDIAG_A_SOCKET_NUMA_NODES])
		print_uint(p, PRINT_ANY, "numa_nodes", "  numa nodes %u",
			   mnl_attr_get_u32(tb[MEMDIAG_A_SOCKET_NUMA_NODES]));

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
	/* AMD Zen 2/3: which NUMA node each DRAM channel serves */
	df_nodes_json(p, &s->df, false);
	df_nodes_info_text(p, &s->df);
	print_close_object(p);
}

/*
 * An available capability whose working is not shown yet (prefetch-control
 * before any write was read back): "untested" and why, in text; JSON
 * keeps available and adds verified.
 */
#define UNTESTED_WHY "the MSR reads, but no write to it has been read back yet: 'prefetch disable' shows whether one sticks"

static void print_cap(struct printer *p, const struct info_cap *c)
{
	const struct nlattr *const *tb = c->tb;
	const struct nlattr *reason = tb[MEMDIAG_A_CAPABILITY_REASON];
	const struct nlattr *verified = tb[MEMDIAG_A_CAPABILITY_VERIFIED];
	bool untested = verified && !mnl_attr_get_u8(verified) &&
			tb[MEMDIAG_A_CAPABILITY_AVAILABLE] &&
			mnl_attr_get_u8(tb[MEMDIAG_A_CAPABILITY_AVAILABLE]);

	print_open_object(p, NULL);
	if (tb[MEMDIAG_A_CAPABILITY_ID]) {
		uint32_t id = mnl_attr_get_u32(tb[MEMDIAG_A_CAPABILITY_ID]);

		print_enum(p, PRINT_ANY, "id", "%-18s", "%-18u",
			   name_capability(id), id);
	} else {
		print_textf(p, "%-18s", "?");
	}
	if (untested)
		print_bool(p, PRINT_JSON, "available", "%s", true);
	if (untested)
		print_textf(p, "%-11s%s", "untested", UNTESTED_WHY);
	else if (tb[MEMDIAG_A_CAPABILITY_AVAILABLE])
		print_bool(p, PRINT_ANY, "available",
			   reason ? "%-11s" : "%s",
			   mnl_attr_get_u8(tb[MEMDIAG_A_CAPABILITY_AVAILABLE]));
	else
		print_textf(p, reason ? "%-11s" : "%s", "?");
	if (reason)
		print_string(p, PRINT_ANY, "reason", "%s",
			     mnl_attr_get_str(reason));
	if (verified)
		print_bool(p, PRINT_JSON, "verified", "%s",
			   mnl_attr_get_u8(verified));
	print_textf(p, "\n");
	print_close_object(p);
}

/* "memdiag protocol 1, platform hw", the CPU and its uarch. */
static void print_cpu(struct printer *p, const struct nlattr *const *tb)
{
	const struct nlattr *platform = tb[MEMDIAG_A_INFO_PLATFORM];

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
}

static void info_print(struct printer *p, const struct info *info)
{
	const struct nlattr *const *tb = info->tb;
	const struct nlattr *platform = tb[MEMDIAG_A_INFO_PLATFORM];
	size_t i;

	print_open_object(p, NULL);
	print_cpu(p, tb);
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
	/* text only when there is something to act on */
	if (tb[MEMDIAG_A_INFO_CORE_RESTORE_FAILED_CPUS])
		print_uint(p, u32(tb[MEMDIAG_A_INFO_CORE_RESTORE_FAILED_CPUS]) ?
			   PRINT_ANY : PRINT_JSON, "core_restore_failed_cpus",
			   "restore   the core PMU controls of %u CPUs are not put back: kept, retried at the next session start and at unload (see the kernel log)\n",
			   u32(tb[MEMDIAG_A_INFO_CORE_RESTORE_FAILED_CPUS]));
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

int info_show(const char *cmd, struct printer *p, const struct nlmsghdr *nlh)
{
	struct cli_error err;
	struct info info;

	if (info_check(nlh, &info, &err) == MDC_EXIT_OK)
		info_print(p, &info);
	info_free(&info);
	return cli_report(cmd, &err);
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
	      "unavailable. prefetch-control says \"untested\" while the prefetcher\n"
	      "MSR only reads: until a write to it has been read back since the\n"
	      "module was loaded (JSON: \"verified\" false), then \"yes\".\n"
	      "\n"
	      "Options:\n", f);
	cli_opts_usage(f, CLI_OPT_ALL, 16,
		       "print one JSON document; its keys are the netlink\n"
		       "spec's attribute names in snake_case");
}

int cmd_info(const struct opts *gopts, int argc, char **argv)
{
	const char *cmd = "info";
	struct opts o = *gopts;
	struct nlmsghdr *reply = NULL;
	struct cli_error err;
	struct nl_family fam;
	struct printer p;
	struct nl nl;
	struct cli_opts t;
	int c, rc;

	cli_opts_init(&t, CLI_OPT_ALL, ":", NULL);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		rc = cli_opts_common(cmd, c, argv, &o, cmd_info_usage);
		if (rc != CLI_OPT_NEXT)
			return rc == CLI_OPT_HELP_SHOWN ? MDC_EXIT_OK : rc;
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);

	rc = cli_connect(cmd, &nl, &fam);
	if (rc != MDC_EXIT_OK)
		return rc;
	info_fetch(&nl, &fam, &reply, &err);
	rc = cli_report(cmd, &err);
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
