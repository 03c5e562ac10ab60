// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - the options of "memdiagctl run" that belong to some kernels
 * only: the rows each kernel lists (struct run_param) and the readers they
 * name. Whether a kernel takes an option is whether it has a row for it.
 */

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "run/run.h"

#define RUN_MAX_SIZE (1ull << 40)
#define RUN_MIN_SIZE 4096ull
#define RUN_MAX_GBPS 1e6	/* GB/s: more than any machine has */

int run_param_uint(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size)
{
	return parse_uint(arg, row->min, row->max, dst, err, size);
}

/* One item of a list row: a number in the row's range. */
static int list_item(const void *ctx, const char *s, uint64_t *v, char *err,
		     size_t size)
{
	const struct run_param *row = ctx;

	return parse_uint(s, row->min, row->max, v, err, size);
}

int run_param_list(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size)
{
	struct run_list *l = dst;
	char what[48];

	/* "delays": the messages name the items after the option */
	snprintf(what, sizeof(what), "%ss", row->opt);
	return run_parse_list(arg, what, RUN_MAX_LIST, list_item, row, l->v,
			      &l->n, err, size);
}

int run_param_flag(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size)
{
	(void)row, (void)arg, (void)err, (void)size;
	*(bool *)dst = true;
	return 0;
}

int run_param_string(const struct run_param *row, const char *arg,
		     void *dst, char *err, size_t size)
{
	(void)row, (void)err, (void)size;
	*(const char **)dst = arg;
	return 0;
}

int run_param_enum(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size)
{
	char names[128];
	unsigned int i;

	for (i = 0; i < row->nr_names; i++) {
		if (!strcmp(arg, row->names[i])) {
			*(unsigned int *)dst = i;
			return 0;
		}
	}
	run_name_list(names, sizeof(names), row->names, row->nr_names,
		      (1u << row->nr_names) - 1);
	snprintf(err, size, "'%s' is not a %s: use %s", arg, row->what, names);
	return -1;
}

/* GB/s: a decimal number above 0 ("25", "12.5"). */
int run_param_gbps(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size)
{
	size_t i = 0, digits = 0;
	double *v = dst;
	char *end;

	(void)row;
	while (arg[i] >= '0' && arg[i] <= '9')
		i++, digits++;
	if (arg[i] == '.')
		for (i++; arg[i] >= '0' && arg[i] <= '9'; i++)
			digits++;
	if (!digits || arg[i]) {
		snprintf(err, size, "'%s' is not a number of GB/s (like 25 or 12.5)",
			 arg);
		return -1;
	}
	/* what was checked above is what the C locale's strtod() reads */
	*v = strtod(arg, &end);
	if (!(*v > 0) || *v > RUN_MAX_GBPS) {
		snprintf(err, size, "'%s' is out of range: it must be more than 0 and at most %.0f",
			 arg, RUN_MAX_GBPS);
		return -1;
	}
	return 0;
}

/*
 * The size suffixes, all binary: likwid-bench and MLC users read 64MB as
 * 64 x 2^20, and a working set is laid out in pages and cache lines, so
 * K, KB, kB and KiB alike are 2^10 (and M 2^20, G 2^30).
 */
static uint64_t size_unit(const char *u)
{
	static const struct {
		char letter;
		uint64_t mul;
	} units[] = { { 'k', 1ull << 10 }, { 'm', 1ull << 20 }, { 'g', 1ull << 30 } };
	size_t i;

	if (!*u)
		return 1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if ((u[0] | 0x20) != units[i].letter)
			continue;
		if (!u[1] || !strcmp(u + 1, "B") || !strcmp(u + 1, "iB"))
			return units[i].mul;
	}
	return 0;
}

int run_parse_size(const void *ctx, const char *s, uint64_t *v, char *err,
		   size_t size)
{
	uint64_t n = 0, frac = 0, scale = 1, mul;
	size_t i, f = 0;

	(void)ctx;
	for (i = 0; s[i] >= '0' && s[i] <= '9'; i++) {
		if (n > RUN_MAX_SIZE)	/* out of range anyway; no wrap */
			continue;
		n = n * 10 + (uint64_t)(s[i] - '0');
	}
	/* a fraction of a unit (1.5G); nine digits are more than a byte */
	if (i && s[i] == '.') {
		for (i++; s[i] >= '0' && s[i] <= '9'; i++, f++) {
			if (f < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				scale *= 10;
			}
		}
	}
	mul = size_unit(s + i);
	if (!i || !mul || (s[i - 1] == '.')) {
		snprintf(err, size,
			 "'%s' is not a size: use bytes or a number with K, M or G (64K, 1.5G; KB, KiB, MB, MiB, GB, GiB alike: all binary)",
			 s);
		return -1;
	}
	if (n > RUN_MAX_SIZE / mul || n * mul < RUN_MIN_SIZE ||
	    n * mul + frac * mul / scale > RUN_MAX_SIZE ||
	    (n * mul + frac * mul / scale) < RUN_MIN_SIZE) {
		snprintf(err, size, "'%s' is out of range: it must be from 4K to 1024G",
			 s);
		return -1;
	}
	if (frac * mul % scale || f > 9) {
		snprintf(err, size, "'%s' is not a whole number of bytes", s);
		return -1;
	}
	*v = n * mul + frac * mul / scale;
	return 0;
}

int run_parse_list(const char *s, const char *what, size_t max,
		   run_item_fn one, const void *ctx, uint64_t *v, size_t *n,
		   char *err, size_t size)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int rc = 0;

	if (!copy) {
		snprintf(err, size, "out of memory");
		return -1;
	}
	*n = 0;
	if (!*s || s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,")) {
		snprintf(err, size, "'%s' is not a list of %s", s, what);
		rc = -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == max) {
			snprintf(err, size, "more than %zu %s", max, what);
			rc = -1;
		} else {
			rc = one(ctx, tok, &v[(*n)++], err, size);
		}
	}
	free(copy);
	return rc;
}

static const struct run_param *find_row(const struct run_kernel *k,
					const char *opt)
{
	const struct run_param *row;

	for (row = k->params; row && row->opt; row++)
		if (!strcmp(row->opt, opt))
			return row;
	return NULL;
}

static bool has_opt(const struct run_kernel *k, const void *opt)
{
	return find_row(k, opt) != NULL;
}

/* A list row that takes more than one value. */
static bool takes_list(const struct run_kernel *k, const void *opt)
{
	const struct run_param *row = find_row(k, opt);

	return row && row->parse == run_param_list && row->max_items > 1;
}

void run_kernel_list(char *buf, size_t size,
		     bool (*has)(const struct run_kernel *k, const void *arg),
		     const void *arg)
{
	size_t k, n = 0, len = 0, nr = 0;

	for (k = 0; k < run_nr_kernels; k++)
		nr += !has || has(run_kernels[k], arg);
	buf[0] = 0;
	for (k = 0; k < run_nr_kernels && len < size; k++) {
		if (has && !has(run_kernels[k], arg))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					!n ? "" : n + 1 == nr ? " or " : ", ",
					run_kernels[k]->name);
		n++;
	}
}

/* @o given to kernel @k, which has no row for it: a usage error. */
static int not_for_kernel(const char *cmd, const struct run_kernel *k,
			  const struct run_opt *o)
{
	char names[256];
	bool many;

	run_kernel_list(names, sizeof(names), has_opt, o->name);
	many = strchr(names, ' ') != NULL;
	if (o->noun)
		return cli_usage(cmd, "option '--%s': kernel '%s' has no %s (only %s %s)",
				 o->name, k->name, o->noun, names,
				 many ? "have" : "has");
	return cli_usage(cmd, "option '--%s': kernel '%s' does not take it (only %s %s)",
			 o->name, k->name, names, many ? "do" : "does");
}

static int apply_row(const char *cmd, const struct run_kernel *k,
		     const struct run_param *row, const char *arg, void *opts)
{
	void *dst = (char *)opts + row->offset;
	char err[200], names[256];
	const struct run_list *l = dst;

	if (row->parse(row, arg, dst, err, sizeof(err)) < 0)
		return cli_usage(cmd, "option '--%s': %s", row->opt, err);
	if (row->parse != run_param_list || l->n <= row->max_items)
		return MDC_EXIT_OK;
	run_kernel_list(names, sizeof(names), takes_list, row->opt);
	return cli_usage(cmd, "option '--%s': kernel '%s' takes one %s (only %s %s a list)",
			 row->opt, k->name, row->opt, names,
			 strchr(names, ' ') ? "take" : "takes");
}

int run_apply_params(const char *cmd, const struct run_kernel *k,
		     const char *const *given, void *opts)
{
	const struct run_param *row;
	size_t i;
	int rc;

	if (k->opts_size)
		memcpy(opts, k->opts_default, k->opts_size);
	for (i = 0; i < run_nr_kopts; i++) {
		if (!given[i])
			continue;
		row = find_row(k, run_kopts[i].name);
		if (!row)
			return not_for_kernel(cmd, k, &run_kopts[i]);
		rc = apply_row(cmd, k, row, given[i], opts);
		if (rc != MDC_EXIT_OK)
			return rc;
	}
	return MDC_EXIT_OK;
}
