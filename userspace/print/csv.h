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

/* The column prefix of a document key that the rows have too */
#define CSV_HEAD_PREFIX "head."

/*
 * Write the flat JSON object @json as one CSV row to @f, after a header
 * row of its keys when @header. null is an empty field, true/false are
 * written as such, an array's members are joined with ';'; a nested
 * object is an error. Returns 0, or -1 (nothing written) when @json is
 * not such an object.
 */
int csv_row(FILE *f, const char *json, bool header);

/*
 * Write the JSON document @json (an object) as a table: one row per
 * member of its array @array_key, one header row first. A row's columns
 * are the document's other members and then the member's own; a document
 * key that a member has too is CSV_HEAD_PREFIX and the key ("head.reps",
 * the option, beside the row's "reps", the repetitions taken), so that no
 * value hides another. Nested objects and arrays of objects are
 * flattened into dotted paths ("meta.hostname", "counters.sockets.0.valid");
 * the header is the union of every row's columns, in the order they first
 * appear, and a row lacking one has an empty field. Returns 0, or -1
 * (nothing written) when @json is no such document.
 */
int csv_table(FILE *f, const char *json, const char *array_key);

/*
 * The JSON object @json flattened as csv_table() flattens a row, into a
 * header line and one row (no newline at their end, both malloc()ed):
 * columns for a command that writes its own table. 0, or -1 (nothing
 * allocated) when @json is no object or memory runs out.
 */
int csv_flat(const char *json, char **head, char **row);

#endif /* MEMDIAGCTL_CSV_H */
