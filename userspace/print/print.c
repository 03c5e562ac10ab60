// SPDX-License-Identifier: GPL-2.0
/* print.c - render memdiagctl's output as text or as one JSON document. */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"

/*
 * The text formats are the callers' string literals, each with one
 * conversion of the type the called function takes; passing them through
 * these functions hides them from -Wformat-nonliteral, nothing more.
 */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void print_init(struct printer *p, FILE *f, bool json, bool pretty)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->json = json;
	p->pretty = pretty;
}

static bool want(const struct printer *p, enum print_type t)
{
	if (p->error)
		return false;
	return p->json ? (t & PRINT_JSON) : (t & PRINT_TEXT);
}

static bool utf8_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * Length of the well-formed UTF-8 sequence at @s, or 0. Overlong forms,
 * surrogates and code points above U+10FFFF are not well-formed. The NUL
 * terminator is no continuation byte, so this never reads past it.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return utf8_cont(s[1]) ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if (s[0] == 0xe0)
			lo = 0xa0;
		if (s[0] == 0xed)
			hi = 0x9f;
		return s[1] >= lo && s[1] <= hi && utf8_cont(s[2]) ? 3 : 0;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if (s[0] == 0xf0)
			lo = 0x90;
		if (s[0] == 0xf4)
			hi = 0x8f;
		return s[1] >= lo && s[1] <= hi && utf8_cont(s[2]) &&
		       utf8_cont(s[3]) ? 4 : 0;
	}
	return 0;
}

/* A JSON string literal; bytes that are not UTF-8 become U+FFFD. */
static void json_string(struct printer *p, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', p->f);
	while (*s) {
		switch (*s) {
		case '"':  fputs("\\\"", p->f); break;
		case '\\': fputs("\\\\", p->f); break;
		case '\b': fputs("\\b", p->f); break;
		case '\f': fputs("\\f", p->f); break;
		case '\n': fputs("\\n", p->f); break;
		case '\r': fputs("\\r", p->f); break;
		case '\t': fputs("\\t", p->f); break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(p->f, "\\u%04x", *s);
			} else if (*s < 0x80) {
				fputc(*s, p->f);
			} else {
				n = utf8_len(s);
				if (!n) {
					fputs("\\ufffd", p->f);
					break;
				}
				fwrite(s, 1, n, p->f);
				s += n;
				continue;
			}
		}
		s++;
	}
	fputc('"', p->f);
}

static void json_newline(struct printer *p, unsigned int depth)
{
	if (!p->pretty)
		return;
	fputc('\n', p->f);
	while (depth--)
		fputs("  ", p->f);
}

/* Separator, indentation and key that must precede a value. */
static bool json_begin(struct printer *p, const char *key)
{
	struct print_level *l;

	if (p->depth == 0) {
		if (p->top_done || key) {
			p->error = EINVAL;	/* one document, and no key */
			return false;
		}
		p->top_done = true;
		return true;
	}
	l = &p->level[p->depth - 1];
	if (l->array == (key != NULL)) {
		p->error = EINVAL;	/* objects need keys, arrays don't */
		return false;
	}
	if (l->count++)
		fputc(',', p->f);
	json_newline(p, p->depth);
	if (key) {
		json_string(p, key);
		fputs(p->pretty ? ": " : ":", p->f);
	}
	return true;
}

static void json_open(struct printer *p, const char *key, bool array)
{
	if (!want(p, PRINT_JSON))
		return;
	if (p->depth == PRINT_MAX_DEPTH) {
		p->error = EINVAL;
		return;
	}
	if (!json_begin(p, key))
		return;
	fputc(array ? '[' : '{', p->f);
	p->level[p->depth].array = array;
	p->level[p->depth].count = 0;
	p->depth++;
}

static void json_close(struct printer *p, bool array)
{
	struct print_level *l;

	if (!want(p, PRINT_JSON))
		return;
	if (p->depth == 0 || p->level[p->depth - 1].array != array) {
		p->error = EINVAL;
		return;
	}
	l = &p->level[p->depth - 1];
	if (l->count)
		json_newline(p, p->depth - 1);
	fputc(array ? ']' : '}', p->f);
	p->depth--;
}

void print_open_object(struct printer *p, const char *key)
{
	json_open(p, key, false);
}

void print_close_object(struct printer *p)
{
	json_close(p, false);
}

void print_open_array(struct printer *p, const char *key)
{
	json_open(p, key, true);
}

void print_close_array(struct printer *p)
{
	json_close(p, true);
}

void print_uint(struct printer *p, enum print_type t, const char *key,
		const char *fmt, unsigned int v)
{
	if (!want(p, t))
		return;
	if (!p->json)
		fprintf(p->f, fmt, v);
	else if (json_begin(p, key))
		fprintf(p->f, "%u", v);
}

void print_u64(struct printer *p, enum print_type t, const char *key,
	       const char *fmt, uint64_t v)
{
	if (!want(p, t))
		return;
	if (!p->json)
		fprintf(p->f, fmt, v);
	else if (json_begin(p, key))
		fprintf(p->f, "%" PRIu64, v);
}

/*
 * "%.4f" without the trailing zeros, and never "-0"; magnitudes that would
 * need more than 15 integer digits in exponent form.
 */
static void json_double(FILE *f, double v)
{
	char buf[64];
	size_t len;

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	if (fabs(v) >= 1e15) {
		fprintf(f, "%.17g", v);
		return;
	}
	snprintf(buf, sizeof(buf), "%.4f", v);
	len = strlen(buf);
	while (len && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len && buf[len - 1] == '.')
		buf[--len] = '\0';
	fputs(strcmp(buf, "-0") ? buf : "0", f);
}

void print_double(struct printer *p, enum print_type t, const char *key,
		  const char *fmt, double v)
{
	if (!want(p, t))
		return;
	if (!p->json)
		fprintf(p->f, fmt, v);
	else if (json_begin(p, key))
		json_double(p->f, v);
}

static bool is_ctrl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static void text_string(struct printer *p, const char *fmt, const char *s)
{
	char *clean = NULL;
	const char *q;

	for (q = s; *q && !is_ctrl(*q); q++)
		;
	if (*q) {
		char *c;

		clean = strdup(s);
		if (!clean) {
			p->error = ENOMEM;
			return;
		}
		for (c = clean; *c; c++)
			if (is_ctrl(*c))
				*c = '?';
	}
	fprintf(p->f, fmt, clean ? clean : s);
	free(clean);
}

void print_string(struct printer *p, enum print_type t, const char *key,
		  const char *fmt, const char *s)
{
	if (!want(p, t))
		return;
	if (!p->json) {
		text_string(p, fmt, s ? s : "-");
	} else if (json_begin(p, key)) {
		if (s)
			json_string(p, s);
		else
			fputs("null", p->f);
	}
}

void print_bool(struct printer *p, enum print_type t, const char *key,
		const char *fmt, bool v)
{
	if (!want(p, t))
		return;
	if (!p->json)
		fprintf(p->f, fmt, v ? "yes" : "no");
	else if (json_begin(p, key))
		fputs(v ? "true" : "false", p->f);
}

void print_textf(struct printer *p, const char *fmt, ...)
{
	va_list ap;

	if (!want(p, PRINT_TEXT))
		return;
	va_start(ap, fmt);
	vfprintf(p->f, fmt, ap);
	va_end(ap);
}

int print_end(struct printer *p)
{
	if (p->json && !p->error) {
		if (p->depth)
			p->error = EINVAL;
		else if (p->top_done)
			fputc('\n', p->f);
	}
	errno = 0;
	if (fflush(p->f) == EOF || ferror(p->f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	if (p->error) {
		errno = p->error;
		return -1;
	}
	return 0;
}
