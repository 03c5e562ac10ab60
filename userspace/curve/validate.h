/* SPDX-License-Identifier: GPL-2.0 */
/* validate.h - the checks of memdiagctl validate (validate_judge.c). */

#ifndef MEMDIAGCTL_VALIDATE_H
#define MEMDIAGCTL_VALIDATE_H

#include <stdbool.h>

#include <json-c/json.h>

/* One counter against the computed volume; a row of the table. */
struct vcheck {
	const char *prefetch;	/* "on", "off", "unchanged" (cmd_validate.c) */
	const char *op;
	bool nt;
	const char *counter;	/* imc_bytes, imc_read_bytes, offcore_read_bytes */
	double expected, measured, ratio, lo, hi;
	bool pass;
	char why[256];
};

/* imc_bytes, imc_read_bytes, offcore_read_bytes */
#define VALIDATE_NR_RULES 3

/*
 * The VALIDATE_NR_RULES rows of op @op ("copy", "triad") of @doc, the
 * output of "memdiagctl -j run stream" (NULL or malformed: rows that fail
 * with the reason), into @out.
 */
void validate_judge(json_object *doc, const char *op, bool nt,
		    struct vcheck *out);

#endif /* MEMDIAGCTL_VALIDATE_H */
