// SPDX-License-Identifier: GPL-2.0
/* unit_opts.c - unit tests: the options every command takes (opts.c). */

#include <getopt.h>

#include "helpers.h"
#include "opts.h"
#include "units.h"

/* the unit: "unit.bin -f opts" runs its tests alone */
FIXTURE(opts) {};
FIXTURE_SETUP(opts) {}
FIXTURE_TEARDOWN(opts) {}

static int usage_calls;

static void fake_usage(FILE *f)
{
	(void)f;	/* stdout: the TAP stream */
	usage_calls++;
}

/* @args (NULL-terminated) through a table built as a command builds it */
static int parse(const char *const *args, unsigned int mask, struct opts *o,
		 int *own_seen)
{
	static const struct option own[] = {
		{ "socket", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	char *argv[8];
	struct cli_opts t;
	int argc = 0, c, rc = MDC_EXIT_OK;

	while (args[argc])
		argv[argc] = (char *)args[argc], argc++;
	argv[argc] = NULL;
	*own_seen = 0;
	cli_opts_init(&t, mask, ":s:", own);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, t.shorts, t.lopts, NULL)) != -1) {
		if (c == 's') {
			(*own_seen)++;
			continue;
		}
		rc = cli_opts_common("t", c, argv, o, fake_usage);
		if (rc != CLI_OPT_NEXT)
			return rc;
	}
	return MDC_EXIT_OK;
}

TEST_F(opts, opts_table)
{
	static const char *const pretty[] = { "cmd", "--socket", "1", "-p", NULL };
	static const char *const json[] = { "cmd", "--json", "-s", "2", NULL };
	static const char *const help[] = { "cmd", "--help", NULL };
	static const char *const noj[] = { "cmd", "-j", NULL };
	struct opts o = { 0 };
	struct cli_opts t;
	struct capture c;
	int seen, rc;
	char *err;

	ok(cli_opts_init(&t, CLI_OPT_ALL, ":s:", NULL) == 0 &&
	   !strcmp(t.shorts, ":s:jph") && !strcmp(t.lopts[0].name, "json") &&
	   !strcmp(t.lopts[2].name, "help") && !t.lopts[3].name,
	   "cli_opts_init: own short options, then j, p and h (got '%s')",
	   t.shorts);
	rc = parse(pretty, CLI_OPT_ALL, &o, &seen);
	ok(rc == MDC_EXIT_OK && seen == 1 && o.json && o.pretty,
	   "-p sets json and pretty, the command's own --socket still parses");
	o = (struct opts){ 0 };
	rc = parse(json, CLI_OPT_ALL, &o, &seen);
	ok(rc == MDC_EXIT_OK && seen == 1 && o.json && !o.pretty,
	   "--json sets json alone");
	usage_calls = 0;
	capture_start(&c);
	rc = parse(help, CLI_OPT_ALL, &o, &seen);
	err = capture_end(&c);
	ok(rc == CLI_OPT_HELP_SHOWN && usage_calls == 1,
	   "--help prints the usage once and says so (got %d)", rc);
	free(err);
	capture_start(&c);
	rc = parse(noj, CLI_OPT_HELP, NULL, &seen);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_USAGE, "-j where the command takes no JSON: exit 1");
	has_str(err, "memdiagctl: t: unknown option '-j'",
		"-j where the command takes no JSON is named as unknown");
	free(err);
}

TEST_F(opts, opts_usage)
{
	struct buf b;

	buf_open(&b);
	cli_opts_usage(b.f, CLI_OPT_ALL, 16, "first line\nsecond line");
	buf_close(&b);
	is_str(b.data,
	       "  -j, --json    first line\n"
	       "                second line\n"
	       "  -p, --pretty  indent the JSON output (implies --json)\n"
	       "  -h, --help    print this help and exit\n",
	       "cli_opts_usage: a column of descriptions, -j's own text indented");
	free(b.data);
	buf_open(&b);
	cli_opts_usage(b.f, CLI_OPT_HELP, 8, NULL);
	buf_close(&b);
	is_str(b.data, "  -h, --help print this help and exit\n",
	       "cli_opts_usage: -h alone, one space where the column is too narrow");
	free(b.data);
}
