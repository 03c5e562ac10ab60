/* SPDX-License-Identifier: GPL-2.0 */
/* verdict_live.h - the verdict as watch and snapshot show it. */

#ifndef MEMDIAGCTL_VERDICT_LIVE_H
#define MEMDIAGCTL_VERDICT_LIVE_H

#include <limits.h>

#include "curve.h"
#include "metrics.h"
#include "print.h"

/* The curve file a command judges its samples by. */
struct verdict_src {
	struct curve curve;
	bool usable;		/* read, checked, and this machine's */
	bool unreadable;	/* the file could not be read (not: stale) */
	char reason[CURVE_WHY_SIZE];	/* why not, when !usable */
	char path[PATH_MAX];	/* the file read (or tried last) */
};

/*
 * Read @path (NULL: the default places, Documentation/curves.rst) and
 * compare its fingerprint with this machine's. Never fails: an unusable
 * file leaves !usable and the reason every verdict will carry.
 */
void verdict_src_open(struct verdict_src *vs, const char *path);

void verdict_src_close(struct verdict_src *vs);

/* Per-channel bytes of the interval (read + write), when known. */
struct verdict_channels {
	const uint64_t *bytes;
	const uint32_t *id;
	size_t nr;
};

/*
 * @m's per-channel bytes (read + write) as verdict_live() takes them, in
 * @bytes and @ids (SNAP_MAX_CHANNELS each).
 */
void verdict_channels_of(const struct interval *m, uint64_t *bytes,
			 uint32_t *ids, struct verdict_channels *ch);

/*
 * The verdict of interval @m, whose later snapshot is @s (for the
 * prefetcher state; @nr_pf: the prefetchers the module knows, 0 when
 * unknown); @ch may be NULL.
 */
void verdict_live(const struct verdict_src *vs, const struct interval *m,
		  const struct snap *s, size_t nr_pf,
		  const struct verdict_channels *ch, struct verdict *v);

/* A double through @fmt, or null (JSON) and '-' through @nullfmt (text). */
void verdict_num(struct printer *p, const char *key, const char *fmt,
		 const char *nullfmt, double v);

/*
 * Text: columns util%, exp_ns, stress and verdict (label, then any flag);
 * JSON: "verdict" (an object, or null) and "verdict_reason" (null, or
 * why there is no verdict). @src is the curve's bandwidth source. @flat
 * (for CSV): the verdict's keys prefixed with "verdict_" in the row
 * itself, every one of them null when there is no verdict, so that every
 * row has the same columns.
 */
#define VERDICT_HEADER "   util%  exp_ns  stress  verdict"
void verdict_print(struct printer *p, const struct verdict *v,
		   enum curve_source src, bool flat);

#endif /* MEMDIAGCTL_VERDICT_LIVE_H */
