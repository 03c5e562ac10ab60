// SPDX-License-Identifier: GPL-2.0
/* unit_info.c - unit tests: the info printer, fed canned get-info replies (cmd_info.c, info.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f info" runs its tests alone */
FIXTURE(info) {};
FIXTURE_SETUP(info) {}
FIXTURE_TEARDOWN(info) {}

static void put_cpu_info(struct nlmsghdr *nlh, const char *uarch)
{
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PROTO_VERSION, MEMDIAG_FAMILY_VERSION);
	mnl_attr_put_strz(nlh, MEMDIAG_A_INFO_VENDOR, "GenuineIntel");
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_FAMILY, 6);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_MODEL, 85);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_STEPPING, 4);
	mnl_attr_put_strz(nlh, MEMDIAG_A_INFO_MODEL_NAME,
			  "Intel Xeon Processor (Skylake)");
	mnl_attr_put_strz(nlh, MEMDIAG_A_INFO_UARCH, uarch);
}

static void put_socket(struct nlmsghdr *nlh, uint32_t id, uint32_t pkg,
		       const uint32_t *cpu, size_t n)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MEMDIAG_A_INFO_SOCKET);
	size_t i;

	mnl_attr_put_u32(nlh, MEMDIAG_A_SOCKET_ID, id);
	mnl_attr_put_u32(nlh, MEMDIAG_A_SOCKET_PACKAGE_ID, pkg);
	for (i = 0; i < n; i++)
		mnl_attr_put_u32(nlh, MEMDIAG_A_SOCKET_CPU, cpu[i]);
	mnl_attr_nest_end(nlh, nest);
}

static void put_cap(struct nlmsghdr *nlh, uint32_t id, bool avail,
		    const char *reason)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MEMDIAG_A_INFO_CAPABILITY);

	mnl_attr_put_u32(nlh, MEMDIAG_A_CAPABILITY_ID, id);
	mnl_attr_put_u8(nlh, MEMDIAG_A_CAPABILITY_AVAILABLE, avail);
	if (reason)
		mnl_attr_put_strz(nlh, MEMDIAG_A_CAPABILITY_REASON, reason);
	mnl_attr_nest_end(nlh, nest);
}

/* The two-socket Skylake-SP VM of the memdiagctl(8) example. */
static struct nlmsghdr *reply_skylake(char *buf)
{
	static const uint32_t cpus0[] = { 0, 1 }, cpus1[] = { 2, 3 };
	struct nlmsghdr *nlh = reply_start(buf);

	put_cpu_info(nlh, "Skylake-SP");
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PLATFORM, MEMDIAG_PLATFORM_HW);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_NR_SOCKETS, 2);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_TSC_KHZ, 2100000);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_CORE_MODE, MEMDIAG_CORE_MODE_NONE);
	mnl_attr_put_strz(nlh, MEMDIAG_A_INFO_CORE_MODE_REASON,
			  "the core PMU is not visible (hypervisor?)");
	put_socket(nlh, 0, 0, cpus0, 2);
	put_socket(nlh, 1, 1, cpus1, 2);
	put_cap(nlh, MEMDIAG_CAPABILITY_IMC_BANDWIDTH, false,
		"no Skylake-SP memory controller PCI device found");
	put_cap(nlh, MEMDIAG_CAPABILITY_CORE_LATENCY, false,
		"the core PMU is not visible (hypervisor?)");
	put_cap(nlh, MEMDIAG_CAPABILITY_OFFCORE, false,
		"the core PMU is not visible (hypervisor?)");
	put_cap(nlh, MEMDIAG_CAPABILITY_PREFETCH_CONTROL, true, NULL);
	return nlh;
}

/*
 * An unsupported processor from a "newer" module: an attribute and a nested
 * attribute this memdiagctl doesn't know, an unknown capability and an
 * unknown platform, non-contiguous CPUs, a reason needing escapes.
 */
static struct nlmsghdr *reply_newer(char *buf)
{
	static const uint32_t cpus[] = { 0, 1, 2, 3, 8, 9, 10, 11 };
	struct nlmsghdr *nlh = reply_start(buf);
	struct nlattr *nest;

	put_cpu_info(nlh, "unsupported");
	mnl_attr_put_strz(nlh, MEMDIAG_A_INFO_UARCH_REASON,
			  "model 85 \"stepping\" 4 is\tnot supported");
	mnl_attr_put_u64(nlh, MEMDIAG_A_INFO_MAX + 7, 12345);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PLATFORM, 9);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_NR_SOCKETS, 1);
	_Static_assert(MEMDIAG_CORE_MODE_MAX < 7, "7 must be an unknown core mode");
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_CORE_MODE, 7);
	nest = mnl_attr_nest_start(nlh, MEMDIAG_A_INFO_SOCKET);
	mnl_attr_put_u32(nlh, MEMDIAG_A_SOCKET_ID, 0);
	mnl_attr_put_strz(nlh, MEMDIAG_A_SOCKET_MAX + 3, "future");
	mnl_attr_put_u32(nlh, MEMDIAG_A_SOCKET_PACKAGE_ID, 3);
	mnl_attr_put_u32(nlh, MEMDIAG_A_SOCKET_NUMA_NODES, 2);	/* NPS2 */
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		mnl_attr_put_u32(nlh, MEMDIAG_A_SOCKET_CPU, cpus[i]);
	/* AMD Zen 2/3's channel -> node table: NPS2, node 1 first */
	for (uint32_t node = 2; node-- > 0;) {
		struct nlattr *df = mnl_attr_nest_start(nlh,
						       MEMDIAG_A_SOCKET_DF_NODE);

		mnl_attr_put_u32(nlh, MEMDIAG_A_DF_NODE_ID, node);
		mnl_attr_put_u32(nlh, MEMDIAG_A_DF_NODE_CHANNELS,
				 0xfu << (4 * node));
		mnl_attr_nest_end(nlh, df);
	}
	mnl_attr_nest_end(nlh, nest);
	_Static_assert(MEMDIAG_CAPABILITY_MAX < 9, "9 must be an unknown capability");
	put_cap(nlh, 9, false, "C:\\path");
	return nlh;
}

static const char skylake_text[] =
	"memdiag protocol 1, platform hw\n"
	"cpu       GenuineIntel family 6 model 85 stepping 4\n"
	"          Intel Xeon Processor (Skylake)\n"
	"uarch     Skylake-SP\n"
	"tsc       2100000 kHz\n"
	"core mode none: the core PMU is not visible (hypervisor?)\n"
	"sockets   2\n"
	"  socket 0  package 0  cpus 0-1 (2)\n"
	"  socket 1  package 1  cpus 2-3 (2)\n"
	"capability        available  reason\n"
	"imc-bandwidth     no         no Skylake-SP memory controller PCI device found\n"
	"core-latency      no         the core PMU is not visible (hypervisor?)\n"
	"offcore           no         the core PMU is not visible (hypervisor?)\n"
	"prefetch-control  yes\n";

static const char skylake_json[] =
	"{\"proto_version\":1,\"vendor\":\"GenuineIntel\",\"family\":6,"
	"\"model\":85,\"stepping\":4,"
	"\"model_name\":\"Intel Xeon Processor (Skylake)\","
	"\"uarch\":\"Skylake-SP\",\"platform\":\"hw\",\"tsc_khz\":2100000,"
	"\"core_mode\":\"none\","
	"\"core_mode_reason\":\"the core PMU is not visible (hypervisor?)\","
	"\"nr_sockets\":2,"
	"\"sockets\":[{\"id\":0,\"package_id\":0,\"cpus\":[0,1]},"
	"{\"id\":1,\"package_id\":1,\"cpus\":[2,3]}],"
	"\"capabilities\":["
	"{\"id\":\"imc-bandwidth\",\"available\":false,"
	"\"reason\":\"no Skylake-SP memory controller PCI device found\"},"
	"{\"id\":\"core-latency\",\"available\":false,"
	"\"reason\":\"the core PMU is not visible (hypervisor?)\"},"
	"{\"id\":\"offcore\",\"available\":false,"
	"\"reason\":\"the core PMU is not visible (hypervisor?)\"},"
	"{\"id\":\"prefetch-control\",\"available\":true}]}\n";

static const char newer_text[] =
	"memdiag protocol 1, platform 9\n"
	"cpu       GenuineIntel family 6 model 85 stepping 4\n"
	"          Intel Xeon Processor (Skylake)\n"
	"uarch     unsupported: model 85 \"stepping\" 4 is?not supported\n"
	"core mode 7\n"
	"sockets   1\n"
	"  socket 0  package 3  numa nodes 2  cpus 0-3,8-11 (8)\n"
	"    numa node 1  dram channels 4-7\n"
	"    numa node 0  dram channels 0-3\n"
	"capability        available  reason\n"
	"9                 no         C:\\path\n";

static const char newer_json[] =
	"{\"proto_version\":1,\"vendor\":\"GenuineIntel\",\"family\":6,"
	"\"model\":85,\"stepping\":4,"
	"\"model_name\":\"Intel Xeon Processor (Skylake)\","
	"\"uarch\":\"unsupported\","
	"\"uarch_reason\":\"model 85 \\\"stepping\\\" 4 is\\tnot supported\","
	"\"platform\":9,\"core_mode\":7,\"nr_sockets\":1,"
	"\"sockets\":[{\"id\":0,\"package_id\":3,\"numa_nodes\":2,"
	"\"cpus\":[0,1,2,3,8,9,10,11],\"df_nodes\":[{\"id\":1,\"channels_mask\":240},"
	"{\"id\":0,\"channels_mask\":15}]}],"
	"\"capabilities\":[{\"id\":9,\"available\":false,\"reason\":\"C:\\\\path\"}]}\n";

/*
 * The Skylake-SP reply whose prefetch-control says whether a write was
 * read back (a module that knows; the plain reply is an older one's).
 */
static struct nlmsghdr *reply_verified(struct __test_metadata *_metadata,
				       char *buf, bool verified)
{
	struct nlmsghdr *nlh = reply_skylake(buf);
	struct nlattr *nest = mnl_attr_nest_start(nlh, MEMDIAG_A_INFO_CAPABILITY);

	/* a second prefetch-control capability stands for the first */
	mnl_attr_put_u32(nlh, MEMDIAG_A_CAPABILITY_ID,
			 MEMDIAG_CAPABILITY_PREFETCH_CONTROL);
	mnl_attr_put_u8(nlh, MEMDIAG_A_CAPABILITY_AVAILABLE, 1);
	mnl_attr_put_u8(nlh, MEMDIAG_A_CAPABILITY_VERIFIED, verified);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

/* Run info_show() on @nlh; returns its exit code, output and stderr. */
static int show(const struct nlmsghdr *nlh, bool json, bool pretty,
		char **out, char **err)
{
	struct capture c;
	struct printer p;
	struct buf b;
	int rc;

	buf_open(&b);
	print_init(&p, b.f, json, pretty);
	capture_start(&c);
	rc = info_show("info", &p, nlh);
	if (rc == MDC_EXIT_OK)
		rc = cli_output_end("info", &p);
	*err = capture_end(&c);
	buf_close(&b);
	*out = b.data;
	return rc;
}

static void show_case(struct __test_metadata *_metadata,
		      const struct nlmsghdr *nlh, bool json, bool pretty,
		      const char *want, const char *name)
{
	char *out, *err;
	int rc = show(nlh, json, pretty, &out, &err);

	ok(rc == MDC_EXIT_OK && !*err, "%s: exit 0, nothing on stderr", name);
	is_str(out, want, name);
	free(out);
	free(err);
}

TEST_F(info, info_show)
{
	char buf[4096];
	struct nlmsghdr *nlh;
	char *out, *err;
	int rc;

	nlh = reply_skylake(buf);
	show_case(_metadata, nlh, false, false, skylake_text,
		  "info text: Skylake-SP 2 sockets");
	show_case(_metadata, nlh, true, false, skylake_json,
		  "info json: Skylake-SP 2 sockets");

	/* prefetch-control: "yes" only once a write was read back */
	nlh = reply_verified(_metadata, buf, false);
	rc = show(nlh, false, false, &out, &err);
	ok(rc == MDC_EXIT_OK && strstr(out, "prefetch-control  yes\n") &&
	   strstr(out, "prefetch-control  untested   the MSR reads, but no write to it has been read back yet: 'prefetch disable' shows whether one sticks\n"),
	   "info text: prefetch-control untested, and why, before a write was read back");
	free(out);
	free(err);
	rc = show(nlh, true, false, &out, &err);
	ok(rc == MDC_EXIT_OK &&
	   strstr(out, "{\"id\":\"prefetch-control\",\"available\":true,\"verified\":false}]}"),
	   "info json: prefetch-control available, verified false");
	free(out);
	free(err);
	nlh = reply_verified(_metadata, buf, true);
	rc = show(nlh, false, false, &out, &err);
	ok(rc == MDC_EXIT_OK && !strstr(out, "untested"),
	   "info text: prefetch-control yes once a write was read back");
	free(out);
	free(err);
	rc = show(nlh, true, false, &out, &err);
	ok(rc == MDC_EXIT_OK &&
	   strstr(out, "{\"id\":\"prefetch-control\",\"available\":true,\"verified\":true}]}"),
	   "info json: prefetch-control verified true");
	free(out);
	free(err);

	nlh = reply_newer(buf);
	show_case(_metadata, nlh, false, false, newer_text,
		  "info text: unsupported, uarch-reason, unknown enums as numbers");
	show_case(_metadata, nlh, true, false, newer_json,
		  "info json: uarch-reason, unknown attributes skipped, enums as numbers");

	/* only the envelope: no keys, but the arrays are always there */
	nlh = reply_start(buf);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PROTO_VERSION, 1);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PLATFORM, MEMDIAG_PLATFORM_SIM);
	show_case(_metadata, nlh, true, true,
		  "{\n"
		  "  \"proto_version\": 1,\n"
		  "  \"platform\": \"sim\",\n"
		  "  \"sockets\": [],\n"
		  "  \"capabilities\": []\n"
		  "}\n",
		  "info pretty json: absent keys absent, arrays always present");

	nlh = reply_start(buf);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PROTO_VERSION, 2);
	mnl_attr_put_strz(nlh, MEMDIAG_A_INFO_VENDOR, "GenuineIntel");
	rc = show(nlh, false, false, &out, &err);
	ok(rc == MDC_EXIT_PROTO && !*out,
	   "info: a reply of another protocol version exits 4, prints nothing");
	has_str(err, "memdiagctl: info: protocol version mismatch: memdiagctl speaks protocol 1 but the loaded memdiag module speaks 2: use the memdiagctl built with that module",
		"info: protocol mismatch message");
	free(out);
	free(err);

	nlh = reply_start(buf);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PROTO_VERSION, 1);
	mnl_attr_put_u16(nlh, MEMDIAG_A_INFO_FAMILY, 6);
	rc = show(nlh, false, false, &out, &err);
	ok(rc == MDC_EXIT_KERNEL && !*out,
	   "info: a u16 where a u32 belongs exits 5, prints nothing");
	has_str(err, "memdiagctl: info: malformed get-info reply from the memdiag module: attribute family (type 3) has the wrong size",
		"info: malformed attribute named");
	free(out);
	free(err);

	nlh = reply_skylake(buf);
	{
		struct nlattr *nest = mnl_attr_nest_start(nlh, MEMDIAG_A_INFO_CAPABILITY);

		mnl_attr_put_strz(nlh, MEMDIAG_A_CAPABILITY_AVAILABLE, "yes");
		mnl_attr_nest_end(nlh, nest);
	}
	rc = show(nlh, true, false, &out, &err);
	ok(rc == MDC_EXIT_KERNEL && !*out,
	   "info: a malformed nested attribute late in the reply prints nothing");
	has_str(err, "attribute capability.available (type 2) has the wrong size",
		"info: malformed nested attribute named with its set");
	free(out);
	free(err);
}
