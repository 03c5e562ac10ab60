// SPDX-License-Identifier: GPL-2.0
/* unit_parse.c - unit tests: option values (parse.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f parse" runs its tests alone */
FIXTURE(parse) {};
FIXTURE_SETUP(parse) {}
FIXTURE_TEARDOWN(parse) {}

static void interval_ok(struct __test_metadata *_metadata,
			const char *s, uint32_t want)
{
	char err[200] = "";
	uint32_t ms = 0;
	int rc = parse_interval_ms(s, &ms, err, sizeof(err));

	if (!ok(rc == 0 && ms == want, "interval '%s' is %u ms", s, want))
		printf("#   got rc %d, %u ms, \"%s\"\n", rc, ms, err);
}

static void interval_bad(struct __test_metadata *_metadata,
			 const char *s, const char *want)
{
	char err[200] = "";
	uint32_t ms = 12345;
	int rc = parse_interval_ms(s, &ms, err, sizeof(err));

	ok(rc < 0 && ms == 12345, "interval '%s' is refused", s);
	is_str(err, want, "interval: the message for a bad value");
}

/* Long: one scenario, its checks in the order the behaviour unfolds. */
TEST_F(parse, parse)
{
	static const struct { const char *s; uint32_t ms; } good[] = {
		{ "500ms", 500 }, { "2s", 2000 }, { "1.5s", 1500 },
		{ "100ms", 100 }, { "2", 2000 }, { "1.5", 1500 },
		{ "0.5", 500 }, { "1ms", 1 }, { "0.001", 1 }, { "0.001s", 1 },
		{ "60s", 60000 }, { "60", 60000 }, { "60000ms", 60000 },
		{ "1.000s", 1000 }, { "007ms", 7 }, { "0.25s", 250 },
		{ "2.0ms", 2 }, { "59.999s", 59999 },
		{ "1.0000000000000ms", 1 },
	};
	static const char *const syntax[] = {
		"", "5x", "1.5.2", "-1", "+1", " 1", "1 ", "1 s", ".5", "1.",
		"1m", "1h", "1us", "1sms", "s", "ms", "1e3", "0x10", "1,5s",
	};
	static const char *const range[] = {
		"0", "0ms", "0s", "0.5ms", "0.0001s", "0.0009", "61s", "60001ms",
		"60.001s", "60.0000000001", "99999999999999999999999s",
		"18446744073709551616ms",
	};
	static const char *const fraction[] = {
		"1.5ms", "1.0005s", "2.0001", "1.0000000001ms",
	};
	char want[200], err[200];
	uint64_t v;
	uint32_t m;
	double d;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		interval_ok(_metadata, good[i].s, good[i].ms);
	for (i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++) {
		snprintf(want, sizeof(want),
			 "'%s' is not a duration: use seconds (2, 1.5) or a number with s or ms (1.5s, 500ms)",
			 syntax[i]);
		interval_bad(_metadata, syntax[i], want);
	}
	for (i = 0; i < sizeof(range) / sizeof(range[0]); i++) {
		snprintf(want, sizeof(want),
			 "'%s' is out of range: the interval must be from 1ms to 60s",
			 range[i]);
		interval_bad(_metadata, range[i], want);
	}
	for (i = 0; i < sizeof(fraction) / sizeof(fraction[0]); i++) {
		snprintf(want, sizeof(want),
			 "'%s' is not a whole number of milliseconds", fraction[i]);
		interval_bad(_metadata, fraction[i], want);
	}

	ok(parse_uint("0", 0, UINT32_MAX, &v, err, sizeof(err)) == 0 && v == 0 &&
	   parse_uint("4294967295", 0, UINT32_MAX, &v, err, sizeof(err)) == 0 &&
	   v == UINT32_MAX &&
	   parse_uint("18446744073709551615", 1, UINT64_MAX, &v, err, sizeof(err)) == 0 &&
	   v == UINT64_MAX,
	   "uint: 0, UINT32_MAX and UINT64_MAX at their limits");
	ok(parse_uint("4294967296", 0, UINT32_MAX, &v, err, sizeof(err)) < 0,
	   "uint: UINT32_MAX + 1 is refused");
	is_str(err, "'4294967296' is out of range: it must be from 0 to 4294967295",
	       "uint: above the maximum");
	parse_uint("0", 1, UINT64_MAX, &v, err, sizeof(err));
	is_str(err, "'0' is out of range: it must be at least 1",
	       "uint: --count 0");
	parse_uint("18446744073709551616", 1, UINT64_MAX, &v, err, sizeof(err));
	is_str(err, "'18446744073709551616' is out of range: it must be at most 18446744073709551615",
	       "uint: beyond 64 bits");
	for (i = 0; i < 5; i++) {
		static const char *const bad[] = { "", "x", "-1", "+1", "1 " };

		parse_uint(bad[i], 0, UINT32_MAX, &v, err, sizeof(err));
		snprintf(want, sizeof(want), "'%s' is not a number", bad[i]);
		is_str(err, want, "uint: not a number");
	}

	ok(parse_cycles("300", &d, err, sizeof(err)) == 0 && d == 300.0 &&
	   parse_cycles("250.5", &d, err, sizeof(err)) == 0 && d == 250.5,
	   "cycles: 300 and 250.5");
	parse_cycles("0", &d, err, sizeof(err));
	is_str(err, "'0' is out of range: it must be more than 0", "cycles: 0");
	parse_cycles("abc", &d, err, sizeof(err));
	is_str(err, "'abc' is not a number of cycles", "cycles: not a number");
	parse_cycles("-5", &d, err, sizeof(err));
	is_str(err, "'-5' is not a number of cycles", "cycles: no sign");

	ok(parse_channel_set("0-3", 8, &m, err, sizeof(err)) == 0 && m == 0xf &&
	   parse_channel_set("0,2,7", 8, &m, err, sizeof(err)) == 0 &&
	   m == 0x85 && parse_channel_set("5-5", 8, &m, err, sizeof(err)) == 0 &&
	   m == 0x20, "channels: 0-3, 0,2,7 and 5-5");
	for (i = 0; i < 6; i++) {
		static const char *const bad[] = { "", "x", "3-1", "0,", ",1", "1 " };

		parse_channel_set(bad[i], 8, &m, err, sizeof(err));
		snprintf(want, sizeof(want),
			 "'%s' is not a channel list (such as 0-3 or 0,2,5)",
			 bad[i]);
		is_str(err, want, "channels: not a list");
	}
	parse_channel_set("6-8", 8, &m, err, sizeof(err));
	is_str(err, "channel 8: channels are 0 to 7", "channels: beyond the last");
	parse_channel_set("1,0-2", 8, &m, err, sizeof(err));
	is_str(err, "channel 1 is listed twice", "channels: twice");
}
