/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv.h - CSV rows made from the JSON object of the same print calls, so
 * that --csv cannot drift from -j: the keys are the header, the values
 * the row (RFC 4180 quoting).
 */

#ifndef MEMDIAGCTL_CSV_H
#define MEMDIAGCTL_CSV_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Write the flat JSON object @json as one CSV row to @f, after a header
 * row of its keys when @header. null is an empty field, true/false are
 * written as such, an array's members are joined with ';'; a nested
 * object is an error. Returns 0, or -1 (nothing written) when @json is
 * not such an object.
 */
int csv_row(FILE *f, const char *json, bool header);

#endif /* MEMDIAGCTL_CSV_H */
