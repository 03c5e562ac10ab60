/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nlfuzz.h - what nlfuzz.c's random generator and checks share with its
 * coverage-guided mode (nlfuzz_kcov.c) and its corpus replay
 * (nlfuzz_corpus.c).
 */
#ifndef NLFUZZ_H
#define NLFUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "mdnl.h"

#define MSG_MAX		8192

/* what the kernel answered a watched request first (else an errno, 0 ack) */
#define OUTCOME_NONE	(-2)	/* nothing before the sync's ack */
#define OUTCOME_DATA	(-1)	/* a reply with data */

struct fuzz {
	struct mdnl m;
	uint32_t monitor_id;
	bool unpriv;
	unsigned int timeout;
	unsigned long sent, answered, replies, errors[4096], ntf, enobufs;
	unsigned long data_replies_unpriv;
	uint32_t need[8];		/* requests of this send to be answered */
	bool got[8];
	char what[8][64];		/* cmd, flags, length */
	int n_need;
	int failures;
	int dead;			/* liveness checks failed */
	uint32_t watch_seq;		/* send_one's message */
	int outcome;			/* its first answer: OUTCOME_* or errno */
	char diag[512];
	unsigned long sock_gen;		/* sockets opened so far */
	bool joined;			/* the socket joined the monitor group */
};

extern long ncpus;
uint64_t rnd(void);
uint64_t rng_swap(uint64_t state);
uint32_t below(uint32_t n);
bool chance(int percent);

size_t build(struct fuzz *f, char *buf, bool *answer);
bool changes_state(uint8_t cmd);
bool must_answer(const struct nlmsghdr *nlh, size_t len);
void put_attr_of(struct nlmsghdr *nlh, uint8_t cmd);

void fail(struct fuzz *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int open_sock(struct fuzz *f);
int open_sock_join(struct fuzz *f, int join);
int dump_games(struct fuzz *f);
void liveness(struct fuzz *f, const char *when);
int send_one(struct fuzz *f, const char *buf, size_t len, bool answer);
int random_step(struct fuzz *f, char *buf, size_t *len);

/* nlfuzz_mutate.c: one mutation of the message of @len bytes in @buf */
void mutate_once(char *buf, size_t *len);

/* nlfuzz_policy.c: the family's attribute policies, as the kernel has them */
#define POLICY_CMDS	16	/* commands */
#define POLICY_SETS	16	/* policies (the controller's indexes) */
#define POLICY_ATTRS	32	/* attribute types of one */
struct nl_attr_pol {
	uint32_t nl_type;		/* NL_ATTR_TYPE_*, 0: none */
	bool has_range;
	uint64_t min, max;		/* unsigned range, if has_range */
	uint32_t min_len, max_len;	/* strings and binary */
};
struct nl_policy {
	struct nl_attr_pol set[POLICY_SETS][POLICY_ATTRS];
	unsigned int set_max[POLICY_SETS];	/* highest type with a policy */
	unsigned int op_set[POLICY_CMDS];	/* command -> set + 1, 0: none */
	unsigned int n_cmds;
};
int policy_load(struct nl_policy *np, uint16_t family);
bool policy_mutate(const struct nl_policy *np, char *buf, size_t *len);
bool splice_attr(char *buf, size_t *len, const char *donor, size_t dlen);

/* nlfuzz_kcov.c: --kcov LO:HI measures, --guided also steers */
struct kcov_opts {
	uint64_t lo, hi;		/* memdiag.ko's text */
	bool guided;
	bool dump;			/* print the PCs and edges reached */
	const char *corpus_out;		/* the kept messages, nlfuzz_corpus.c's form */
};
void kcov_run(struct fuzz *f, unsigned long count, const struct kcov_opts *o);

/* One run's coverage, counted a message at a time (nlfuzz_kcov.c) */
struct cov {
	const char *mode;
	bool guided;
	unsigned long msgs, count;	/* messages measured, the budget */
	unsigned long fresh_msgs;	/* guided: of the random generator */
	size_t corpus_seqs, corpus_msgs;
	void *priv;			/* the KCOV buffer and the sets */
};
void cov_begin(struct cov *c);
unsigned long cov_end(struct cov *c);

/* nlfuzz_guided.c: the guided mode's steps and its corpus of sequences */
struct corpus_msg;
struct guided;
struct guided *guided_new(uint16_t family);
void guided_report(const struct guided *gd);
int guided_step(struct fuzz *f, struct cov *c, struct guided *gd, char *buf);
size_t guided_corpus(const struct guided *gd, struct corpus_msg **flat);

/* nlfuzz_corpus.c */
struct corpus_msg {
	char *buf;
	size_t len;
	char outcome[24];		/* recorded: "ack", "data", "none", "EINVAL"... */
	bool new_socket;		/* the first of a sequence: a fresh socket */
	bool monitor;			/* which joins the monitor group */
};
const char *outcome_name(int outcome);
/* One corpus line: @outcome ("" for "?"), a space, @buf's @len bytes in hex. */
void corpus_put(FILE *fp, const char *outcome, const char *buf, size_t len);
int corpus_write(const char *path, const struct corpus_msg *c, size_t n);
int corpus_read(const char *path, struct corpus_msg **c, size_t *n);
int replay_run(struct fuzz *f, const char *path, const char *record);

#endif
