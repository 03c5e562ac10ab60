// SPDX-License-Identifier: GPL-2.0
/* conn.c - connect to the memdiag module; failures returned, never printed. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/memdiag.h>

#include "conn.h"
#include "host_reach.h"

int md_no_family(bool loaded, struct cli_error *err)
{
	if (loaded)
		return cli_error_set(err, MDC_EXIT_NO_MODULE,
				     "generic netlink family '" MEMDIAG_FAMILY_NAME "' not found",
				     "memdiag.ko is loaded, but serves only the initial network namespace: run %s there (e.g. 'nsenter --net=/proc/1/ns/net %s ...')",
				     PROG, PROG);
	return md_not_loaded(err);
}

int md_not_loaded(struct cli_error *err)
{
	const struct host_reach *h = host_reach();
	char why[sizeof(err->detail)];

	host_reach_why(h, why, sizeof(why));
	if (why[0])
		return cli_error_set(err, MDC_EXIT_NO_MODULE,
				     "the memdiag module is not loaded and cannot be",
				     "%s", why);
	cli_error_set(err, MDC_EXIT_NO_MODULE,
		      "the memdiag module is not loaded",
		      "generic netlink family '" MEMDIAG_FAMILY_NAME "' not found: load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')");
	/* what could still stand in the way, as a hint */
	if (h->no_headers && h->hypervisor)
		snprintf(err->hint, sizeof(err->hint),
			 "no kernel headers for %.64s to build it; in a virtual machine the hypervisor may hide the counters: %s work without them",
			 h->kernel, host_reach_counter_free());
	else if (h->no_headers)
		snprintf(err->hint, sizeof(err->hint),
			 "no kernel headers for %.64s here to build it ('make module'): install them, or a packaged module",
			 h->kernel);
	else if (h->hypervisor)
		snprintf(err->hint, sizeof(err->hint),
			 "in a virtual machine the hypervisor may hide the counters: %s work without them",
			 host_reach_counter_free());
	return err->code;
}

int md_connect(struct nl *nl, struct nl_family *fam, struct cli_error *err)
{
	struct nl_error e;

	cli_error_init(err);
	if (nl_open(nl, &e) < 0)
		return cli_error_set(err, e.err == ENOMEM ? MDC_EXIT_LOCAL :
				     MDC_EXIT_KERNEL,
				     "cannot open a generic netlink socket",
				     "%s", strerror(e.err));
	if (nl_family_get(nl, MEMDIAG_FAMILY_NAME, fam, &e) < 0) {
		nl_close(nl);
		if (e.kernel && e.err == ENOENT)
			return md_no_family(access("/sys/module/memdiag", F_OK) == 0,
					    err);
		return cli_error_nl(err,
				    "cannot look up generic netlink family '" MEMDIAG_FAMILY_NAME "'",
				    &e, NULL);
	}
	if (md_check_proto(fam->version, err) != MDC_EXIT_OK) {
		nl_family_free(fam);
		nl_close(nl);
	}
	return err->code;
}

int md_need_op(const struct nl_family *fam, uint32_t op, const char *name,
	       struct cli_error *err)
{
	/* without a list of operations (none reported) there is no telling */
	if (!fam->nr_ops || nl_family_has_op(fam, op))
		return MDC_EXIT_OK;
	return cli_error_set(err, MDC_EXIT_PROTO,
			     "the loaded memdiag module is too old",
			     "it has no %s operation: use the module built with this %s",
			     name, PROG);
}

int md_open(struct nl *nl, struct nl_family *fam, struct info_summary *sum,
	    struct cli_error *err)
{
	struct nlmsghdr *reply = NULL;

	memset(sum, 0, sizeof(*sum));
	if (md_connect(nl, fam, err) != MDC_EXIT_OK)
		return err->code;
	if (md_need_op(fam, MEMDIAG_CMD_SESSION_START, "session-start",
		       err) == MDC_EXIT_OK &&
	    md_need_op(fam, MEMDIAG_CMD_SNAPSHOT, "snapshot",
		       err) == MDC_EXIT_OK &&
	    info_fetch(nl, fam, &reply, err) == MDC_EXIT_OK) {
		char warning[sizeof(err->warning)];

		/* keep the get-info ack's warning past the summary */
		snprintf(warning, sizeof(warning), "%s", err->warning);
		info_summarize(reply, sum, err);
		snprintf(err->warning, sizeof(err->warning), "%s", warning);
	}
	free(reply);
	if (err->code != MDC_EXIT_OK) {
		nl_family_free(fam);
		nl_close(nl);
	}
	return err->code;
}
