// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_kcov.c - nlfuzz's coverage-measured and coverage-guided modes.
 *
 * The kernel needs CONFIG_KCOV and memdiag.ko built with KCOV_INSTRUMENT=y
 * (make fuzz-guided): each basic block of the module then calls
 * __sanitizer_cov_trace_pc, which appends its return address to the
 * calling task's KCOV buffer. A generic netlink request is handled in the
 * sender's sendmsg (genl_rcv under the family's lock, in the sending task)
 * and a dump's later parts in its recvmsg, so the one thread that sends
 * and reads collects every PC memdiag runs for its messages; PCs of other
 * instrumented code (memdiag_sim.ko) fall outside memdiag's text [lo, hi)
 * and are dropped.
 *
 * Coverage is counted two ways: PCs (distinct addresses in memdiag's text)
 * and edges, a pair of PCs one after the other in one message's trace
 * (the first PC of a message pairs with "start"), kept exactly, not
 * hashed, after each message (cov_end), whichever mode made it. The
 * random mode sends random_step's messages; the guided one's steps, its
 * bandit and its corpus of sequences are nlfuzz_guided.c's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/kcov.h>

#include "nlfuzz.h"

#define KCOV_WORDS	(1UL << 18)	/* PCs one message may record */
#define SET_BITS	20		/* room for 2^20 PCs or edges */

struct kcov {
	int fd;
	uint64_t *area;			/* area[0]: PCs recorded, then the PCs */
	uint64_t lo, hi;
	unsigned long overflows;	/* traces that filled the buffer */
	unsigned long outside;		/* PCs of other instrumented code */
	uint64_t min_pc, max_pc;
};

/* An exact set of 64-bit keys (0 is never a key): open addressing. */
struct set {
	uint64_t *slot;
	unsigned long n;
};

static bool set_add(struct set *s, uint64_t key)
{
	uint64_t mask = (1UL << SET_BITS) - 1;
	uint64_t i = (key * 0x9e3779b97f4a7c15ULL) >> (64 - SET_BITS);

	for (;; i = (i + 1) & mask) {
		if (s->slot[i] == key)
			return false;
		if (!s->slot[i])
			break;
	}
	if (s->n >= mask / 2)		/* full enough: count no more */
		return false;
	s->slot[i] = key;
	s->n++;
	return true;
}

static int kcov_open(struct kcov *k)
{
	k->fd = open("/sys/kernel/debug/kcov", O_RDWR);
	if (k->fd < 0)
		return -1;
	if (ioctl(k->fd, KCOV_INIT_TRACE, KCOV_WORDS))
		return -1;
	k->area = mmap(NULL, KCOV_WORDS * sizeof(uint64_t),
		       PROT_READ | PROT_WRITE, MAP_SHARED, k->fd, 0);
	if (k->area == MAP_FAILED)
		return -1;
	/* this thread's syscalls from now on; reset per message */
	if (ioctl(k->fd, KCOV_ENABLE, KCOV_TRACE_PC))
		return -1;
	k->min_pc = ~0ULL;
	return 0;
}

static void kcov_reset(struct kcov *k)
{
	__atomic_store_n(&k->area[0], 0, __ATOMIC_RELAXED);
}

/* Add the trace since kcov_reset to @pcs and @edges; new edges reached. */
static unsigned long kcov_collect(struct kcov *k, struct set *pcs,
				  struct set *edges)
{
	uint64_t n = __atomic_load_n(&k->area[0], __ATOMIC_RELAXED);
	uint64_t prev = 0, i, pc;
	unsigned long fresh = 0;

	if (n >= KCOV_WORDS - 1) {
		k->overflows++;
		n = KCOV_WORDS - 1;
	}
	for (i = 1; i <= n; i++) {
		pc = k->area[i];
		if (pc < k->lo || pc >= k->hi) {
			k->outside++;
			continue;
		}
		k->min_pc = pc < k->min_pc ? pc : k->min_pc;
		k->max_pc = pc > k->max_pc ? pc : k->max_pc;
		pc -= k->lo;			/* below 2^32: a module's text */
		set_add(pcs, pc | 1ULL << 63);
		fresh += set_add(edges, prev << 32 | pc | 1ULL << 63);
		prev = pc + 1;
	}
	return fresh;
}

/* 1, 2, 5, 10, 20, 50... */
static bool checkpoint(unsigned long i)
{
	while (i >= 10 && i % 10 == 0)
		i /= 10;
	return i == 1 || i == 2 || i == 5;
}

struct measure {
	struct kcov k;
	struct set pcs, edges;
};

void cov_begin(struct cov *c)
{
	kcov_reset(&((struct measure *)c->priv)->k);
}

/* The message since cov_begin counted: the edges it reached first. */
unsigned long cov_end(struct cov *c)
{
	struct measure *m = c->priv;
	unsigned long fresh = kcov_collect(&m->k, &m->pcs, &m->edges);

	c->msgs++;
	if (checkpoint(c->msgs) || c->msgs == c->count) {
		printf("# kcov: %s %lu messages: %lu edges, %lu pcs",
		       c->mode, c->msgs, m->edges.n, m->pcs.n);
		if (c->guided)
			printf(", corpus %zu sequences of %zu messages, %lu fresh",
			       c->corpus_seqs, c->corpus_msgs, c->fresh_msgs);
		printf("\n");
	}
	return fresh;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The set's keys, sorted, printed "# kcov-NAME: KEY KEY ..." eight a line
 * (offsets into memdiag's text, an edge as FROM:TO with FROM 0 for a
 * message's start and otherwise one past the PC), for the host to diff
 * and map to source lines (addr2line on the .ko).
 */
static void set_print(const struct set *s, const char *mode, const char *name)
{
	uint64_t *keys = malloc((s->n ?: 1) * sizeof(*keys)), k;
	unsigned long i, n = 0;

	if (!keys)
		return;
	for (i = 0; i < 1UL << SET_BITS; i++)
		if (s->slot[i])
			keys[n++] = s->slot[i] & ~(1ULL << 63);
	qsort(keys, n, sizeof(*keys), cmp_u64);
	for (i = 0; i < n; i++) {
		k = keys[i];
		if (i % 8 == 0)
			printf("%s# kcov-%s: %s", i ? "\n" : "", name, mode);
		if (k >> 32)
			printf(" %#llx:%#llx", (unsigned long long)(k >> 32) - 1,
			       (unsigned long long)(k & 0xffffffff));
		else if (!strcmp(name, "edges"))
			printf(" start:%#llx", (unsigned long long)k);
		else
			printf(" %#llx", (unsigned long long)k);
	}
	printf(n ? "\n" : "");
	free(keys);
}

void kcov_run(struct fuzz *f, unsigned long count, const struct kcov_opts *o)
{
	static struct measure m;
	static char buf[MSG_MAX];
	struct cov c = {
		.mode = o->guided ? "guided" : "random", .count = count,
		.guided = o->guided, .priv = &m,
	};
	struct guided *gd = NULL;
	struct corpus_msg *flat;
	size_t len, n;
	int err = 0;

	m.k.lo = o->lo;
	m.k.hi = o->hi;
	m.pcs.slot = calloc(1UL << SET_BITS, sizeof(uint64_t));
	m.edges.slot = calloc(1UL << SET_BITS, sizeof(uint64_t));
	if (!m.pcs.slot || !m.edges.slot || kcov_open(&m.k)) {
		fail(f, "KCOV: cannot set up /sys/kernel/debug/kcov (CONFIG_KCOV, debugfs mounted?)");
		return;
	}
	/* the first socket as the random mode's, then the guided streams */
	if (open_sock(f))
		return;
	if (o->guided) {
		gd = guided_new(f->m.family_id);
		if (!gd) {
			fail(f, "the guided mode cannot start (no memory, or no policy: above)");
			return;
		}
	}
	printf("# kcov: %s, memdiag text [%#llx, %#llx)\n", c.mode,
	       (unsigned long long)o->lo, (unsigned long long)o->hi);
	while (c.msgs < count && f->failures < 10 && !err) {
		if (gd) {
			err = guided_step(f, &c, gd, buf);
			continue;
		}
		cov_begin(&c);
		err = random_step(f, buf, &len);
		cov_end(&c);
	}
	printf("# kcov: pcs %#llx to %#llx; %lu pcs outside memdiag's text; %lu traces overflowed\n",
	       (unsigned long long)m.k.min_pc, (unsigned long long)m.k.max_pc,
	       m.k.outside, m.k.overflows);
	if (gd)
		guided_report(gd);
	if (o->dump) {
		set_print(&m.pcs, c.mode, "pcs");
		set_print(&m.edges, c.mode, "edges");
	}
	fflush(stdout);
	if (!m.edges.n)
		fail(f, "KCOV recorded no PC in memdiag's text: is it built with KCOV_INSTRUMENT=y?");
	if (gd && o->corpus_out) {
		n = guided_corpus(gd, &flat);
		if (corpus_write(o->corpus_out, flat, n))
			fail(f, "cannot write the corpus to %s", o->corpus_out);
	}
	mdnl_close(&f->m);
}
