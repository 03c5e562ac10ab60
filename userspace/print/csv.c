// SPDX-License-Identifier: GPL-2.0
/* csv.c - one JSON object of memdiagctl's printer as a CSV row (json-c). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "csv.h"

/* A field, quoted when it holds a comma, a quote or a line break. */
static void field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * A scalar as its JSON text (numbers exactly as the printer wrote them,
 * strings unquoted); an array's scalars joined with ';'. -1 for an object.
 */
static int value(char *buf, size_t size, struct json_object *v)
{
	size_t i, len = 0;

	buf[0] = '\0';
	switch (json_object_get_type(v)) {
	case json_type_null:
		return 0;
	case json_type_object:
		return -1;
	case json_type_string:
		snprintf(buf, size, "%s", json_object_get_string(v));
		return 0;
	case json_type_array:
		for (i = 0; i < json_object_array_length(v) && len < size; i++) {
			struct json_object *m = json_object_array_get_idx(v, i);

			if (json_object_is_type(m, json_type_object) ||
			    json_object_is_type(m, json_type_array))
				return -1;
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
						i ? ";" : "",
						m ? json_object_get_string(m) : "");
		}
		return 0;
	default:
		snprintf(buf, size, "%s",
			 json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
		return 0;
	}
}

/* Each key (@keys) or each value of @o, comma-separated, one line. */
static int line(FILE *f, struct json_object *o, bool keys)
{
	struct json_object_iterator it = json_object_iter_begin(o);
	struct json_object_iterator end = json_object_iter_end(o);
	char buf[1024];
	bool first = true;

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		if (value(buf, sizeof(buf), json_object_iter_peek_value(&it)) < 0)
			return -1;
		if (!f)
			continue;	/* a dry run: only check */
		if (!first)
			fputc(',', f);
		field(f, keys ? json_object_iter_peek_name(&it) : buf);
		first = false;
	}
	if (f)
		fputc('\n', f);
	return 0;
}

int csv_row(FILE *f, const char *json, bool header)
{
	struct json_object *o = json_tokener_parse(json);
	int rc = -1;

	/* checked first, so that a bad object writes nothing */
	if (o && json_object_is_type(o, json_type_object) &&
	    line(NULL, o, false) == 0) {
		if (header)
			line(f, o, true);
		rc = line(f, o, false);
	}
	json_object_put(o);
	return rc;
}

/* Does array @a hold an object or an array (then it is flattened)? */
static bool nested(struct json_object *a)
{
	size_t i;

	for (i = 0; i < json_object_array_length(a); i++) {
		struct json_object *m = json_object_array_get_idx(a, i);

		if (json_object_is_type(m, json_type_object) ||
		    json_object_is_type(m, json_type_array))
			return true;
	}
	return false;
}

/*
 * @v at path @key into @row (path -> string) and @cols (path -> null,
 * insertion-ordered: json-c keeps the order keys were added in).
 */
static int flatten(struct json_object *row, struct json_object *cols,
		   const char *key, struct json_object *v, const char *skip,
		   struct json_object *shadowed)
{
	struct json_object *m;
	char buf[1024], path[512];
	size_t i;

	if (json_object_is_type(v, json_type_object) ||
	    (json_object_is_type(v, json_type_array) && nested(v))) {
		bool obj = json_object_is_type(v, json_type_object);
		size_t n = obj ? 0 : json_object_array_length(v);

		if (obj) {
			json_object_object_foreach(v, k, mv) {
				if (skip && !strcmp(k, skip))
					continue;
				snprintf(path, sizeof(path), "%s%s%s%s", key,
					 *key ? "." : "",
					 shadowed && json_object_object_get_ex(shadowed, k, NULL) ?
					 CSV_HEAD_PREFIX : "", k);
				if (flatten(row, cols, path, mv, NULL, NULL) < 0)
					return -1;
			}
			return 0;
		}
		for (i = 0; i < n; i++) {
			m = json_object_array_get_idx(v, i);
			snprintf(path, sizeof(path), "%s.%zu", key, i);
			if (flatten(row, cols, path, m, NULL, NULL) < 0)
				return -1;
		}
		return 0;
	}
	if (value(buf, sizeof(buf), v) < 0)
		return -1;
	json_object_object_add(row, key, json_object_new_string(buf));
	if (!json_object_object_get_ex(cols, key, NULL))
		json_object_object_add(cols, key, NULL);
	return 0;
}

/* The header, then each row's value of each column. */
static void table(FILE *f, struct json_object *cols, struct json_object *rows)
{
	struct json_object *r, *v;
	bool first = true;
	size_t i;

	json_object_object_foreach(cols, name, unused) {
		(void)unused;
		if (!first)
			fputc(',', f);
		field(f, name);
		first = false;
	}
	fputc('\n', f);
	for (i = 0; i < json_object_array_length(rows); i++) {
		r = json_object_array_get_idx(rows, i);
		first = true;
		json_object_object_foreach(cols, col, unused2) {
			(void)unused2;
			if (!first)
				fputc(',', f);
			if (json_object_object_get_ex(r, col, &v))
				field(f, json_object_get_string(v));
			first = false;
		}
		fputc('\n', f);
	}
}

/* The keys of the objects in array @arr (as an object of nulls). */
static struct json_object *row_keys(struct json_object *arr)
{
	struct json_object *keys = json_object_new_object();
	size_t i;

	for (i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *m = json_object_array_get_idx(arr, i);

		if (!json_object_is_type(m, json_type_object))
			continue;
		json_object_object_foreach(m, k, unused) {
			(void)unused;
			if (!json_object_object_get_ex(keys, k, NULL))
				json_object_object_add(keys, k, NULL);
		}
	}
	return keys;
}

int csv_table(FILE *f, const char *json, const char *array_key)
{
	struct json_object *doc = json_tokener_parse(json), *arr = NULL;
	struct json_object *cols = json_object_new_object();
	struct json_object *rows = json_object_new_array();
	struct json_object *shadowed = NULL;
	int rc = -1;
	size_t i, n;

	if (!doc || !json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, array_key, &arr) ||
	    !json_object_is_type(arr, json_type_array))
		goto out;
	/* a document key a row has too is its own column: both values stay */
	shadowed = row_keys(arr);
	n = json_object_array_length(arr);
	for (i = 0; i < n || (!n && !i); i++) {
		struct json_object *row = json_object_new_object();

		json_object_array_add(rows, row);
		if (flatten(row, cols, "", doc, array_key, shadowed) < 0 ||
		    (n && flatten(row, cols, "",
				  json_object_array_get_idx(arr, i), NULL,
				  NULL) < 0))
			goto out;
	}
	if (!n)		/* no rows: the header the document alone gives */
		json_object_array_del_idx(rows, 0, 1);
	table(f, cols, rows);
	rc = 0;
out:
	json_object_put(shadowed);
	json_object_put(rows);
	json_object_put(cols);
	json_object_put(doc);
	return rc;
}

int csv_flat(const char *json, char **head, char **row)
{
	struct json_object *doc = json_tokener_parse(json);
	struct json_object *cols = json_object_new_object();
	struct json_object *rows = json_object_new_array();
	struct json_object *r = json_object_new_object();
	char *buf = NULL, *nl;
	size_t len = 0;
	FILE *f = NULL;
	int rc = -1;

	*head = *row = NULL;
	json_object_array_add(rows, r);
	if (!doc || !json_object_is_type(doc, json_type_object) ||
	    flatten(r, cols, "", doc, NULL, NULL) < 0)
		goto out;
	f = open_memstream(&buf, &len);
	if (!f)
		goto out;
	table(f, cols, rows);
	if (fclose(f) == EOF)
		goto out;
	/* "header\nrow\n": two strings */
	nl = strchr(buf, '\n');
	if (!nl)
		goto out;
	*nl = '\0';
	*head = strdup(buf);
	*row = strndup(nl + 1, strlen(nl + 1) - 1);
	if (*head && *row)
		rc = 0;
out:
	if (rc) {
		free(*head);
		free(*row);
		*head = *row = NULL;
	}
	free(buf);
	json_object_put(rows);
	json_object_put(cols);
	json_object_put(doc);
	return rc;
}
