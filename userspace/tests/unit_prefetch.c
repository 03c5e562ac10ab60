// SPDX-License-Identifier: GPL-2.0
/* unit_prefetch.c - unit tests: prefetcher replies and requests (prefetch.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f prefetch" runs its tests alone */
FIXTURE(prefetch) {};
FIXTURE_SETUP(prefetch) {}
FIXTURE_TEARDOWN(prefetch) {}

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
	/* the canned cores found at 0 could not be put back */
	mnl_attr_put_u8(nlh, MEMDIAG_A_PREFETCH_CPU_RESTORE_FAILED, orig == 0);
	mnl_attr_nest_end(nlh, n);
}

/*
 * CPUs 0-1 (one core) as found (0x8), CPUs 2-3 switched off (found 0x0),
 * their restore failed.
 */
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

/* Long: one scenario, its checks in the order the behaviour unfolds. */
TEST_F(prefetch, prefetch)
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
	   st.cpu[2].has_original && st.cpu[2].changed && !st.cpu[0].has_original &&
	   st.cpu[2].restore_failed && !st.cpu[0].restore_failed,
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
	       "2-3                   0     1        0xf       off         off         off   off  yes (found 0x0), restore failed\n",
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
		"\"enabled\":[],\"changed\":true,\"original\":0,\"restore_failed\":true}",
		"prefetch json: a group with its original");
	has_str(out.data, "{\"cpu\":0,\"socket\":0,\"core\":0,\"value\":8,"
		"\"disabled\":[\"l1-ip\"],\"original\":null,\"changed\":false,"
		"\"restore_failed\":false}",
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
TEST_F(prefetch, prefetch_request)
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

/* The fingerprint's word for the machine's prefetchers (calibrate). */
TEST_F(prefetch, prefetch_summary)
{
	struct pf_cpu_state cpu[3] = { { .cpu = 0 }, { .cpu = 1 }, { .cpu = 2 } };
	struct pf_state st = { .nr_pf = 4, .cpu = cpu, .nr_cpu = 3 };
	const char *s;

	s = pf_state_summary(&st);
	ok(s && !strcmp(s, "on"), "summary: nothing off anywhere is on (%s)", s);
	cpu[0].disabled = cpu[1].disabled = cpu[2].disabled = 0xf;
	s = pf_state_summary(&st);
	ok(s && !strcmp(s, "off"), "summary: all 4 off on every CPU is off (%s)", s);
	cpu[1].disabled = 0x7;
	s = pf_state_summary(&st);
	ok(s && !strcmp(s, "mixed"), "summary: 3 of 4 off on one CPU is mixed (%s)", s);
	cpu[0].disabled = cpu[1].disabled = cpu[2].disabled = 0;
	cpu[2].disabled = 0xf;
	s = pf_state_summary(&st);
	ok(s && !strcmp(s, "mixed"), "summary: one CPU all off, the others on, is mixed (%s)", s);
	st.nr_pf = 0;
	ok(!pf_state_summary(&st), "summary: no prefetcher known: NULL");
}
