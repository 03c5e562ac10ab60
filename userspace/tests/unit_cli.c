// SPDX-License-Identifier: GPL-2.0
/* unit_cli.c - unit tests: failures to exit codes and messages (cli.c, conn.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f cli" runs its tests alone */
FIXTURE(cli) {};
FIXTURE_SETUP(cli) {}
FIXTURE_TEARDOWN(cli) {}

static struct nl_error kernel_err(int err, const char *msg)
{
	struct nl_error e = {
		.err = err, .kernel = true, .bad_offs = -1, .bad_type = -1,
		.miss_type = -1,
	};

	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	return e;
}

static int fail(const struct nl_error *e, char **err)
{
	struct capture c;
	int rc;

	capture_start(&c);
	rc = cli_nl_fail("info", "get-info request failed", e, name_info_attr);
	*err = capture_end(&c);
	return rc;
}

/* Long: one scenario, its checks in the order the behaviour unfolds. */
TEST_F(cli, cli_errors)
{
	struct nl_error e;
	struct capture c;
	char *err;
	int rc;

	e = kernel_err(EPERM, "memdiag: CAP_PERFMON or CAP_SYS_ADMIN needed, or load memdiag with unprivileged_read=1");
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_PERM, "EPERM exits 3 (got %d)", rc);
	has_str(err, "memdiagctl: info: permission denied: memdiag: CAP_PERFMON or CAP_SYS_ADMIN needed",
		"EPERM shows the module's extack text");
	has_str(err, "memdiagctl: info: hint: run as root, grant CAP_PERFMON",
		"EPERM gives the hint");
	has_str(err, "unprivileged_read=1", "EPERM hint names unprivileged_read=1");
	free(err);

	e = kernel_err(EACCES, "");
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_PERM, "EACCES exits 3 (got %d)", rc);
	has_str(err, "permission denied: Permission denied",
		"EACCES without extack falls back to strerror");
	free(err);

	e = kernel_err(EPERM, "");
	e.kernel = false;
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_KERNEL, "a local EPERM is no module refusal: exit 5 (got %d)", rc);
	free(err);

	e = kernel_err(EPROTONOSUPPORT, "memdiag speaks protocol 2");
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_PROTO, "EPROTONOSUPPORT exits 4 (got %d)", rc);
	has_str(err, "memdiagctl: info: protocol version mismatch: memdiagctl speaks protocol 1 but the loaded memdiag module refused it (memdiag speaks protocol 2): use the memdiagctl built with that module",
		"EPROTONOSUPPORT message");
	free(err);

	e = kernel_err(EINVAL, "Attribute failed policy validation");
	e.bad_offs = 20;
	e.bad_type = MEMDIAG_A_INFO_PROTO_VERSION;
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_KERNEL, "EINVAL exits 5 (got %d)", rc);
	is_str(err, "memdiagctl: info: get-info request failed: Invalid argument: Attribute failed policy validation (offending attribute 'proto-version')\n",
	       "EINVAL names strerror, extack and the offending attribute");
	free(err);

	e = kernel_err(ERANGE, "");
	e.bad_offs = 999;
	e.miss_type = MEMDIAG_A_INFO_VENDOR;
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_KERNEL, "ERANGE exits 5 (got %d)", rc);
	is_str(err, "memdiagctl: info: get-info request failed: Numerical result out of range (offending attribute at byte 999 of the request) (missing attribute 'vendor')\n",
	       "unlocated offset and missing attribute are reported");
	free(err);

	e = kernel_err(ENOMEM, "");
	e.kernel = false;
	rc = fail(&e, &err);
	ok(rc == MDC_EXIT_LOCAL, "local ENOMEM exits 6 (got %d)", rc);
	free(err);

	capture_start(&c);
	rc = cli_no_family("info", false);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_NO_MODULE, "no family, no module: exit 2 (got %d)", rc);
	has_str(err, "memdiagctl: info: the memdiag module is not loaded: generic netlink family 'memdiag' not found: load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')",
		"no family, no module: says to load it");
	free(err);

	capture_start(&c);
	rc = cli_no_family("info", true);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_NO_MODULE, "no family, module loaded: exit 2 (got %d)", rc);
	has_str(err, "memdiag.ko is loaded, but serves only the initial network namespace",
		"no family, module loaded: blames the network namespace");
	free(err);

	capture_start(&c);
	rc = cli_check_proto("info", 3);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_PROTO, "family version 3 exits 4 (got %d)", rc);
	has_str(err, "memdiagctl: info: protocol version mismatch: memdiagctl speaks protocol 1 but the loaded memdiag module speaks 3: use the memdiagctl built with that module",
		"family version mismatch message");
	free(err);

	capture_start(&c);
	rc = cli_check_proto("info", MEMDIAG_FAMILY_VERSION);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_OK && !*err, "our own family version passes silently");
	free(err);
}

/* The helpers return their failures and print nothing; callers show them. */
TEST_F(cli, cli_error_return)
{
	struct cli_error ce;
	struct nl_family fam;
	struct nl_error e;
	struct capture c;
	struct nl nl;
	char phrase[1024], *err;
	int rc;

	cli_error_init(&ce);
	e = kernel_err(EPERM, "memdiag: CAP_PERFMON needed");
	capture_start(&c);
	rc = cli_error_nl(&ce, "get-info request failed", &e, name_info_attr);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_PERM && ce.code == MDC_EXIT_PERM && !*err,
	   "cli_error_nl: EPERM is exit 3, returned, nothing printed");
	free(err);
	cli_error_phrase(&ce, phrase, sizeof(phrase));
	is_str(phrase, "permission denied: memdiag: CAP_PERFMON needed (run as root, grant CAP_PERFMON (e.g. 'setcap cap_perfmon+ep memdiagctl'), or load the module with unprivileged_read=1)",
	       "cli_error_phrase: what, the extack text and the hint in one phrase");

	e = kernel_err(EINVAL, "bad interval");
	e.bad_type = MEMDIAG_A_INFO_PROTO_VERSION;
	cli_error_nl(&ce, "get-info request failed", &e, name_info_attr);
	cli_error_phrase(&ce, phrase, sizeof(phrase));
	is_str(phrase, "get-info request failed: Invalid argument: bad interval (offending attribute 'proto-version')",
	       "cli_error_phrase: errno, extack and offending attribute, no hint");

	/* this host has no memdiag module */
	capture_start(&c);
	rc = md_connect(&nl, &fam, &ce);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_NO_MODULE && ce.code == rc && !*err,
	   "md_connect without the module: exit 2 returned, nothing printed (got %d)", rc);
	free(err);
	is_str(ce.what, "the memdiag module is not loaded",
	       "md_connect without the module: says what failed");
	capture_start(&c);
	rc = cli_report("watch", &ce);
	err = capture_end(&c);
	is_str(err, "memdiagctl: watch: the memdiag module is not loaded: generic netlink family 'memdiag' not found: load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')\n",
	       "cli_report shows it as the command's error");
	free(err);

	cli_error_init(&ce);
	snprintf(ce.warning, sizeof(ce.warning), "deprecated");
	capture_start(&c);
	rc = cli_report("info", &ce);
	err = capture_end(&c);
	ok(rc == MDC_EXIT_OK, "cli_report of a warning alone: exit 0");
	is_str(err, "memdiagctl: info: warning from the memdiag module: deprecated\n",
	       "cli_report shows a warning the kernel acked with");
	free(err);
}
