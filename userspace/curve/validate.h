/* SPDX-License-Identifier: GPL-2.0 */
/* validate.h - the checks of memdiagctl validate (validate_judge.c). */

#ifndef MEMDIAGCTL_VALIDATE_H
#define MEMDIAGCTL_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

/* One counter against the computed volume; a row of the table. */
struct vcheck {
	const char *prefetch;	/* "on", "off", "unchanged" (cmd_validate.c) */
	const char *op;
	bool nt;
	const char *counter;	/* imc_bytes, imc_read_bytes, offcore_read_bytes */
	double expected, measured, ratio, lo, hi;
	double interval_ns;	/* the op's counted time; NaN: unknown */
	/*
	 * not judged: the machine cannot count it (no read/write split on
	 * AMD's Data Fabric, no offcore event), or part of the measured value
	 * is not a measurement of the op; @why says which
	 */
	bool skipped;
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

/* Mark @c not judged, for the reason @why (neither passed nor failed). */
void validate_skip(struct vcheck *c, const char *why);

/*
 * Whether the @nr rows pass: none failed and at least one imc_bytes row
 * was judged (else @why says that nothing checked the DRAM counters).
 */
bool validate_passed(const struct vcheck *c, size_t nr, char *why,
		     size_t size);

#endif /* MEMDIAGCTL_VALIDATE_H */
