// SPDX-License-Identifier: GPL-2.0
/* session.c - start and stop the sessions during which the counters run. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memdiag.h>

#include "conn.h"
#include "names.h"

/* The session id and core mode of a session-start reply. */
static int read_reply(const struct nlmsghdr *reply, uint32_t *id,
		      uint32_t *core_mode, struct cli_error *err)
{
	const struct nlattr *attr, *tb[MEMDIAG_A_SESSION_MAX + 1] = { NULL };

	if (reply && mnl_nlmsg_get_payload_len(reply) >= sizeof(struct genlmsghdr)) {
		mnl_attr_for_each(attr, reply, sizeof(struct genlmsghdr)) {
			uint16_t type = mnl_attr_get_type(attr);

			if (type <= MEMDIAG_A_SESSION_MAX &&
			    mnl_attr_get_payload_len(attr) == sizeof(uint32_t))
				tb[type] = attr;
		}
	}
	/* closing the socket ends whatever was started */
	if (!tb[MEMDIAG_A_SESSION_ID])
		return cli_error_set(err, MDC_EXIT_KERNEL,
				     "malformed session-start reply from the memdiag module",
				     "no session id");
	*id = mnl_attr_get_u32(tb[MEMDIAG_A_SESSION_ID]);
	if (core_mode)
		*core_mode = tb[MEMDIAG_A_SESSION_CORE_MODE] ?
			     mnl_attr_get_u32(tb[MEMDIAG_A_SESSION_CORE_MODE]) :
			     MEMDIAG_CORE_MODE_MAX + 1;
	return MDC_EXIT_OK;
}

/* session_start() and session_start_groups(): one request, @groups apart */
static int start(struct nl *nl, const struct nl_family *fam,
		 uint32_t interval_ms, uint32_t df_channels, bool groups,
		 uint32_t *id, uint32_t *core_mode, struct cli_error *err)
{
	struct nlmsghdr *req, *reply;
	struct nl_error e;
	const char *msg;
	int rc;

	cli_error_init(err);
	if (md_need_op(fam, MEMDIAG_CMD_SESSION_START, "session-start",
		       err) != MDC_EXIT_OK ||
	    (groups && md_need_op(fam, MEMDIAG_CMD_GROUP_GET, "group-get",
				  err) != MDC_EXIT_OK))
		return err->code;
	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_SESSION_START,
			   MEMDIAG_FAMILY_VERSION, 0);
	mnl_attr_put_u32(req, MEMDIAG_A_SESSION_INTERVAL_MS, interval_ms);
	if (df_channels)
		mnl_attr_put_u32(req, MEMDIAG_A_SESSION_DF_CHANNELS,
				 df_channels);
	if (groups)
		mnl_attr_put_u8(req, MEMDIAG_A_SESSION_GROUPS, 1);
	if (nl_do(nl, req, &reply, &e) < 0) {
		msg = e.msg[0] ? e.msg : strerror(e.err);
		if (e.kernel && e.bad_type == MEMDIAG_A_SESSION_DF_CHANNELS)
			return cli_error_nl(err, "the module refused --df-channels",
					    &e, name_session_attr);
		/* the module names groups when it cannot count per cgroup */
		if (e.kernel && e.bad_type == MEMDIAG_A_SESSION_GROUPS)
			return cli_error_set(err, MDC_EXIT_UNAVAILABLE,
					     "the memdiag module cannot count per cgroup here",
					     "%s", msg);
		if (e.kernel && (e.err == EOPNOTSUPP || e.err == ENODEV)) {
			cli_error_set(err, MDC_EXIT_UNAVAILABLE,
				      "no counter can be read on this machine",
				      "%s", msg);
			snprintf(err->hint, sizeof(err->hint),
				 "'%s info' lists each capability and why it is unavailable",
				 PROG);
			return err->code;
		}
		if (e.kernel && e.err == EBUSY)
			return cli_error_set(err, MDC_EXIT_KERNEL,
					     "the counters are in use by another agent",
					     "%s", msg);
		return cli_error_nl(err, "session-start request failed", &e,
				    name_session_attr);
	}
	snprintf(err->warning, sizeof(err->warning), "%s", e.msg);
	rc = read_reply(reply, id, core_mode, err);
	free(reply);
	return rc;
}

int session_start(struct nl *nl, const struct nl_family *fam,
		  uint32_t interval_ms, uint32_t df_channels, uint32_t *id,
		  uint32_t *core_mode, struct cli_error *err)
{
	return start(nl, fam, interval_ms, df_channels, false, id, core_mode,
		     err);
}

int session_start_groups(struct nl *nl, const struct nl_family *fam,
			 uint32_t interval_ms, uint32_t *id,
			 struct cli_error *err)
{
	return start(nl, fam, interval_ms, 0, true, id, NULL, err);
}

int session_stop(struct nl *nl, const struct nl_family *fam, uint32_t id,
		 struct cli_error *err)
{
	struct nlmsghdr *req;
	struct nl_error e;

	cli_error_init(err);
	req = nl_msg_start(nl, fam->id, MEMDIAG_CMD_SESSION_STOP,
			   MEMDIAG_FAMILY_VERSION, 0);
	mnl_attr_put_u32(req, MEMDIAG_A_SESSION_ID, id);
	if (nl_exchange(nl, req, NULL, NULL, &e) < 0)
		return cli_error_set(err, MDC_EXIT_KERNEL, "warning",
				     "session-stop failed (%s%s%s); the session ends when %s exits",
				     strerror(e.err), e.msg[0] ? ": " : "",
				     e.msg, PROG);
	return MDC_EXIT_OK;
}
