// SPDX-License-Identifier: GPL-2.0
/*
 * genl_info.c - get-info over generic netlink: what the module reports
 * about the CPU, the sockets and the capabilities, checked against
 * /proc/cpuinfo, sysfs and the test's expectations, and how it refuses
 * malformed and unprivileged requests.
 *
 * Expectations come from the environment (set per guest by the VM runner):
 * MEMDIAG_EXPECT_UARCH, MEMDIAG_EXPECT_SOCKETS, MEMDIAG_EXPECT_CPUS_PER_SOCKET,
 * MEMDIAG_EXPECT_PLATFORM (hw|sim), MEMDIAG_EXPECT_VENDOR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/memdiag.h>

#include "kselftest_harness.h"
#include "mdnl.h"

#define MAX_CPUS 256
#define MAX_SOCKETS 16

struct info {
	uint32_t proto, family, model, stepping, platform, nr_sockets;
	char vendor[32], model_name[80], uarch[64], uarch_reason[256];
	bool has_uarch_reason;
	int n_sockets;
	struct {
		uint32_t id, package, n_cpus, cpus[MAX_CPUS];
	} socket[MAX_SOCKETS];
	int n_caps;
	struct {
		uint32_t id;
		int available;		/* -1: attribute missing */
		char reason[256];
		bool has_reason;
	} cap[16];
};

static void parse_socket(const struct nlattr *nest, struct info *in)
{
	const struct nlattr *a;
	int s = in->n_sockets++;

	if (s >= MAX_SOCKETS)
		return;
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case MEMDIAG_A_SOCKET_ID:
			in->socket[s].id = mnl_attr_get_u32(a);
			break;
		case MEMDIAG_A_SOCKET_PACKAGE_ID:
			in->socket[s].package = mnl_attr_get_u32(a);
			break;
		case MEMDIAG_A_SOCKET_CPU:
			if (in->socket[s].n_cpus < MAX_CPUS)
				in->socket[s].cpus[in->socket[s].n_cpus++] =
					mnl_attr_get_u32(a);
			break;
		}
	}
}

static void parse_cap(const struct nlattr *nest, struct info *in)
{
	const struct nlattr *a;
	int c = in->n_caps++;

	if (c >= 16)
		return;
	in->cap[c].available = -1;
	in->cap[c].id = ~0u;
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case MEMDIAG_A_CAPABILITY_ID:
			in->cap[c].id = mnl_attr_get_u32(a);
			break;
		case MEMDIAG_A_CAPABILITY_AVAILABLE:
			in->cap[c].available = mnl_attr_get_u8(a);
			break;
		case MEMDIAG_A_CAPABILITY_REASON:
			in->cap[c].has_reason = true;
			snprintf(in->cap[c].reason, sizeof(in->cap[c].reason),
				 "%s", mnl_attr_get_str(a));
			break;
		}
	}
}

static void parse_info(struct mdnl_reply *r, struct info *in)
{
	const struct nlattr *a;
	size_t len;
	struct nlattr *attrs = mdnl_reply_attrs(r, &len);

	memset(in, 0, sizeof(*in));
	for (a = attrs; mnl_attr_ok(a, len); a = mnl_attr_next(a)) {
		len -= (char *)mnl_attr_next(a) - (char *)a;
		switch (mnl_attr_get_type(a)) {
		case MEMDIAG_A_INFO_PROTO_VERSION:
			in->proto = mnl_attr_get_u32(a); break;
		case MEMDIAG_A_INFO_VENDOR:
			snprintf(in->vendor, sizeof(in->vendor), "%s",
				 mnl_attr_get_str(a));
			break;
		case MEMDIAG_A_INFO_FAMILY:
			in->family = mnl_attr_get_u32(a); break;
		case MEMDIAG_A_INFO_MODEL:
			in->model = mnl_attr_get_u32(a); break;
		case MEMDIAG_A_INFO_STEPPING:
			in->stepping = mnl_attr_get_u32(a); break;
		case MEMDIAG_A_INFO_MODEL_NAME:
			snprintf(in->model_name, sizeof(in->model_name), "%s",
				 mnl_attr_get_str(a));
			break;
		case MEMDIAG_A_INFO_UARCH:
			snprintf(in->uarch, sizeof(in->uarch), "%s",
				 mnl_attr_get_str(a));
			break;
		case MEMDIAG_A_INFO_UARCH_REASON:
			in->has_uarch_reason = true;
			snprintf(in->uarch_reason, sizeof(in->uarch_reason),
				 "%s", mnl_attr_get_str(a));
			break;
		case MEMDIAG_A_INFO_PLATFORM:
			in->platform = mnl_attr_get_u32(a); break;
		case MEMDIAG_A_INFO_NR_SOCKETS:
			in->nr_sockets = mnl_attr_get_u32(a); break;
		case MEMDIAG_A_INFO_SOCKET:
			parse_socket(a, in); break;
		case MEMDIAG_A_INFO_CAPABILITY:
			parse_cap(a, in); break;
		}
	}
}

/* The value of "key" on the first matching line of /proc/cpuinfo. */
static int cpuinfo(const char *key, char *val, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		size_t klen = strcspn(line, "\t:");

		if (!colon || klen != strlen(key) || strncmp(line, key, klen))
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = 0;
		snprintf(val, len, "%s", colon);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

static long sysfs_long(const char *fmt, int cpu)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), fmt, cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static bool cpu_online(int cpu)
{
	return cpu == 0 && sysfs_long("/sys/devices/system/cpu/cpu%d/online", 0) < 0 ?
	       true : sysfs_long("/sys/devices/system/cpu/cpu%d/online", cpu) == 1;
}

static int get_info(struct mdnl *m, struct mdnl_reply *r, struct info *in)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(m, buf, MEMDIAG_CMD_GET_INFO, 0);
	int err = mdnl_call(m, nlh, r);

	if (!err)
		parse_info(r, in);
	return err;
}

FIXTURE(md) {
	struct mdnl m;
	struct mdnl_reply *r;
	struct info in;
};

FIXTURE_SETUP(md)
{
	int err = mdnl_open(&self->m, MEMDIAG_FAMILY_NAME);

	ASSERT_EQ(0, err) TH_LOG("family %s: %s (is memdiag.ko loaded?)",
				 MEMDIAG_FAMILY_NAME, strerror(-err));
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
}

FIXTURE_TEARDOWN(md)
{
	free(self->r);
	mdnl_close(&self->m);
}

TEST_F(md, family_has_get_info_and_monitor)
{
	int i, found = 0;

	EXPECT_EQ(MEMDIAG_FAMILY_VERSION, self->m.family_version);
	EXPECT_TRUE(self->m.has_op[MEMDIAG_CMD_GET_INFO]);
	for (i = 0; i < self->m.n_mcgrps; i++)
		found += !strcmp(self->m.mcgrp_name[i], MEMDIAG_MCGRP_MONITOR);
	EXPECT_EQ(1, found);
}

TEST_F(md, identity_matches_cpuinfo)
{
	char v[128];

	ASSERT_EQ(0, get_info(&self->m, self->r, &self->in))
		TH_LOG("get-info: %s", self->r->extack);
	EXPECT_EQ(MEMDIAG_FAMILY_VERSION, self->in.proto);
	ASSERT_EQ(0, cpuinfo("vendor_id", v, sizeof(v)));
	EXPECT_STREQ(v, self->in.vendor);
	ASSERT_EQ(0, cpuinfo("cpu family", v, sizeof(v)));
	EXPECT_EQ(strtoul(v, NULL, 10), self->in.family);
	ASSERT_EQ(0, cpuinfo("model", v, sizeof(v)));
	EXPECT_EQ(strtoul(v, NULL, 10), self->in.model);
	ASSERT_EQ(0, cpuinfo("stepping", v, sizeof(v)));
	EXPECT_EQ(strtoul(v, NULL, 10), self->in.stepping);
	ASSERT_EQ(0, cpuinfo("model name", v, sizeof(v)));
	EXPECT_STREQ(v, self->in.model_name);
	if (getenv("MEMDIAG_EXPECT_VENDOR"))
		EXPECT_STREQ(getenv("MEMDIAG_EXPECT_VENDOR"), self->in.vendor);
}

TEST_F(md, sockets_match_sysfs)
{
	int cpu, s, i, seen = 0, ncpus = sysconf(_SC_NPROCESSORS_CONF);
	long pkgs[MAX_SOCKETS];
	int npkgs = 0;

	ASSERT_EQ(0, get_info(&self->m, self->r, &self->in));
	EXPECT_EQ(self->in.n_sockets, (int)self->in.nr_sockets);

	/* every online CPU appears once, in the socket of its package */
	for (cpu = 0; cpu < ncpus && cpu < MAX_CPUS; cpu++) {
		long pkg;
		int hits = 0;

		if (!cpu_online(cpu))
			continue;
		pkg = sysfs_long("/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
				 cpu);
		for (i = 0; i < npkgs && pkgs[i] != pkg; i++)
			;
		if (i == npkgs && npkgs < MAX_SOCKETS)
			pkgs[npkgs++] = pkg;
		for (s = 0; s < self->in.n_sockets; s++)
			for (i = 0; i < (int)self->in.socket[s].n_cpus; i++)
				if (self->in.socket[s].cpus[i] == (uint32_t)cpu) {
					hits++;
					EXPECT_EQ(pkg, (long)self->in.socket[s].package)
						TH_LOG("cpu %d", cpu);
				}
		EXPECT_EQ(1, hits) TH_LOG("cpu %d listed %d times", cpu, hits);
		seen++;
	}
	EXPECT_EQ(npkgs, (int)self->in.nr_sockets);
	for (s = 0, i = 0; s < self->in.n_sockets; s++) {
		int c;

		i += self->in.socket[s].n_cpus;
		EXPECT_EQ((uint32_t)s, self->in.socket[s].id);
		for (c = 1; c < (int)self->in.socket[s].n_cpus; c++)
			EXPECT_LT(self->in.socket[s].cpus[c - 1],
				  self->in.socket[s].cpus[c]);
	}
	EXPECT_EQ(seen, i);
}

TEST_F(md, matches_expectations)
{
	const char *e;
	int s;

	ASSERT_EQ(0, get_info(&self->m, self->r, &self->in));
	e = getenv("MEMDIAG_EXPECT_UARCH");
	if (e)
		EXPECT_STREQ(e, self->in.uarch);
	EXPECT_EQ(!strcmp(self->in.uarch, "unsupported"),
		  self->in.has_uarch_reason);
	if (self->in.has_uarch_reason)
		EXPECT_NE(0, strlen(self->in.uarch_reason));
	e = getenv("MEMDIAG_EXPECT_SOCKETS");
	if (e)
		EXPECT_EQ(strtoul(e, NULL, 10), self->in.nr_sockets);
	e = getenv("MEMDIAG_EXPECT_CPUS_PER_SOCKET");
	if (e)
		for (s = 0; s < self->in.n_sockets; s++)
			EXPECT_EQ(strtoul(e, NULL, 10),
				  self->in.socket[s].n_cpus);
	e = getenv("MEMDIAG_EXPECT_PLATFORM");
	EXPECT_EQ(e && !strcmp(e, "sim") ? MEMDIAG_PLATFORM_SIM :
		  MEMDIAG_PLATFORM_HW, self->in.platform);
}

TEST_F(md, every_capability_once_with_reason_when_unavailable)
{
	int id, c, n;

	ASSERT_EQ(0, get_info(&self->m, self->r, &self->in));
	EXPECT_EQ(MEMDIAG_CAPABILITY_MAX + 1, self->in.n_caps);
	for (id = 0; id <= MEMDIAG_CAPABILITY_MAX; id++) {
		for (c = 0, n = 0; c < self->in.n_caps; c++) {
			if (self->in.cap[c].id != (uint32_t)id)
				continue;
			n++;
			EXPECT_TRUE(self->in.cap[c].available == 0 ||
				    self->in.cap[c].available == 1);
			EXPECT_EQ(!self->in.cap[c].available,
				  self->in.cap[c].has_reason);
			if (self->in.cap[c].has_reason)
				EXPECT_LT(10, strlen(self->in.cap[c].reason));
			/* no counter; prefetch-control is guest.sh's */
			if (getenv("MEMDIAG_EXPECT_NO_CAPS") &&
			    id != MEMDIAG_CAPABILITY_PREFETCH_CONTROL)
				EXPECT_EQ(0, self->in.cap[c].available);
		}
		EXPECT_EQ(1, n) TH_LOG("capability %d reported %d times", id, n);
	}
}

TEST_F(md, same_proto_version_is_accepted)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_GET_INFO, 0);

	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PROTO_VERSION,
			 MEMDIAG_FAMILY_VERSION);
	EXPECT_EQ(0, mdnl_call(&self->m, nlh, self->r))
		TH_LOG("%s", self->r->extack);
}

TEST_F(md, other_proto_version_is_refused_naming_the_attribute)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_GET_INFO, 0);
	uint32_t offs = nlh->nlmsg_len;

	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PROTO_VERSION,
			 MEMDIAG_FAMILY_VERSION + 1);
	EXPECT_EQ(-EPROTONOSUPPORT, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(NULL, strstr(self->r->extack, "proto-version"))
		TH_LOG("extack: '%s'", self->r->extack);
	EXPECT_EQ(offs, self->r->bad_attr_offs);
}

TEST_F(md, wrong_attribute_type_is_einval)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_GET_INFO, 0);
	uint32_t offs = nlh->nlmsg_len;

	/* a u8 where the policy wants a u32 */
	mnl_attr_put_u8(nlh, MEMDIAG_A_INFO_PROTO_VERSION, 1);
	EXPECT_EQ(-EINVAL, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(0, strlen(self->r->extack));
	EXPECT_EQ(offs, self->r->bad_attr_offs);
}

TEST_F(md, attribute_outside_the_request_policy_is_einval)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_GET_INFO, 0);

	/* a reply-only attribute, and one past every known attribute */
	mnl_attr_put_strz(nlh, MEMDIAG_A_INFO_VENDOR, "GenuineIntel");
	EXPECT_EQ(-EINVAL, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(0, strlen(self->r->extack));

	nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_GET_INFO, 0);
	mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_MAX + 1, 0);
	EXPECT_EQ(-EINVAL, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(0, strlen(self->r->extack));
}

TEST_F(md, reserved_flags_and_header_bits_are_refused)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_GET_INFO, NLM_F_CREATE);
	EXPECT_EQ(-EINVAL, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(0, strlen(self->r->extack));

	nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_GET_INFO, 0);
	g = mnl_nlmsg_get_payload(nlh);
	g->reserved = 1;
	EXPECT_EQ(-EINVAL, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(0, strlen(self->r->extack));
}

TEST_F(md, unknown_command_is_refused)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_MAX + 1, 0);

	EXPECT_EQ(-EOPNOTSUPP, mdnl_call(&self->m, nlh, self->r));
}

static int session_start(struct mdnl *m, struct mdnl_reply *r, uint32_t ms,
			 uint32_t *offs)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(m, buf, MEMDIAG_CMD_SESSION_START, 0);

	*offs = nlh->nlmsg_len;
	mnl_attr_put_u32(nlh, MEMDIAG_A_SESSION_INTERVAL_MS, ms);
	return mdnl_call(m, nlh, r);
}

TEST_F(md, session_interval_out_of_range_is_einval)
{
	uint32_t offs;

	EXPECT_EQ(-EINVAL, session_start(&self->m, self->r, 0, &offs));
	EXPECT_NE(NULL, strstr(self->r->extack, "interval-ms"))
		TH_LOG("'%s'", self->r->extack);
	EXPECT_EQ(offs, self->r->bad_attr_offs);
	EXPECT_EQ(-EINVAL, session_start(&self->m, self->r, 60001, &offs));
	EXPECT_NE(NULL, strstr(self->r->extack, "interval-ms"));
}

TEST_F(md, session_start_without_interval_is_einval)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_SESSION_START, 0);

	EXPECT_EQ(-EINVAL, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(0, strlen(self->r->extack));
}

TEST_F(md, session_stop_of_unknown_id_is_enoent)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_SESSION_STOP, 0);

	mnl_attr_put_u32(nlh, MEMDIAG_A_SESSION_ID, 0xfffffff0);
	EXPECT_EQ(-ENOENT, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(0, strlen(self->r->extack));
}

TEST_F(md, snapshot_of_unknown_or_missing_socket_is_einval)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_SNAPSHOT, 0);
	uint32_t offs = nlh->nlmsg_len;

	mnl_attr_put_u32(nlh, MEMDIAG_A_SNAPSHOT_SOCKET, 4096);
	EXPECT_EQ(-EINVAL, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(NULL, strstr(self->r->extack, "socket"))
		TH_LOG("'%s'", self->r->extack);
	EXPECT_EQ(offs, self->r->bad_attr_offs);

	nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_SNAPSHOT, 0);
	EXPECT_EQ(-EINVAL, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(0, strlen(self->r->extack));
}

TEST_F(md, snapshot_without_a_session_is_enodata)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(&self->m, buf, MEMDIAG_CMD_SNAPSHOT, 0);

	if (getenv("MEMDIAG_SESSION_RUNNING"))
		SKIP(return, "another test keeps a session running");
	mnl_attr_put_u32(nlh, MEMDIAG_A_SNAPSHOT_SOCKET, 0);
	EXPECT_EQ(-ENODATA, mdnl_call(&self->m, nlh, self->r));
	EXPECT_NE(NULL, strstr(self->r->extack, "session"))
		TH_LOG("'%s'", self->r->extack);
}

TEST_F(md, session_without_any_counter_is_refused)
{
	uint32_t offs;

	if (!getenv("MEMDIAG_EXPECT_NO_CAPS"))
		SKIP(return, "this platform has counters");
	EXPECT_EQ(-ENODEV, session_start(&self->m, self->r, 100, &offs));
	EXPECT_NE(NULL, strstr(self->r->extack, "no counter is available"))
		TH_LOG("'%s'", self->r->extack);
}

static int nobody_get_info(struct mdnl *m, struct mdnl_reply *r, void *arg)
{
	struct info in;

	return get_info(m, r, &in);
}

/* Join the monitor group; 0 or -errno. */
static int join_monitor(struct mdnl *m, struct mdnl_reply *r, void *arg)
{
	int i, grp = -1;

	for (i = 0; i < m->n_mcgrps; i++)
		if (!strcmp(m->mcgrp_name[i], MEMDIAG_MCGRP_MONITOR))
			grp = m->mcgrp_id[i];
	if (grp < 0)
		return -ENOENT;
	if (mnl_socket_setsockopt(m->nl, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)))
		return -errno;
	return 0;
}

TEST(unprivileged_get_info_is_eperm_until_allowed)
{
	char extack[256];

	if (geteuid())
		SKIP(return, "needs root to drop to nobody");
	ASSERT_EQ(0, mdnl_set_unprivileged_read("N"));
	EXPECT_EQ(-EPERM, mdnl_as_nobody(nobody_get_info, NULL, extack, sizeof(extack)));
	EXPECT_NE(NULL, strstr(extack, "CAP_PERFMON")) TH_LOG("'%s'", extack);
	EXPECT_NE(NULL, strstr(extack, "unprivileged_read"));

	ASSERT_EQ(0, mdnl_set_unprivileged_read("Y"));
	EXPECT_EQ(0, mdnl_as_nobody(nobody_get_info, NULL, extack, sizeof(extack)))
		TH_LOG("'%s'", extack);
	ASSERT_EQ(0, mdnl_set_unprivileged_read("N"));
	EXPECT_EQ(-EPERM, mdnl_as_nobody(nobody_get_info, NULL, extack, sizeof(extack)));
}

/*
 * The monitor group carries every sample: joining it needs CAP_SYS_ADMIN
 * whatever unprivileged_read says, enforced by the genetlink core (on 6.12
 * a family's own bind callback cannot refuse a join).
 */
TEST(monitor_join_needs_cap_sys_admin_even_with_unprivileged_read)
{
	struct mdnl m;
	char extack[256];

	if (geteuid())
		SKIP(return, "needs root to drop to nobody");
	ASSERT_EQ(0, mdnl_open(&m, MEMDIAG_FAMILY_NAME));
	EXPECT_EQ(0, join_monitor(&m, NULL, NULL));
	mdnl_close(&m);
	ASSERT_EQ(0, mdnl_set_unprivileged_read("N"));
	EXPECT_EQ(-EPERM, mdnl_as_nobody(join_monitor, NULL, extack, sizeof(extack)));
	ASSERT_EQ(0, mdnl_set_unprivileged_read("Y"));
	EXPECT_EQ(-EPERM, mdnl_as_nobody(join_monitor, NULL, extack, sizeof(extack)));
	ASSERT_EQ(0, mdnl_set_unprivileged_read("N"));
}

int main(int argc, char **argv)
{
	struct mdnl m;
	int err = mdnl_open(&m, MEMDIAG_FAMILY_NAME);

	if (err)
		ksft_exit_fail_msg("generic netlink family %s: %s: load memdiag.ko first\n",
				   MEMDIAG_FAMILY_NAME, strerror(-err));
	mdnl_close(&m);
	return test_harness_run(argc, argv);
}
