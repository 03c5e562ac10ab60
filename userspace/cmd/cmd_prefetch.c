// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_prefetch.c - "memdiagctl prefetch": show, switch and restore the
 * hardware prefetchers through the module, which widens every request to
 * whole cores, reads each write back and puts back what it found.
 *
 * Names are resolved against the list the module reports for this
 * processor before anything is changed, so a bad name or scope changes
 * nothing.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>

#include "cmd.h"
#include "cpulist.h"
#include "names.h"
#include "opts.h"
#include "parse.h"
#include "prefetch.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum pf_action { PF_STATUS, PF_DISABLE, PF_ENABLE, PF_RESTORE };

static const char *const action_name[] = {
	[PF_STATUS] = "status", [PF_DISABLE] = "disable",
	[PF_ENABLE] = "enable", [PF_RESTORE] = "restore",
};

void cmd_prefetch_usage(FILE *f)
{
	fputs("Usage: " PROG " prefetch status  [--socket N | --cpu LIST] [-j|-p]\n"
	      "       " PROG " prefetch disable [--socket N | --cpu LIST] [PREFETCHER...]\n"
	      "       " PROG " prefetch enable  [--socket N | --cpu LIST] [PREFETCHER...]\n"
	      "       " PROG " prefetch restore [--socket N | --cpu LIST]\n"
	      "\n"
	      "Show or switch the hardware prefetchers. status prints one row per\n"
	      "group of CPUs in the same state; disable and enable switch the named\n"
	      "prefetchers (all by default) and print the CPUs they touched;\n"
	      "restore puts back the values memdiag found before it first changed\n"
	      "them (as unloading the module does).\n"
	      "\n"
	      "Hyperthread siblings share one register, so a request covers whole\n"
	      "cores: --cpu 2 also switches CPU 2's sibling. Only the named bits\n"
	      "change. Each write is read back; if one does not stick (a virtual\n"
	      "machine), every core already changed is put back and nothing stays\n"
	      "changed. Changing needs CAP_SYS_ADMIN and CAP_SYS_RAWIO (root).\n"
	      "\n"
	      "Prefetchers (which exist depends on the processor; status lists\n"
	      "them): Intel l2-stream l2-adjacent l1-nextline l1-ip; AMD l1-stream\n"
	      "l1-stride l1-region l2-stream l2-updown; or all.\n"
	      "\n"
	      "Options:\n"
	      "  -s, --socket N    only the CPUs of socket N (and CPUs of it that\n"
	      "                    come online later)\n"
	      "  -c, --cpu LIST    only these CPUs, e.g. 0-3,8 (and their siblings)\n",
	      f);
	cli_opts_usage(f, CLI_OPT_ALL, 20, NULL);
}

static const struct option prefetch_options[] = {
	{ "socket", required_argument, NULL, 's' },
	{ "cpu", required_argument, NULL, 'c' },
	{ NULL, 0, NULL, 0 }
};

struct pf_args {
	enum pf_action action;
	bool have_socket;
	uint32_t socket;
	uint32_t *cpu;
	size_t nr_cpu;
	char **names;		/* argv entries */
	size_t nr_names;
};

/* prefetch-get (with the scope) or a change; *@reply is malloc()ed. */
static int pf_request(const char *cmd, struct nl *nl,
		      const struct nl_family *fam, const struct pf_args *a,
		      uint8_t op, uint32_t mask, struct nlmsghdr **reply)
{
	struct pf_scope scope = {
		.have_socket = a->have_socket, .socket = a->socket,
		.cpu = a->cpu, .nr_cpu = a->nr_cpu,
	};
	struct nlmsghdr *req;
	struct nl_error e;
	int rc;

	req = pf_request_new(nl, fam->id, op, &scope, mask,
			     a->action == PF_DISABLE);
	if (!req) {
		cli_err(cmd, "building the request failed", "%s",
			strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	rc = nl_do(nl, req, reply, &e);
	free(req);
	if (rc == 0) {
		cli_nl_warn(cmd, &e);
		return MDC_EXIT_OK;
	}
	if (!e.kernel)
		return cli_nl_fail(cmd, "prefetch request failed", &e,
				   name_prefetch_attr);
	switch (e.err) {
	case EPERM:
	case EACCES:
		cli_err(cmd, "permission denied", "%s",
			e.msg[0] ? e.msg : strerror(e.err));
		cli_err(cmd, "hint", "%s",
			op == MEMDIAG_CMD_PREFETCH_GET ?
			"run as root, grant CAP_PERFMON, or load the module with unprivileged_read=1" :
			"run as root: changing prefetchers needs CAP_SYS_ADMIN and CAP_SYS_RAWIO");
		return MDC_EXIT_PERM;
	case EOPNOTSUPP:
		cli_err(cmd, "prefetchers cannot be switched on this machine",
			"%s", e.msg[0] ? e.msg : strerror(e.err));
		cli_err(cmd, "hint",
			"'%s info' shows the prefetch-control capability", PROG);
		return MDC_EXIT_UNAVAILABLE;
	case EINVAL:
		/* the scope: the module knows what is online */
		if (e.msg[0] && (!strncmp(e.msg, "cpu", 3) ||
				 !strncmp(e.msg, "socket", 6)))
			return cli_usage(cmd, "option '--%s': %s",
					 e.msg[0] == 'c' ? "cpu" : "socket",
					 strchr(e.msg, ':') ?
					 strchr(e.msg, ':') + 2 : e.msg);
		break;
	case EIO:
		/* the module's text says what was undone and what could not be */
		cli_err(cmd, op == MEMDIAG_CMD_PREFETCH_GET ?
			"reading the prefetcher state failed" :
			op == MEMDIAG_CMD_PREFETCH_RESTORE ?
			"the restore failed" : "the change failed", "%s",
			e.msg[0] ? e.msg : strerror(e.err));
		return MDC_EXIT_KERNEL;
	}
	return cli_nl_fail(cmd, "prefetch request failed", &e,
			   name_prefetch_attr);
}

/* The names given (or "all") as a mask of the processor's prefetchers. */
static int pf_resolve(const char *cmd, const struct pf_args *a,
		      const struct pf_state *st, uint32_t *mask)
{
	char known[512];
	size_t i, len = 0;
	int k;

	*mask = 0;
	if (!a->nr_names) {
		*mask = st->nr_pf >= 32 ? UINT32_MAX :
			(uint32_t)((1ull << st->nr_pf) - 1);
		return MDC_EXIT_OK;
	}
	for (i = 0; i < a->nr_names; i++) {
		if (!strcmp(a->names[i], "all")) {
			*mask |= (uint32_t)((1ull << st->nr_pf) - 1);
			continue;
		}
		k = pf_state_find(st, a->names[i]);
		if (k >= 0) {
			*mask |= 1u << k;
			continue;
		}
		known[0] = '\0';
		for (k = 0; (size_t)k < st->nr_pf && len < sizeof(known); k++)
			len += (size_t)snprintf(known + len, sizeof(known) - len,
						"%s ", st->pf[k].name);
		return cli_usage(cmd, "unknown prefetcher '%s': this processor (%s) has %sor all",
				 a->names[i], st->control, known);
	}
	return MDC_EXIT_OK;
}

/*
 * A CPU the kernel cannot have is refused here, before any request: the
 * module would only say it is not online, and this bounds the request to
 * one attribute per possible CPU.
 */
static int check_possible(const char *cmd, const struct pf_args *a)
{
	uint32_t nr;
	size_t i;

	if (cpulist_possible("/sys/devices/system/cpu/possible", &nr) < 0)
		return MDC_EXIT_OK;	/* no sysfs: the module checks */
	for (i = 0; i < a->nr_cpu; i++)
		if (a->cpu[i] >= nr)
			return cli_usage(cmd, "option '--cpu': CPU %u does not exist: this machine's CPUs are 0-%u",
					 a->cpu[i], nr - 1);
	return MDC_EXIT_OK;
}

static int parse_args(struct pf_args *a, struct opts *o, int argc,
		      char **argv)
{
	struct cli_opts t;
	const char *cmd = "prefetch";
	char err[200];
	uint64_t v;
	size_t k;
	int c, rc;

	memset(a, 0, sizeof(*a));
	cli_opts_init(&t, CLI_OPT_ALL, ":s:c:", prefetch_options);
	while ((c = cli_opts_next(&t, argc, argv)) != -1) {
		switch (c) {
		case 's':
			if (parse_uint(optarg, 0, UINT32_MAX, &v, err,
				       sizeof(err)) < 0)
				return cli_usage(cmd, "option '--socket': %s", err);
			a->socket = (uint32_t)v;
			a->have_socket = true;
			break;
		case 'c':
			free(a->cpu);
			a->cpu = NULL;
			if (cpulist_parse(optarg, NULL, &a->cpu, &a->nr_cpu, err,
					  sizeof(err)) < 0)
				return cli_usage(cmd, "option '--cpu': %s", err);
			if (check_possible(cmd, a) != MDC_EXIT_OK)
				return MDC_EXIT_USAGE;
			break;
		default:
			rc = cli_opts_common(cmd, c, argv,
					     o, cmd_prefetch_usage);
			if (rc != CLI_OPT_NEXT)
				return rc;	/* -1 after --help */
			break;
		}
	}
	if (optind >= argc)
		return cli_usage(cmd, "no action given: status, disable, enable or restore");
	for (k = 0; k < ARRAY_SIZE(action_name) &&
		    strcmp(argv[optind], action_name[k]); k++)
		;
	if (k == ARRAY_SIZE(action_name))
		return cli_usage(cmd, "unknown action '%s': use status, disable, enable or restore",
				 argv[optind]);
	a->action = (enum pf_action)k;
	optind++;
	if (a->have_socket && a->cpu)
		return cli_usage(cmd, "options '--socket' and '--cpu' exclude each other");
	a->names = argv + optind;
	a->nr_names = (size_t)(argc - optind);
	if (a->nr_names && (a->action == PF_STATUS || a->action == PF_RESTORE))
		return cli_usage(cmd, "'%s' takes no prefetcher names (it covers them all): unexpected '%s'",
				 action_name[a->action], a->names[0]);
	return MDC_EXIT_OK;
}

int cmd_prefetch(const struct opts *gopts, int argc, char **argv)
{
	const char *cmd = "prefetch";
	struct nlmsghdr *reply = NULL;
	struct pf_state st, done;
	struct opts o = *gopts;
	struct nl_family fam;
	struct pf_args a;
	struct printer p;
	uint32_t mask = 0;
	struct nl nl;
	int rc;

	rc = parse_args(&a, &o, argc, argv);
	if (rc != MDC_EXIT_OK) {
		free(a.cpu);
		return rc < 0 ? MDC_EXIT_OK : rc;
	}
	rc = cli_connect(cmd, &nl, &fam);
	if (rc != MDC_EXIT_OK) {
		free(a.cpu);
		return rc;
	}
	memset(&st, 0, sizeof(st));
	memset(&done, 0, sizeof(done));
	rc = cli_need_op(cmd, &fam, MEMDIAG_CMD_PREFETCH_GET, "prefetch-get");
	/* the names and the scope are checked before anything changes */
	if (rc == MDC_EXIT_OK)
		rc = pf_request(cmd, &nl, &fam, &a, MEMDIAG_CMD_PREFETCH_GET, 0,
				&reply);
	if (rc == MDC_EXIT_OK)
		rc = pf_state_parse(cmd, reply, &st);
	free(reply);
	reply = NULL;
	if (rc == MDC_EXIT_OK &&
	    (a.action == PF_DISABLE || a.action == PF_ENABLE))
		rc = pf_resolve(cmd, &a, &st, &mask);
	if (rc == MDC_EXIT_OK && a.action != PF_STATUS) {
		uint8_t op = a.action == PF_RESTORE ? MEMDIAG_CMD_PREFETCH_RESTORE :
						      MEMDIAG_CMD_PREFETCH_SET;

		rc = pf_request(cmd, &nl, &fam, &a, op, mask, &reply);
		if (rc == MDC_EXIT_OK)
			rc = pf_state_parse(cmd, reply, &done);
		free(reply);
	}
	if (rc == MDC_EXIT_OK) {
		print_init(&p, stdout, o.json, o.pretty);
		pf_state_show(&p, a.action == PF_STATUS ? &st : &done,
			      action_name[a.action], a.action == PF_STATUS ||
			      a.action == PF_RESTORE ? 0 : mask);
		rc = cli_output_end(cmd, &p);
	}
	pf_state_free(&st);
	pf_state_free(&done);
	nl_family_free(&fam);
	nl_close(&nl);
	free(a.cpu);
	return rc;
}
