// SPDX-License-Identifier: GPL-2.0
/* unit.c - memdiagctl's unit tests, as "ok - name" lines for run.sh to number. */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>
#include <libmnl/libmnl.h>

#include "cli.h"
#include "cmd.h"
#include "cpulist.h"
#include "names.h"
#include "nl.h"
#include "print.h"

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
	ok(all, "names: every enum value and attribute has a name");
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
	"sockets   2\n"
	"  socket 0  package 0  cpus 0-1 (2)\n"
	"  socket 1  package 1  cpus 2-3 (2)\n"
	"capability        available  reason\n"
	"imc-bandwidth     no         no Skylake-SP memory controller PCI device found\n"
	"core-latency      no         the core PMU is not visible (hypervisor?)\n"
	"offcore           no         the core PMU is not visible (hypervisor?)\n"
	"prefetch-control  yes\n";

static const char skylake_json[] =
	"{\"proto-version\":1,\"vendor\":\"GenuineIntel\",\"family\":6,"
	"\"model\":85,\"stepping\":4,"
	"\"model-name\":\"Intel Xeon Processor (Skylake)\","
	"\"uarch\":\"Skylake-SP\",\"platform\":\"hw\",\"nr-sockets\":2,"
	"\"socket\":[{\"id\":0,\"package-id\":0,\"cpu\":[0,1]},"
	"{\"id\":1,\"package-id\":1,\"cpu\":[2,3]}],"
	"\"capability\":["
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
	"sockets   1\n"
	"  socket 0  package 3  cpus 0-3,8-11 (8)\n"
	"capability        available  reason\n"
	"9                 no         C:\\path\n";

static const char newer_json[] =
	"{\"proto-version\":1,\"vendor\":\"GenuineIntel\",\"family\":6,"
	"\"model\":85,\"stepping\":4,"
	"\"model-name\":\"Intel Xeon Processor (Skylake)\","
	"\"uarch\":\"unsupported\","
	"\"uarch-reason\":\"model 85 \\\"stepping\\\" 4 is\\tnot supported\","
	"\"platform\":9,\"nr-sockets\":1,"
	"\"socket\":[{\"id\":0,\"package-id\":3,\"cpu\":[0,1,2,3,8,9,10,11]}],"
	"\"capability\":[{\"id\":9,\"available\":false,\"reason\":\"C:\\\\path\"}]}\n";

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
		  "  \"proto-version\": 1,\n"
		  "  \"platform\": \"sim\",\n"
		  "  \"socket\": [],\n"
		  "  \"capability\": []\n"
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
	has_str(err, "memdiagctl: info: generic netlink family 'memdiag' not found: is memdiag.ko loaded? load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')",
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

int main(void)
{
	test_print_json();
	test_print_escape();
	test_print_pretty();
	test_print_text();
	test_print_misuse();
	test_print_write_error();
	test_cpulist();
	test_names();
	test_info_show();
	test_cli_errors();
	test_nl();
	printf("# done, %d failed\n", failures);
	return failures ? 1 : 0;
}
