// SPDX-License-Identifier: GPL-2.0
/*
 * traffic.c - the read-delay traffic generator (read_delay.c) with writes
 * mixed in, for the calibration's curves per read/write mix. It walks the
 * same slices (kern_rd_slice_init()) the same way: record i of each of
 * the four quarters, then the delay; a mix with writes increments the
 * first 8 bytes of some of the four records it has just read, so those
 * lines go back to DRAM dirty. Reading before writing keeps the count
 * simple and true with write-allocate: every record is one line read,
 * every written record one line written back, whatever the store policy.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

const char *const kern_mix_name[KERN_NR_MIXES] = { "read", "2:1", "1:1" };
const unsigned int kern_mix_writes[KERN_NR_MIXES] = { 0, 2, 4 };

struct rw_record {
	uint64_t first;
	uint64_t pad[KERN_LINE / sizeof(uint64_t) - 1];
};

double kern_mix_read_share(enum kern_mix m)
{
	return 4.0 / (4.0 + kern_mix_writes[m]);
}

/* NOPs, as read-delay spends them: the throttle between iterations */
static inline void rw_delay(unsigned long delay)
{
	unsigned long d;

	for (d = 0; d < delay; d++)
		__asm__ __volatile__("nop");
}

uint64_t kern_rw_slice_run(const struct kern_rd_slice *s, size_t from,
			   size_t to, unsigned long delay, enum kern_mix mix,
			   struct kern_bytes *b)
{
	/* the quarters' starts: the slice is 4 quarters and 3 staggers */
	size_t nq = s->per_quarter;
	size_t stagger = (s->bytes / KERN_LINE - 4 * nq) / 3;
	volatile struct rw_record *q0 = s->a;
	volatile struct rw_record *q1 = q0 + nq + stagger;
	volatile struct rw_record *q2 = q1 + nq + stagger;
	volatile struct rw_record *q3 = q2 + nq + stagger;
	uint64_t sum = 0, v0, v1, v2, v3;
	bool all = mix == KERN_MIX_1R1W;	/* else 2:1: quarters 0 and 2 */
	size_t i;

	if (to <= from)
		return 0;
	switch (mix) {
	case KERN_MIX_READ:
		for (i = from; i < to; i++) {
			sum += q0[i].first + q1[i].first + q2[i].first +
			       q3[i].first;
			rw_delay(delay);
		}
		break;
	default:
		/*
		 * One loop for both mixes with writes: @all is the same for
		 * the whole call, so the branch costs nothing.
		 */
		for (i = from; i < to; i++) {
			v0 = q0[i].first;
			v1 = q1[i].first;
			v2 = q2[i].first;
			v3 = q3[i].first;
			q0[i].first = v0 + 1;
			q2[i].first = v2 + 1;
			if (all) {
				q1[i].first = v1 + 1;
				q3[i].first = v3 + 1;
			}
			sum += v0 + v1 + v2 + v3;
			rw_delay(delay);
		}
		break;
	}
	b->read += 4 * (uint64_t)(to - from) * KERN_LINE;
	b->write += kern_mix_writes[mix] * (uint64_t)(to - from) * KERN_LINE;
	return sum;
}

struct tr_ctx {
	const struct kern_cfg *cfg;
	size_t per;		/* bytes per thread */
	unsigned long delay;
	enum kern_mix mix;
	struct kern_rd_slice *s;
	struct kern_bytes *b;	/* per thread: one repetition's bytes */
	struct kern_pages *pg;	/* per thread: what its slice got */
};

static int tr_setup(void *vctx, unsigned int tid)
{
	struct tr_ctx *ctx = vctx;
	struct kern_rd_slice *s = &ctx->s[tid];

	if (kern_rd_slice_init(s, ctx->per, ctx->cfg->hugepages))
		return -1;
	/* unreadable: nothing resident, which the caller prints as unknown */
	(void)kern_pages(s->a, s->bytes, &ctx->pg[tid]);
	return 0;
}

static void tr_body(void *vctx, unsigned int tid, unsigned int phase)
{
	struct tr_ctx *ctx = vctx;
	struct kern_bytes b = { 0, 0 };

	(void)phase;
	kern_rw_slice_run(&ctx->s[tid], 0, ctx->s[tid].per_quarter, ctx->delay,
			  ctx->mix, &b);
	ctx->b[tid] = b;
}

static void tr_teardown(void *vctx, unsigned int tid)
{
	struct tr_ctx *ctx = vctx;

	kern_rd_slice_free(&ctx->s[tid]);
}

int traffic_run(const struct kern_cfg *cfg, size_t bytes, unsigned long delay,
		enum kern_mix mix, struct traffic_result *r, char *err,
		size_t errsz)
{
	static const struct kern_ops ops = {
		.setup = tr_setup, .body = tr_body,
		.teardown = tr_teardown, .nphases = 1, .whole = true,
	};
	struct tr_ctx ctx = { cfg, 0, delay, mix, NULL, NULL, NULL };
	struct kern_times tm = { 0 };
	unsigned int i;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	ctx.per = bytes / cfg->nthreads / (4 * KERN_LINE) * (4 * KERN_LINE);
	ctx.s = calloc(cfg->nthreads, sizeof(*ctx.s));
	ctx.b = calloc(cfg->nthreads, sizeof(*ctx.b));
	ctx.pg = calloc(cfg->nthreads, sizeof(*ctx.pg));
	if (!ctx.per) {
		snprintf(err, errsz, "the array is too small for %u threads",
			 cfg->nthreads);
	} else if (!ctx.s || !ctx.b || !ctx.pg) {
		kern_oom(err, errsz);
	} else {
		rc = kern_run_timed(cfg, &ops, &ctx, &tm, err, errsz);
	}
	if (!rc) {
		/* every repetition sweeps every slice once: the same bytes */
		for (i = 0; i < cfg->nthreads; i++) {
			r->bytes.read += ctx.b[i].read;
			r->bytes.write += ctx.b[i].write;
			kern_pages_add(&r->pages, &ctx.pg[i]);
		}
		r->timed = kern_timed_of(&tm.ph[0]);
		kern_map_stats(tm.ph[0].sec, r->timed.reps, 1,
			       (double)(r->bytes.read + r->bytes.write) / 1e9,
			       true, &r->gbps);
	}
	kern_times_free(&tm);
	free(ctx.s);
	free(ctx.b);
	free(ctx.pg);
	return rc;
}
