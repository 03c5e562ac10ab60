// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_validate.c - "memdiagctl validate": the paper's Fig. 6 on this
 * machine. STREAM copy and triad, with normal and with non-temporal
 * stores, move a volume they compute; the IMC and offcore counters must
 * see it, within the tolerances of Documentation/curves.rst ("validate").
 * The kernels run as "memdiagctl -j run stream", whose JSON carries each
 * op's computed and counted bytes, read back with json-c; once per
 * prefetcher state (on, off: calib_pf.c switches them and puts them back
 * whatever happens, Ctrl-C included).
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "calib_cmd.h"
#include "cmd.h"
#include "conn.h"
#include "info.h"
#include "names.h"
#include "stop.h"
#include "opts.h"
#include "parse.h"
#include "validate.h"
#include "validate_groups.h"

extern char **environ;

#define NR_PF_STATES 3
#define MAX_CHECKS (NR_PF_STATES * 2 * 2 * VALIDATE_NR_RULES)

static const char *const vops[] = { "copy", "triad" };
/* --prefetch names; bit i of the mask is state i, run in this order */
static const char *const pf_states[NR_PF_STATES] = { "on", "off", "unchanged" };
enum { PF_ON = 1, PF_OFF = 2, PF_UNCHANGED = 4 };

/* SIGINT/SIGTERM: stop, put the prefetchers back, then die of it */
static volatile sig_atomic_t v_stop;

/* Run "memdiagctl -j run stream ARGS" and return its stdout, malloc()ed. */
static char *run_stream(const char *cmd, const char *const *args, int *rc)
{
	posix_spawn_file_actions_t fa;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	*rc = MDC_EXIT_LOCAL;
	if (!buf || pipe(fd)) {
		free(buf);
		cli_err(cmd, "cannot run stream", "%s", strerror(errno));
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	/* posix_spawn() takes char *const[]: it does not write them */
	errno = posix_spawn(&pid, "/proc/self/exe", &fa, NULL,
			    (char *const *)args, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (errno) {
		cli_err(cmd, "cannot run stream", "%s", strerror(errno));
		close(fd[0]);
		free(buf);
		return NULL;
	}
	for (;;) {
		if (len + 1 == cap) {
			char *b = realloc(buf, cap *= 2);

			if (!b)
				break;
			buf = b;
		}
		n = read(fd[0], buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR) {
			/* stopping: the run's result would be thrown away */
			if (v_stop)
				kill(pid, SIGTERM);
			continue;
		}
		if (n <= 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	*rc = WIFEXITED(status) ? WEXITSTATUS(status) : MDC_EXIT_LOCAL;
	return buf;
}

static void print_check(struct printer *p, const struct vcheck *c)
{
	print_open_object(p, NULL);
	print_string(p, PRINT_ANY, "prefetch", "%-9s", c->prefetch);
	print_string(p, PRINT_ANY, "op", " %-6s", c->op);
	print_bool(p, PRINT_JSON, "nt", "%s", c->nt);
	print_textf(p, " %-7s", c->nt ? "nt" : "normal");
	print_string(p, PRINT_ANY, "counter", " %-18s", c->counter);
	print_double(p, PRINT_JSON, "expected_bytes", "%f", c->expected);
	print_double(p, PRINT_JSON, "measured_bytes", "%f", c->measured);
	if (isfinite(c->expected))
		print_double(p, PRINT_TEXT, NULL, " %12.3f", c->expected / 1e9);
	else
		print_textf(p, " %12s", "-");
	if (isfinite(c->measured))
		print_double(p, PRINT_TEXT, NULL, " %12.3f", c->measured / 1e9);
	else
		print_textf(p, " %12s", "-");
	if (isfinite(c->ratio))
		print_double(p, PRINT_ANY, "ratio", " %7.3f", c->ratio);
	else
		print_string(p, PRINT_ANY, "ratio", " %7s", NULL);
	print_double(p, PRINT_ANY, "min_ratio", "  %.2f", c->lo);
	print_double(p, PRINT_ANY, "max_ratio", "-%.2f", c->hi);
	print_double(p, PRINT_JSON, "interval_ns", "%f", c->interval_ns);
	print_bool(p, PRINT_JSON, "skipped", "%s", c->skipped);
	if (c->skipped)
		print_string(p, PRINT_JSON, "pass", "%s", NULL);
	else
		print_bool(p, PRINT_JSON, "pass", "%s", c->pass);
	print_textf(p, "  %s\n", c->skipped ? "SKIP" : c->pass ? "PASS" : "FAIL");
	print_string(p, PRINT_JSON, "reason", "%s", c->pass ? NULL : c->why);
	print_close_object(p);
}

void cmd_validate_usage(FILE *f)
{
	fputs("Usage: " PROG " validate [--size SIZE] [--reps N] [--prefetch LIST]\n"
	      "                  [-j|--json] [-p|--pretty]\n"
	      "       " PROG " validate --groups [-j|--json] [-p|--pretty]\n"
	      "\n"
	      "Check that memdiag's counters see the traffic a known kernel moves (the\n"
	      "seed paper's Fig. 6): STREAM copy and triad, with normal stores\n"
	      "(write-allocate reads counted) and with non-temporal ones, against the\n"
	      "memory controllers' bytes (all, and reads) and the offcore read bytes.\n"
	      "One row per check: expected and measured GB, ratio, tolerance, PASS,\n"
	      "FAIL or SKIP (not judged: the processor cannot count it, or part of\n"
	      "the value is not a measurement of the op) with the reason. Needs the\n"
	      "module (run as 'run stream' would).\n"
	      "Every check runs with the hardware prefetchers of every socket on,\n"
	      "then off, where they can be switched; afterwards (error and Ctrl-C\n"
	      "included) they are put back as memdiag found them.\n"
	      "\n"
	      "Options:\n"
	      "  --size SIZE      bytes per array, as for run stream (default: its own)\n"
	      "  --reps N         repetitions, as for run stream (default 3)\n"
	      "  --prefetch LIST  on, off, on,off or unchanged: the prefetcher states\n"
	      "                   to check in (default on,off where the module can\n"
	      "                   switch them and this is root, else unchanged with\n"
	      "                   a note); the state is in every row\n"
	      "  --groups         instead: resctrl's memory bandwidth monitoring\n"
	      "                   (what top and stat's own bytes count) against the\n"
	      "                   memory controllers, as the kernel's resctrl MBM\n"
	      "                   selftest: a 250 MB read loop pinned on this CPU in\n"
	      "                   a monitoring group of its own for 5 seconds, the\n"
	      "                   first dropped; the means must agree within 8 %\n"
	      "                   (on an otherwise idle socket). Without MBM, the\n"
	      "                   module's core estimate the same way, with the\n"
	      "                   prefetchers off (judged) and on (its gap shown).\n"
	      "                   Needs root, resctrl with MBM or the module's\n"
	      "                   estimate, and the module (exit 3, 7, 2)\n",
	      f);
	cli_opts_usage(f, CLI_OPT_ALL, 16,
		       "{\"checks\": [...], \"pass\": BOOL}");
	fputs("\n"
	      "Exit status: 0 no check failed and one of the memory controllers'\n"
	      "was judged, 8 otherwise, or that of the\n"
	      "stream run when it failed; 1 bad option; 2 no memdiag module (at\n"
	      "once: nothing runs); with --prefetch on or off where they cannot be\n"
	      "switched: 3 not root, 7 no prefetcher control on this processor;\n"
	      "128+N killed by signal N (the prefetchers put back first).\n", f);
}

static const struct option validate_options[] = {
	{ "size", required_argument, NULL, 's' },
	{ "reps", required_argument, NULL, 'r' },
	{ "prefetch", required_argument, NULL, 'P' },
	{ "groups", no_argument, NULL, 'G' },
	{ NULL, 0, NULL, 0 }
};

/*
 * Both stream runs (normal, --nt), prefetchers in state @pf, into @checks:
 * an exit code.
 */
static int collect(const char *cmd, const char *size, const char *reps,
		   const char *pf, struct vcheck *checks, size_t *nr)
{
	size_t i, j, k;
	int rc;

	for (k = 0; k < 2 && !v_stop; k++) {
		const char *args[12] = { PROG, "-j", "run", "stream", "--reps",
					 reps };
		json_object *doc;
		size_t a = 6;
		char *out;

		if (size) {
			args[a++] = "--size";
			args[a++] = size;
		}
		if (k)
			args[a++] = "--nt";
		out = run_stream(cmd, args, &rc);
		if (v_stop) {
			free(out);
			break;
		}
		if (!out || rc != MDC_EXIT_OK) {
			cli_err(cmd, "the stream run failed", "exit %d%s", rc,
				k ? " (with --nt)" : "");
			free(out);
			return rc != MDC_EXIT_OK ? rc : MDC_EXIT_LOCAL;
		}
		doc = json_tokener_parse(out);
		free(out);
		for (i = 0; i < sizeof(vops) / sizeof(vops[0]); i++) {
			validate_judge(doc, vops[i], k, &checks[*nr]);
			for (j = 0; j < VALIDATE_NR_RULES; j++)
				checks[*nr + j].prefetch = pf;
			*nr += VALIDATE_NR_RULES;
		}
		json_object_put(doc);
	}

	return MDC_EXIT_OK;
}

/*
 * The runs of every state in @pf (PF_* mask), switching the prefetchers
 * for on and off and putting them back however it ends: an exit code.
 */
static int run_states(const char *cmd, const char *size, const char *reps,
		      unsigned int pf, struct vcheck *checks, size_t *nr)
{
	struct calib_pf *ctl = NULL;
	int rc = MDC_EXIT_OK, rrc;
	unsigned int k;

	if (pf & (PF_ON | PF_OFF)) {
		rc = calib_pf_open(cmd, CALIB_PF_ALL, &ctl);
		if (rc)
			return rc;
	}
	for (k = 0; k < NR_PF_STATES && !rc && !v_stop; k++) {
		if (!(pf & 1u << k))
			continue;
		if (ctl)
			rc = calib_pf_set(cmd, ctl, k == 0);
		if (!rc)
			rc = collect(cmd, size, reps, pf_states[k], checks, nr);
	}
	if (ctl) {
		/* whatever happened above: put back what was found */
		rrc = calib_pf_close(cmd, ctl);
		if (!rc)
			rc = rrc;
	}
	return rc;
}

/* --prefetch as given, or the default: both where they can be switched */
static unsigned int pf_default(const char *cmd, unsigned int pf)
{
	char why[160];

	if (pf)
		return pf;
	if (calib_pf_can(cmd, why, sizeof(why)))
		return PF_ON | PF_OFF;
	cli_err(cmd, "note", "checking with the prefetchers as they are (unchanged): %s",
		why);
	return PF_UNCHANGED;
}

/* Run, with SIGINT/SIGTERM stopping it: the prefetchers back, then die. */
static int run_stoppable(const char *cmd, const char *size, const char *reps,
			 unsigned int pf, struct vcheck *checks, size_t *nr)
{
	struct cli_stop stop;
	int rc;

	cli_stop_catch(&stop, &v_stop);	/* no SA_RESTART: reads stop */
	rc = run_states(cmd, size, reps, pf, checks, nr);
	cli_stop_release(&stop);
	if (v_stop) {
		cli_err(cmd, "interrupted", "%s",
			pf & PF_UNCHANGED ? "nothing checked" :
			"nothing checked; the prefetchers are back as memdiag found them");
		raise((int)v_stop);
	}
	return rc;
}

/*
 * Whether the module answers (said on stderr when not): an exit code.
 * @offcore: get-info's offcore capability, for the rows it makes moot.
 */
static int module_reachable(const char *cmd, struct info_cap_summary *offcore)
{
	struct info_summary sum;
	struct nl_family fam;
	struct cli_error err;
	struct nl nl;

	if (md_open(&nl, &fam, &sum, &err) != MDC_EXIT_OK)
		return cli_report(cmd, &err);
	*offcore = sum.cap[MEMDIAG_CAPABILITY_OFFCORE];
	info_summary_free(&sum);
	nl_family_free(&fam);
	nl_close(&nl);
	return MDC_EXIT_OK;
}

/*
 * The offcore rows where the processor has no offcore event (AMD):
 * nothing to judge, not a failure of the counters.
 */
static void skip_offcore(const struct info_cap_summary *offcore,
			 struct vcheck *checks, size_t nr)
{
	char why[sizeof(offcore->reason) + 64];
	size_t i;

	if (!offcore->listed || offcore->available)
		return;
	snprintf(why, sizeof(why), "%s is unavailable%s%s",
		 name_capability(MEMDIAG_CAPABILITY_OFFCORE),
		 offcore->reason[0] ? ": " : "", offcore->reason);
	for (i = 0; i < nr; i++)
		if (!strcmp(checks[i].counter, "offcore_read_bytes"))
			validate_skip(&checks[i], why);
}

int cmd_validate(const struct opts *gopts, int argc, char **argv)
{
	struct cli_opts t;
	const char *cmd = "validate", *size = NULL, *reps = "3";
	struct vcheck checks[MAX_CHECKS];
	struct opts o = *gopts;
	size_t nr = 0, i;
	struct printer p;
	struct info_cap_summary offcore;
	unsigned int pf = 0;
	char err[160], none[sizeof(checks->why) + 64] = "";
	bool pass, groups = false;
	uint64_t v;
	int c, rc;

	cli_opts_init(&t, CLI_OPT_ALL, ":", validate_options);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		switch (c) {
		case 's':
			size = optarg;	/* run stream checks it */
			break;
		case 'r':
			if (parse_uint(optarg, 1, 1000, &v, err, sizeof(err)) < 0)
				return cli_usage(cmd, "option '--reps': %s", err);
			reps = optarg;
			break;
		case 'G':
			groups = true;
			break;
		case 'P':
			rc = cli_name_list(cmd, "--prefetch", optarg, pf_states,
					   NR_PF_STATES, &pf);
			if (rc)
				return rc;
			if ((pf & PF_UNCHANGED) && pf != PF_UNCHANGED)
				return cli_usage(cmd, "option '--prefetch': 'unchanged' goes alone (or give on, off or on,off)");
			break;
		default:
			rc = cli_opts_common(cmd, c, argv,
					     &o, cmd_validate_usage);
			if (rc != CLI_OPT_NEXT)
				return rc == CLI_OPT_HELP_SHOWN ? MDC_EXIT_OK : rc;
			break;
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	if (groups && (size || pf || strcmp(reps, "3")))
		return cli_usage(cmd, "option '--groups' runs its own read loop: no --size, --reps or --prefetch");
	if (groups)
		return validate_groups(cmd, &o);

	/*
	 * Without the module there is nothing to validate: say so now, not
	 * after seconds of STREAM as twelve failed checks a CI gate would
	 * read as broken counters.
	 */
	rc = module_reachable(cmd, &offcore);
	if (rc != MDC_EXIT_OK)
		return rc;
	rc = run_stoppable(cmd, size, reps, pf_default(cmd, pf), checks, &nr);
	if (rc != MDC_EXIT_OK)
		return rc;
	skip_offcore(&offcore, checks, nr);
	pass = validate_passed(checks, nr, none, sizeof(none));

	print_init(&p, stdout, o.json, o.pretty);
	print_open_object(&p, NULL);
	print_textf(&p, "%-9s %-6s %-7s %-18s %12s %12s %7s  %-9s  %s\n",
		    "prefetch", "op",
		    "stores", "counter", "expected_GB", "measured_GB", "ratio",
		    "tolerance", "result");
	print_open_array(&p, "checks");
	for (i = 0; i < nr; i++)
		print_check(&p, &checks[i]);
	print_close_array(&p);
	print_bool(&p, PRINT_JSON, "pass", "%s", pass);
	print_close_object(&p);
	rc = cli_output_end(cmd, &p);
	if (rc != MDC_EXIT_OK)
		return rc;
	/* each failure's reason, once when every row has the same */
	for (i = 0; i < nr; i++)
		if (!checks[i].pass &&
		    (!i || strcmp(checks[i].why, checks[i - 1].why)))
			cli_err(cmd, checks[i].skipped ? "SKIP" : "FAIL",
				"prefetch %s, %s %s %s: %s",
				checks[i].prefetch, checks[i].op,
				checks[i].nt ? "nt" : "normal",
				checks[i].counter, checks[i].why);
	if (none[0])
		cli_err(cmd, "FAIL", "%s", none);
	return pass ? MDC_EXIT_OK : MDC_EXIT_VALIDATE;
}
