// SPDX-License-Identifier: GPL-2.0
/* parse.c - numbers, durations and cycle counts from the command line. */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Digits, then optionally '.' and more digits. Returns the length of the
 * number at @s (0 when there is none) and its integer part, saturated at
 * @cap so that a long number cannot wrap; @frac9 gets the first nine
 * fraction digits as billionths, @frac_rest whether later ones are not 0.
 */
static size_t scan_decimal(const char *s, uint64_t cap, uint64_t *ip,
			   uint32_t *frac9, bool *frac_rest)
{
	size_t i = 0, n;
	uint32_t scale = 100000000;

	*ip = 0;
	*frac9 = 0;
	*frac_rest = false;
	while (is_digit(s[i])) {
		uint64_t d = (uint64_t)(s[i] - '0');

		*ip = *ip > (cap - d) / 10 ? cap : *ip * 10 + d;
		i++;
	}
	if (!i)
		return 0;
	if (s[i] != '.')
		return i;
	for (n = i + 1; is_digit(s[n]); n++) {
		if (scale) {
			*frac9 += (uint32_t)(s[n] - '0') * scale;
			scale /= 10;
		} else if (s[n] != '0') {
			*frac_rest = true;
		}
	}
	return n == i + 1 ? 0 : n;	/* "1." is no number */
}

int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *v,
	       char *err, size_t size)
{
	bool over = false;
	uint64_t n = 0;
	size_t i;

	for (i = 0; is_digit(s[i]); i++) {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (n > (UINT64_MAX - d) / 10)
			over = true;
		else
			n = n * 10 + d;
	}
	if (!i || s[i]) {
		snprintf(err, size, "'%s' is not a number", s);
		return -1;
	}
	if (over || n < min || n > max) {
		if (max == UINT64_MAX)
			snprintf(err, size, "'%s' is out of range: it must be at %s %llu",
				 s, over ? "most" : "least",
				 (unsigned long long)(over ? max : min));
		else
			snprintf(err, size, "'%s' is out of range: it must be from %llu to %llu",
				 s, (unsigned long long)min,
				 (unsigned long long)max);
		return -1;
	}
	*v = n;
	return 0;
}

int parse_interval_ms(const char *s, uint32_t *ms, char *err, size_t size)
{
	/* 10^7 s or ms is out of range either way: no need to count higher */
	const uint64_t cap = 10000000;
	uint64_t ip, ns;
	uint32_t frac9;
	bool rest;
	size_t n = scan_decimal(s, cap, &ip, &frac9, &rest);
	const char *unit = s + n;

	if (!n || (*unit && strcmp(unit, "s") && strcmp(unit, "ms"))) {
		snprintf(err, size,
			 "'%s' is not a duration: use seconds (2, 1.5) or a number with s or ms (1.5s, 500ms)",
			 s);
		return -1;
	}
	if (!strcmp(unit, "ms")) {
		ns = ip * 1000000 + frac9 / 1000;
		rest = rest || frac9 % 1000;
	} else {
		ns = ip * 1000000000 + frac9;
	}
	/* a sub-nanosecond rest makes "1ms + a bit" more than 1ms */
	if (ip >= cap || ns < (uint64_t)INTERVAL_MS_MIN * 1000000 ||
	    ns > (uint64_t)INTERVAL_MS_MAX * 1000000 ||
	    (ns == (uint64_t)INTERVAL_MS_MAX * 1000000 && rest)) {
		snprintf(err, size,
			 "'%s' is out of range: the interval must be from 1ms to 60s",
			 s);
		return -1;
	}
	if (ns % 1000000 || rest) {
		snprintf(err, size, "'%s' is not a whole number of milliseconds",
			 s);
		return -1;
	}
	*ms = (uint32_t)(ns / 1000000);
	return 0;
}

int parse_seconds(const char *s, double max, double *sec, char *err,
		  size_t size)
{
	uint64_t ip;
	uint32_t frac9;
	bool rest;
	size_t n = scan_decimal(s, 10000000, &ip, &frac9, &rest);
	const char *unit = s + n;
	double v;

	if (!n || (*unit && strcmp(unit, "s") && strcmp(unit, "ms"))) {
		snprintf(err, size,
			 "'%s' is not a duration: use seconds (2, 0.5) or a number with s or ms (0.5s, 300ms)",
			 s);
		return -1;
	}
	v = (double)ip + (double)frac9 * 1e-9;
	if (!strcmp(unit, "ms"))
		v /= 1000;
	if (v > max || (v == max && rest)) {
		snprintf(err, size, "'%s' is out of range: at most %g s", s,
			 max);
		return -1;
	}
	*sec = v;
	return 0;
}

int parse_cycles(const char *s, double *v, char *err, size_t size)
{
	uint64_t ip;
	uint32_t frac9;
	bool rest;
	size_t n = scan_decimal(s, UINT64_MAX, &ip, &frac9, &rest);

	if (!n || s[n]) {
		snprintf(err, size, "'%s' is not a number of cycles", s);
		return -1;
	}
	/* the C locale's strtod() reads exactly what scan_decimal() accepted */
	*v = strtod(s, NULL);
	if (!(*v > 0) || !isfinite(*v)) {
		snprintf(err, size, "'%s' is out of range: it must be more than 0",
			 s);
		return -1;
	}
	return 0;
}

/* One number of a channel list at *@s, moved past it; -1 if none. */
static long scan_channel(const char **s)
{
	long v = 0;

	if (!is_digit(**s))
		return -1;
	while (is_digit(**s)) {
		v = v * 10 + (**s - '0');
		if (v > 1000)
			return -1;
		(*s)++;
	}
	return v;
}

int parse_channel_set(const char *s, unsigned int nr, uint32_t *mask,
		      char *err, size_t size)
{
	const char *p = s;
	long lo, hi, c;

	*mask = 0;
	do {
		lo = scan_channel(&p);
		hi = lo;
		if (lo >= 0 && *p == '-') {
			p++;
			hi = scan_channel(&p);
		}
		if (lo < 0 || hi < lo || (*p && *p != ',')) {
			snprintf(err, size,
				 "'%s' is not a channel list (such as 0-3 or 0,2,5)",
				 s);
			return -1;
		}
		if ((unsigned long)hi >= nr) {
			snprintf(err, size, "channel %ld: channels are 0 to %u",
				 hi, nr - 1);
			return -1;
		}
		for (c = lo; c <= hi; c++) {
			if (*mask & (1u << c)) {
				snprintf(err, size, "channel %ld is listed twice",
					 c);
				return -1;
			}
			*mask |= 1u << c;
		}
	} while (*p++ == ',');
	return 0;
}
