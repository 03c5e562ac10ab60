/* SPDX-License-Identifier: GPL-2.0 */
/* print.h - one writer for memdiagctl's text and JSON output. */

#ifndef MEMDIAGCTL_PRINT_H
#define MEMDIAGCTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Every value is printed by one call that knows both renderings, so the
 * text and the JSON output cannot drift apart: in text mode the value goes
 * through the printf format @fmt (which has exactly one conversion, matching
 * the function's value type) and @key is unused; in JSON mode it becomes
 * "key":value (or just value inside an array, where @key must be NULL) and
 * @fmt is unused. The type selects the modes a call prints in.
 */
enum print_type {
	PRINT_TEXT = 1 << 0,
	PRINT_JSON = 1 << 1,
	PRINT_ANY = PRINT_TEXT | PRINT_JSON,
};

#define PRINT_MAX_DEPTH 16

struct print_level {
	bool array;
	unsigned int count;	/* members written so far */
};

struct printer {
	FILE *f;
	bool json;
	bool pretty;		/* indent the JSON */
	int error;		/* EINVAL (misuse) or ENOMEM: print_end() fails */
	bool top_done;		/* the one JSON document has been started */
	unsigned int depth;
	struct print_level level[PRINT_MAX_DEPTH];
};

void print_init(struct printer *p, FILE *f, bool json, bool pretty);

/*
 * Finish the document and flush. Returns 0, or -1 with errno set when the
 * output could not be written (or EINVAL when the calls were unbalanced).
 */
int print_end(struct printer *p);

/* Containers exist only in JSON; in text mode these do nothing. */
void print_open_object(struct printer *p, const char *key);
void print_close_object(struct printer *p);
void print_open_array(struct printer *p, const char *key);
void print_close_array(struct printer *p);

void print_uint(struct printer *p, enum print_type t, const char *key,
		const char *fmt, unsigned int v);
void print_u64(struct printer *p, enum print_type t, const char *key,
	       const char *fmt, uint64_t v);
/* Text output replaces control characters so the kernel can't drive the tty. */
void print_string(struct printer *p, enum print_type t, const char *key,
		  const char *fmt, const char *s);
/*
 * A finite double: JSON rounds it to 4 decimal places and drops trailing
 * zeros (12.5, 3, 0.0625); NaN and infinities become null there. Text
 * goes through @fmt as usual.
 */
void print_double(struct printer *p, enum print_type t, const char *key,
		  const char *fmt, double v);
/* JSON true/false; text "yes"/"no" through a %s in @fmt. */
void print_bool(struct printer *p, enum print_type t, const char *key,
		const char *fmt, bool v);

/* Text-only decoration (labels, padding, newlines). */
void print_textf(struct printer *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* MEMDIAGCTL_PRINT_H */
