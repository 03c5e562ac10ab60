// SPDX-License-Identifier: GPL-2.0
/*
 * calib_pf.c - calibrate's prefetcher switching: every prefetcher of one
 * socket on or off through the module (prefetch-set), and what the
 * module found put back (prefetch-restore) however the calibration ends.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "calib_cmd.h"
#include "cmd.h"
#include "names.h"
#include "prefetch.h"

struct calib_pf {
	struct nl nl;
	struct nl_family fam;
	uint32_t socket;
	uint32_t mask;		/* every prefetcher this processor has */
};

static int pf_do(const char *cmd, struct calib_pf *pf, uint8_t op,
		 bool disable, struct pf_state *st)
{
	struct nlmsghdr *req, *reply = NULL;
	struct nl_error e;
	int rc;

	req = nl_msg_start(&pf->nl, pf->fam.id, op, MEMDIAG_FAMILY_VERSION, 0);
	mnl_attr_put_u32(req, MEMDIAG_A_PREFETCH_SOCKET, pf->socket);
	if (op == MEMDIAG_CMD_PREFETCH_SET) {
		mnl_attr_put_u32(req, MEMDIAG_A_PREFETCH_PREFETCHERS, pf->mask);
		mnl_attr_put_u8(req, MEMDIAG_A_PREFETCH_DISABLE, disable);
	}
	if (nl_do(&pf->nl, req, &reply, &e)) {
		if (e.kernel && e.err == EOPNOTSUPP) {
			cli_err(cmd, "option '--prefetch': the prefetchers cannot be switched on this machine",
				"%s", e.msg[0] ? e.msg : strerror(e.err));
			return MDC_EXIT_UNAVAILABLE;
		}
		return cli_nl_fail(cmd, "prefetch request failed", &e,
				   name_prefetch_attr);
	}
	rc = pf_state_parse(cmd, reply, st);
	free(reply);
	return rc;
}

const char *calib_pf_live(const char *cmd)
{
	struct calib_pf *pf = calloc(1, sizeof(*pf));
	struct nlmsghdr *req, *reply = NULL;
	const char *state = NULL;
	struct pf_state st;
	struct nl_error e;

	if (!pf || nl_open(&pf->nl, &e)) {
		free(pf);
		return NULL;
	}
	memset(&st, 0, sizeof(st));
	if (!nl_family_get(&pf->nl, MEMDIAG_FAMILY_NAME, &pf->fam, &e)) {
		/* no scope: every online CPU */
		req = nl_msg_start(&pf->nl, pf->fam.id, MEMDIAG_CMD_PREFETCH_GET,
				   MEMDIAG_FAMILY_VERSION, 0);
		if (!nl_do(&pf->nl, req, &reply, &e) && reply &&
		    pf_state_parse(cmd, reply, &st) == MDC_EXIT_OK)
			state = pf_state_summary(&st);
		free(reply);
		pf_state_free(&st);
		nl_family_free(&pf->fam);
	}
	nl_close(&pf->nl);
	free(pf);
	return state;
}

int calib_pf_open(const char *cmd, uint32_t socket, struct calib_pf **out)
{
	struct calib_pf *pf = calloc(1, sizeof(*pf));
	struct pf_state st;
	int rc;

	*out = NULL;
	if (!pf) {
		cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
		return MDC_EXIT_LOCAL;
	}
	rc = cli_connect(cmd, &pf->nl, &pf->fam);
	if (rc) {
		cli_err(cmd, "hint",
			"option '--prefetch' needs the memdiag module's prefetcher control; leave it out to calibrate with the prefetchers as they are");
		free(pf);
		return rc;
	}
	pf->socket = socket;
	memset(&st, 0, sizeof(st));
	rc = cli_need_op(cmd, &pf->fam, MEMDIAG_CMD_PREFETCH_SET, "prefetch-set");
	if (!rc)
		rc = pf_do(cmd, pf, MEMDIAG_CMD_PREFETCH_GET, false, &st);
	if (!rc && !st.nr_pf) {
		cli_err(cmd, "option '--prefetch': no prefetcher to switch",
			"%s", st.control);
		rc = MDC_EXIT_UNAVAILABLE;
	}
	pf->mask = st.nr_pf >= 32 ? UINT32_MAX :
		   (uint32_t)((1ull << st.nr_pf) - 1);
	pf_state_free(&st);
	if (rc) {
		nl_family_free(&pf->fam);
		nl_close(&pf->nl);
		free(pf);
		return rc;
	}
	*out = pf;
	return MDC_EXIT_OK;
}

int calib_pf_set(const char *cmd, struct calib_pf *pf, bool on)
{
	struct pf_state st;
	int rc;

	memset(&st, 0, sizeof(st));
	rc = pf_do(cmd, pf, MEMDIAG_CMD_PREFETCH_SET, !on, &st);
	pf_state_free(&st);
	return rc;
}

void calib_pf_free(struct calib_pf *pf)
{
	nl_family_free(&pf->fam);
	nl_close(&pf->nl);
	free(pf);
}

int calib_pf_close(const char *cmd, struct calib_pf *pf)
{
	struct pf_state st;
	int rc;

	memset(&st, 0, sizeof(st));
	rc = pf_do(cmd, pf, MEMDIAG_CMD_PREFETCH_RESTORE, false, &st);
	pf_state_free(&st);
	calib_pf_free(pf);
	return rc;
}
