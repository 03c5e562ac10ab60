// SPDX-License-Identifier: GPL-2.0
/*
 * genl_matrix.c - one column of the privilege matrix: send every memdiag
 * request once, as whoever runs this, and print what happened in the
 * words of Documentation/memdiag.rst's table, one "request outcome" line
 * each. privilege-sim.sh runs it under every identity and compares. The
 * requests are spec_ops.h's (generated from the YNL spec): each is sent
 * with its probe attribute, a do where it has one, else a dump.
 *
 *   genl_matrix hold MS           start a session, print its id, wait
 *   genl_matrix probe GROUP ID    the requests; GROUP: the monitor group's
 *                                 id, ID: a session of another socket
 *   genl_matrix userns probe ...  the same as root in a new user namespace
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/memdiag.h>

#include "mdnl.h"
#include "spec_ops.h"

static struct mdnl_reply r;

/* The outcome of a request, in the table's words. */
static const char *word(int err, const char *ok)
{
	static char other[32];

	if (!err)
		return ok;
	if (err == -EPERM)
		return "no";
	snprintf(other, sizeof(other), "error:%s", strerrorname_np(-err));
	return other;
}

static int request(struct mdnl *m, uint8_t cmd, uint16_t flags, int attr,
		   uint32_t val)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(m, buf, cmd, flags);

	if (attr)
		mnl_attr_put_u32(nlh, attr, val);
	if (cmd == MEMDIAG_CMD_PREFETCH_SET) {
		mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_PREFETCHERS, 1);
		mnl_attr_put_u8(nlh, MEMDIAG_A_PREFETCH_DISABLE, 1);
	}
	return mdnl_call(m, nlh, &r);
}

static uint32_t reply_u32(int type)
{
	struct nlattr *a;

	mnl_attr_for_each(a, (struct nlmsghdr *)r.buf, GENL_HDRLEN)
		if (mnl_attr_get_type(a) == type)
			return mnl_attr_get_u32(a);
	return 0;
}

/* Join @group; "yes" if a snapshot notification arrives within 3 s. */
static const char *join(struct mdnl *m, int group)
{
	char buf[8192];
	struct pollfd p = { .events = POLLIN };
	ssize_t n;

	if (mnl_socket_setsockopt(m->nl, NETLINK_ADD_MEMBERSHIP, &group,
				  sizeof(group)))
		return word(-errno, "");
	p.fd = mnl_socket_get_fd(m->nl);
	while (poll(&p, 1, 3000) == 1) {
		n = recv(p.fd, buf, sizeof(buf), 0);
		if (n >= (ssize_t)(NLMSG_HDRLEN + GENL_HDRLEN) &&
		    ((struct genlmsghdr *)NLMSG_DATA(buf))->cmd ==
		    MEMDIAG_CMD_SNAPSHOT_NTF)
			return "yes";
	}
	return "silent";
}

/* the group's id comes from the command line: one group */
static_assert(SPEC_N_MCGRPS == 1, "genl_matrix joins one multicast group");

static int probe(int group, uint32_t other)
{
	struct mdnl m;
	unsigned int i;
	int err;

	err = mdnl_open(&m, MEMDIAG_FAMILY_NAME);
	if (err && err != -ENOENT) {
		fprintf(stderr, "genl_matrix: %s\n", strerror(-err));
		return 1;
	}
	for (i = 0; i < SPEC_N_OPS; i++) {
		const struct spec_op *op = &spec_ops[i];
		uint16_t flags = op->has_do ? 0 : NLM_F_DUMP;
		uint32_t val = 0;
		int e;

		if (op->event)
			continue;
		if (err) {
			printf("%s absent\n", op->name);
			continue;
		}
		if (op->cmd == MEMDIAG_CMD_SESSION_START)
			val = 1000;
		if (op->cmd == MEMDIAG_CMD_SESSION_STOP)
			val = other;
		/*
		 * group-get: its dump, which checks privilege itself (dumps
		 * have no pre_doit); past the check, the session held asks
		 * for no groups, so ENODATA means allowed
		 */
		if (op->cmd == MEMDIAG_CMD_GROUP_GET)
			flags = NLM_F_DUMP;
		e = request(&m, op->cmd, flags, op->probe, val);
		if (op->cmd == MEMDIAG_CMD_GROUP_GET && e == -ENODATA)
			e = 0;

		/* stopping another socket's session must find nothing */
		if (op->cmd == MEMDIAG_CMD_SESSION_STOP)
			printf("%s %s\n", op->name,
			       e == -ENOENT ? "own" : e ? word(e, "") : "stopped-another");
		else
			printf("%s %s\n", op->name, word(e, "yes"));
		if (e && r.extack[0])
			fprintf(stderr, "  %s: %s\n", op->name, r.extack);
		if (!e && op->cmd == MEMDIAG_CMD_SESSION_START)
			request(&m, MEMDIAG_CMD_SESSION_STOP, 0,
				MEMDIAG_A_SESSION_ID,
				reply_u32(MEMDIAG_A_SESSION_ID));
	}
	if (err) {
		/* the family is absent here; its group id is from outside */
		mdnl_close(&m);
		m.nl = mnl_socket_open(NETLINK_GENERIC);
		if (!m.nl || mnl_socket_bind(m.nl, 0, MNL_SOCKET_AUTOPID) < 0) {
			perror("genl_matrix: socket");
			return 1;
		}
	}
	printf("%s %s\n", spec_mcgrps[0], join(&m, group));
	mdnl_close(&m);
	return 0;
}

static int hold(uint32_t ms)
{
	struct mdnl m;
	int err = mdnl_open(&m, MEMDIAG_FAMILY_NAME);

	if (!err)
		err = request(&m, MEMDIAG_CMD_SESSION_START, 0,
			      MEMDIAG_A_SESSION_INTERVAL_MS, ms);
	if (err) {
		fprintf(stderr, "genl_matrix: session-start: %s %s\n",
			strerror(-err), r.extack);
		return 1;
	}
	printf("%u\n", reply_u32(MEMDIAG_A_SESSION_ID));
	fflush(stdout);
	pause();
	return 0;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Become root in a new user namespace, as unshare -Ur does. The kernel
 * refuses CLONE_NEWUSER to a chrooted process, and the test VM runs its
 * command in a chroot of the host's tree, so this steps out to PID 1's
 * root, creates the namespaces (a mount namespace of its own lets the new
 * user namespace chroot), and goes back in.
 */
static int enter_userns(void)
{
	int top = open("/", O_PATH | O_DIRECTORY);

	if (top < 0 || chroot("/proc/1/root") ||
	    unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
	    write_file("/proc/self/setgroups", "deny") ||
	    write_file("/proc/self/uid_map", "0 0 1") ||
	    write_file("/proc/self/gid_map", "0 0 1") ||
	    fchdir(top) || chroot(".")) {
		perror("genl_matrix: entering a new user namespace");
		return -1;
	}
	close(top);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "userns")) {
		if (enter_userns())
			return 1;
		argc--;
		argv++;
	}
	if (argc == 3 && !strcmp(argv[1], "hold"))
		return hold(strtoul(argv[2], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "probe"))
		return probe(atoi(argv[2]), strtoul(argv[3], NULL, 0));
	fprintf(stderr, "usage: genl_matrix hold MS | probe GROUP SESSION-ID\n");
	return 2;
}
