// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_guided.c - the coverage-guided mode's steps and its corpus.
 *
 * The corpus holds sequences, not single messages: when a message reaches
 * an edge no earlier message did, it is kept with the prefix of its
 * socket, the messages sent on that socket before it that changed state
 * (changes_state: a session started or stopped, a prefetcher change set or
 * restored; answered without error), at most PREFIX_MAX of them, and
 * whether the socket joined the monitor group. A mutation step opens a
 * fresh socket like the kept one, sends the prefix again, now and then
 * extends it by state-changing messages of other sequences' prefixes
 * (sent as kept: a second and a fifth session on one socket are states of
 * their own), and then a mutant of the kept message, of another
 * sequence's last message (the state of one sequence, the request of
 * another), or a fresh message. A mutant is made by one to three of: a
 * blind edit (nlfuzz_mutate.c), an attribute put by the command's policy
 * as the kernel reports it, an attribute spliced from another sequence's
 * message (nlfuzz_policy.c).
 * Every message sent, prefixes included, counts in the budget and is
 * measured on its own (nlfuzz_kcov.c).
 *
 * Each step is either fresh (random_step, the random mode's generator) or
 * a mutation; which is a two-armed bandit: the arm with more new edges per
 * message lately (decayed sums, a horizon of some 50 steps of that arm),
 * and one step in ten the other arm, so that its estimate stays current.
 * While the fresh arm still reaches one new edge a message lately, or half
 * an edge a message on average since the start (the random generator's
 * first two thousand messages or so here), every step is fresh; then
 * mutations take over when they pay more. The average keeps a plateau
 * from starting the mutations before a fresh message that reaches
 * hundreds of edges at once (after 600 to 1000 messages with one seed),
 * which they would push back past a checkpoint. The fresh messages come from a random stream of
 * their own, seeded as the random mode's: the guided run's k-th fresh message is the
 * random run's k-th message, so that the two differ only by what the
 * mutation steps add and displace.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlfuzz.h"

#define CORPUS_MAX	512	/* sequences kept */
#define PREFIX_MAX	6	/* state-changing messages before a kept one */
#define DECAY		0.98	/* per step of an arm */
#define EXPLORE		10	/* percent of steps to the other arm */
#define FRESH_PAYS	1.0	/* new edges a fresh message lately, */
#define FRESH_PAID	0.5	/* or since the start: fresh steps only */
#define EXTEND		30	/* percent of mutation steps that extend */
#define PREFIX_SENT	50	/* percent of them that restore the state */

enum arm { FRESH, MUTATE };

/* what made a message: its new edges are counted by it (guided_report) */
enum source {
	SRC_FRESH, SRC_PREFIX, SRC_EXTEND, SRC_BUILD, SRC_BLIND, SRC_POLICY,
	SRC_SPLICE, SRC_N
};
static const char *const source_name[SRC_N] = {
	"fresh", "prefix", "extension", "fresh in a state", "blind edit",
	"policy edit", "splice",
};

struct seq {
	struct corpus_msg m[PREFIX_MAX + 1];	/* the prefix, then the kept one */
	int n;
	bool monitor;
};

struct guided {
	struct seq s[CORPUS_MAX];
	size_t n;
	/* the current socket: which, its state-changing messages */
	unsigned long sock_gen;
	bool joined;
	struct corpus_msg prefix[PREFIX_MAX];
	int n_prefix;
	/* the bandit: decayed new edges and messages of each arm */
	double gain[2], cost[2];
	uint64_t fresh_rng, own_rng;	/* the two random streams */
	struct nl_policy pol;		/* the family's, from the kernel */
	/* messages and new edges by what made them (a mutant: each edit) */
	unsigned long by_msgs[SRC_N], by_edges[SRC_N];
};

static void credit(struct guided *gd, unsigned int sources, long edges)
{
	int i;

	for (i = 0; i < SRC_N; i++) {
		if (!(sources & 1U << i))
			continue;
		gd->by_msgs[i]++;
		gd->by_edges[i] += edges > 0 ? edges : 0;
	}
}

/* What found the guided run's new edges, for the log. */
void guided_report(const struct guided *gd)
{
	int i;

	printf("# kcov: guided new edges (messages) by source:");
	for (i = 0; i < SRC_N; i++)
		printf("%s %s %lu (%lu)", i ? "," : "", source_name[i],
		       gd->by_edges[i], gd->by_msgs[i]);
	printf("\n");
}

static void copy_msg(struct corpus_msg *to, const char *buf, size_t len)
{
	to->buf = malloc(len ?: 1);
	if (to->buf)
		memcpy(to->buf, buf, len);
	to->len = to->buf ? len : 0;
	to->outcome[0] = 0;
	to->new_socket = to->monitor = false;
}

struct guided *guided_new(uint16_t family)
{
	struct guided *gd = calloc(1, sizeof(*gd));
	int err;

	if (!gd)
		return NULL;
	/* without it the policy edits, which find most of what the
	 * mutations find, would quietly turn into blind ones
	 */
	err = policy_load(&gd->pol, family);
	if (err) {
		printf("# kcov: guided: no attribute policy from the controller: %s\n",
		       strerror(-err));
		free(gd);
		return NULL;
	}
	printf("# kcov: guided: the policies of %u commands from the controller\n",
	       gd->pol.n_cmds);
	gd->fresh_rng = rng_swap(0);	/* the random mode's stream */
	gd->own_rng = gd->fresh_rng ^ 0x5851f42d4c957f2dULL;
	rng_swap(gd->own_rng);
	/* the same prior for both arms: a tie goes to the fresh one */
	gd->gain[FRESH] = gd->gain[MUTATE] = 1;
	gd->cost[FRESH] = gd->cost[MUTATE] = 1;
	return gd;
}

/* A socket other than the prefix's: a new prefix, empty. */
static void follow_socket(struct fuzz *f, struct guided *gd)
{
	if (f->sock_gen == gd->sock_gen)
		return;
	while (gd->n_prefix)
		free(gd->prefix[--gd->n_prefix].buf);
	gd->sock_gen = f->sock_gen;
	gd->joined = f->joined;
}

static void keep(struct cov *c, struct guided *gd, const char *buf,
		 size_t len)
{
	struct seq *s;
	int i;

	if (gd->n >= CORPUS_MAX || !len)
		return;
	s = &gd->s[gd->n++];
	for (i = 0; i < gd->n_prefix; i++)
		copy_msg(&s->m[i], gd->prefix[i].buf, gd->prefix[i].len);
	copy_msg(&s->m[i], buf, len);
	s->n = i + 1;
	s->monitor = gd->joined;
	c->corpus_seqs = gd->n;
	c->corpus_msgs += s->n;
}

/* After a message sent on the prefix's socket: keep it, or add it to it. */
static void after(struct fuzz *f, struct cov *c, struct guided *gd,
		  const char *buf, size_t len, unsigned long edges)
{
	const struct nlmsghdr *h = (const void *)buf;
	const struct genlmsghdr *g = (const void *)(buf + NLMSG_HDRLEN);
	bool ok = f->outcome == 0 || f->outcome == OUTCOME_DATA ||
		  f->outcome == OUTCOME_NONE;

	if (edges)
		keep(c, gd, buf, len);
	if (f->sock_gen != gd->sock_gen || len < NLMSG_HDRLEN + GENL_HDRLEN ||
	    h->nlmsg_len > len || !(h->nlmsg_flags & NLM_F_REQUEST) || !ok ||
	    !changes_state(g->cmd))
		return;
	if (gd->n_prefix == PREFIX_MAX) {	/* the oldest goes */
		free(gd->prefix[0].buf);
		memmove(gd->prefix, gd->prefix + 1,
			(PREFIX_MAX - 1) * sizeof(gd->prefix[0]));
		gd->n_prefix--;
	}
	copy_msg(&gd->prefix[gd->n_prefix++], buf, len);
}

/* Send @len bytes of @src (copied to @buf), measured; its new edges. */
static long send_measured(struct fuzz *f, struct cov *c, struct guided *gd,
			  const char *src, size_t len, char *buf)
{
	struct nlmsghdr *h = (void *)buf;
	unsigned long edges;
	int err;

	if (buf != src)
		memcpy(buf, src, len);
	if (len >= 6)
		h->nlmsg_type = f->m.family_id;
	if (len >= 12)
		h->nlmsg_seq = ++f->m.seq;
	cov_begin(c);
	err = send_one(f, buf, len, must_answer(h, len));
	edges = cov_end(c);
	if (err)
		return -1;
	after(f, c, gd, buf, len, edges);
	return edges;
}

/* A message of the random generator, on its own stream; new edges. */
static long fresh_step(struct fuzz *f, struct cov *c, struct guided *gd,
		       char *buf)
{
	unsigned long edges;
	size_t len;
	int err;

	gd->own_rng = rng_swap(gd->fresh_rng);
	cov_begin(c);
	err = random_step(f, buf, &len);
	edges = cov_end(c);
	gd->fresh_rng = rng_swap(gd->own_rng);
	c->fresh_msgs++;
	if (err)
		return -1;
	credit(gd, 1U << SRC_FRESH, edges);
	after(f, c, gd, buf, len, edges);
	return edges;
}

/*
 * The prefix extended by one to three state-changing messages drawn from
 * the prefixes of the corpus, sent unchanged (answered without error when
 * kept: the same request again usually is); 0, or -1.
 */
static int extend(struct fuzz *f, struct cov *c, struct guided *gd,
		  char *buf, unsigned long *edges)
{
	const struct corpus_msg *m;
	const struct seq *s;
	int i, n = 1 + below(3), tries = 0;
	long e;

	for (i = 0; i < n && tries < 16 && c->msgs < c->count; tries++) {
		s = &gd->s[below(gd->n)];
		if (s->n < 2)
			continue;
		m = &s->m[below(s->n - 1)];
		e = send_measured(f, c, gd, m->buf, m->len, buf);
		if (e < 0)
			return -1;
		credit(gd, 1U << SRC_EXTEND, e);
		*edges += e;
		i++;
	}
	return 0;
}

/*
 * A sequence to mutate: the shorter of two drawn, so that a sequence's
 * prefix, sent again before each of its mutants, is paid less often when
 * a shorter one is at hand.
 */
static const struct seq *pick(const struct guided *gd)
{
	const struct seq *a = &gd->s[below(gd->n)];
	const struct seq *b = &gd->s[below(gd->n)];

	return b->n < a->n ? b : a;
}

/* One edit of the message: blind, by the policy, or spliced; which. */
static enum source mutate_one(struct guided *gd, char *buf, size_t *len)
{
	const struct seq *donor = &gd->s[below(gd->n)];
	const struct corpus_msg *d = &donor->m[below(donor->n)];
	uint32_t how = below(10);

	if (how < 5 && policy_mutate(&gd->pol, buf, len))
		return SRC_POLICY;
	if (how >= 5 && how < 7 && splice_attr(buf, len, d->buf, d->len))
		return SRC_SPLICE;
	mutate_once(buf, len);
	return SRC_BLIND;
}

/*
 * A kept sequence's state restored (its socket, its prefix sent again),
 * then one message mutated from it; the new edges of all, in *edges, and
 * the messages sent, or -1.
 */
static long mutate_step(struct fuzz *f, struct cov *c, struct guided *gd,
			char *buf, unsigned long *edges)
{
	const struct seq *s = pick(gd);
	const struct corpus_msg *from = &s->m[s->n - 1];
	unsigned long before = c->msgs;
	const struct seq *other;
	unsigned int made = 1U << SRC_BUILD;
	bool answer;
	size_t len;
	long e;
	int i, n;

	/* half the time the kept message goes to the socket as it is: its
	 * prefix costs messages, and another state may do as well
	 */
	if ((s->n > 1 && chance(PREFIX_SENT)) || s->monitor != gd->joined) {
		mdnl_close(&f->m);
		if (open_sock_join(f, s->monitor))
			return -1;
		follow_socket(f, gd);
		for (i = 0; i < s->n - 1 && c->msgs < c->count; i++) {
			e = send_measured(f, c, gd, s->m[i].buf, s->m[i].len,
					  buf);
			if (e < 0)
				return -1;
			credit(gd, 1U << SRC_PREFIX, e);
			*edges += e;
		}
		if (c->msgs >= c->count)
			return c->msgs - before;
	}
	if (chance(EXTEND) && extend(f, c, gd, buf, edges))
		return -1;
	if (c->msgs >= c->count)
		return c->msgs - before;
	if (chance(10)) {		/* a fresh message in this state */
		len = build(f, buf, &answer);
	} else {
		if (chance(25)) {	/* another sequence's request */
			other = &gd->s[below(gd->n)];
			from = &other->m[other->n - 1];
		}
		memcpy(buf, from->buf, from->len);
		len = from->len;
		n = 1 + below(3);
		made = 0;
		for (i = 0; i < n && len >= NLMSG_HDRLEN; i++)
			made |= 1U << mutate_one(gd, buf, &len);
	}
	e = send_measured(f, c, gd, buf, len, buf);
	if (e < 0)
		return -1;
	credit(gd, made ?: 1U << SRC_BLIND, e);
	*edges += e;
	return c->msgs - before;
}

static double yield(const struct guided *gd, enum arm a)
{
	return gd->gain[a] / gd->cost[a];
}

/* One step, fresh or mutated: 0, or -1 when the socket is lost. */
int guided_step(struct fuzz *f, struct cov *c, struct guided *gd, char *buf)
{
	enum arm a = yield(gd, MUTATE) > yield(gd, FRESH) ? MUTATE : FRESH;
	unsigned long edges = 0;
	long sent;

	follow_socket(f, gd);
	if (chance(EXPLORE))
		a = a == FRESH ? MUTATE : FRESH;
	/* while most random messages still reach new code, a mutation step
	 * (its prefix included) could only delay them
	 */
	if (!gd->n || yield(gd, FRESH) >= FRESH_PAYS ||
	    gd->by_edges[SRC_FRESH] >= FRESH_PAID * gd->by_msgs[SRC_FRESH])
		a = FRESH;
	if (a == FRESH) {
		sent = fresh_step(f, c, gd, buf);
		edges = sent;
		sent = sent < 0 ? -1 : 1;
	} else {
		sent = mutate_step(f, c, gd, buf, &edges);
	}
	if (sent < 0)
		return -1;
	gd->gain[a] = gd->gain[a] * DECAY + edges;
	gd->cost[a] = gd->cost[a] * DECAY + sent;
	if (chance(1) && a == MUTATE) {	/* sockets live as in the random mode */
		mdnl_close(&f->m);
		return open_sock(f);
	}
	return 0;
}

/* The corpus, one message after another, each sequence on a new socket. */
size_t guided_corpus(const struct guided *gd, struct corpus_msg **flat)
{
	size_t i, n = 0;
	int j;

	*flat = calloc(CORPUS_MAX * (PREFIX_MAX + 1), sizeof(**flat));
	if (!*flat)
		return 0;
	for (i = 0; i < gd->n; i++) {
		for (j = 0; j < gd->s[i].n; j++)
			(*flat)[n++] = gd->s[i].m[j];
		(*flat)[n - gd->s[i].n].new_socket = true;
		(*flat)[n - gd->s[i].n].monitor = gd->s[i].monitor;
	}
	return n;
}
