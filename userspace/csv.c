// SPDX-License-Identifier: GPL-2.0
/* csv.c - one JSON object of memdiagctl's printer as a CSV row (json-c). */

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
		snprintf(buf, size, "%s", json_object_to_json_string_ext(v,
			 JSON_C_TO_STRING_PLAIN));
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
