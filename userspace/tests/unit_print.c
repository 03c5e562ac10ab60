// SPDX-License-Identifier: GPL-2.0
/* unit_print.c - unit tests: the JSON and text writer (print.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f print" runs its tests alone */
FIXTURE(print) {};
FIXTURE_SETUP(print) {}
FIXTURE_TEARDOWN(print) {}

TEST_F(print, print_json)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "n", "n %u", 42);
	print_u64(&p, PRINT_ANY, "big", "%" PRIu64, UINT64_MAX);
	print_string(&p, PRINT_ANY, "s", "%s", "plain");
	print_bool(&p, PRINT_ANY, "t", "%s", true);
	print_bool(&p, PRINT_ANY, "f", "%s", false);
	print_uint(&p, PRINT_TEXT, "text-only", "%u", 7);
	print_textf(&p, "text only\n");
	print_open_array(&p, "a");
	print_uint(&p, PRINT_JSON, NULL, "%u", 1);
	print_open_object(&p, NULL);
	print_open_array(&p, "empty");
	print_close_array(&p);
	print_close_object(&p);
	print_open_object(&p, NULL);
	print_close_object(&p);
	print_close_array(&p);
	print_close_object(&p);
	ok(print_end(&p) == 0, "json: balanced document ends cleanly");
	buf_close(&b);
	is_str(b.data,
	       "{\"n\":42,\"big\":18446744073709551615,\"s\":\"plain\",\"t\":true,\"f\":false,\"a\":[1,{\"empty\":[]},{}]}\n",
	       "json: compact nesting, arrays, numbers, booleans, mode filter");
	free(b.data);
}

TEST_F(print, print_double)
{
	static const double v[] = {
		12.5, 3.0, 0.0625, 1.0 / 3, -0.00001, 0, 25.6, 1e20, -2.5,
	};
	struct printer p;
	struct buf b;
	size_t i;

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_array(&p, NULL);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		print_double(&p, PRINT_ANY, NULL, "%f", v[i]);
	print_double(&p, PRINT_ANY, NULL, "%f", (double)NAN);
	print_double(&p, PRINT_ANY, NULL, "%f", (double)INFINITY);
	print_close_array(&p);
	print_end(&p);
	buf_close(&b);
	is_str(b.data, "[12.5,3,0.0625,0.3333,0,0,25.6,1e+20,-2.5,null,null]\n",
	       "json: doubles to 4 places without trailing zeros, no -0, NaN null");
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, false, false);
	print_double(&p, PRINT_ANY, "x", "%7.2f|", 25.6);
	print_double(&p, PRINT_JSON, "x", "%7.2f|", 1);
	print_end(&p);
	buf_close(&b);
	is_str(b.data, "  25.60|", "text: doubles through their format");
	free(b.data);
}

TEST_F(print, print_escape)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_array(&p, NULL);
	print_string(&p, PRINT_ANY, NULL, "%s", "q\"b\\s/");
	print_string(&p, PRINT_ANY, NULL, "%s", "\b\f\n\r\t\x01\x1f\x7f");
	print_string(&p, PRINT_ANY, NULL, "%s", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* stray continuation, overlong '/', surrogate, truncated sequence */
	print_string(&p, PRINT_ANY, NULL, "%s", "a\x80" "b\xc0\xaf" "c\xed\xa0\x80" "d\xe2\x82");
	print_string(&p, PRINT_ANY, NULL, "%s", NULL);
	print_close_array(&p);
	ok(print_end(&p) == 0, "escape: document ends cleanly");
	buf_close(&b);
	is_str(b.data,
	       "[\"q\\\"b\\\\s/\","
	       "\"\\b\\f\\n\\r\\t\\u0001\\u001f\\u007f\","
	       "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
	       "\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffdd\\ufffd\\ufffd\","
	       "null]\n",
	       "escape: quotes, backslashes, control chars, UTF-8 kept, bad bytes U+FFFD");
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "k\"\n", "%u", 1);
	print_close_object(&p);
	print_end(&p);
	buf_close(&b);
	is_str(b.data, "{\"k\\\"\\n\":1}\n", "escape: keys are escaped too");
	free(b.data);
}

TEST_F(print, print_pretty)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, true, true);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "a", "%u", 1);
	print_open_array(&p, "b");
	print_uint(&p, PRINT_ANY, NULL, "%u", 2);
	print_open_object(&p, NULL);
	print_string(&p, PRINT_ANY, "c", "%s", "d");
	print_close_object(&p);
	print_close_array(&p);
	print_open_array(&p, "e");
	print_close_array(&p);
	print_close_object(&p);
	print_end(&p);
	buf_close(&b);
	is_str(b.data,
	       "{\n"
	       "  \"a\": 1,\n"
	       "  \"b\": [\n"
	       "    2,\n"
	       "    {\n"
	       "      \"c\": \"d\"\n"
	       "    }\n"
	       "  ],\n"
	       "  \"e\": []\n"
	       "}\n",
	       "pretty: two-space indent, empty containers stay inline");
	free(b.data);
}

TEST_F(print, print_text)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, false, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "n", "n=%u", 42);
	print_uint(&p, PRINT_JSON, "hidden", "%u", 9);
	print_string(&p, PRINT_ANY, "s", " s=%s", "a\x1b[31mb\tc");
	print_bool(&p, PRINT_ANY, "b", " b=%s", true);
	print_bool(&p, PRINT_ANY, "b", " b=%s", false);
	print_u64(&p, PRINT_ANY, "u", " u=%" PRIu64, (uint64_t)5);
	print_textf(&p, " %s\n", "end");
	print_close_object(&p);
	ok(print_end(&p) == 0, "text: ends cleanly");
	buf_close(&b);
	is_str(b.data, "n=42 s=a?[31mb?c b=yes b=no u=5 end\n",
	       "text: formats, JSON-only values hidden, control chars replaced");
	free(b.data);
}

TEST_F(print, print_misuse)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, "a", "%u", 1);
	errno = 0;
	ok(print_end(&p) < 0 && errno == EINVAL,
	   "misuse: unclosed object makes print_end() fail");
	buf_close(&b);
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_uint(&p, PRINT_ANY, NULL, "%u", 1);
	print_close_object(&p);
	ok(print_end(&p) < 0, "misuse: a member without a key fails");
	buf_close(&b);
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_object(&p, NULL);
	print_close_object(&p);
	print_open_object(&p, NULL);
	print_close_object(&p);
	ok(print_end(&p) < 0, "misuse: a second top-level document fails");
	buf_close(&b);
	free(b.data);

	buf_open(&b);
	print_init(&p, b.f, true, false);
	print_open_array(&p, NULL);
	print_close_object(&p);
	ok(print_end(&p) < 0, "misuse: closing an array as an object fails");
	buf_close(&b);
	free(b.data);
}

TEST_F(print, print_write_error)
{
	struct printer p;
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		skip("write error: print_end() reports ENOSPC", "no /dev/full");
		return;
	}
	print_init(&p, f, true, false);
	print_open_object(&p, NULL);
	print_close_object(&p);
	errno = 0;
	ok(print_end(&p) < 0 && errno == ENOSPC,
	   "write error: print_end() reports ENOSPC");
	fclose(f);
}
