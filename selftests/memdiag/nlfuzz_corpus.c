// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_corpus.c - the guided fuzzer's corpus: written as text, replayed.
 *
 * One message a line: what the kernel answered it first when it was
 * recorded ("ack", an errno name such as "EINVAL", "data" for a reply with
 * data, "none" when nothing came before the sync's ack, "?" not recorded),
 * a space, and the bytes as sent, in hex. A line "socket" (or "socket
 * monitor") starts a sequence: the messages after it go on a fresh socket
 * (which joins the monitor group), the earlier ones' socket closed with
 * its sessions. Lines starting with '#' are comments. The replay sends
 * each message in order, as root, on the socket of its sequence (one
 * socket for a corpus without "socket" lines), its type set to the
 * family's id and its sequence number to the socket's next, checks every
 * answer as the random fuzzer does (owed answers arrive, messages well
 * formed, error values valid), and that the first answer is the recorded
 * one: a policy, check or handler that changed what it does to one of
 * these messages, or to the state its sequence's earlier messages left,
 * fails the replay.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlfuzz.h"

const char *outcome_name(int outcome)
{
	if (outcome == OUTCOME_NONE)
		return "none";
	if (outcome == OUTCOME_DATA)
		return "data";
	if (!outcome)
		return "ack";
	return strerrorname_np(outcome) ?: "E?";
}

void corpus_put(FILE *fp, const char *outcome, const char *buf, size_t len)
{
	size_t b;

	fprintf(fp, "%s ", outcome[0] ? outcome : "?");
	for (b = 0; b < len; b++)
		fprintf(fp, "%02x", (unsigned char)buf[b]);
	fputc('\n', fp);
}

int corpus_write(const char *path, const struct corpus_msg *c, size_t n)
{
	FILE *fp = fopen(path, "w");
	size_t i;

	if (!fp)
		return -1;
	fprintf(fp, "# nlfuzz corpus: first answer, then the message in hex\n");
	for (i = 0; i < n; i++) {
		if (c[i].new_socket)
			fprintf(fp, "socket%s\n", c[i].monitor ? " monitor" : "");
		corpus_put(fp, c[i].outcome, c[i].buf, c[i].len);
	}
	return fclose(fp) ? -1 : 0;
}

/* One line "OUTCOME HEX" into @m; -1 if it is not one. */
static int parse_line(char *line, struct corpus_msg *m)
{
	char *hex = strchr(line, ' ');
	size_t i, n;

	if (!hex || hex - line >= (long)sizeof(m->outcome))
		return -1;
	*hex++ = 0;
	hex[strcspn(hex, "\r\n")] = 0;
	n = strlen(hex);
	if (n % 2 || n / 2 > MSG_MAX)
		return -1;
	memcpy(m->outcome, line, strlen(line) + 1);	/* shorter: checked */
	m->new_socket = m->monitor = false;
	m->len = n / 2;
	m->buf = malloc(m->len ?: 1);
	if (!m->buf)
		return -1;
	for (i = 0; i < m->len; i++) {
		unsigned int v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -1;
		m->buf[i] = v;
	}
	return 0;
}

int corpus_read(const char *path, struct corpus_msg **c, size_t *n)
{
	static char line[2 * MSG_MAX + 64];
	FILE *fp = fopen(path, "r");
	size_t cap = 0;
	int lineno = 0, socket_line = -1;	/* -1 none, else monitor */

	*c = NULL;
	*n = 0;
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!strcmp(line, "socket\n") ||
		    !strcmp(line, "socket monitor\n")) {
			socket_line = line[6] == ' ';
			continue;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*c = realloc(*c, cap * sizeof(**c));
			if (!*c)
				break;
		}
		if (parse_line(line, &(*c)[*n])) {
			fprintf(stderr, "%s:%d: not OUTCOME HEX\n", path, lineno);
			fclose(fp);
			return -1;
		}
		(*c)[*n].new_socket = socket_line >= 0;
		(*c)[*n].monitor = socket_line > 0;
		socket_line = -1;
		(*n)++;
	}
	fclose(fp);
	return *c || !*n ? 0 : -1;
}

/* Replay @path; with @record, write it there with this run's answers. */
int replay_run(struct fuzz *f, const char *path, const char *record)
{
	static char buf[MSG_MAX];
	struct corpus_msg *c;
	size_t n, i, changed = 0;

	if (corpus_read(path, &c, &n)) {
		fail(f, "cannot read the corpus %s", path);
		return -1;
	}
	if (open_sock_join(f, n && c[0].new_socket && c[0].monitor))
		return -1;
	for (i = 0; i < n && f->failures < 10; i++) {
		struct nlmsghdr *h = (void *)buf;
		const char *got;

		if (i && c[i].new_socket) {
			mdnl_close(&f->m);
			if (open_sock_join(f, c[i].monitor))
				break;
		}

		memcpy(buf, c[i].buf, c[i].len);
		if (c[i].len >= 6)
			h->nlmsg_type = f->m.family_id;
		if (c[i].len >= 12)
			h->nlmsg_seq = ++f->m.seq;
		if (send_one(f, buf, c[i].len, must_answer(h, c[i].len)))
			break;
		got = outcome_name(f->outcome);
		if (!record && strcmp(c[i].outcome, "?") &&
		    strcmp(c[i].outcome, got)) {
			changed++;
			fail(f, "corpus message %zu (line %zu of the messages): answered %s, recorded %s",
			     i, i + 1, got, c[i].outcome);
		}
		snprintf(c[i].outcome, sizeof(c[i].outcome), "%s", got);
	}
	mdnl_close(&f->m);
	printf("# replay: %zu of %zu corpus messages sent, %zu answered otherwise than recorded\n",
	       i, n, changed);
	if (record && corpus_write(record, c, n))
		fail(f, "cannot write %s", record);
	return i == n && !changed ? 0 : -1;
}
