// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - the options every command takes after its name: the one table
 * of them, merged into each command's getopt_long() tables, handled and
 * described from there (opts.h).
 */

#include <string.h>

#include "opts.h"

struct common_opt {
	struct option lopt;
	unsigned int mask;	/* CLI_OPT_JSON or CLI_OPT_HELP */
	const char *help;	/* its --help text */
};

static const struct common_opt common[] = {
	{ { "json", no_argument, NULL, 'j' }, CLI_OPT_JSON,
	  "print one JSON document" },
	{ { "pretty", no_argument, NULL, 'p' }, CLI_OPT_JSON,
	  "indent the JSON output (implies --json)" },
	{ { "help", no_argument, NULL, 'h' }, CLI_OPT_HELP,
	  "print this help and exit" },
};

#define NR_COMMON (sizeof(common) / sizeof(common[0]))

int cli_opts_init(struct cli_opts *t, unsigned int mask, const char *own_short,
		  const struct option *own)
{
	size_t n = 0, len = strlen(own_short), i;

	memset(t, 0, sizeof(*t));
	optind = 0;
	opterr = 0;
	if (len + 2 * NR_COMMON >= sizeof(t->shorts))
		return -1;
	memcpy(t->shorts, own_short, len);
	for (; own && own[n].name; n++) {
		if (n == CLI_OPTS_OWN_MAX)
			return -1;
		t->lopts[n] = own[n];
	}
	for (i = 0; i < NR_COMMON; i++) {
		if (!(common[i].mask & mask))
			continue;
		t->lopts[n++] = common[i].lopt;
		t->shorts[len++] = (char)common[i].lopt.val;
	}
	return 0;
}

int cli_opts_common(const char *cmd, int c, char **argv, struct opts *o,
		    void (*usage)(FILE *f))
{
	switch (c) {	/* 'j' and 'p' only come when @o takes them */
	case 'j':
		o->json = true;
		return CLI_OPT_NEXT;
	case 'p':
		o->json = o->pretty = true;
		return CLI_OPT_NEXT;
	case 'h':
		usage(stdout);
		return CLI_OPT_HELP_SHOWN;
	default:
		return cli_bad_option(cmd, c, argv);
	}
}

/* @text from column @col, its second and later lines indented to it. */
static void put_help(FILE *f, int col, const char *text)
{
	const char *nl;

	while ((nl = strchr(text, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - text), text, col, "");
		text = nl + 1;
	}
	fprintf(f, "%s\n", text);
}

void cli_opts_usage(FILE *f, unsigned int mask, int col,
		    const char *json_help)
{
	const char *help;
	int len;
	size_t i;

	for (i = 0; i < NR_COMMON; i++) {
		if (!(common[i].mask & mask))
			continue;
		help = common[i].lopt.val == 'j' && json_help ? json_help :
		       common[i].help;
		len = fprintf(f, "  -%c, --%s", common[i].lopt.val,
			      common[i].lopt.name);
		fprintf(f, "%*s", len < col ? col - len : 1, "");
		put_help(f, col, help);
	}
}
