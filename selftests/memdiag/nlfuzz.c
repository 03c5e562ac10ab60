// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz.c - a seeded netlink fuzzer for the memdiag family.
 *
 * Sends random and mutated generic netlink messages to every memdiag
 * operation (and to command numbers that are none): attributes of the
 * wrong type, length and nesting, unknown and flag-carrying attribute
 * types, random message flags, truncated netlink and genetlink headers,
 * huge and zero values, dumps left half read, resumed, or abandoned with
 * the socket, sockets joining the monitor group and closed with their
 * sessions open. One message per send: with several per send, now and then
 * (about 1 in 10^4 messages, 6.12, root and nobody alike) the acks of the
 * messages after the first never arrived. genl_batch shows that memdiag
 * acks every batched request when the receive buffer has room, and that
 * netlink drops the answers after the first when it has not, saying
 * ENOBUFS, which wait_for below takes for a multicast overrun; that this
 * was the fuzzer's loss is not shown yet, so batches stay left out.
 *
 * What it asserts, so that it can fail:
 *  - every request the kernel must answer (NLM_F_ACK, or an error) is
 *    answered, in order, within the timeout;
 *  - every message the kernel sends back is well formed (lengths within
 *    the datagram, attributes within their message);
 *  - run as a user without privileges, no request is answered with data
 *    and no monitor notification arrives (some of its sockets try to join);
 *  - every --check messages and at the end, a well-formed get-info still
 *    succeeds (root) or is refused with EPERM (unprivileged).
 * Registers and dmesg are checked by the caller (fuzz.sh) afterwards.
 *
 * usage: nlfuzz [--seed N] [--count N] [--check N] [--timeout SEC]
 *        [--kcov LO:HI [--guided] [--corpus-out FILE] [--cov-dump]]
 *        [--replay FILE [--record FILE]]
 * The seed (default: from the clock) is printed first: the same seed, count
 * and kernel state send the same messages. --kcov measures the edges of
 * memdiag's text [LO, HI) the messages reach and --guided steers by them
 * (nlfuzz_kcov.c), --cov-dump prints them all at the end; --replay sends
 * a corpus and checks each answer against the recorded one
 * (nlfuzz_corpus.c). Sending and checking: nlfuzz_send.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/memdiag.h>

#include "kselftest.h"
#include "mdnl.h"
#include "nlfuzz.h"
#include "spec_ops.h"

#define ATTRS_MAX	16

/* the operations (their request attributes and kinds): spec_ops.h */
#define N_OPS ARRAY_SIZE(spec_ops)

static const int kind_len[SPEC_NKINDS] = {
	[SPEC_U8] = 1, [SPEC_U16] = 2, [SPEC_U32] = 4, [SPEC_U64] = 8,
};

/* splitmix64: small, seedable, the same sequence everywhere */
static uint64_t rng_state;
uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
/* Switch to the stream @state; returns where the current one was. */
uint64_t rng_swap(uint64_t state)
{
	uint64_t old = rng_state;

	rng_state = state;
	return old;
}
uint32_t below(uint32_t n) { return n ? rnd() % n : 0; }
bool chance(int percent) { return below(100) < (uint32_t)percent; }

long ncpus;

/* Values at the edges of what the module parses, and plain random ones. */
static uint64_t value(void)
{
	static const uint64_t edge[] = {
		0, 1, 2, 3, 7, 8, 15, 16, 63, 64, 100, 1000, 4095, 65535,
		0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
		0x7fffffffffffffffULL, 0xffffffffffffffffULL,
	};

	switch (below(4)) {
	case 0: return edge[below(ARRAY_SIZE(edge))];
	case 1: return ncpus - 1 + below(3);	/* around the last CPU */
	case 2: return 1ULL << below(64);
	default: return rnd();
	}
}

static void put_attr(struct nlmsghdr *nlh, int op_max,
		     const struct spec_op *op, int depth);

/* A nest: up to four attributes of any kind, down to depth 3. */
static void put_nest(struct nlmsghdr *nlh, uint16_t type, int op_max,
		     const struct spec_op *op, int depth)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);
	int i, n = below(5);

	for (i = 0; i < n && depth < 3; i++)
		put_attr(nlh, op_max, op, depth + 1);
	if (chance(10))
		nest->nla_type |= NLA_F_NESTED;
	mnl_attr_nest_end(nlh, nest);
}

/*
 * One attribute: usually one of the op's own with its own kind, else any
 * type of the op's set or outside it, with the kind (and length) of any.
 */
static void put_attr(struct nlmsghdr *nlh, int op_max,
		     const struct spec_op *op, int depth)
{
	char payload[2048];
	uint16_t type;
	enum spec_kind kind;
	uint64_t v;
	int len, i;

	if (nlh->nlmsg_len > MSG_MAX - sizeof(payload) - 64)
		return;
	if (op && op->n_req && chance(70)) {
		i = below(op->n_req);
		type = op->req[i].type;
		kind = op->req[i].kind;
	} else {
		type = chance(85) ? below(op_max + 3) : below(0x4000);
		kind = below(SPEC_NKINDS);
	}
	if (chance(3))
		type |= chance(50) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
	if (kind == SPEC_NEST) {
		put_nest(nlh, type, op_max, op, depth);
		return;
	}
	len = kind_len[kind];
	if (kind == SPEC_STRING || kind == SPEC_BINARY)
		len = below(40);
	if (chance(15)) {		/* the wrong length */
		static const int lens[] = { 0, 1, 2, 3, 5, 6, 7, 9, 12, 16, 33, 255 };

		len = chance(90) ? lens[below(ARRAY_SIZE(lens))] :
				   (int)below(sizeof(payload));
	}
	v = value();
	memset(payload, 0, sizeof(payload));
	if (kind == SPEC_STRING || kind == SPEC_BINARY) {
		for (i = 0; i < len; i++)
			payload[i] = chance(90) ? 'a' + below(26) : below(256);
		if (len && chance(80))
			payload[len - 1] = 0;
	} else {
		memcpy(payload, &v, len < 8 ? len : 8);
		if (len > 8)
			for (i = 8; i < len; i++)
				payload[i] = below(256);
	}
	mnl_attr_put(nlh, type, len, payload);
}

/* One attribute for a message of command @cmd, appended (the guided mode's
 * insertions): the same choice of types, kinds and lengths as build's.
 */
void put_attr_of(struct nlmsghdr *nlh, uint8_t cmd)
{
	const struct spec_op *op = NULL;
	unsigned int i;

	for (i = 0; i < N_OPS; i++)
		if (spec_ops[i].cmd == cmd)
			op = &spec_ops[i];
	put_attr(nlh, op ? op->max_attr : MEMDIAG_A_SNAPSHOT_MAX, op, 0);
}

/*
 * Whether a request of @cmd, answered without error, leaves state behind
 * (a session of its socket, a prefetcher change) that later messages can
 * find: the guided mode keeps those as the prefix of a sequence. The reads
 * (get-info, snapshots, prefetch-get) leave none.
 */
bool changes_state(uint8_t cmd)
{
	return cmd == MEMDIAG_CMD_SESSION_START ||
	       cmd == MEMDIAG_CMD_SESSION_STOP ||
	       cmd == MEMDIAG_CMD_PREFETCH_SET ||
	       cmd == MEMDIAG_CMD_PREFETCH_RESTORE;
}

/* A well-formed request of @op (the seed of the mutations). */
static void put_valid(struct nlmsghdr *nlh, const struct spec_op *op)
{
	switch (op->cmd) {
	case MEMDIAG_CMD_GET_INFO:
		mnl_attr_put_u32(nlh, MEMDIAG_A_INFO_PROTO_VERSION, 1);
		break;
	case MEMDIAG_CMD_SNAPSHOT:
		if (chance(50))
			mnl_attr_put_u32(nlh, MEMDIAG_A_SNAPSHOT_SOCKET, below(2));
		break;
	case MEMDIAG_CMD_SESSION_START:
		mnl_attr_put_u32(nlh, MEMDIAG_A_SESSION_INTERVAL_MS,
				 100 + below(1000));
		break;
	case MEMDIAG_CMD_SESSION_STOP:
		mnl_attr_put_u32(nlh, MEMDIAG_A_SESSION_ID, below(8));
		break;
	case MEMDIAG_CMD_PREFETCH_SET:
		mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_PREFETCHERS,
				 1 + below(15));
		mnl_attr_put_u8(nlh, MEMDIAG_A_PREFETCH_DISABLE, below(2));
		__attribute__((fallthrough));	/* and a scope */
	case MEMDIAG_CMD_PREFETCH_GET:
	case MEMDIAG_CMD_PREFETCH_RESTORE:
		if (chance(50))
			mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_CPU,
					 below(ncpus));
		else if (chance(50))
			mnl_attr_put_u32(nlh, MEMDIAG_A_PREFETCH_SOCKET,
					 below(2));
		break;
	}
}

/*
 * Build one message into @buf; returns the bytes to send (which may
 * differ from nlmsg_len: truncated or overlong headers). Sets *answer if
 * the kernel must answer it (a request it parses, with NLM_F_ACK).
 */
size_t build(struct fuzz *f, char *buf, bool *answer)
{
	const struct spec_op *op = NULL;
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	uint8_t cmd;
	size_t len, true_len = 0;
	int i, n;

	if (chance(92)) {
		op = &spec_ops[below(N_OPS)];
		cmd = op->cmd;
	} else {
		cmd = chance(50) ? 0 : MEMDIAG_CMD_MAX + 1 + below(250);
	}
	if (chance(op && op->dump ? 40 : 8))
		flags |= NLM_F_DUMP;
	if (chance(4))
		flags |= below(0x10000) & ~NLM_F_ACK;
	if (chance(3))
		flags &= ~NLM_F_ACK;
	if (chance(2))
		flags &= ~NLM_F_REQUEST;

	memset(buf, 0, MSG_MAX);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = f->m.family_id;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = ++f->m.seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = chance(90) ? 1 : below(256);
	if (chance(3))
		g->reserved = below(0x10000);

	if (op && chance(30)) {
		/* a valid request with a few bytes changed, never the type */
		put_valid(nlh, op);
		true_len = nlh->nlmsg_len;
		n = 1 + below(4);
		for (i = 0; i < n; i++) {
			size_t at = below(true_len);

			if (at == 4 || at == 5)
				continue;
			((uint8_t *)buf)[at] ^= 1 << below(8);
		}
	} else {
		n = below(ATTRS_MAX / 2) + (chance(5) ? ATTRS_MAX : 0);
		for (i = 0; i < n; i++)
			put_attr(nlh, op ? op->max_attr : MEMDIAG_A_SNAPSHOT_MAX,
				 op, 0);
	}
	if (!true_len)
		true_len = nlh->nlmsg_len;
	len = true_len;
	if (chance(5)) {
		/* truncated: inside the netlink header, the genetlink header
		 * or the last attribute; or claiming more than is sent
		 */
		switch (below(4)) {
		case 0:
			nlh->nlmsg_len = below(NLMSG_HDRLEN);
			break;
		case 1:
			nlh->nlmsg_len = NLMSG_HDRLEN + below(GENL_HDRLEN);
			break;
		case 2:
			nlh->nlmsg_len -= nlh->nlmsg_len > 24 ? 1 + below(7) : 0;
			break;
		case 3:
			nlh->nlmsg_len += 1 + below(4096);
			break;
		}
		if (chance(50) && nlh->nlmsg_len <= true_len)
			len = nlh->nlmsg_len;
	}
	*answer = must_answer(nlh, len);
	return len;
}

/*
 * netlink_rcv_skb answers a message it can delimit, with ACK or on error;
 * memdiag's ops may answer without ACK (a reply), which the sync after it
 * then follows.
 */
bool must_answer(const struct nlmsghdr *nlh, size_t len)
{
	return len >= NLMSG_HDRLEN && nlh->nlmsg_len >= NLMSG_HDRLEN &&
	       nlh->nlmsg_len <= len && (nlh->nlmsg_flags & NLM_F_REQUEST) &&
	       (nlh->nlmsg_flags & NLM_F_ACK) &&
	       !(nlh->nlmsg_flags & NLM_F_DUMP);
}

/*
 * One step of the random fuzzer: a dump game (*len 0), or a message built
 * into @buf (its size in *len), sent and its answer checked; now and then
 * the socket (and its sessions) is replaced. 0, or -1 to stop.
 */
int random_step(struct fuzz *f, char *buf, size_t *len)
{
	bool answer;

	*len = 0;
	if (chance(1))
		return dump_games(f);
	*len = build(f, buf, &answer);
	if (send_one(f, buf, *len, answer))
		return -1;
	/* sockets (and their sessions) live a few hundred messages */
	if (chance(1)) {
		mdnl_close(&f->m);
		return open_sock(f);
	}
	return 0;
}

static void run(struct fuzz *f, unsigned long count, unsigned long every)
{
	static char buf[MSG_MAX];
	unsigned long i;
	size_t len;

	if (open_sock(f))
		return;
	for (i = 0; i < count && f->failures < 10; i++) {
		if (random_step(f, buf, &len))
			break;
		if (every && i % every == every - 1)
			liveness(f, "during the run");
	}
	mdnl_close(&f->m);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "check", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "kcov", required_argument, NULL, 'k' },
		{ "guided", no_argument, NULL, 'g' },
		{ "corpus-out", required_argument, NULL, 'o' },
		{ "cov-dump", no_argument, NULL, 'd' },
		{ "replay", required_argument, NULL, 'r' },
		{ "record", required_argument, NULL, 'R' },
		{}
	};
	static struct kcov_opts kopt;
	const char *replay = NULL, *record = NULL;
	char *end;
	static struct fuzz f;
	unsigned long count = 100000, every = 1000, seed, e;
	struct timespec t0, t1;
	char hist[1024] = "";
	int o, replay_err = 0;

	clock_gettime(CLOCK_REALTIME, &t0);
	seed = t0.tv_nsec ^ t0.tv_sec;
	f.timeout = 30;
	while ((o = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (o) {
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			every = strtoul(optarg, NULL, 0);
			break;
		case 't':
			f.timeout = strtoul(optarg, NULL, 0);
			break;
		case 'k':
			kopt.lo = strtoull(optarg, &end, 0);
			kopt.hi = *end == ':' ? strtoull(end + 1, NULL, 0) : 0;
			if (kopt.lo >= kopt.hi)
				return fprintf(stderr, "nlfuzz: --kcov LO:HI\n"), 2;
			break;
		case 'g':
			kopt.guided = true;
			break;
		case 'o':
			kopt.corpus_out = optarg;
			break;
		case 'd':
			kopt.dump = true;
			break;
		case 'r':
			replay = optarg;
			break;
		case 'R':
			record = optarg;
			break;
		default:
			fprintf(stderr, "usage: nlfuzz [--seed N] [--count N] [--check N] [--timeout SEC]\n"
				"       [--kcov LO:HI [--guided] [--corpus-out FILE] [--cov-dump]]\n"
				"       [--replay FILE [--record FILE]]\n");
			return 2;
		}
	}
	rng_state = seed;
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	f.unpriv = geteuid() != 0;

	ksft_print_header();
	if (mdnl_open(&f.m, MEMDIAG_FAMILY_NAME) == -ENOENT)
		ksft_exit_skip("no memdiag family: load memdiag.ko first\n");
	mdnl_close(&f.m);
	ksft_set_plan(3);
	printf("# seed %lu, %lu messages, as uid %d (rerun: nlfuzz --seed %lu --count %lu)\n",
	       seed, count, geteuid(), seed, count);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (replay)
		replay_err = replay_run(&f, replay, record);
	else if (kopt.hi)
		kcov_run(&f, count, &kopt);
	else
		run(&f, count, every);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (e = 0; e < 4096; e++)
		if (f.errors[e])
			snprintf(hist + strlen(hist), sizeof(hist) - strlen(hist),
				 " %s:%lu", e ? strerrorname_np(e) : "ack", f.errors[e]);
	printf("# %lu messages in %.1f s, %lu with a required answer, %lu replies, %lu notifications, %lu overruns\n",
	       f.sent, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       f.answered, f.replies, f.ntf, f.enobufs);
	printf("# answers:%s\n", hist);
	if (replay)
		ksft_test_result(f.failures == 0 && !replay_err,
				 "corpus %s: %lu messages answered as recorded, well formed\n",
				 replay, f.sent);
	else
		ksft_test_result(f.failures == 0 && f.sent >= count,
				 "%lu messages answered, well formed%s\n", f.sent,
				 f.unpriv ? ", none with data" : "");
	liveness(&f, "after the run");
	ksft_test_result(f.dead == 0, "the module still answers get-info\n");
	/* unprivileged sockets try to join the monitor group while a root
	 * session publishes: a notification means the join was let through
	 */
	ksft_test_result(f.unpriv ? f.data_replies_unpriv == 0 && f.ntf == 0 :
				    f.replies > 0,
			 f.unpriv ? "unprivileged: no request answered with data, no notification\n" :
				    "root: requests were answered with data\n");
	ksft_finished();
}
