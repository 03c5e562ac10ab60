// SPDX-License-Identifier: GPL-2.0
/* session.c - start and stop the sessions during which the counters run. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memdiag.h>

#include "cmd.h"
#include "names.h"

int session_start(const char *cmd, struct nl *nl, const struct nl_family *fam,
		  uint32_t interval_ms, uint32_t *id, uint32_t *core_mode)
{
	const struct nlattr *attr, *tb[MEMDIAG_A_SESSION_MAX + 1] = { NULL };
	struct nlmsghdr *req, *reply;
	struct nl_error e;
	int rc;

	rc = cli_need_op(cmd, fam, MEMDIAG_CMD_SESSION_START, "session-start");
	if (rc != MDC_EXIT_OK)
		return rc;
	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_SESSION_START,
			   MEMDIAG_FAMILY_VERSION, 0);
	mnl_attr_put_u32(req, MEMDIAG_A_SESSION_INTERVAL_MS, interval_ms);
	if (nl_do(nl, req, &reply, &e) < 0) {
		if (e.kernel && (e.err == EOPNOTSUPP || e.err == ENODEV)) {
			cli_err(cmd, "no counter can be read on this machine",
				"%s", e.msg[0] ? e.msg : strerror(e.err));
			cli_err(cmd, "hint",
				"'%s info' lists each capability and why it is unavailable",
				PROG);
			return MDC_EXIT_UNAVAILABLE;
		}
		return cli_nl_fail(cmd, "session-start request failed", &e,
				   name_session_attr);
	}
	cli_nl_warn(cmd, &e);
	if (reply && mnl_nlmsg_get_payload_len(reply) >= sizeof(struct genlmsghdr)) {
		mnl_attr_for_each(attr, reply, sizeof(struct genlmsghdr)) {
			uint16_t type = mnl_attr_get_type(attr);

			if (type <= MEMDIAG_A_SESSION_MAX &&
			    mnl_attr_get_payload_len(attr) == sizeof(uint32_t))
				tb[type] = attr;
		}
	}
	free(reply);
	if (!tb[MEMDIAG_A_SESSION_ID]) {
		cli_err(cmd, "malformed session-start reply from the memdiag module",
			"no session id");
		return MDC_EXIT_KERNEL;
	}
	*id = mnl_attr_get_u32(tb[MEMDIAG_A_SESSION_ID]);
	if (core_mode)
		*core_mode = tb[MEMDIAG_A_SESSION_CORE_MODE] ?
			     mnl_attr_get_u32(tb[MEMDIAG_A_SESSION_CORE_MODE]) :
			     MEMDIAG_CORE_MODE_MAX + 1;
	return MDC_EXIT_OK;
}

void session_stop(const char *cmd, struct nl *nl, const struct nl_family *fam,
		  uint32_t id)
{
	struct nlmsghdr *req;
	struct nl_error e;

	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_SESSION_STOP,
			   MEMDIAG_FAMILY_VERSION, 0);
	mnl_attr_put_u32(req, MEMDIAG_A_SESSION_ID, id);
	if (nl_exchange(nl, req, NULL, NULL, &e) < 0)
		cli_err(cmd, "warning",
			"session-stop failed (%s%s%s); the session ends when %s exits",
			strerror(e.err), e.msg[0] ? ": " : "", e.msg, PROG);
}
