// SPDX-License-Identifier: GPL-2.0
/*
 * genl_groups.c - a session that asks for groups (the core estimate),
 * driven from stdin, for groups-sim.sh: it decodes group-get itself
 * (mdnl.h), not through memdiagctl.
 *
 * It starts a session with groups=1, prints "started", then for each
 * line read:
 *   dump          every "socket cgroup_id dram_bytes" of a group-get dump,
 *                 then "."
 *   get S ID      the do: "socket cgroup_id dram_bytes", or "error ERRNO"
 * and ends (closing the socket ends the session) at end of input. A
 * refused session prints "error ERRNO EXTACK" and exits 2.
 *
 * "genl_groups burn ON OFF FILE [N]" is the load instead: ON ms busy, OFF
 * ms asleep (OFF 0: never), until killed, or N busy spells. After each
 * busy spell it writes the nanoseconds it has been busy so far
 * (CLOCK_MONOTONIC, the clock the simulator's counters follow) to FILE:
 * the time it held its CPU. With $BURN_MOVES it also notes when it finds
 * itself on another CPU (note_cpu()).
 *
 * "genl_groups pingpong N [PROCS]" passes a byte back and forth N times
 * between itself and a child that first writes its pid to PROCS (a
 * cgroup's cgroup.procs, so that every switch between the two changes
 * cgroup), and prints the nanoseconds one round trip took: the load of
 * bench-ctxsw.sh.
 */
#define _GNU_SOURCE	/* sched_getcpu() */
#include <errno.h>
#include <sched.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/memdiag.h>

#include "mdnl.h"

static void print_entry(const struct nlmsghdr *h)
{
	uint64_t id = 0, bytes = 0;
	uint32_t socket = 0;
	struct nlattr *a;

	mnl_attr_for_each(a, h, GENL_HDRLEN) {
		switch (mnl_attr_get_type(a)) {
		case MEMDIAG_A_GROUP_SOCKET:
			socket = mnl_attr_get_u32(a);
			break;
		case MEMDIAG_A_GROUP_CGROUP_ID:
			id = mnl_attr_get_u64(a);
			break;
		case MEMDIAG_A_GROUP_DRAM_BYTES:
			bytes = mnl_attr_get_u64(a);
			break;
		}
	}
	printf("%u %" PRIu64 " %" PRIu64 "\n", socket, id, bytes);
}

static void print_msg(const struct nlmsghdr *h, void *arg)
{
	print_entry(h);
}

/* Every message of a dump, printed; 0 or -errno. */
static int dump(struct mdnl *m, struct mdnl_reply *r)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mdnl_req(m, buf, MEMDIAG_CMD_GROUP_GET,
					NLM_F_DUMP);

	return mdnl_dump(m, nlh, r, print_msg, NULL);
}

static void get(struct mdnl *m, uint32_t socket, uint64_t id)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mdnl_reply *r = malloc(sizeof(*r));
	struct nlmsghdr *nlh = mdnl_req(m, buf, MEMDIAG_CMD_GROUP_GET, 0);

	if (!r) {
		printf("error %d\n", ENOMEM);
		return;
	}
	mnl_attr_put_u32(nlh, MEMDIAG_A_GROUP_SOCKET, socket);
	mnl_attr_put_u64(nlh, MEMDIAG_A_GROUP_CGROUP_ID, id);
	if (mdnl_call(m, nlh, r))
		printf("error %d %s\n", -r->error, r->extack);
	else
		print_entry((void *)r->buf);
	free(r);
}

/*
 * With $BURN_MOVES set: append "<wall clock, us> <cpu>" to that file each
 * time the load finds itself on another CPU, so that a test knows when a
 * migration took effect (a TCG guest makes it late while vCPUs spin).
 */
static void note_cpu(FILE *moves)
{
	static int last = -1;
	struct timespec ts;
	int cpu;

	if (!moves)
		return;
	cpu = sched_getcpu();
	if (cpu == last)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(moves, "%lld %d\n", (long long)ts.tv_sec * 1000000 +
		ts.tv_nsec / 1000, cpu);
	fflush(moves);
	last = cpu;
}

static int burn(const char *on, const char *off, const char *file,
		unsigned long spells)
{
	const char *mpath = getenv("BURN_MOVES");
	FILE *moves = mpath ? fopen(mpath, "a") : NULL;
	uint64_t on_ns = strtoull(on, NULL, 10) * 1000000, busy = 0;
	struct timespec nap = { 0, (long)strtoul(off, NULL, 10) * 1000000 };
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char buf[24];

	if (fd < 0) {
		perror(file);
		return 1;
	}
	for (;;) {
		uint64_t t = mdnl_now_ns(), now;

		do {
			now = mdnl_now_ns();
			note_cpu(moves);
		} while (now - t < on_ns);
		busy += now - t;
		snprintf(buf, sizeof(buf), "%20" PRIu64 "\n", busy);
		if (pwrite(fd, buf, 21, 0) != 21)
			return 1;
		if (spells && !--spells)
			return 0;
		if (nap.tv_nsec)
			nanosleep(&nap, NULL);
	}
	return 0;
}

static int pingpong(unsigned long n, const char *procs)
{
	int up[2], down[2];
	unsigned long i;
	uint64_t t;
	char c = 0;
	pid_t pid;

	if (pipe(up) || pipe(down))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		FILE *f = procs ? fopen(procs, "w") : NULL;

		if (procs && (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f)))
			_exit(1);
		for (i = 0; i < n; i++)
			if (read(down[0], &c, 1) != 1 || write(up[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	/* the child's first read waits for the first byte, after its move */
	usleep(100000);
	t = mdnl_now_ns();
	for (i = 0; i < n; i++)
		if (write(down[1], &c, 1) != 1 || read(up[0], &c, 1) != 1)
			return 1;
	printf("%.1f\n", (double)(mdnl_now_ns() - t) / n);
	return waitpid(pid, NULL, 0) == pid ? 0 : 1;
}

int main(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], line[128];
	struct mdnl_reply *r;
	struct nlmsghdr *nlh;
	struct mdnl m;
	int err;

	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "burn"))
		return burn(argv[2], argv[3], argv[4],
			    argc == 6 ? strtoul(argv[5], NULL, 10) : 0);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "pingpong"))
		return pingpong(strtoul(argv[2], NULL, 10),
				argc == 4 ? argv[3] : NULL);
	r = malloc(sizeof(*r));
	err = r ? mdnl_open(&m, MEMDIAG_FAMILY_NAME) : -ENOMEM;
	if (err) {
		printf("error %d cannot open the memdiag family\n", -err);
		return 2;
	}
	nlh = mdnl_req(&m, buf, MEMDIAG_CMD_SESSION_START, 0);
	mnl_attr_put_u32(nlh, MEMDIAG_A_SESSION_INTERVAL_MS, 1000);
	mnl_attr_put_u8(nlh, MEMDIAG_A_SESSION_GROUPS, 1);
	if (mdnl_call(&m, nlh, r)) {
		printf("error %d %s\n", -r->error, r->extack);
		return 2;
	}
	printf("started\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		unsigned int s;
		uint64_t id;

		if (!strncmp(line, "dump", 4)) {
			err = dump(&m, r);
			if (err)
				printf("error %d\n", -err);
			printf(".\n");
		} else if (sscanf(line, "get %u %" SCNu64, &s, &id) == 2) {
			get(&m, s, id);
		} else {
			printf("error %d unknown line\n", EINVAL);
		}
		fflush(stdout);
	}
	mdnl_close(&m);
	free(r);
	return 0;
}
