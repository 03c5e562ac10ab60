// SPDX-License-Identifier: GPL-2.0
/* unit.c - memdiagctl's unit tests, as "ok - name" lines for run.sh to number. */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>
#include <libmnl/libmnl.h>

#include "cli.h"
#include "cmd.h"
#include "cpulist.h"
#include "metrics.h"
#include "names.h"
#include "nl.h"
#include "parse.h"
#include "prefetch.h"
#include "print.h"
#include "run/counters.h"
#include "snapshot.h"
#include "../../kernels/kernel.h"

static int failures;

static bool ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		failures++;
	return cond;
}

static void skip(const char *name, const char *why)
{
	printf("ok - %s # SKIP %s\n", name, why);
}

/* TAP diagnostics: each line of @s prefixed with "#   label: ". */
static void diag(const char *label, const char *s)
{
	const char *nl;

	do {
		nl = strchr(s, '\n');
		printf("#   %s: %.*s\n", label,
		       nl ? (int)(nl - s) : (int)strlen(s), s);
		s = nl ? nl + 1 : NULL;
	} while (s && *s);
}

static void is_str(const char *got, const char *want, const char *name)
{
	if (!ok(got && !strcmp(got, want), "%s", name)) {
		diag("got ", got ? got : "(null)");
		diag("want", want);
	}
}

static void has_str(const char *got, const char *want, const char *name)
{
	if (!ok(got && strstr(got, want), "%s", name)) {
		diag("got ", got ? got : "(null)");
		diag("lacks", want);
	}
}

/* Output of a printer, in memory. */
struct buf {
	char *data;
	size_t len;
	FILE *f;
};

static void buf_open(struct buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->f = open_memstream(&b->data, &b->len);
	if (!b->f) {
		perror("open_memstream");
		exit(2);
	}
}

static void buf_close(struct buf *b)
{
	fclose(b->f);
}

/* stderr, redirected to a file while code under test reports to it. */
struct capture {
	FILE *tmp;
	int saved;
};

static void capture_start(struct capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	c->saved = dup(2);
	if (!c->tmp || c->saved < 0 || dup2(fileno(c->tmp), 2) < 0) {
		perror("capture stderr");
		exit(2);
	}
}

static char *capture_end(struct capture *c)
{
	long len;
	char *s;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	len = ftell(c->tmp);
	s = calloc(1, len > 0 ? (size_t)len + 1 : 1);
	rewind(c->tmp);
	if (!s || (len > 0 && fread(s, 1, (size_t)len, c->tmp) != (size_t)len)) {
		perror("read captured stderr");
		exit(2);
	}
	fclose(c->tmp);
	return s;
}

/* ---- the JSON and text writer ---- */

static void test_print_json(void)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "n", "n %u", 42);
	print_u64(&p, PRINT_ANY, "big", "%" PRIu64, UINT64_MAX);
	print_string(&p, PRINT_ANY, "s", "%s", "plain");
	print_bool(&p, PRINT_ANY, "t", "%s", true);
	print_bool(&p, PRINT_ANY, "f", "%s", false);
	print_uint(&p, PRINT_TEXT, "text-only", "%u", 7);
	print_textf(&p, "text only\n");
	print_open_array(&p, "a");
	print_uint(&p, PRINT_JSON, NULL, "%u", 1);
	print_open_object(&p, NULL);
	print_open_array(&p, "empty");
	print_close_array(&p);
	print_close_object(&p);
	print_open_object(&p, NULL);
	print_close_object(&p);
	print_close_array(&p);
	print_close_object(&p);
	ok(print_end(&p) == 0, "json: balanced document ends cleanly");
	buf_close(&b);
	is_str(b.data,
	       "{\"n\":42,\"big\":18446744073709551615,\"s\":\"plain\",\"t\":true,\"f\":false,\"a\":[1,{\"empty\":[]},{}]}\n",
	       "json: compact nesting, arrays, numbers, booleans, mode filter");
	free(b.data);
}

static void test_print_double(void)
{
	static const double v[] = {
		12.5, 3.0, 0.0625, 1.0 / 3, -0.00001, 0, 25.6, 1e20, -2.5,
	};
	struct printer p;
	struct buf b;
	size_t i;

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_array(&p, NULL);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		print_double(&p, PRINT_ANY, NULL, "%f", v[i]);
	print_double(&p, PRINT_ANY, NULL, "%f", (double)NAN);
	print_double(&p, PRINT_ANY, NULL, "%f", (double)INFINITY);
	print_close_array(&p);
	print_end(&p);
	buf_close(&b);
	is_str(b.data, "[12.5,3,0.0625,0.3333,0,0,25.6,1e+20,-2.5,null,null]\n",
	       "json: doubles to 4 places without trailing zeros, no -0, NaN null");
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, false, false);
	print_double(&p, PRINT_ANY, "x", "%7.2f|", 25.6);
	print_double(&p, PRINT_JSON, "x", "%7.2f|", 1);
	print_end(&p);
	buf_close(&b);
	is_str(b.data, "  25.60|", "text: doubles through their format");
	free(b.data);
}

static void test_print_escape(void)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_array(&p, NULL);
	print_string(&p, PRINT_ANY, NULL, "%s", "q\"b\\s/");
	print_string(&p, PRINT_ANY, NULL, "%s", "\b\f\n\r\t\x01\x1f\x7f");
	print_string(&p, PRINT_ANY, NULL, "%s", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* stray continuation, overlong '/', surrogate, truncated sequence */
	print_string(&p, PRINT_ANY, NULL, "%s", "a\x80" "b\xc0\xaf" "c\xed\xa0\x80" "d\xe2\x82");
	print_string(&p, PRINT_ANY, NULL, "%s", NULL);
	print_close_array(&p);
	ok(print_end(&p) == 0, "escape: document ends cleanly");
	buf_close(&b);
	is_str(b.data,
	       "[\"q\\\"b\\\\s/\","
	       "\"\\b\\f\\n\\r\\t\\u0001\\u001f\\u007f\","
	       "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
	       "\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffdd\\ufffd\\ufffd\","
	       "null]\n",
	       "escape: quotes, backslashes, control chars, UTF-8 kept, bad bytes U+FFFD");
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "k\"\n", "%u", 1);
	print_close_object(&p);
	print_end(&p);
	buf_close(&b);
	is_str(b.data, "{\"k\\\"\\n\":1}\n", "escape: keys are escaped too");
	free(b.data);
}

static void test_print_pretty(void)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, true, true);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "a", "%u", 1);
	print_open_array(&p, "b");
	print_uint(&p, PRINT_ANY, NULL, "%u", 2);
	print_open_object(&p, NULL);
	print_string(&p, PRINT_ANY, "c", "%s", "d");
	print_close_object(&p);
	print_close_array(&p);
	print_open_array(&p, "e");
	print_close_array(&p);
	print_close_object(&p);
	print_end(&p);
	buf_close(&b);
	is_str(b.data,
	       "{\n"
	       "  \"a\": 1,\n"
	       "  \"b\": [\n"
	       "    2,\n"
	       "    {\n"
	       "      \"c\": \"d\"\n"
	       "    }\n"
	       "  ],\n"
	       "  \"e\": []\n"
	       "}\n",
	       "pretty: two-space indent, empty containers stay inline");
	free(b.data);
}

static void test_print_text(void)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, false, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "n", "n=%u", 42);
	print_uint(&p, PRINT_JSON, "hidden", "%u", 9);
	print_string(&p, PRINT_ANY, "s", " s=%s", "a\x1b[31mb\tc");
	print_bool(&p, PRINT_ANY, "b", " b=%s", true);
	print_bool(&p, PRINT_ANY, "b", " b=%s", false);
	print_u64(&p, PRINT_ANY, "u", " u=%" PRIu64, (uint64_t)5);
	print_textf(&p, " %s\n", "end");
	print_close_object(&p);
	ok(print_end(&p) == 0, "text: ends cleanly");
	buf_close(&b);
	is_str(b.data, "n=42 s=a?[31mb?c b=yes b=no u=5 end\n",
	       "text: formats, JSON-only values hidden, control chars replaced");
	free(b.data);
}

static void test_print_misuse(void)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "a", "%u", 1);
	errno = 0;
	ok(print_end(&p) < 0 && errno == EINVAL,
	   "misuse: unclosed object makes print_end() fail");
	buf_close(&b);
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, NULL, "%u", 1);
	print_close_object(&p);
	ok(print_end(&p) < 0, "misuse: a member without a key fails");
	buf_close(&b);
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_close_object(&p);
	print_open_object(&p, NULL);
	print_close_object(&p);
	ok(print_end(&p) < 0, "misuse: a second top-level document fails");
	buf_close(&b);
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_array(&p, NULL);
	print_close_object(&p);
	ok(print_end(&p) < 0, "misuse: closing an array as an object fails");
	buf_close(&b);
	free(b.data);
}

static void test_print_write_error(void)
{
	struct printer p;
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		skip("write error: print_end() reports ENOSPC", "no /dev/full");
		return;
	}
	print_init(&p, f, true, false);
	print_open_object(&p, NULL);
	print_close_object(&p);
	errno = 0;
	ok(print_end(&p) < 0 && errno == ENOSPC,
	   "write error: print_end() reports ENOSPC");
	fclose(f);
}

/* ---- CPU lists ---- */

static void cpulist_case(const uint32_t *cpu, size_t n, const char *want)
{
	char buf[128];
	size_t len = cpulist_format(buf, sizeof(buf), cpu, n);

	if (!ok(!strcmp(buf, want) && len == strlen(want),
		"cpulist: %zu CPUs -> \"%s\"", n, want)) {
		diag("got ", buf);
	}
}

static void test_cpulist(void)
{
	static const uint32_t one[] = { 5 };
	static const uint32_t pair[] = { 0, 1 };
	static const uint32_t two_runs[] = { 0, 1, 2, 3, 8, 9, 10, 11 };
	static const uint32_t singles[] = { 1, 3, 5 };
	static const uint32_t mixed[] = { 0, 2, 3, 4, 7 };
	static const uint32_t top[] = { 4294967294u, 4294967295u, 0 };
	char small[6];
	size_t len;

	cpulist_case(NULL, 0, "");
	cpulist_case(one, 1, "5");
	cpulist_case(pair, 2, "0-1");
	cpulist_case(two_runs, 8, "0-3,8-11");
	cpulist_case(singles, 3, "1,3,5");
	cpulist_case(mixed, 5, "0,2-4,7");
	cpulist_case(top, 3, "4294967294-4294967295,0");

	len = cpulist_format(NULL, 0, two_runs, 8);
	ok(len == 8, "cpulist: NULL buffer returns the needed length (%zu)",
	   len);
	memset(small, 'x', sizeof(small));
	len = cpulist_format(small, sizeof(small), two_runs, 8);
	ok(len == 8 && !strcmp(small, "0-3,8"),
	   "cpulist: truncates like snprintf and stays terminated");
}

/* ---- names ---- */

static void test_names(void)
{
	unsigned int i;
	bool all = true;

	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++)
		all = all && name_capability(i);
	for (i = MEMDIAG_PLATFORM_HW; i <= MEMDIAG_PLATFORM_SIM; i++)
		all = all && name_platform(i);
	for (i = 1; i <= MEMDIAG_A_INFO_MAX; i++)
		all = all && name_info_attr(i);
	for (i = 1; i <= MEMDIAG_A_SOCKET_MAX; i++)
		all = all && name_socket_attr(i);
	for (i = 1; i <= MEMDIAG_A_CAPABILITY_MAX; i++)
		all = all && name_capability_attr(i);
	for (i = 0; i <= MEMDIAG_CORE_MODE_MAX; i++)
		all = all && name_core_mode(i);
	for (i = 1; i <= MEMDIAG_A_SNAPSHOT_MAX; i++)
		all = all && name_snapshot_attr(i);
	for (i = 1; i <= MEMDIAG_A_CHANNEL_MAX; i++)
		all = all && name_channel_attr(i);
	for (i = 1; i <= MEMDIAG_A_SESSION_MAX; i++)
		all = all && name_session_attr(i);
	ok(all, "names: every enum value and attribute has a name");
	ok(!strcmp(name_core_mode(MEMDIAG_CORE_MODE_NONE), "none") &&
	   !strcmp(name_core_mode(MEMDIAG_CORE_MODE_MSR), "msr") &&
	   !strcmp(name_core_mode(MEMDIAG_CORE_MODE_PERF), "perf") &&
	   !strcmp(name_snapshot_attr(MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS), "l1d-pend-miss") &&
	   !strcmp(name_snapshot_attr(MEMDIAG_A_SNAPSHOT_OFFCORE_DRAM_READS), "offcore-dram-reads") &&
	   !strcmp(name_channel_attr(MEMDIAG_A_CHANNEL_WRITE_BYTES), "write-bytes") &&
	   !strcmp(name_session_attr(MEMDIAG_A_SESSION_INTERVAL_MS), "interval-ms"),
	   "names: core modes and snapshot, channel, session attributes");
	ok(!strcmp(name_capability(MEMDIAG_CAPABILITY_IMC_BANDWIDTH), "imc-bandwidth") &&
	   !strcmp(name_capability(MEMDIAG_CAPABILITY_CORE_LATENCY), "core-latency") &&
	   !strcmp(name_capability(MEMDIAG_CAPABILITY_OFFCORE), "offcore") &&
	   !strcmp(name_capability(MEMDIAG_CAPABILITY_PREFETCH_CONTROL), "prefetch-control") &&
	   !strcmp(name_platform(MEMDIAG_PLATFORM_HW), "hw") &&
	   !strcmp(name_platform(MEMDIAG_PLATFORM_SIM), "sim"),
	   "names: the spec's enum names");
	ok(!name_capability(MEMDIAG_CAPABILITY_MAX + 1) &&
	   !name_platform(MEMDIAG_PLATFORM_SIM + 1) &&
	   !name_info_attr(MEMDIAG_A_INFO_MAX + 1) && !name_info_attr(0),
	   "names: unknown values have no name");
}

/* ---- the info printer, fed canned replies ---- */

static struct nlmsghdr *reply_start(char *buf)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = 0x1f;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = MEMDIAG_CMD_GET_INFO;
	genl->version = MEMDIAG_FAMILY_VERSION;
	return nlh;
}

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
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		mnl_attr_put_u32(nlh, MEMDIAG_A_SOCKET_CPU, cpus[i]);
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
	"  socket 0  package 3  cpus 0-3,8-11 (8)\n"
	"capability        available  reason\n"
	"9                 no         C:\\path\n";

static const char newer_json[] =
	"{\"proto_version\":1,\"vendor\":\"GenuineIntel\",\"family\":6,"
	"\"model\":85,\"stepping\":4,"
	"\"model_name\":\"Intel Xeon Processor (Skylake)\","
	"\"uarch\":\"unsupported\","
	"\"uarch_reason\":\"model 85 \\\"stepping\\\" 4 is\\tnot supported\","
	"\"platform\":9,\"core_mode\":7,\"nr_sockets\":1,"
	"\"sockets\":[{\"id\":0,\"package_id\":3,\"cpus\":[0,1,2,3,8,9,10,11]}],"
	"\"capabilities\":[{\"id\":9,\"available\":false,\"reason\":\"C:\\\\path\"}]}\n";

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

static void show_case(const struct nlmsghdr *nlh, bool json, bool pretty,
		      const char *want, const char *name)
{
	char *out, *err;
	int rc = show(nlh, json, pretty, &out, &err);

	ok(rc == MDC_EXIT_OK && !*err, "%s: exit 0, nothing on stderr", name);
	is_str(out, want, name);
	free(out);
	free(err);
}

static void test_info_show(void)
{
	char buf[4096];
	struct nlmsghdr *nlh;
	char *out, *err;
	int rc;

	nlh = reply_skylake(buf);
	show_case(nlh, false, false, skylake_text, "info text: Skylake-SP 2 sockets");
	show_case(nlh, true, false, skylake_json, "info json: Skylake-SP 2 sockets");

	nlh = reply_newer(buf);
	show_case(nlh, false, false, newer_text,
		  "info text: unsupported, uarch-reason, unknown enums as numbers");
	show_case(nlh, true, false, newer_json,
		  "info json: uarch-reason, unknown attributes skipped, enums as numbers");

	/* only the envelope: no keys, but the arrays are always there */
	nlh = reply_start(buf);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PROTO_VERSION, 1);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PLATFORM, MEMDIAG_PLATFORM_SIM);
	show_case(nlh, true, true,
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

/* ---- failures to exit codes ---- */

static struct nl_error kernel_err(int err, const char *msg)
{
	struct nl_error e = {
		.err = err, .kernel = true, .bad_offs = -1, .bad_type = -1,
		.miss_type = -1,
	};

	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	return e;
}

static int fail(const struct nl_error *e, char **err)
{
	struct capture c;
	int rc;

	capture_start(&c);
	rc = cli_nl_fail("info", "get-info request failed", e, name_info_attr);
	*err = capture_end(&c);
	return rc;
}

static void test_cli_errors(void)
{
	struct nl_error e;
	struct capture c;
	char *err;
	int rc;

	e = kernel_err(EPERM, "memdiag: CAP_PERFMON or CAP_SYS_ADMIN needed, or load memdiag with unprivileged_read=1");
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_PERM, "EPERM exits 3 (got %d)", rc);
	has_str(err, "memdiagctl: info: permission denied: memdiag: CAP_PERFMON or CAP_SYS_ADMIN needed",
		"EPERM shows the module's extack text");
	has_str(err, "memdiagctl: info: hint: run as root, grant CAP_PERFMON",
		"EPERM gives the hint");
	has_str(err, "unprivileged_read=1", "EPERM hint names unprivileged_read=1");
	free(err);

	e = kernel_err(EACCES, "");
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_PERM, "EACCES exits 3 (got %d)", rc);
	has_str(err, "permission denied: Permission denied",
		"EACCES without extack falls back to strerror");
	free(err);

	e = kernel_err(EPERM, "");
	e.kernel = false;
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_KERNEL, "a local EPERM is no module refusal: exit 5 (got %d)", rc);
	free(err);

	e = kernel_err(EPROTONOSUPPORT, "memdiag speaks protocol 2");
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_PROTO, "EPROTONOSUPPORT exits 4 (got %d)", rc);
	has_str(err, "memdiagctl: info: protocol version mismatch: memdiagctl speaks protocol 1 but the loaded memdiag module refused it (memdiag speaks protocol 2): use the memdiagctl built with that module",
		"EPROTONOSUPPORT message");
	free(err);

	e = kernel_err(EINVAL, "Attribute failed policy validation");
	e.bad_offs = 20;
	e.bad_type = MEMDIAG_A_INFO_PROTO_VERSION;
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_KERNEL, "EINVAL exits 5 (got %d)", rc);
	is_str(err, "memdiagctl: info: get-info request failed: Invalid argument: Attribute failed policy validation (offending attribute 'proto-version')\n",
	       "EINVAL names strerror, extack and the offending attribute");
	free(err);

	e = kernel_err(ERANGE, "");
	e.bad_offs = 999;
	e.miss_type = MEMDIAG_A_INFO_VENDOR;
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_KERNEL, "ERANGE exits 5 (got %d)", rc);
	is_str(err, "memdiagctl: info: get-info request failed: Numerical result out of range (offending attribute at byte 999 of the request) (missing attribute 'vendor')\n",
	       "unlocated offset and missing attribute are reported");
	free(err);

	e = kernel_err(ENOMEM, "");
	e.kernel = false;
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_LOCAL, "local ENOMEM exits 6 (got %d)", rc);
	free(err);

	capture_start(&c);
	rc = cli_no_family("info", false);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_NO_MODULE, "no family, no module: exit 2 (got %d)", rc);
	has_str(err, "memdiagctl: info: the memdiag module is not loaded: generic netlink family 'memdiag' not found: load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')",
		"no family, no module: says to load it");
	free(err);

	capture_start(&c);
	rc = cli_no_family("info", true);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_NO_MODULE, "no family, module loaded: exit 2 (got %d)", rc);
	has_str(err, "memdiag.ko is loaded, but serves only the initial network namespace",
		"no family, module loaded: blames the network namespace");
	free(err);

	capture_start(&c);
	rc = cli_check_proto("info", 3);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_PROTO, "family version 3 exits 4 (got %d)", rc);
	has_str(err, "memdiagctl: info: protocol version mismatch: memdiagctl speaks protocol 1 but the loaded memdiag module speaks 3: use the memdiagctl built with that module",
		"family version mismatch message");
	free(err);

	capture_start(&c);
	rc = cli_check_proto("info", MEMDIAG_FAMILY_VERSION);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_OK && !*err, "our own family version passes silently");
	free(err);
}

/* The helpers return their failures and print nothing; callers show them. */
static void test_cli_error_return(void)
{
	struct cli_error ce;
	struct nl_family fam;
	struct nl_error e;
	struct capture c;
	struct nl nl;
	char phrase[1024], *err;
	int rc;

	cli_error_init(&ce);
	e = kernel_err(EPERM, "memdiag: CAP_PERFMON needed");
	capture_start(&c);
	rc = cli_error_nl(&ce, "get-info request failed", &e, name_info_attr);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_PERM && ce.code == MDC_EXIT_PERM && !*err,
	   "cli_error_nl: EPERM is exit 3, returned, nothing printed");
	free(err);
	cli_error_phrase(&ce, phrase, sizeof(phrase));
	is_str(phrase, "permission denied: memdiag: CAP_PERFMON needed (run as root, grant CAP_PERFMON (e.g. 'setcap cap_perfmon+ep memdiagctl'), or load the module with unprivileged_read=1)",
	       "cli_error_phrase: what, the extack text and the hint in one phrase");

	e = kernel_err(EINVAL, "bad interval");
	e.bad_type = MEMDIAG_A_INFO_PROTO_VERSION;
	cli_error_nl(&ce, "get-info request failed", &e, name_info_attr);
	cli_error_phrase(&ce, phrase, sizeof(phrase));
	is_str(phrase, "get-info request failed: Invalid argument: bad interval (offending attribute 'proto-version')",
	       "cli_error_phrase: errno, extack and offending attribute, no hint");

	/* this host has no memdiag module */
	capture_start(&c);
	rc = md_connect(&nl, &fam, &ce);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_NO_MODULE && ce.code == rc && !*err,
	   "md_connect without the module: exit 2 returned, nothing printed (got %d)", rc);
	free(err);
	is_str(ce.what, "the memdiag module is not loaded",
	       "md_connect without the module: says what failed");
	capture_start(&c);
	rc = cli_report("watch", &ce);
	err = capture_end(&c);
	is_str(err, "memdiagctl: watch: the memdiag module is not loaded: generic netlink family 'memdiag' not found: load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')\n",
	       "cli_report shows it as the command's error");
	free(err);

	cli_error_init(&ce);
	snprintf(ce.warning, sizeof(ce.warning), "deprecated");
	capture_start(&c);
	rc = cli_report("info", &ce);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_OK, "cli_report of a warning alone: exit 0");
	is_str(err, "memdiagctl: info: warning from the memdiag module: deprecated\n",
	       "cli_report shows a warning the kernel acked with");
	free(err);
}

/* ---- netlink plumbing, against the kernel's own nlctrl family ---- */

static void test_nl(void)
{
	char long_name[41];
	struct nl_family fam;
	struct nl_error e;
	struct nlmsghdr *req, *reply;
	const struct nl_mcgrp *grp;
	struct nl nl;
	int zero = 0, rc;

	if (nl_open(&nl, &e) < 0) {
		skip("nl: netlink tests", strerror(e.err));
		return;
	}

	rc = nl_family_get(&nl, "nlctrl", &fam, &e);
	ok(rc == 0 && fam.id == GENL_ID_CTRL && !strcmp(fam.name, "nlctrl") &&
	   fam.version >= 1 && fam.hdrsize == 0,
	   "nl: resolves nlctrl (id %u, version %u)", fam.id, fam.version);
	ok(nl_family_has_op(&fam, CTRL_CMD_GETFAMILY) &&
	   !nl_family_has_op(&fam, 0xff),
	   "nl: family ops are listed (%zu ops)", fam.nr_ops);
	grp = nl_family_mcgrp(&fam, "notify");
	ok(grp && grp->id && !nl_family_mcgrp(&fam, "nonexistent"),
	   "nl: multicast group ids are listed (notify = %u)",
	   grp ? grp->id : 0);
	ok(grp && nl_subscribe(&nl, grp->id, &e) == 0,
	   "nl: can subscribe to a multicast group");
	nl_family_free(&fam);

	rc = nl_family_get(&nl, "mdc-nosuchfam", &fam, &e);
	ok(rc < 0 && e.kernel && e.err == ENOENT,
	   "nl: an absent family is ENOENT from the kernel (%s)",
	   strerror(e.err));

	/*
	 * An over-long family name breaks nlctrl's policy: the kernel's
	 * extack must come back with the offset of that attribute, which
	 * follows a valid one so the lookup can't just take the first.
	 */
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	req = nl_msg_start(&nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_u16(req, CTRL_ATTR_FAMILY_ID, GENL_ID_CTRL);
	mnl_attr_put_strz(req, CTRL_ATTR_FAMILY_NAME, long_name);
	rc = nl_do(&nl, req, &reply, &e);
	ok(rc < 0 && !reply && e.kernel && e.err == EINVAL && e.msg[0] &&
	   e.bad_type == CTRL_ATTR_FAMILY_NAME && !e.bad_inside,
	   "nl: extack message and offending attribute decoded (\"%s\", type %d)",
	   e.msg, e.bad_type);

	/* without CAP_ACK the request is echoed before the TLVs */
	mnl_socket_setsockopt(nl.sock, NETLINK_CAP_ACK, &zero, sizeof(zero));
	req = nl_msg_start(&nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_u16(req, CTRL_ATTR_FAMILY_ID, GENL_ID_CTRL);
	mnl_attr_put_strz(req, CTRL_ATTR_FAMILY_NAME, long_name);
	rc = nl_do(&nl, req, &reply, &e);
	ok(rc < 0 && e.err == EINVAL && e.msg[0] &&
	   e.bad_type == CTRL_ATTR_FAMILY_NAME,
	   "nl: extack decoded past an echoed request too");

	nl_close(&nl);
}


/* ---- option values ---- */

static void interval_ok(const char *s, uint32_t want)
{
	char err[200] = "";
	uint32_t ms = 0;
	int rc = parse_interval_ms(s, &ms, err, sizeof(err));

	if (!ok(rc == 0 && ms == want, "interval '%s' is %u ms", s, want))
		printf("#   got rc %d, %u ms, \"%s\"\n", rc, ms, err);
}

static void interval_bad(const char *s, const char *want)
{
	char err[200] = "";
	uint32_t ms = 12345;
	int rc = parse_interval_ms(s, &ms, err, sizeof(err));

	ok(rc < 0 && ms == 12345, "interval '%s' is refused", s);
	is_str(err, want, "interval: the message for a bad value");
}

static void test_parse(void)
{
	static const struct { const char *s; uint32_t ms; } good[] = {
		{ "500ms", 500 }, { "2s", 2000 }, { "1.5s", 1500 },
		{ "100ms", 100 }, { "2", 2000 }, { "1.5", 1500 },
		{ "0.5", 500 }, { "1ms", 1 }, { "0.001", 1 }, { "0.001s", 1 },
		{ "60s", 60000 }, { "60", 60000 }, { "60000ms", 60000 },
		{ "1.000s", 1000 }, { "007ms", 7 }, { "0.25s", 250 },
		{ "2.0ms", 2 }, { "59.999s", 59999 },
		{ "1.0000000000000ms", 1 },
	};
	static const char *const syntax[] = {
		"", "5x", "1.5.2", "-1", "+1", " 1", "1 ", "1 s", ".5", "1.",
		"1m", "1h", "1us", "1sms", "s", "ms", "1e3", "0x10", "1,5s",
	};
	static const char *const range[] = {
		"0", "0ms", "0s", "0.5ms", "0.0001s", "0.0009", "61s", "60001ms",
		"60.001s", "60.0000000001", "99999999999999999999999s",
		"18446744073709551616ms",
	};
	static const char *const fraction[] = {
		"1.5ms", "1.0005s", "2.0001", "1.0000000001ms",
	};
	char want[200], err[200];
	uint64_t v;
	double d;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		interval_ok(good[i].s, good[i].ms);
	for (i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++) {
		snprintf(want, sizeof(want),
			 "'%s' is not a duration: use seconds (2, 1.5) or a number with s or ms (1.5s, 500ms)",
			 syntax[i]);
		interval_bad(syntax[i], want);
	}
	for (i = 0; i < sizeof(range) / sizeof(range[0]); i++) {
		snprintf(want, sizeof(want),
			 "'%s' is out of range: the interval must be from 1ms to 60s",
			 range[i]);
		interval_bad(range[i], want);
	}
	for (i = 0; i < sizeof(fraction) / sizeof(fraction[0]); i++) {
		snprintf(want, sizeof(want),
			 "'%s' is not a whole number of milliseconds", fraction[i]);
		interval_bad(fraction[i], want);
	}

	ok(parse_uint("0", 0, UINT32_MAX, &v, err, sizeof(err)) == 0 && v == 0 &&
	   parse_uint("4294967295", 0, UINT32_MAX, &v, err, sizeof(err)) == 0 &&
	   v == UINT32_MAX &&
	   parse_uint("18446744073709551615", 1, UINT64_MAX, &v, err, sizeof(err)) == 0 &&
	   v == UINT64_MAX,
	   "uint: 0, UINT32_MAX and UINT64_MAX at their limits");
	ok(parse_uint("4294967296", 0, UINT32_MAX, &v, err, sizeof(err)) < 0,
	   "uint: UINT32_MAX + 1 is refused");
	is_str(err, "'4294967296' is out of range: it must be from 0 to 4294967295",
	       "uint: above the maximum");
	parse_uint("0", 1, UINT64_MAX, &v, err, sizeof(err));
	is_str(err, "'0' is out of range: it must be at least 1",
	       "uint: --count 0");
	parse_uint("18446744073709551616", 1, UINT64_MAX, &v, err, sizeof(err));
	is_str(err, "'18446744073709551616' is out of range: it must be at most 18446744073709551615",
	       "uint: beyond 64 bits");
	for (i = 0; i < 5; i++) {
		static const char *const bad[] = { "", "x", "-1", "+1", "1 " };

		parse_uint(bad[i], 0, UINT32_MAX, &v, err, sizeof(err));
		snprintf(want, sizeof(want), "'%s' is not a number", bad[i]);
		is_str(err, want, "uint: not a number");
	}

	ok(parse_cycles("300", &d, err, sizeof(err)) == 0 && d == 300.0 &&
	   parse_cycles("250.5", &d, err, sizeof(err)) == 0 && d == 250.5,
	   "cycles: 300 and 250.5");
	parse_cycles("0", &d, err, sizeof(err));
	is_str(err, "'0' is out of range: it must be more than 0", "cycles: 0");
	parse_cycles("abc", &d, err, sizeof(err));
	is_str(err, "'abc' is not a number of cycles", "cycles: not a number");
	parse_cycles("-5", &d, err, sizeof(err));
	is_str(err, "'-5' is not a number of cycles", "cycles: no sign");
}

/* ---- metrics from pairs of snapshots ---- */

#define SA(x) MEMDIAG_A_SNAPSHOT_##x

static struct snap snap_at(uint32_t socket, uint64_t t_ns)
{
	struct snap s;

	memset(&s, 0, sizeof(s));
	snap_set(&s, SA(SOCKET), socket);
	snap_set(&s, SA(TIME_NS), t_ns);
	return s;
}

static void snap_imc(struct snap *s, uint32_t epoch, uint64_t rd, uint64_t wr)
{
	snap_set(s, SA(IMC_EPOCH), epoch);
	snap_set(s, SA(DRAM_READ_BYTES), rd);
	snap_set(s, SA(DRAM_WRITE_BYTES), wr);
}

struct core_counts {
	uint64_t cycles, ref, pend, l1m, lfb, ocr;
};

static void snap_core(struct snap *s, uint32_t epoch, struct core_counts c)
{
	snap_set(s, SA(CORE_EPOCH), epoch);
	snap_set(s, SA(NR_CPUS), 28);
	snap_set(s, SA(INSTRUCTIONS), c.cycles / 2);
	snap_set(s, SA(CYCLES), c.cycles);
	snap_set(s, SA(REF_CYCLES), c.ref);
	snap_set(s, SA(L1D_PEND_MISS), c.pend);
	snap_set(s, SA(L1_MISS), c.l1m);
	snap_set(s, SA(LFB_HIT), c.lfb);
	snap_set(s, SA(OFFCORE_DRAM_READS), c.ocr);
}

#define T0 1000000000000ull	/* 1000 s of CLOCK_MONOTONIC */
#define SEC 1000000000ull
#define TSC_KHZ 2500000u	/* 2.5 GHz */

/*
 * The canned pair of memdiagctl(8)'s example, one second apart on a
 * 28-CPU socket at 2.0 GHz (TSC 2.5 GHz): socket 0 moderately loaded,
 * socket 1 saturated.
 */
static void canned_pair(uint32_t socket, struct snap *a, struct snap *b)
{
	static const struct core_counts c0 = {
		4000000000000, 5000000000000, 900000000000, 3000000000,
		1500000000, 1000000000,
	};

	*a = snap_at(socket, T0 + socket * 1000);
	*b = snap_at(socket, T0 + socket * 1000 + SEC);
	snap_core(a, 1, c0);
	if (socket == 0) {
		snap_imc(a, 1, 1000000000000, 400000000000);
		/* 25.6 GB/s read, 6.4 write; 300 M offcore reads = 19.2 GB/s */
		snap_imc(b, 1, 1000000000000 + 25600000000, 400000000000 + 6400000000);
		snap_core(b, 1, (struct core_counts){
			c0.cycles + 56000000000, c0.ref + 70000000000,
			c0.pend + 9000000000, c0.l1m + 30000000,
			c0.lfb + 15000000, c0.ocr + 300000000 });
	} else {
		snap_imc(a, 1, 2000000000000, 1000000000000);
		snap_imc(b, 1, 2000000000000 + 80000000000, 1000000000000 + 20000000000);
		snap_core(b, 1, (struct core_counts){
			c0.cycles + 60000000000, c0.ref + 75000000000,
			c0.pend + 40000000000, c0.l1m + 80000000,
			c0.lfb + 20000000, c0.ocr + 500000000 });
	}
}

static bool near(double got, double want)
{
	return fabs(got - want) <= 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);
}

static void test_metrics_exact(void)
{
	struct snap a, b;
	struct interval m;

	canned_pair(0, &a, &b);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && m.socket == 0 && m.t_ns == T0 + SEC && m.interval_ns == SEC,
	   "metrics: socket, end time and interval of the canned pair");
	ok(m.have_read_bytes && m.read_bytes == 25600000000 &&
	   m.have_write_bytes && m.write_bytes == 6400000000,
	   "metrics: DRAM byte deltas");
	ok(near(m.read_gbps, 25.6) && near(m.write_gbps, 6.4) &&
	   near(m.total_gbps, 32.0),
	   "metrics: 25.6 + 6.4 = 32.0 GB/s (got %.9f %.9f %.9f)",
	   m.read_gbps, m.write_gbps, m.total_gbps);
	ok(m.have_offcore_bytes && m.offcore_bytes == 19200000000 &&
	   near(m.offcore_read_gbps, 19.2),
	   "metrics: 300 M offcore reads x 64 B = 19.2 GB/s (got %.9f)",
	   m.offcore_read_gbps);
	ok(near(m.l1_miss_latency, 300.0),
	   "metrics: L1 miss latency 9e9 / 30e6 = 300 cycles (got %.9f)",
	   m.l1_miss_latency);
	ok(near(m.load_miss_real_latency, 200.0),
	   "metrics: load miss real latency 9e9 / (30e6 + 15e6) = 200 cycles (got %.9f)",
	   m.load_miss_real_latency);
	ok(near(m.core_ghz, 2.0),
	   "metrics: core GHz = 2.5 x 56e9 / 70e9 = 2.0 (got %.9f)", m.core_ghz);
	ok(near(m.load_miss_real_latency_ns, 100.0),
	   "metrics: 200 cycles at 2.0 GHz = 100 ns (got %.9f)",
	   m.load_miss_real_latency_ns);
	ok(m.saturated == 0, "metrics: 200 cycles is not above 300: not saturated");

	canned_pair(1, &a, &b);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.read_gbps, 80) && near(m.write_gbps, 20) &&
	   near(m.total_gbps, 100) && near(m.offcore_read_gbps, 32) &&
	   near(m.l1_miss_latency, 500) && near(m.load_miss_real_latency, 400) &&
	   near(m.core_ghz, 2.0) && near(m.load_miss_real_latency_ns, 200) &&
	   m.saturated == 1,
	   "metrics: socket 1: 80 + 20 GB/s, 500 and 400 cycles, 200 ns, saturated");
	metrics_compute(&a, &b, TSC_KHZ, 400, &m);
	ok(m.saturated == 0, "metrics: saturated means above the threshold, not at it");
	metrics_compute(&a, &b, TSC_KHZ, 399.5, &m);
	ok(m.saturated == 1, "metrics: a fractional threshold");
}

static void test_metrics_null(void)
{
	struct snap a, b;
	struct interval m;

	/* no L1 misses, no fill buffer hits, no traffic */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + SEC);
	snap_imc(&a, 1, 5000, 7000);
	snap_imc(&b, 1, 5000, 7000);
	snap_core(&a, 1, (struct core_counts){ 100, 100, 50, 10, 10, 10 });
	snap_core(&b, 1, (struct core_counts){ 100, 100, 50, 10, 10, 10 });
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && m.read_gbps == 0 && m.write_gbps == 0 &&
	   m.total_gbps == 0 && m.offcore_read_gbps == 0 &&
	   m.have_read_bytes && m.read_bytes == 0,
	   "metrics: no traffic is 0 GB/s, not null");
	ok(isnan(m.l1_miss_latency) && isnan(m.load_miss_real_latency) &&
	   isnan(m.load_miss_real_latency_ns) && isnan(m.core_ghz) &&
	   m.saturated == -1,
	   "metrics: no misses and no unhalted cycles: latencies, GHz, ns and saturation null");

	/* misses but no cycles counted: latency in cycles, but no ns */
	snap_core(&b, 1, (struct core_counts){ 100, 100, 1050, 15, 15, 10 });
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.l1_miss_latency, 200) && near(m.load_miss_real_latency, 100) &&
	   isnan(m.core_ghz) && isnan(m.load_miss_real_latency_ns),
	   "metrics: zero ref-cycles delta: cycles known, ns null");
	metrics_compute(&a, &b, 0, 300, &m);
	ok(near(m.load_miss_real_latency, 100) && isnan(m.core_ghz) &&
	   isnan(m.load_miss_real_latency_ns),
	   "metrics: tsc-khz unknown (0): ns null");

	/* an absent group: no IMC on this machine, core counters only */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + SEC);
	snap_core(&a, 1, (struct core_counts){ 0, 0, 0, 0, 0, 0 });
	snap_core(&b, 1, (struct core_counts){ 2000, 1000, 4000, 10, 10, 1 });
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && !m.have_read_bytes && !m.have_write_bytes &&
	   isnan(m.read_gbps) && isnan(m.write_gbps) && isnan(m.total_gbps),
	   "metrics: no IMC attributes: DRAM bandwidth null, interval valid");
	ok(near(m.load_miss_real_latency, 200) && near(m.core_ghz, 5.0) &&
	   near(m.load_miss_real_latency_ns, 40) && near(m.offcore_read_gbps, 64e-9),
	   "metrics: the core metrics without the IMC ones");

	/* no core PMU: only the IMC */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + 2 * SEC);
	snap_imc(&a, 3, 0, 0);
	snap_imc(&b, 3, 3000000000, 1000000000);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && near(m.read_gbps, 1.5) && near(m.write_gbps, 0.5) &&
	   near(m.total_gbps, 2.0) && isnan(m.offcore_read_gbps) &&
	   !m.have_offcore_bytes && isnan(m.l1_miss_latency) &&
	   isnan(m.load_miss_real_latency) && isnan(m.core_ghz) &&
	   isnan(m.load_miss_real_latency_ns) && m.saturated == -1,
	   "metrics: no core attributes: core metrics null, GB/s over 2 s");

	/* a counter the later snapshot lacks */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + SEC);
	snap_imc(&a, 1, 0, 0);
	snap_set(&b, SA(IMC_EPOCH), 1);
	snap_set(&b, SA(DRAM_READ_BYTES), 1000);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.read_gbps, 1e-6) && isnan(m.write_gbps) && isnan(m.total_gbps),
	   "metrics: one side missing write bytes: write and total null");

	/* no timestamps: counts, but no rates */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	snap_set(&a, SA(SOCKET), 2);
	snap_set(&b, SA(SOCKET), 2);
	snap_imc(&a, 1, 0, 0);
	snap_imc(&b, 1, 640, 64);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.socket == 2 && m.interval_ns == 0 && m.t_ns == 0 &&
	   m.read_bytes == 640 && isnan(m.read_gbps),
	   "metrics: without time-ns: byte counts, rates null");
}

static void test_metrics_spr(void)
{
	struct snap a, b;
	struct interval m;

	canned_pair(0, &a, &b);
	/* 9e9 pending cycles over 60e6 L1_MISS_ANY: 150, not 200 */
	snap_set(&a, SA(L1_MISS_ANY), 7000000000);
	snap_set(&b, SA(L1_MISS_ANY), 7000000000 + 60000000);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.load_miss_real_latency, 150) && near(m.l1_miss_latency, 300) &&
	   near(m.load_miss_real_latency_ns, 75),
	   "metrics: Sapphire Rapids: load miss real latency over l1-miss-any (got %.9f)",
	   m.load_miss_real_latency);

	/* l1-miss-any without lfb-hit, as SPR may send it */
	b.have &= ~(1u << SA(LFB_HIT));
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(near(m.load_miss_real_latency, 150),
	   "metrics: Sapphire Rapids: no lfb-hit needed");

	/* neither: no load miss real latency, L1 miss latency still there */
	b.have &= ~(1u << SA(L1_MISS_ANY));
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(isnan(m.load_miss_real_latency) && near(m.l1_miss_latency, 300) &&
	   m.saturated == -1,
	   "metrics: without lfb-hit and l1-miss-any: load miss real latency null");
}

static void test_metrics_epochs(void)
{
	struct snap a, b;
	struct interval m;

	canned_pair(0, &a, &b);
	snap_set(&b, SA(IMC_EPOCH), 2);
	snap_set(&b, SA(DRAM_READ_BYTES), 64);	/* restarted: far below */
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(!m.valid && m.brk[GROUP_IMC].why == BREAK_EPOCH &&
	   m.brk[GROUP_IMC].from == 1 && m.brk[GROUP_IMC].to == 2 &&
	   m.brk[GROUP_CORE].why == BREAK_NONE,
	   "metrics: imc-epoch 1 -> 2 invalidates the IMC group only");
	ok(!m.have_read_bytes && !m.have_write_bytes && isnan(m.read_gbps) &&
	   isnan(m.write_gbps) && isnan(m.total_gbps),
	   "metrics: no DRAM rate from a restarted IMC, never a negative one");
	ok(near(m.load_miss_real_latency, 200) && near(m.offcore_read_gbps, 19.2),
	   "metrics: the core metrics of that interval stand");

	canned_pair(0, &a, &b);
	snap_set(&b, SA(CORE_EPOCH), 5);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(!m.valid && m.brk[GROUP_CORE].why == BREAK_EPOCH &&
	   m.brk[GROUP_IMC].why == BREAK_NONE && near(m.read_gbps, 25.6) &&
	   isnan(m.offcore_read_gbps) && !m.have_offcore_bytes &&
	   isnan(m.l1_miss_latency) && isnan(m.load_miss_real_latency) &&
	   isnan(m.core_ghz) && isnan(m.load_miss_real_latency_ns) &&
	   m.saturated == -1,
	   "metrics: core-epoch change: offcore and latencies null, DRAM stands");

	/* the module extends counters to 64 bits: a wrap of those still works */
	a = snap_at(0, T0);
	b = snap_at(0, T0 + SEC);
	snap_imc(&a, 1, UINT64_MAX - 99, UINT64_MAX);
	snap_imc(&b, 1, 100, 63);
	snap_core(&a, 1, (struct core_counts){ UINT64_MAX - 999, UINT64_MAX,
		UINT64_MAX - 1999, UINT64_MAX - 9, 0, UINT64_MAX });
	snap_core(&b, 1, (struct core_counts){ 1000, 999, 2000, 10, 0, 0 });
	snap_set(&a, SA(INSTRUCTIONS), UINT64_MAX - 4);
	snap_set(&b, SA(INSTRUCTIONS), 5);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(m.valid && m.read_bytes == 200 && m.write_bytes == 64 &&
	   near(m.read_gbps, 200e-9) && near(m.l1_miss_latency, 4000.0 / 20) &&
	   near(m.core_ghz, 2.5 * 2000 / 1000) && m.offcore_bytes == 64,
	   "metrics: counters wrapping past 2^64 give the right deltas");

	/* a counter that goes back without an epoch change is not trusted */
	canned_pair(0, &a, &b);
	snap_set(&b, SA(DRAM_WRITE_BYTES), 1000);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(!m.valid && m.brk[GROUP_IMC].why == BREAK_BACKWARDS &&
	   m.brk[GROUP_IMC].attr == SA(DRAM_WRITE_BYTES) &&
	   isnan(m.read_gbps) && isnan(m.write_gbps),
	   "metrics: a counter going backwards invalidates its group");
	canned_pair(0, &a, &b);
	snap_set(&b, SA(L1_MISS), 5);
	metrics_compute(&a, &b, TSC_KHZ, 300, &m);
	ok(!m.valid && m.brk[GROUP_CORE].why == BREAK_BACKWARDS &&
	   m.brk[GROUP_CORE].attr == SA(L1_MISS) && near(m.read_gbps, 25.6),
	   "metrics: a core counter going backwards invalidates the core group");
}

/* Snapshot @i of a socket counting 1 GB/s of reads: 1 byte per ns. */
static struct snap steady(uint64_t t_ns, uint32_t epoch, uint64_t base)
{
	struct snap s = snap_at(0, t_ns);

	snap_imc(&s, epoch, base + (t_ns - T0), 0);
	snap_core(&s, 1, (struct core_counts){ t_ns, t_ns, t_ns, t_ns / 100,
					       0, 0 });
	return s;
}

static void test_aggregation(void)
{
	struct aggregator g;
	struct interval m;
	struct snap s;
	int rc, i, rows = 0;

	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	ok(agg_feed(&g, &s, &m) == 0, "aggregate: the first snapshot is the baseline");
	for (i = 1; i <= 3; i++) {
		s = steady(T0 + (uint64_t)i * 250000000, 1, 0);
		rows += agg_feed(&g, &s, &m) == 1;
	}
	ok(rows == 0, "aggregate: 250, 500, 750 ms into a 1 s interval: absorbed");
	s = steady(T0 + SEC, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == SEC && near(m.read_gbps, 1.0) &&
	   m.valid && m.t_ns == T0 + SEC,
	   "aggregate: four 250 ms notifications make one 1 s interval at 1 GB/s");
	ok(agg_feed(&g, &s, &m) == -1,
	   "aggregate: a snapshot no newer than the last is ignored");

	/* the module's own period: 999.9 ms (timer jitter) still ends it */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + SEC - 100000, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == SEC - 100000,
	   "aggregate: a notification 0.1 ms early ends the interval");
	s = steady(T0 + 2 * SEC + 100000, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == SEC + 200000,
	   "aggregate: and the next one, 0.1 ms late, ends the next");

	/* 300 ms notifications, 1 s wanted: 900 ms is nearer than 1200 */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	agg_feed(&g, &s, &m);
	for (i = 1, rc = 0; i <= 3 && rc != 1; i++) {
		s = steady(T0 + (uint64_t)i * 300000000, 1, 0);
		rc = agg_feed(&g, &s, &m);
	}
	ok(rc == 1 && i == 4 && m.interval_ns == 900000000 &&
	   near(m.read_gbps, 1.0),
	   "aggregate: with 300 ms notifications the interval ends at the nearest, 900 ms");

	/* 600 ms notifications, 1 s wanted: 1200 ms is nearer than 600 */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + 600000000, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 0, "aggregate: 600 ms into 1 s with 600 ms steps: wait");
	s = steady(T0 + 1200000000, 1, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == 1200000000,
	   "aggregate: ... and end at 1200 ms");

	/* an epoch change in the middle of an aggregated interval */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + 500000000, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + 750000000, 2, 0);	/* restarted at 750 ms */
	agg_feed(&g, &s, &m);
	s = steady(T0 + SEC, 2, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && !m.valid && m.brk[GROUP_IMC].why == BREAK_EPOCH &&
	   m.brk[GROUP_IMC].from == 1 && m.brk[GROUP_IMC].to == 2 &&
	   isnan(m.read_gbps) && near(m.l1_miss_latency, 100),
	   "aggregate: an epoch change inside the interval invalidates it");
	s = steady(T0 + 2 * SEC, 2, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.valid && near(m.read_gbps, 1.0),
	   "aggregate: the next interval counts from the new baseline");

	/*
	 * A counter that went backwards at an intermediate snapshot and
	 * forward again by the end: base -> end alone would look fine.
	 */
	agg_init(&g, SEC, TSC_KHZ, 300);
	s = steady(T0, 1, 1000000000);
	agg_feed(&g, &s, &m);
	s = steady(T0 + 500000000, 1, 0);
	agg_feed(&g, &s, &m);
	s = steady(T0 + SEC, 1, 1000000000);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && !m.valid && m.brk[GROUP_IMC].why == BREAK_BACKWARDS,
	   "aggregate: a step backwards inside the interval invalidates it");

	/* without timestamps, every snapshot ends an interval */
	agg_init(&g, SEC, TSC_KHZ, 300);
	memset(&s, 0, sizeof(s));
	snap_set(&s, SA(SOCKET), 0);
	snap_imc(&s, 1, 0, 0);
	agg_feed(&g, &s, &m);
	snap_imc(&s, 1, 64, 0);
	rc = agg_feed(&g, &s, &m);
	ok(rc == 1 && m.interval_ns == 0 && m.read_bytes == 64 &&
	   isnan(m.read_gbps),
	   "aggregate: snapshots without time-ns: one interval each, no rates");
}

/* ---- snapshot messages ---- */

/* A snapshot message as memdiag builds it, pads included when @pad. */
static struct nlmsghdr *snap_msg(char *buf, uint8_t cmd, const struct snap *s,
				 bool pad)
{
	struct nlmsghdr *nlh = reply_start(buf);
	struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	unsigned int a;

	genl->cmd = cmd;
	for (a = 1; a < SNAP_ATTRS; a++) {
		if (!snap_has(s, a))
			continue;
		switch (a) {
		case SA(SOCKET):
		case SA(IMC_EPOCH):
		case SA(CORE_EPOCH):
		case SA(NR_CPUS):
			mnl_attr_put_u32(nlh, (uint16_t)a, (uint32_t)s->v[a]);
			break;
		default:
			if (pad)
				mnl_attr_put(nlh, SA(PAD), 0, NULL);
			mnl_attr_put_u64(nlh, (uint16_t)a, s->v[a]);
		}
	}
	return nlh;
}

static void put_channel(struct nlmsghdr *nlh, uint32_t id, uint64_t rd,
			uint64_t wr)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, SA(CHANNEL));

	mnl_attr_put_u32(nlh, MEMDIAG_A_CHANNEL_ID, id);
	mnl_attr_put(nlh, MEMDIAG_A_CHANNEL_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, MEMDIAG_A_CHANNEL_READ_BYTES, rd);
	mnl_attr_put_u64(nlh, MEMDIAG_A_CHANNEL_WRITE_BYTES, wr);
	mnl_attr_nest_end(nlh, nest);
}

static void test_snap_parse(void)
{
	char buf[2048], why[160];
	struct nlmsghdr *nlh;
	struct snap a, b, s;
	struct nlattr *nest;
	int rc;

	canned_pair(0, &a, &b);
	nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT_NTF, &a, true);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc == 0 && s.have == a.have && !memcmp(s.v, a.v, sizeof(s.v)),
	   "snapshot: every attribute read, pad attributes skipped");

	nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT_NTF, &a, false);
	mnl_attr_put_strz(nlh, MEMDIAG_A_SNAPSHOT_MAX + 4, "future");
	put_channel(nlh, 0, 1, 2);
	put_channel(nlh, 1, 3, 4);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc == 0 && s.have == a.have && s.nr_channels == 2,
	   "snapshot: unknown attributes skipped, channels counted");

	a.have = 0;
	snap_set(&a, SA(TIME_NS), T0);
	nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT, &a, false);
	errno = 0;
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc < 0 && errno == EBADMSG, "snapshot: no socket is malformed");
	is_str(why, "no socket attribute", "snapshot: says the socket is missing");

	nlh = reply_start(buf);
	mnl_attr_put_u32(nlh, SA(SOCKET), 0);
	mnl_attr_put_u32(nlh, SA(DRAM_READ_BYTES), 5);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc < 0, "snapshot: a u64 counter sent as 4 bytes is refused");
	is_str(why, "attribute dram-read-bytes (type 5) has the wrong size",
	       "snapshot: names the attribute");

	nlh = reply_start(buf);
	mnl_attr_put_u64(nlh, SA(SOCKET), 0);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc < 0, "snapshot: a u32 sent as 8 bytes is refused");
	is_str(why, "attribute socket (type 1) has the wrong size",
	       "snapshot: names the u32");

	nlh = reply_start(buf);
	mnl_attr_put_u32(nlh, SA(SOCKET), 0);
	nest = mnl_attr_nest_start(nlh, SA(CHANNEL));
	mnl_attr_put_u32(nlh, MEMDIAG_A_CHANNEL_READ_BYTES, 1);
	mnl_attr_nest_end(nlh, nest);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc < 0, "snapshot: a malformed channel nest is refused");
	is_str(why, "attribute channel.read-bytes (type 3) has the wrong size",
	       "snapshot: names the nested attribute with its set");
}

static int snapshot_case(const struct nlmsghdr *const *msgs, size_t nr,
			 bool json, bool channels, char **out, char **err)
{
	struct capture c;
	struct printer p;
	struct buf b;
	int rc;

	buf_open(&b);
	print_init(&p, b.f, json, false);
	capture_start(&c);
	rc = snapshot_show("snapshot", &p, msgs, nr, channels);
	if (rc == MDC_EXIT_OK)
		rc = cli_output_end("snapshot", &p);
	*err = capture_end(&c);
	buf_close(&b);
	*out = b.data;
	return rc;
}

static void test_snapshot_show(void)
{
	static char buf0[2048], buf1[2048], buf2[2048];
	const struct nlmsghdr *msgs[2];
	struct nlmsghdr *nlh;
	struct snap a, b;
	char *out, *err;
	int rc;

	/* socket 1 first: the output is in socket order */
	canned_pair(1, &a, &b);
	a.have &= ~((1u << SA(CORE_EPOCH)) | (1u << SA(NR_CPUS)) |
		    (1u << SA(INSTRUCTIONS)) | (1u << SA(CYCLES)) |
		    (1u << SA(REF_CYCLES)) | (1u << SA(L1D_PEND_MISS)) |
		    (1u << SA(L1_MISS)) | (1u << SA(LFB_HIT)) |
		    (1u << SA(OFFCORE_DRAM_READS)));
	nlh = snap_msg(buf1, MEMDIAG_CMD_SNAPSHOT, &a, false);
	put_channel(nlh, 0, 1500000000000, 600000000000);
	put_channel(nlh, 2, 500000000000, 400000000000);
	msgs[0] = nlh;
	canned_pair(0, &a, &b);
	nlh = snap_msg(buf0, MEMDIAG_CMD_SNAPSHOT, &a, true);
	put_channel(nlh, 0, 600000000000, 250000000000);
	put_channel(nlh, 1, 400000000000, 150000000000);
	msgs[1] = nlh;

	rc = snapshot_case(msgs, 2, false, true, &out, &err);
	ok(rc == MDC_EXIT_OK && !*err, "snapshot text: exit 0, nothing on stderr");
	is_str(out,
	       "                                   socket 0             socket 1\n"
	       "time-ns                       1000000000000        1000000001000\n"
	       "imc-epoch                                 1                    1\n"
	       "dram-read-bytes               1000000000000        2000000000000\n"
	       "dram-write-bytes               400000000000        1000000000000\n"
	       "core-epoch                                1                    -\n"
	       "nr-cpus                                  28                    -\n"
	       "instructions                  2000000000000                    -\n"
	       "cycles                        4000000000000                    -\n"
	       "ref-cycles                    5000000000000                    -\n"
	       "l1d-pend-miss                  900000000000                    -\n"
	       "l1-miss                          3000000000                    -\n"
	       "lfb-hit                          1500000000                    -\n"
	       "l1-miss-any                               -                    -\n"
	       "offcore-dram-reads               1000000000                    -\n"
	       "prefetch-disabled                         -                    -\n"
	       "prefetch-mixed                            -                    -\n"
	       "prefetch-changed                          -                    -\n"
	       "channel 0 read-bytes           600000000000        1500000000000\n"
	       "channel 0 write-bytes          250000000000         600000000000\n"
	       "channel 1 read-bytes           400000000000                    -\n"
	       "channel 1 write-bytes          150000000000                    -\n"
	       "channel 2 read-bytes                      -         500000000000\n"
	       "channel 2 write-bytes                     -         400000000000\n",
	       "snapshot text: counters as rows, sockets as columns, '-' when absent");
	free(out);
	free(err);

	rc = snapshot_case(msgs, 2, true, true, &out, &err);
	ok(rc == MDC_EXIT_OK && !*err, "snapshot json: exit 0, nothing on stderr");
	is_str(out,
	       "[{\"socket\":0,\"time_ns\":1000000000000,\"imc_epoch\":1,"
	       "\"read_bytes\":1000000000000,\"write_bytes\":400000000000,"
	       "\"core_epoch\":1,\"nr_cpus\":28,\"instructions\":2000000000000,"
	       "\"cycles\":4000000000000,\"ref_cycles\":5000000000000,"
	       "\"l1d_pend_miss\":900000000000,\"l1_miss\":3000000000,"
	       "\"lfb_hit\":1500000000,\"offcore_dram_reads\":1000000000,"
	       "\"channels\":[{\"id\":0,\"read_bytes\":600000000000,\"write_bytes\":250000000000},"
	       "{\"id\":1,\"read_bytes\":400000000000,\"write_bytes\":150000000000}]},"
	       "{\"socket\":1,\"time_ns\":1000000001000,\"imc_epoch\":1,"
	       "\"read_bytes\":2000000000000,\"write_bytes\":1000000000000,"
	       "\"channels\":[{\"id\":0,\"read_bytes\":1500000000000,\"write_bytes\":600000000000},"
	       "{\"id\":2,\"read_bytes\":500000000000,\"write_bytes\":400000000000}]}]\n",
	       "snapshot json: snake_case spec names, absent counters absent, channel arrays");
	free(out);
	free(err);

	rc = snapshot_case(msgs + 1, 1, true, false, &out, &err);
	ok(rc == MDC_EXIT_OK && !strstr(out, "channel"),
	   "snapshot json: no channel key without --channels");
	free(out);
	free(err);

	/* the prefetch state: masks say so in their key, the flag is a bool */
	nlh = reply_start(buf2);
	mnl_attr_put_u32(nlh, SA(SOCKET), 3);
	mnl_attr_put_u32(nlh, SA(PREFETCH_DISABLED), 5);
	mnl_attr_put_u32(nlh, SA(PREFETCH_MIXED), 2);
	mnl_attr_put_u8(nlh, SA(PREFETCH_CHANGED), 1);
	msgs[1] = nlh;
	rc = snapshot_case(msgs + 1, 1, true, false, &out, &err);
	is_str(out, "[{\"socket\":3,\"prefetch_disabled_mask\":5,"
	       "\"prefetch_mixed_mask\":2,\"prefetch_changed\":true}]\n",
	       "snapshot json: prefetch bitmasks end in _mask, prefetch_changed is a bool");
	free(out);
	free(err);

	rc = snapshot_case(msgs, 0, true, false, &out, &err);
	ok(rc == MDC_EXIT_OK, "snapshot json: no socket is no error");
	is_str(out, "[]\n", "snapshot json: no socket is an empty array");
	free(out);
	free(err);

	nlh = reply_start(buf2);
	mnl_attr_put_u32(nlh, SA(SOCKET), 0);
	mnl_attr_put_u16(nlh, SA(CYCLES), 5);
	msgs[1] = nlh;
	rc = snapshot_case(msgs, 2, false, false, &out, &err);
	ok(rc == MDC_EXIT_KERNEL && !*out,
	   "snapshot: a malformed reply exits 5 and prints nothing");
	is_str(err, "memdiagctl: snapshot: malformed snapshot reply from the memdiag module: attribute cycles (type 11) has the wrong size\n",
	       "snapshot: the malformed attribute is named");
	free(out);
	free(err);
}

/* ---- watch, fed canned notifications ---- */

static void canned_summary(struct info_summary *sum)
{
	static uint32_t ids[] = { 0, 1 };
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	sum->have_nr_sockets = true;
	sum->nr_sockets = 2;
	sum->socket = ids;
	sum->nr_socket = 2;
	sum->tsc_khz = TSC_KHZ;
	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++)
		sum->cap[i].listed = sum->cap[i].available = true;
}

struct wrun {
	struct watch w;
	struct buf b;
	struct capture c;
	int init_rc;
};

static void wrun_start(struct wrun *r, bool json, const struct info_summary *sum)
{
	memset(&r->w, 0, sizeof(r->w));
	r->w.cmd = "watch";
	r->w.json = json;
	r->w.all = true;
	r->w.interval_ms = 1000;
	r->w.threshold = WATCH_DEFAULT_THRESHOLD;
	r->w.family = 0x1f;	/* reply_start()'s */
	buf_open(&r->b);
	r->w.out = r->b.f;
	capture_start(&r->c);
	r->init_rc = watch_init(&r->w, sum);
}

static void wrun_feed(struct wrun *r, const struct snap *s)
{
	char buf[2048];

	watch_msg(snap_msg(buf, MEMDIAG_CMD_SNAPSHOT_NTF, s, true), &r->w);
}

static void wrun_end(struct wrun *r, char **out, char **err)
{
	*err = capture_end(&r->c);
	buf_close(&r->b);
	*out = r->b.data;
	watch_free(&r->w);
}

static const char watch_text[] =
	"sock  rd_GB/s  wr_GB/s  tot_GB/s  ocr_GB/s  l1m_lat_cyc  lmr_lat_cyc  lmr_lat_ns  sat  prefetch\n"
	"   0    25.60     6.40     32.00     19.20        300.0        200.0       100.0   no  -\n"
	"   1    80.00    20.00    100.00     32.00        500.0        400.0       200.0  yes  -\n";

static const char watch_json[] =
	"{\"socket\":0,\"time_ns\":1001000000000,\"interval_ns\":1000000000,"
	"\"valid\":true,\"read_bytes\":25600000000,\"write_bytes\":6400000000,"
	"\"read_gbps\":25.6,\"write_gbps\":6.4,\"total_gbps\":32,"
	"\"offcore_read_bytes\":19200000000,\"offcore_read_gbps\":19.2,"
	"\"l1_miss_latency_cycles\":300,\"load_miss_real_latency_cycles\":200,"
	"\"core_ghz\":2,\"load_miss_real_latency_ns\":100,\"saturated\":false,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n"
	"{\"socket\":1,\"time_ns\":1001000001000,\"interval_ns\":1000000000,"
	"\"valid\":true,\"read_bytes\":80000000000,\"write_bytes\":20000000000,"
	"\"read_gbps\":80,\"write_gbps\":20,\"total_gbps\":100,"
	"\"offcore_read_bytes\":32000000000,\"offcore_read_gbps\":32,"
	"\"l1_miss_latency_cycles\":500,\"load_miss_real_latency_cycles\":400,"
	"\"core_ghz\":2,\"load_miss_real_latency_ns\":200,\"saturated\":true,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n";

static void test_watch_canned(void)
{
	struct info_summary sum;
	struct snap a0, b0, a1, b1;
	struct wrun r;
	char *out, *err;
	int json;

	canned_summary(&sum);
	canned_pair(0, &a0, &b0);
	canned_pair(1, &a1, &b1);
	for (json = 0; json <= 1; json++) {
		wrun_start(&r, json, &sum);
		wrun_feed(&r, &a0);
		wrun_feed(&r, &a1);
		wrun_feed(&r, &b0);
		wrun_feed(&r, &b1);
		wrun_end(&r, &out, &err);
		ok(r.init_rc == MDC_EXIT_OK && r.w.rc == MDC_EXIT_OK && !*err,
		   "watch %s: canned pair: no note, no error", json ? "json" : "text");
		is_str(out, json ? watch_json : watch_text,
		       json ? "watch json: the canned pair of two sockets"
			    : "watch text: the canned pair of two sockets");
		free(out);
		free(err);
	}
}

static void test_watch_epoch(void)
{
	struct info_summary sum;
	struct snap a, b, c, d;
	struct wrun r;
	char *out, *err;
	int json;

	canned_summary(&sum);
	canned_pair(0, &a, &b);
	c = b;
	snap_set(&c, SA(TIME_NS), b.v[SA(TIME_NS)] + SEC);
	snap_set(&c, SA(IMC_EPOCH), 2);
	snap_set(&c, SA(DRAM_READ_BYTES), 64);
	snap_set(&c, SA(DRAM_WRITE_BYTES), 0);
	d = c;
	snap_set(&d, SA(TIME_NS), c.v[SA(TIME_NS)] + SEC);
	snap_set(&d, SA(DRAM_READ_BYTES), 64 + 2000000000);
	for (json = 0; json <= 1; json++) {
		wrun_start(&r, json, &sum);
		r.w.all = false;
		r.w.socket = 0;
		wrun_feed(&r, &a);
		wrun_feed(&r, &b);
		wrun_feed(&r, &c);
		wrun_feed(&r, &d);
		wrun_end(&r, &out, &err);
		if (!json) {
			is_str(out,
			       "sock  rd_GB/s  wr_GB/s  tot_GB/s  ocr_GB/s  l1m_lat_cyc  lmr_lat_cyc  lmr_lat_ns  sat  prefetch\n"
			       "   0    25.60     6.40     32.00     19.20        300.0        200.0       100.0   no  -\n"
			       "   0        -        -         -      0.00            -            -           -    -  -\n"
			       "   0     2.00     0.00      2.00      0.00            -            -           -    -  -\n",
			       "watch text: an imc-epoch change blanks that interval's DRAM columns, then resumes");
			is_str(err,
			       "memdiagctl: watch: note: socket 0: imc-epoch changed from 1 to 2 (counting restarted), so this interval's rd_GB/s, wr_GB/s and tot_GB/s are not shown\n",
			       "watch text: one note for the invalid interval");
		} else {
			has_str(out,
				"{\"socket\":0,\"time_ns\":1002000000000,\"interval_ns\":1000000000,"
				"\"valid\":false,\"read_bytes\":null,\"write_bytes\":null,"
				"\"read_gbps\":null,\"write_gbps\":null,\"total_gbps\":null,"
				"\"offcore_read_bytes\":0,\"offcore_read_gbps\":0,"
				"\"l1_miss_latency_cycles\":null,\"load_miss_real_latency_cycles\":null,"
				"\"core_ghz\":null,\"load_miss_real_latency_ns\":null,\"saturated\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n",
				"watch json: the invalid interval: valid false, DRAM keys null");
			has_str(out, "\"valid\":true,\"read_bytes\":2000000000,\"write_bytes\":0,\"read_gbps\":2,",
				"watch json: the next interval is valid from the new baseline");
			is_str(err,
			       "memdiagctl: watch: note: socket 0: imc-epoch changed from 1 to 2 (counting restarted), so this interval's read_bytes, write_bytes, read_gbps, write_gbps and total_gbps are null\n",
			       "watch json: one note, naming the keys");
		}
		free(out);
		free(err);
	}

	/* both groups at once */
	wrun_start(&r, false, &sum);
	c = b;
	snap_set(&c, SA(TIME_NS), b.v[SA(TIME_NS)] + SEC);
	snap_set(&c, SA(IMC_EPOCH), 7);
	snap_set(&c, SA(CORE_EPOCH), 3);
	wrun_feed(&r, &b);
	wrun_feed(&r, &c);
	wrun_end(&r, &out, &err);
	is_str(err,
	       "memdiagctl: watch: note: socket 0: imc-epoch changed from 1 to 7 (counting restarted) and core-epoch changed from 1 to 3 (counting restarted), so none of this interval's metrics is shown\n",
	       "watch: both epochs in one note line");
	has_str(out, "   0        -        -         -         -            -            -           -    -  -\n",
		"watch: every metric blank when both groups restarted");
	free(out);
	free(err);
}

static void test_watch_unavailable(void)
{
	struct info_summary sum;
	struct snap a, b;
	struct wrun r;
	char *out, *err;
	unsigned int i;

	/* under TCG: nothing to measure, no session */
	canned_summary(&sum);
	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++) {
		sum.cap[i].available = false;
		snprintf(sum.cap[i].reason, sizeof(sum.cap[i].reason),
			 "reason %u", i);
	}
	wrun_start(&r, false, &sum);
	wrun_end(&r, &out, &err);
	ok(r.init_rc == MDC_EXIT_UNAVAILABLE && !*out,
	   "watch: no counter group available: exit 7, nothing on stdout (got %d)",
	   r.init_rc);
	is_str(err,
	       "memdiagctl: watch: nothing to measure: no counter is available on this machine\n"
	       "memdiagctl: watch: imc-bandwidth: reason 0\n"
	       "memdiagctl: watch: core-latency: reason 1\n"
	       "memdiagctl: watch: offcore: reason 2\n",
	       "watch: the reason of each counter group");
	free(out);
	free(err);

	/* a VM with IMC but no core PMU, and no TSC frequency either */
	canned_summary(&sum);
	sum.tsc_khz = 0;
	sum.cap[MEMDIAG_CAPABILITY_CORE_LATENCY].available = false;
	snprintf(sum.cap[MEMDIAG_CAPABILITY_CORE_LATENCY].reason, 256,
		 "the core PMU is not visible (hypervisor?)");
	sum.cap[MEMDIAG_CAPABILITY_OFFCORE].available = false;
	canned_pair(0, &a, &b);
	a.have &= (1u << SA(SOCKET)) | (1u << SA(TIME_NS)) |
		  (1u << SA(IMC_EPOCH)) | (1u << SA(DRAM_READ_BYTES)) |
		  (1u << SA(DRAM_WRITE_BYTES));
	b.have = a.have;
	wrun_start(&r, true, &sum);
	wrun_feed(&r, &a);
	wrun_feed(&r, &b);
	wrun_feed(&r, &a);	/* stale: ignored */
	wrun_end(&r, &out, &err);
	ok(r.init_rc == MDC_EXIT_OK, "watch: some counters missing: runs");
	is_str(err,
	       "memdiagctl: watch: note: l1_miss_latency_cycles, load_miss_real_latency_cycles, core_ghz, load_miss_real_latency_ns and saturated will be null: core-latency is unavailable: the core PMU is not visible (hypervisor?)\n"
	       "memdiagctl: watch: note: offcore_read_bytes and offcore_read_gbps will be null: offcore is unavailable\n",
	       "watch: each missing group explained once at start, none again later");
	is_str(out,
	       "{\"socket\":0,\"time_ns\":1001000000000,\"interval_ns\":1000000000,"
	       "\"valid\":true,\"read_bytes\":25600000000,\"write_bytes\":6400000000,"
	       "\"read_gbps\":25.6,\"write_gbps\":6.4,\"total_gbps\":32,"
	       "\"offcore_read_bytes\":null,\"offcore_read_gbps\":null,"
	       "\"l1_miss_latency_cycles\":null,\"load_miss_real_latency_cycles\":null,"
	       "\"core_ghz\":null,\"load_miss_real_latency_ns\":null,\"saturated\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n",
	       "watch json: unavailable metrics are null, never 0");
	free(out);
	free(err);

	/* only the TSC frequency is missing; and a module that sends no IMC */
	canned_summary(&sum);
	sum.tsc_khz = 0;
	canned_pair(0, &a, &b);
	a.have &= ~((1u << SA(DRAM_READ_BYTES)) | (1u << SA(DRAM_WRITE_BYTES)) |
		    (1u << SA(IMC_EPOCH)));
	b.have = a.have;
	wrun_start(&r, false, &sum);
	wrun_feed(&r, &a);
	wrun_feed(&r, &b);
	wrun_end(&r, &out, &err);
	is_str(err,
	       "memdiagctl: watch: note: lmr_lat_ns will be -: the memdiag module did not report the TSC frequency (tsc-khz)\n"
	       "memdiagctl: watch: note: rd_GB/s, wr_GB/s and tot_GB/s will be -: the memdiag module sends no DRAM counters\n",
	       "watch: no tsc-khz, and counters missing though listed available");
	has_str(out,
		"   0        -        -         -     19.20        300.0        200.0           -   no  -\n",
		"watch text: '-' for what is missing, the rest printed");
	free(out);
	free(err);
}

static void test_watch_flow(void)
{
	struct info_summary sum;
	struct snap s, t;
	struct wrun r;
	char *out, *err, *p, buf[2048];
	struct nlmsghdr *nlh;
	int i, headers = 0, rows = 0;

	/* --socket 1: socket 0 is not printed; --count 2 stops at 2 rows */
	canned_summary(&sum);
	wrun_start(&r, true, &sum);
	r.w.all = false;
	r.w.socket = 1;
	watch_free(&r.w);
	r.init_rc = watch_init(&r.w, &sum);
	r.w.count = 2;
	for (i = 0; i < 6; i++) {
		s = steady(T0 + (uint64_t)i * SEC, 1, 0);
		wrun_feed(&r, &s);
		snap_set(&s, SA(SOCKET), 1);
		wrun_feed(&r, &s);
		ok(watch_done(&r.w) == (i >= 2),
		   "watch --socket 1 --count 2: %s after %d snapshots",
		   i >= 2 ? "done" : "not done", i + 1);
	}
	wrun_end(&r, &out, &err);
	for (p = out; (p = strstr(p, "\"socket\":")); p++)
		rows++;
	ok(rows == 2 && !strstr(out, "\"socket\":0") && !*err,
	   "watch --socket 1 --count 2: two rows, all of socket 1 (got %d)", rows);
	free(out);
	free(err);

	/* the header every 20 rows; other messages ignored */
	wrun_start(&r, false, &sum);
	r.w.all = false;
	r.w.socket = 0;
	for (i = 0; i <= 21; i++) {
		s = steady(T0 + (uint64_t)i * SEC, 1, 0);
		wrun_feed(&r, &s);
		nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT, &s, false);
		watch_msg(nlh, &r.w);	/* a reply, not a notification */
		nlh->nlmsg_type = 0x20;	/* another family */
		watch_msg(nlh, &r.w);
	}
	wrun_end(&r, &out, &err);
	rows = 0;
	for (p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, "sock ", 5))
			headers++;
		else
			rows++;
	}
	ok(rows == 21 && headers == 2 && !strncmp(out, "sock ", 5) &&
	   strstr(out, "\n   0     1.00     0.00      1.00      0.00        100.0        100.0        40.0   no  -\nsock "),
	   "watch text: the header repeats after 20 rows (%d rows, %d headers)",
	   rows, headers);
	free(out);
	free(err);

	/* a malformed notification is skipped with one note */
	wrun_start(&r, false, &sum);
	for (i = 0; i < 2; i++) {
		nlh = reply_start(buf);
		((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd =
			MEMDIAG_CMD_SNAPSHOT_NTF;
		mnl_attr_put_u32(nlh, SA(SOCKET), 0);
		mnl_attr_put_u32(nlh, SA(TIME_NS), 5);
		watch_msg(nlh, &r.w);
	}
	canned_pair(0, &s, &t);
	wrun_feed(&r, &s);
	wrun_feed(&r, &t);
	wrun_end(&r, &out, &err);
	is_str(err, "memdiagctl: watch: note: ignoring a malformed snapshot from the memdiag module: attribute time-ns (type 3) has the wrong size\n",
	       "watch: a malformed notification noted once");
	has_str(out, "   0    25.60", "watch: and the good ones still printed");
	free(out);
	free(err);

	/* a full disk: the row is not lost silently */
	{
		FILE *f = fopen("/dev/full", "w");

		if (!f) {
			skip("watch: a write error stops with exit 6", "no /dev/full");
		} else {
			wrun_start(&r, true, &sum);
			r.w.out = f;
			canned_pair(0, &s, &t);
			wrun_feed(&r, &s);
			wrun_feed(&r, &t);
			wrun_end(&r, &out, &err);
			ok(r.w.rc == MDC_EXIT_LOCAL,
			   "watch: a write error stops with exit 6");
			has_str(err, "memdiagctl: watch: cannot write output: No space left on device",
				"watch: the write error is reported");
			fclose(f);
			free(out);
			free(err);
		}
	}
}

/*
 * The real poll loop over a real netlink socket: as root, another netlink
 * socket can send it unicast messages that look like the notifications.
 */
struct fake_kernel {
	struct mnl_socket *tx;
	uint32_t to;
};

static int fake_send(struct fake_kernel *k, const struct snap *s, uint16_t type)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_pid = k->to };
	char buf[2048];
	struct nlmsghdr *nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT_NTF, s, true);

	nlh->nlmsg_type = type;
	return sendto(mnl_socket_get_fd(k->tx), nlh, nlh->nlmsg_len, 0,
		      (struct sockaddr *)&sa, sizeof(sa)) < 0 ? -errno : 0;
}

static int lines(const char *s)
{
	int n = 0;

	while ((s = strchr(s, '\n'))) {
		n++;
		s++;
	}
	return n;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_watch_loop(void)
{
	struct info_summary sum;
	struct fake_kernel k;
	struct snap a, b, c;
	struct nl_error e;
	struct wrun r;
	struct nl nl;
	sigset_t mask;
	char *out, *err;
	double t;
	int sfd, rc;

	if (nl_open(&nl, &e) < 0) {
		skip("watch loop: over a netlink socket", strerror(e.err));
		return;
	}
	k.tx = mnl_socket_open(NETLINK_GENERIC);
	k.to = nl.portid;
	if (!k.tx || mnl_socket_bind(k.tx, 0, MNL_SOCKET_AUTOPID) < 0) {
		skip("watch loop: over a netlink socket", "no second socket");
		goto out;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	canned_summary(&sum);
	canned_pair(0, &a, &b);
	c = b;
	snap_set(&c, SA(TIME_NS), b.v[SA(TIME_NS)] + SEC);

	/* --socket 0 --count 2: stops by itself after two rows */
	rc = fake_send(&k, &a, 0x1f);
	if (rc == -EPERM || rc == -EACCES || sfd < 0) {
		skip("watch loop: over a netlink socket",
		     "sending to a netlink socket needs CAP_NET_ADMIN");
		goto out_sfd;
	}
	fake_send(&k, &a, 0x20);	/* another family's: ignored */
	fake_send(&k, &b, 0x1f);
	fake_send(&k, &c, 0x1f);
	wrun_start(&r, true, &sum);
	r.w.all = false;
	r.w.socket = 0;
	watch_free(&r.w);
	watch_init(&r.w, &sum);
	r.w.count = 2;
	rc = watch_loop(&r.w, &nl, sfd);
	wrun_end(&r, &out, &err);
	ok(rc == MDC_EXIT_OK && !*err && lines(out) == 2 &&
	   strstr(out, "\"read_gbps\":25.6,") &&
	   strstr(out, "\"interval_ns\":1000000000,\"valid\":true,\"read_bytes\":0,"),
	   "watch loop: --count 2 over the socket prints two rows and returns 0 (%d lines)",
	   lines(out));
	free(out);
	free(err);

	/* a signal ends it at once, even with snapshots waiting */
	nl_drain(&nl);
	fake_send(&k, &a, 0x1f);
	fake_send(&k, &b, 0x1f);
	kill(getpid(), SIGUSR1);
	wrun_start(&r, false, &sum);
	rc = watch_loop(&r.w, &nl, sfd);
	wrun_end(&r, &out, &err);
	ok(rc == MDC_EXIT_OK && !*out && !*err,
	   "watch loop: a signal in the signalfd stops it cleanly, exit 0");
	free(out);
	free(err);

	/* a socket that never reports is waited for 2 intervals + 1 s */
	nl_drain(&nl);
	a = snap_at(0, T0);
	b = snap_at(0, T0 + 1000000);
	snap_imc(&a, 1, 0, 0);
	snap_imc(&b, 1, 64000, 0);
	fake_send(&k, &a, 0x1f);
	fake_send(&k, &b, 0x1f);
	wrun_start(&r, true, &sum);
	r.w.interval_ms = 1;
	watch_free(&r.w);
	watch_init(&r.w, &sum);
	r.w.count = 1;
	t = seconds();
	rc = watch_loop(&r.w, &nl, sfd);
	t = seconds() - t;
	wrun_end(&r, &out, &err);
	ok(rc == MDC_EXIT_OK && t > 0.9 && t < 3 &&
	   lines(out) == 1 && strstr(out, "\"socket\":0,") &&
	   strstr(out, "\"read_gbps\":0.064,"),
	   "watch loop: --count with a silent socket ends after the grace time (%.2f s)",
	   t);
	has_str(err, "memdiagctl: watch: note: stopping: socket 1 sent too few snapshots for --count 1 while the others were done\n",
	       "watch loop: says which socket it gave up on");
	free(out);
	free(err);
out_sfd:
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
out:
	if (k.tx)
		mnl_socket_close(k.tx);
	nl_close(&nl);
}

/* ---- counters around "run" (run_counters.c) and the harness's marks ---- */

/* A run_counters as run_counters_open() leaves it, without a module. */
static void rc_setup(struct run_counters *c, size_t nr_sock)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->on = true;
	c->tsc_khz = TSC_KHZ;
	c->core_mode = MEMDIAG_CORE_MODE_MSR;
	c->imc.listed = c->core.listed = c->offcore.listed = true;
	c->imc.available = c->core.available = c->offcore.available = true;
	c->nr_sock = nr_sock;
	c->sock_id = calloc(nr_sock, sizeof(*c->sock_id));
	for (i = 0; i < nr_sock; i++)
		c->sock_id[i] = (uint32_t)i;
}

/* The JSON of @slot's result object, or of the text table (@what). */
static char *rc_out(const struct run_counters *c, size_t slot, bool json,
		    const char *what)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, json, false);
	print_open_object(&p, NULL);
	if (json)
		run_counters_json(&p, c, slot);
	else
		run_counters_text(&p, c, what);
	print_close_object(&p);
	if (print_end(&p) != 0)
		ok(false, "run counters: output ends cleanly");
	buf_close(&b);
	return b.data;
}

static void rc_add_pair(struct run_counters *c, size_t slot,
			const struct snap *a, const struct snap *b)
{
	const struct snap *pa[2] = { &a[0], &a[1] };
	const struct snap *pb[2] = { &b[0], &b[1] };

	run_counters_add(c, slot, pa, pb);
}

static void test_run_counters(void)
{
	static const char *const labels[] = { "copy", "scale" };
	struct run_counters c;
	struct snap a[2], b[2], e[2];
	size_t slot;
	char *out;

	rc_setup(&c, 2);
	slot = run_counters_next(&c, 2, labels);
	ok(slot == 0 && c.nr_slot == 2, "run counters: two slots for two phases");
	/* copy: the canned second twice over (two repetitions) */
	canned_pair(0, &a[0], &b[0]);
	canned_pair(1, &a[1], &b[1]);
	rc_add_pair(&c, 0, a, b);
	rc_add_pair(&c, 0, a, b);
	/* 2 x (25.6 + 6.4 + 80 + 20) GB = 264 GB; 2 x (19.2 + 32) GB offcore */
	run_counters_traffic(&c, 0, 240000000000, 51200000000);
	out = rc_out(&c, 0, true, NULL);
	has_str(out, "\"counters\":{\"interval_ns\":2000000000,\"interval_s\":2,\"timed_s\":null,\"intervals\":2,\"valid\":true,"
		"\"read_bytes\":211200000000,\"write_bytes\":52800000000,"
		"\"offcore_read_bytes\":102400000000,\"traffic_bytes\":240000000000,"
		"\"traffic_read_bytes\":51200000000,\"volume_ratio\":1.1,"
		"\"offcore_volume_ratio\":2,\"null_reasons\":{},",
		"run counters: two intervals summed over both sockets; volume ratios 264/240 and 102.4/51.2");
	has_str(out, "{\"socket\":0,\"valid\":true,\"read_bytes\":51200000000,"
		"\"write_bytes\":12800000000,\"read_gbps\":25.6,\"write_gbps\":6.4,"
		"\"offcore_read_bytes\":38400000000,\"l1_miss_latency_cycles\":300,"
		"\"load_miss_real_latency_cycles\":200,\"null_reasons\":{}}",
		"run counters: socket 0's deltas, rates and latencies over the sum");
	has_str(out, "{\"socket\":1,\"valid\":true,\"read_bytes\":160000000000,",
		"run counters: socket 1's read bytes");
	has_str(out, "\"load_miss_real_latency_cycles\":400,\"null_reasons\":{}}]},"
		"\"counters_reason\":null}",
		"run counters: socket 1's latency; counters_reason null");
	free(out);

	/* scale: socket 0's IMC restarts during the second interval */
	rc_add_pair(&c, 1, a, b);
	e[0] = b[0];
	e[1] = b[1];
	snap_set(&e[0], SA(IMC_EPOCH), 2);
	rc_add_pair(&c, 1, a, e);
	out = rc_out(&c, 1, true, NULL);
	has_str(out, "\"valid\":false,\"read_bytes\":null,\"write_bytes\":null,"
		"\"offcore_read_bytes\":102400000000,\"null_reasons\":{\"read_bytes\":"
		"\"socket 0: imc-epoch changed from 1 to 2 during the run (the counters were reset or reprogrammed), so the interval is invalid\"",
		"run counters: an imc-epoch change makes the totals null, with the reason");
	has_str(out, "{\"socket\":0,\"valid\":false,\"read_bytes\":null,\"write_bytes\":null,"
		"\"read_gbps\":null,\"write_gbps\":null,\"offcore_read_bytes\":38400000000,"
		"\"l1_miss_latency_cycles\":300,",
		"run counters: ... and socket 0's DRAM values null, its core values kept");
	has_str(out, "{\"socket\":1,\"valid\":true,\"read_bytes\":160000000000,",
		"run counters: ... and socket 1 unaffected");
	free(out);

	out = rc_out(&c, 0, false, "op");
	has_str(out, "op       sock    time_s      rd_MB      wr_MB     ocr_MB  rd_GB/s  wr_GB/s  l1m_cyc  lmr_cyc\n"
		"copy        0    2.0000    51200.0    12800.0    38400.0    25.60     6.40    300.0    200.0\n"
		"copy        1    2.0000   160000.0    40000.0    64000.0    80.00    20.00    500.0    400.0\n"
		"scale       0    2.0000          -          -    38400.0        -        -    300.0    200.0\n",
		"run counters: the text table, a row per op and socket, '-' for null");
	has_str(out, "volume check (IMC read+write bytes / computed bytes with write-allocate): copy 1.100\n",
		"run counters: the text volume check");
	has_str(out, "note: - in rd_MB, wr_MB, rd_GB/s, wr_GB/s: socket 0: imc-epoch changed from 1 to 2",
		"run counters: the text says once why the columns are empty");
	free(out);

	/* a slot nothing marked, and one beyond the reserved ones */
	slot = run_counters_next(&c, 1, NULL);
	out = rc_out(&c, slot, true, NULL);
	has_str(out, "\"counters\":null,\"counters_reason\":\"nothing was timed\"",
		"run counters: a slot without intervals is null, with why");
	free(out);
	out = rc_out(&c, 9, true, NULL);
	has_str(out, "\"counters_reason\":\"counters were not read for this kernel\"",
		"run counters: a result without a slot is null, with why");
	free(out);
	run_counters_close(&c);

	/* no core counters (core-mode none), an idle socket, a missing one */
	rc_setup(&c, 2);
	c.core_mode = MEMDIAG_CORE_MODE_NONE;
	snprintf(c.core_mode_reason, sizeof(c.core_mode_reason), "no PMU here");
	slot = run_counters_next(&c, 1, NULL);
	a[0] = snap_at(0, T0);
	b[0] = snap_at(0, T0 + SEC / 2);
	snap_imc(&a[0], 1, 1000, 0);
	snap_imc(&b[0], 1, 1000 + 5000000000, 0);
	{
		const struct snap *pa[2] = { &a[0], NULL };
		const struct snap *pb[2] = { &b[0], NULL };

		run_counters_add(&c, slot, pa, pb);
	}
	out = rc_out(&c, slot, true, NULL);
	has_str(out, "{\"socket\":0,\"valid\":true,\"read_bytes\":5000000000,"
		"\"write_bytes\":0,\"read_gbps\":10,\"write_gbps\":0,"
		"\"offcore_read_bytes\":null,\"l1_miss_latency_cycles\":null,"
		"\"load_miss_real_latency_cycles\":null,\"null_reasons\":{"
		"\"offcore_read_bytes\":\"the core counters are not counted in this session (core-mode none): no PMU here\",",
		"run counters: 5 GB in 0.5 s is 10 GB/s; core values null with core-mode none's reason");
	has_str(out, "{\"socket\":1,\"valid\":false,\"read_bytes\":null,",
		"run counters: a socket missing from the snapshots is invalid");
	has_str(out, "\"null_reasons\":{\"read_bytes\":\"socket 1 was missing from a snapshot\"",
		"run counters: ... and says so");
	free(out);
	run_counters_close(&c);

	/* counting, but no load missed the L1 */
	rc_setup(&c, 1);
	slot = run_counters_next(&c, 1, NULL);
	canned_pair(0, &a[0], &b[0]);
	b[0].v[SA(L1_MISS)] = a[0].v[SA(L1_MISS)];
	b[0].v[SA(LFB_HIT)] = a[0].v[SA(LFB_HIT)];
	{
		const struct snap *pa[1] = { &a[0] };
		const struct snap *pb[1] = { &b[0] };

		run_counters_add(&c, slot, pa, pb);
	}
	out = rc_out(&c, slot, true, NULL);
	has_str(out, "\"l1_miss_latency_cycles\":\"no load missed the L1 during the run\"",
		"run counters: no L1 miss: the latencies are null, not 0");
	free(out);
	run_counters_close(&c);

	/* no session at all */
	rc_setup(&c, 1);
	c.on = false;
	snprintf(c.reason, sizeof(c.reason), "the memdiag module is not loaded");
	out = rc_out(&c, 0, true, NULL);
	is_str(out, "{\"counters\":null,\"counters_reason\":\"the memdiag module is not loaded\"}\n",
	       "run counters: without a session, null and the reason");
	free(out);
	out = rc_out(&c, 0, false, "size");
	is_str(out, "counters: unavailable: the memdiag module is not loaded\n",
	       "run counters: without a session, one text line says why");
	free(out);
	run_counters_close(&c);
}

/* What the marks saw of the threads. */
struct mark_log {
	pthread_mutex_t lock;
	int in_body;		/* threads inside body() now */
	unsigned int bodies;	/* body() calls finished */
	unsigned int nthreads;
	char seq[64];		/* "B0.0 E0.0 ..." compressed to letters */
	size_t len;
	bool bad;		/* a mark saw a thread inside body() */
	bool short_end;		/* an END mark before every body was done */
	bool torn_down;		/* teardown ran before the last mark */
	bool late;		/* a mark after teardown */
	double begun;		/* when the last BEGIN mark returned */
	double span[4];		/* from there to the END mark's call */
};

static struct mark_log mlog;

static int mk_setup(void *ctx, unsigned int tid)
{
	(void)ctx;
	(void)tid;
	return 0;
}

static void mk_body(void *ctx, unsigned int tid, unsigned int phase)
{
	struct timespec ts = { 0, 2000000 };

	(void)ctx;
	(void)phase;
	pthread_mutex_lock(&mlog.lock);
	mlog.in_body++;
	pthread_mutex_unlock(&mlog.lock);
	/* thread 1 lags, so a mark that does not wait for it would see it */
	if (tid)
		nanosleep(&ts, NULL);
	pthread_mutex_lock(&mlog.lock);
	mlog.in_body--;
	mlog.bodies++;
	pthread_mutex_unlock(&mlog.lock);
}

static void mk_teardown(void *ctx, unsigned int tid)
{
	struct timespec ts = { 0, 1000000 };

	(void)ctx;
	pthread_mutex_lock(&mlog.lock);
	mlog.torn_down = true;
	pthread_mutex_unlock(&mlog.lock);
	if (!tid)
		nanosleep(&ts, NULL);
}

static void mk_mark(void *arg, enum kern_mark m, unsigned int rep,
		    unsigned int phase)
{
	struct timespec ts = { 0, 3000000 };
	unsigned int bodies;

	(void)arg;
	if (m == KERN_MARK_END && rep * 2 + phase < 4)
		mlog.span[rep * 2 + phase] = kern_now() - mlog.begun;
	pthread_mutex_lock(&mlog.lock);
	if (mlog.in_body)
		mlog.bad = true;
	if (mlog.torn_down)
		mlog.late = true;
	/* bodies done so far: every thread, every phase before this one */
	if (m == KERN_MARK_END &&
	    mlog.bodies != (rep * 2 + phase + 1) * mlog.nthreads)
		mlog.short_end = true;
	if (mlog.len + 1 < sizeof(mlog.seq))
		mlog.seq[mlog.len++] = (char)((m == KERN_MARK_BEGIN ? 'a' : 'A') +
					      rep * 2 + phase);
	bodies = mlog.bodies;
	pthread_mutex_unlock(&mlog.lock);
	/* a slow mark: nobody may start, end or tear down meanwhile */
	nanosleep(&ts, NULL);
	pthread_mutex_lock(&mlog.lock);
	if (mlog.in_body || mlog.bodies != bodies || mlog.torn_down)
		mlog.bad = true;
	pthread_mutex_unlock(&mlog.lock);
	if (m == KERN_MARK_BEGIN)
		mlog.begun = kern_now();
}

static void test_harness_marks(void)
{
	static const struct kern_ops ops = { mk_setup, mk_body, mk_teardown, 2 };
	int cpus[2] = { 0, 0 };
	struct kern_cfg cfg;
	cpu_set_t set;
	double sec[4];
	char err[160];
	int rc;

	memset(&mlog, 0, sizeof(mlog));
	pthread_mutex_init(&mlog.lock, NULL);
	memset(&cfg, 0, sizeof(cfg));
	cfg.nthreads = mlog.nthreads = 2;
	/* both on the first CPU this process may use */
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		while (cpus[0] < CPU_SETSIZE - 1 && !CPU_ISSET(cpus[0], &set))
			cpus[1] = ++cpus[0];
	cfg.cpu = cpus;
	cfg.reps = 2;
	cfg.mark = mk_mark;
	rc = kern_run(&cfg, &ops, NULL, sec, err, sizeof(err));
	ok(rc == 0, "harness: two threads, two phases, two repetitions run (%s)",
	   rc ? err : "ok");
	is_str(mlog.seq, "aAbBcCdD",
	       "harness: BEGIN and END marks around each phase of each repetition, in order");
	ok(!mlog.bad && !mlog.short_end,
	   "harness: no thread is in the kernel during a mark, and END comes after every thread's end");
	ok(!mlog.late, "harness: teardown waits for the last mark");
	ok(sec[0] <= mlog.span[0] && sec[1] <= mlog.span[1] &&
	   sec[2] <= mlog.span[2] && sec[3] <= mlog.span[3],
	   "harness: each phase's time lies within its marks, theirs excluded (%g <= %g)",
	   sec[0], mlog.span[0]);
	pthread_mutex_destroy(&mlog.lock);
}

/* transpose_run(): the variants asked for are phases 0, 1, ... to the marks */
static char tr_seq[64];

static void tr_log_mark(void *arg, enum kern_mark m, unsigned int rep,
			unsigned int phase)
{
	size_t len = strlen(tr_seq);

	(void)arg;
	snprintf(tr_seq + len, sizeof(tr_seq) - len, "%c%u%u ",
		 m == KERN_MARK_BEGIN ? 'b' : 'e', rep, phase);
}

static void test_transpose_marks(void)
{
	struct transpose_result r;
	struct kern_cfg cfg;
	cpu_set_t set;
	char err[160];
	int cpu = 0, rc;

	if (!kern_cpu_has(KERN_CPU_SSE2)) {
		skip("transpose: its variants are phases to the marks",
		     "no SSE2");
		return;
	}
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		while (cpu < CPU_SETSIZE - 1 && !CPU_ISSET(cpu, &set))
			cpu++;
	memset(&cfg, 0, sizeof(cfg));
	cfg.nthreads = 1;
	cfg.cpu = &cpu;
	cfg.reps = 2;
	cfg.mark = tr_log_mark;
	tr_seq[0] = 0;
	/* naive not asked for: it runs first as the reference, unmarked */
	rc = transpose_run(&cfg, 64, 1u << TR_SSE | 1u << TR_SSE_PREFETCH, 8,
			   -1, &r, err, sizeof(err));
	ok(rc == 0 && r.verified[TR_SSE] && r.verified[TR_SSE_PREFETCH],
	   "transpose: sse and sse-prefetch run and are verified (%s)",
	   rc ? err : "ok");
	is_str(tr_seq, "b00 e00 b10 e10 b01 e01 b11 e11 ",
	       "transpose: its variants are phases 0 and 1 to the marks, the reference run unmarked");
}

/* A notification queued before a reply must not be taken for the reply. */
static void test_nl_filter(void)
{
	struct fake_kernel k;
	struct nl_family fam;
	struct nl_error e;
	struct snap a, b;
	struct nl nl;
	int rc;

	if (nl_open(&nl, &e) < 0) {
		skip("nl: notifications are not replies", strerror(e.err));
		return;
	}
	k.to = nl.portid;
	k.tx = mnl_socket_open(NETLINK_GENERIC);
	if (!k.tx || mnl_socket_bind(k.tx, 0, MNL_SOCKET_AUTOPID) < 0) {
		skip("nl: notifications are not replies", "no second socket");
		goto out;
	}
	canned_pair(0, &a, &b);
	rc = fake_send(&k, &a, GENL_ID_CTRL);
	if (rc < 0) {
		skip("nl: notifications are not replies",
		     "sending to a netlink socket needs CAP_NET_ADMIN");
		goto out;
	}
	fake_send(&k, &b, 0x1f);
	rc = nl_family_get(&nl, "nlctrl", &fam, &e);
	ok(rc == 0 && fam.id == GENL_ID_CTRL && !strcmp(fam.name, "nlctrl"),
	   "nl: notifications (sequence 0) queued before a reply are skipped");
	if (rc == 0)
		nl_family_free(&fam);
out:
	if (k.tx)
		mnl_socket_close(k.tx);
	nl_close(&nl);
}

/* ---- prefetcher replies and CPU lists ---- */

static void put_pf(struct nlmsghdr *nlh, uint32_t i, const char *name,
		   uint32_t bit)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, MEMDIAG_A_PREFETCH_PREFETCHER);

	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCHER_INDEX, i);
	mnl_attr_put_strz(nlh, MEMDIAG_A_PREFETCHER_NAME, name);
	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCHER_BIT, bit);
	mnl_attr_put_strz(nlh, MEMDIAG_A_PREFETCHER_DESCRIPTION, "d");
	mnl_attr_nest_end(nlh, n);
}

static void put_pf_cpu(struct nlmsghdr *nlh, uint32_t cpu, uint32_t socket,
		       uint32_t core, uint64_t value, int64_t orig)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, MEMDIAG_A_PREFETCH_CPU_STATE);

	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_CPU_CPU, cpu);
	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_CPU_SOCKET, socket);
	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_CPU_CORE, core);
	mnl_attr_put_u64(nlh, MEMDIAG_A_PREFETCH_CPU_VALUE, value);
	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_CPU_DISABLED, (uint32_t)value & 0xf);
	if (orig >= 0)
		mnl_attr_put_u64(nlh, MEMDIAG_A_PREFETCH_CPU_ORIGINAL, (uint64_t)orig);
	mnl_attr_put_u8(nlh, MEMDIAG_A_PREFETCH_CPU_CHANGED,
			orig >= 0 && (uint64_t)orig != value);
	mnl_attr_nest_end(nlh, n);
}

/* CPUs 0-1 (one core) as found (0x8), CPUs 2-3 switched off (found 0x0). */
static struct nlmsghdr *reply_prefetch(char *buf)
{
	struct nlmsghdr *nlh = reply_start(buf);
	static const char *const names[] = {
		"l2-stream", "l2-adjacent", "l1-nextline", "l1-ip"
	};
	uint32_t i;

	mnl_attr_put_strz(nlh, MEMDIAG_A_PREFETCH_CONTROL, "Intel Core/Xeon");
	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_MSR, 0x1a4);
	for (i = 0; i < 4; i++)
		put_pf(nlh, i, names[i], i);
	put_pf_cpu(nlh, 0, 0, 0, 0x8, -1);
	put_pf_cpu(nlh, 1, 0, 0, 0x8, -1);
	put_pf_cpu(nlh, 2, 0, 2, 0xf, 0);
	put_pf_cpu(nlh, 3, 0, 2, 0xf, 0);
	return nlh;
}

static void test_prefetch(void)
{
	char buf[8192], err[160];
	struct nlmsghdr *nlh = reply_prefetch(buf);
	struct capture c;
	struct pf_state st;
	struct printer p;
	struct buf out;
	uint32_t *cpu;
	size_t n;
	char *e;
	int rc;

	rc = pf_state_parse("prefetch", nlh, &st);
	ok(rc == MDC_EXIT_OK && st.nr_pf == 4 && st.nr_cpu == 4 &&
	   st.msr == 0x1a4 && !strcmp(st.pf[2].name, "l1-nextline") &&
	   st.cpu[2].has_original && st.cpu[2].changed && !st.cpu[0].has_original,
	   "prefetch: a canned prefetch-get reply is read whole");
	ok(pf_state_find(&st, "l1-ip") == 3 && pf_state_find(&st, "l3") == -1,
	   "prefetch: names resolve to their index, unknown ones to -1");

	buf_open(&out);
	print_init(&p, out.f, false, false);
	pf_state_show(&p, &st, "status", 0);
	print_end(&p);
	buf_close(&out);
	is_str(out.data,
	       "prefetch control: Intel Core/Xeon, MSR 0x1a4 (a set bit switches a prefetcher off)\n"
	       "CPUS             SOCKET CORES      VALUE l2-stream l2-adjacent l1-nextline l1-ip  CHANGED\n"
	       "0-1                   0     1        0x8        on          on          on   off  no\n"
	       "2-3                   0     1        0xf       off         off         off   off  yes (found 0x0)\n",
	       "prefetch status text: one row per group, on/off per prefetcher");
	free(out.data);

	buf_open(&out);
	print_init(&p, out.f, true, false);
	pf_state_show(&p, &st, "disable", 0x5);
	print_end(&p);
	buf_close(&out);
	has_str(out.data, "\"action\":\"disable\"", "prefetch json: the action");
	has_str(out.data, "\"named\":[\"l2-stream\",\"l1-nextline\"]",
		"prefetch json: the prefetchers named, by name");
	has_str(out.data, "\"touched\":\"0-3\"", "prefetch json: the CPUs touched");
	has_str(out.data,
		"{\"cpulist\":\"2-3\",\"cpus\":[2,3],\"socket\":0,\"cores\":1,\"value\":15,"
		"\"disabled\":[\"l2-stream\",\"l2-adjacent\",\"l1-nextline\",\"l1-ip\"],"
		"\"enabled\":[],\"changed\":true,\"original\":0}",
		"prefetch json: a group with its original");
	has_str(out.data, "{\"cpu\":0,\"socket\":0,\"core\":0,\"value\":8,"
		"\"disabled\":[\"l1-ip\"],\"original\":null,\"changed\":false}",
		"prefetch json: a CPU memdiag never changed has original null");
	free(out.data);
	pf_state_free(&st);

	/* a u32 where the reply must have a u64 */
	nlh = reply_start(buf);
	mnl_attr_put_strz(nlh, MEMDIAG_A_PREFETCH_CONTROL, "x");
	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_MSR, 0x1a4);
	put_pf(nlh, 0, "a", 0);
	{
		struct nlattr *nest = mnl_attr_nest_start(nlh, MEMDIAG_A_PREFETCH_CPU_STATE);

		mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_CPU_CPU, 0);
		mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_CPU_VALUE, 1);
		mnl_attr_nest_end(nlh, nest);
	}
	capture_start(&c);
	rc = pf_state_parse("prefetch", nlh, &st);
	e = capture_end(&c);
	ok(rc == MDC_EXIT_KERNEL && strstr(e, "cpu-state attribute has the wrong size"),
	   "prefetch: a cpu-state value of the wrong size is refused (exit 5)");
	free(e);
	pf_state_free(&st);

	/* prefetchers out of index order */
	nlh = reply_start(buf);
	mnl_attr_put_strz(nlh, MEMDIAG_A_PREFETCH_CONTROL, "x");
	mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_MSR, 0x1a4);
	put_pf(nlh, 1, "a", 0);
	capture_start(&c);
	rc = pf_state_parse("prefetch", nlh, &st);
	e = capture_end(&c);
	ok(rc == MDC_EXIT_KERNEL && strstr(e, "in index order"),
	   "prefetch: prefetchers out of index order are refused");
	free(e);
	pf_state_free(&st);

	ok(!cpulist_parse("0-2,7,4-5", NULL, &cpu, &n, err, sizeof(err)) && n == 6 &&
	   cpu[0] == 0 && cpu[2] == 2 && cpu[3] == 7 && cpu[5] == 5,
	   "cpulist_parse: ranges and single CPUs, in the order given");
	free(cpu);
	ok(cpulist_parse("1,1", NULL, &cpu, &n, err, sizeof(err)) < 0 &&
	   !strcmp(err, "CPU 1 is listed twice") && !cpu,
	   "cpulist_parse: a CPU twice is refused");
	ok(cpulist_parse("2-1", NULL, &cpu, &n, err, sizeof(err)) < 0 &&
	   cpulist_parse("", NULL, &cpu, &n, err, sizeof(err)) < 0 &&
	   cpulist_parse("1,", NULL, &cpu, &n, err, sizeof(err)) < 0 &&
	   cpulist_parse("-1", NULL, &cpu, &n, err, sizeof(err)) < 0 &&
	   cpulist_parse("99999999999", NULL, &cpu, &n, err, sizeof(err)) < 0,
	   "cpulist_parse: backwards, empty, trailing comma, negative, huge refused");
}

/* Every attribute of a prefetch request, read back: cpus, socket, set. */
static bool pf_request_reads(const struct nlmsghdr *req, size_t nr_cpu,
			     bool set)
{
	const struct nlattr *attr;
	size_t cpus = 0, other = 0;

	mnl_attr_for_each(attr, req, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == MEMDIAG_A_PREFETCH_CPU) {
			if (mnl_attr_get_u32(attr) != cpus++)
				return false;
		} else {
			other++;
		}
	}
	return cpus == nr_cpu && other == (set ? 2u : 0u) &&
	       (const char *)attr == (const char *)req + req->nlmsg_len;
}

/*
 * "prefetch --cpu 0-1100" once overflowed the fixed send buffer: the
 * request must hold every CPU of the longest list, in one message.
 */
static void test_prefetch_request(void)
{
	static const size_t sizes[] = { 0, 1, 1101, 8192, 65536 };
	static struct nl pnl;	/* no socket: requests are only built */
	struct pf_scope scope = { 0 };
	struct nlmsghdr *req;
	uint32_t *cpu, nr;
	char err[160], path[] = "/tmp/memdiag-possible-XXXXXX";
	size_t i, n;
	FILE *f;
	int fd;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(err, sizeof(err), "0-%zu", sizes[i] ? sizes[i] - 1 : 0);
		if (cpulist_parse(err, NULL, &cpu, &n, err, sizeof(err)) < 0) {
			ok(false, "prefetch request: %zu CPUs parse", sizes[i]);
			continue;
		}
		scope.cpu = cpu;
		scope.nr_cpu = sizes[i];
		req = pf_request_new(&pnl, 0x20, MEMDIAG_CMD_PREFETCH_SET,
				     &scope, 0xf, true);
		ok(req && pf_request_reads(req, sizes[i], true),
		   "prefetch request: %zu CPUs, every one in one message of %u bytes",
		   sizes[i], req ? req->nlmsg_len : 0);
		free(req);
		free(cpu);
	}
	scope = (struct pf_scope){ .have_socket = true, .socket = 1 };
	req = pf_request_new(&pnl, 0x20, MEMDIAG_CMD_PREFETCH_GET, &scope,
			     0, false);
	ok(req && mnl_attr_get_type(mnl_nlmsg_get_payload_offset(req,
			sizeof(struct genlmsghdr))) == MEMDIAG_A_PREFETCH_SOCKET,
	   "prefetch request: a socket, no prefetchers in a get");
	free(req);

	ok(cpulist_parse("0-65535,65535", NULL, &cpu, &n, err, sizeof(err)) < 0 &&
	   !strcmp(err, "CPU 65535 is listed twice") && !cpu,
	   "cpulist_parse: a duplicate at the end of 65536 CPUs is found");

	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f) {
		fputs("0-3,6\n", f);
		fclose(f);
	}
	ok(f && !cpulist_possible(path, &nr) && nr == 7,
	   "cpulist_possible: 0-3,6 possible: 7 CPU ids");
	unlink(path);
	ok(cpulist_possible("/nonexistent", &nr) < 0,
	   "cpulist_possible: no file: -1");
}

int main(void)
{
	test_print_json();
	test_print_double();
	test_print_escape();
	test_print_pretty();
	test_print_text();
	test_print_misuse();
	test_print_write_error();
	test_cpulist();
	test_names();
	test_info_show();
	test_cli_errors();
	test_cli_error_return();
	test_parse();
	test_metrics_exact();
	test_metrics_null();
	test_metrics_spr();
	test_metrics_epochs();
	test_aggregation();
	test_snap_parse();
	test_prefetch();
	test_prefetch_request();
	test_snapshot_show();
	test_watch_canned();
	test_watch_epoch();
	test_watch_unavailable();
	test_watch_flow();
	test_watch_loop();
	test_run_counters();
	test_harness_marks();
	test_transpose_marks();
	test_nl_filter();
	test_nl();
	printf("# done, %d failed\n", failures);
	return failures ? 1 : 0;
}
