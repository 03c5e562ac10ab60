// SPDX-License-Identifier: GPL-2.0
/*
 * validate_test.c - validate's rows (validate_judge.c) on canned "run
 * stream" counts (kselftest harness).
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "curve/validate.h"
#include "curve_lib.h"	/* EXPECT_DBL */

/* A "run stream" document whose copy counted @rd and @wr bytes of 24e9/16e9. */
static json_object *stream_doc(const char *rd, const char *wr, const char *ocr)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"results\": [{\"op\": \"scale\", \"counters\": null},"
		 " {\"op\": \"copy\", \"counters\": {\"traffic_bytes\": 24e9,"
		 " \"traffic_read_bytes\": 16e9, \"read_bytes\": %s,"
		 " \"write_bytes\": %s, \"offcore_read_bytes\": %s},"
		 " \"counters_reason\": null}]}", rd, wr, ocr);
	return json_tokener_parse(text);
}

TEST(validate_rows)
{
	struct vcheck c[VALIDATE_NR_RULES];
	json_object *d;

	/* exact counts: every row passes at ratio 1 */
	d = stream_doc("16e9", "8e9", "16e9");
	validate_judge(d, "copy", false, c);
	EXPECT_STREQ("imc_bytes", c[0].counter);
	EXPECT_TRUE(c[0].pass && c[1].pass && c[2].pass);
	EXPECT_DBL(1, c[0].ratio);
	json_object_put(d);
	/* the boundaries: 0.90 and 1.15 pass, just outside fails */
	d = stream_doc("14.4e9", "7.2e9", "8e9");
	validate_judge(d, "copy", false, c);
	EXPECT_TRUE(c[0].pass && c[1].pass);
	EXPECT_TRUE(c[2].pass);		/* offcore: 0.5 is its bound */
	json_object_put(d);
	d = stream_doc("14.3e9", "7.2e9", "7.9e9");
	validate_judge(d, "copy", false, c);
	EXPECT_FALSE(c[0].pass);
	EXPECT_STREQ("the counters saw 90% of the traffic", c[0].why);
	EXPECT_FALSE(c[2].pass);
	json_object_put(d);
	d = stream_doc("18.5e9", "9.2e9", "16e9");
	validate_judge(d, "copy", false, c);
	EXPECT_FALSE(c[0].pass);
	EXPECT_NE(NULL, strstr(c[0].why, "saw 115% of the traffic (other traffic"));
	json_object_put(d);
	/* half, and nothing: said loudly */
	d = stream_doc("8e9", "4e9", "0");
	validate_judge(d, "copy", true, c);
	EXPECT_FALSE(c[0].pass);
	EXPECT_STREQ("the counters saw about half of the traffic (a channel or socket not counted?)",
		     c[0].why);
	EXPECT_NE(NULL, strstr(c[2].why, "saw almost none of the traffic"));
	EXPECT_TRUE(c[0].nt);
	json_object_put(d);
	/* no counters, no op, no document: failing rows with the reason */
	d = json_tokener_parse("{\"results\": [{\"op\": \"copy\", \"counters\": null,"
			       " \"counters_reason\": \"the module is not loaded\"}]}");
	validate_judge(d, "copy", false, c);
	EXPECT_FALSE(c[0].pass);
	EXPECT_STREQ("no counters: the module is not loaded", c[0].why);
	validate_judge(d, "triad", false, c);
	EXPECT_STREQ("no counters: the stream run printed no result for this op", c[1].why);
	json_object_put(d);
	validate_judge(NULL, "copy", false, c);
	EXPECT_FALSE(c[0].pass || c[1].pass || c[2].pass);
}

/* A DF document (AMD Zen 2/3): copy's @rdwr bytes of 24e9, @unmeas. */
static json_object *df_doc(const char *rdwr, int unmeas)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"results\": [{\"op\": \"copy\", \"counters\": {"
		 "\"interval_ns\": 2e9, \"traffic_bytes\": 24e9,"
		 " \"traffic_read_bytes\": 16e9, \"read_bytes\": null,"
		 " \"write_bytes\": null, \"offcore_read_bytes\": null,"
		 " \"rdwr_bytes\": %s, \"unmeasured_channels\": %d,"
		 " \"null_reasons\": {\"rdwr_bytes\": \"socket 0: a fixed set\"}},"
		 " \"counters_reason\": null}]}", rdwr, unmeas);
	return json_tokener_parse(text);
}

TEST(validate_df)
{
	struct vcheck c[VALIDATE_NR_RULES];
	char why[512];
	json_object *d;

	/* every channel counted in the op: imc_bytes judged on rdwr_bytes */
	d = df_doc("25e9", 0);
	validate_judge(d, "copy", false, c);
	EXPECT_TRUE(c[0].pass && !c[0].skipped);
	EXPECT_DBL(25e9, c[0].measured);
	EXPECT_DBL(2e9, c[0].interval_ns);
	EXPECT_TRUE(c[1].skipped && !c[1].pass);
	EXPECT_STREQ("no read/write split: the Data Fabric counts reads and writes together (AMD Zen 2/3)",
		     c[1].why);
	validate_skip(&c[2], "offcore unavailable");
	EXPECT_TRUE(validate_passed(c, VALIDATE_NR_RULES, why, sizeof(why)));
	json_object_put(d);
	/* too little counted is a failure there too */
	d = df_doc("12e9", 0);
	validate_judge(d, "copy", false, c);
	EXPECT_FALSE(c[0].pass || c[0].skipped);
	EXPECT_STREQ("the counters saw about half of the traffic (a channel or socket not counted?)",
		     c[0].why);
	EXPECT_FALSE(validate_passed(c, VALIDATE_NR_RULES, why, sizeof(why)));
	json_object_put(d);
	/* channels not counted in the op: not judged, and then no pass */
	d = df_doc("25e9", 4);
	validate_judge(d, "copy", false, c);
	EXPECT_TRUE(c[0].skipped && !c[0].pass);
	EXPECT_NE(NULL, strstr(c[0].why, "counted 4 channel(s) at no time during the op"));
	validate_skip(&c[2], "offcore unavailable");
	EXPECT_FALSE(validate_passed(c, VALIDATE_NR_RULES, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "no row judged the DRAM counters: the Data Fabric counted 4"));
	json_object_put(d);
	/* a fixed channel set: no total, its reason */
	d = df_doc("null", 4);
	validate_judge(d, "copy", false, c);
	EXPECT_FALSE(c[0].pass);
	EXPECT_STREQ("imc_bytes not counted: socket 0: a fixed set", c[0].why);
	json_object_put(d);
}

TEST_HARNESS_MAIN
