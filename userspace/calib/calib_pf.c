// SPDX-License-Identifier: GPL-2.0
/*
 * calib_pf.c - the prefetcher switching of calibrate and validate: every
 * prefetcher of one socket (or of every socket) on or off through the
 * module (prefetch-set), and what the module found put back
 * (prefetch-restore) however the measuring ends.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/memdiag.h>

#include "calib_cmd.h"
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
	/* no scope attribute: every online CPU */
	if (pf->socket != CALIB_PF_ALL)
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

/*
 * The prefetch-get of every online CPU into @st, quietly: false when the
 * module cannot tell (not loaded, an error); *@can_set says whether it
 * offers prefetch-set.
 */
static bool pf_get_all(const char *cmd, struct pf_state *st, bool *can_set)
{
	struct calib_pf *pf = calloc(1, sizeof(*pf));
	struct nlmsghdr *req, *reply = NULL;
	struct nl_error e;
	bool ok = false;

	memset(st, 0, sizeof(*st));
	*can_set = false;
	if (!pf || nl_open(&pf->nl, &e)) {
		free(pf);
		return false;
	}
	if (!nl_family_get(&pf->nl, MEMDIAG_FAMILY_NAME, &pf->fam, &e)) {
		*can_set = nl_family_has_op(&pf->fam, MEMDIAG_CMD_PREFETCH_SET);
		req = nl_msg_start(&pf->nl, pf->fam.id, MEMDIAG_CMD_PREFETCH_GET,
				   MEMDIAG_FAMILY_VERSION, 0);
		ok = !nl_do(&pf->nl, req, &reply, &e) && reply &&
		     pf_state_parse(cmd, reply, st) == MDC_EXIT_OK;
		free(reply);
		nl_family_free(&pf->fam);
	}
	nl_close(&pf->nl);
	free(pf);
	return ok;
}

const char *calib_pf_live(const char *cmd)
{
	const char *state = NULL;
	struct pf_state st;
	bool can_set;

	if (pf_get_all(cmd, &st, &can_set))
		state = pf_state_summary(&st);
	pf_state_free(&st);
	return state;
}

/* Whether this process has CAP_SYS_ADMIN and CAP_SYS_RAWIO in effect. */
static bool pf_capable(void)
{
	const unsigned long long need = 1ull << 21 | 1ull << 17;
	unsigned long long eff = 0;
	char line[128];
	bool found = false;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	return found && (eff & need) == need;
}

bool calib_pf_can(const char *cmd, char *why, size_t len)
{
	struct pf_state st;
	bool can_set, ok;

	ok = pf_get_all(cmd, &st, &can_set);
	if (!ok)
		snprintf(why, len, "the memdiag module is not loaded or cannot tell");
	else if (!can_set)
		snprintf(why, len, "the memdiag module has no prefetch-set");
	else if (!st.nr_pf)
		snprintf(why, len, "no prefetcher control here (%s)", st.control);
	else if (!pf_capable())
		snprintf(why, len, "switching them needs CAP_SYS_ADMIN and CAP_SYS_RAWIO (run as root)");
	ok = ok && can_set && st.nr_pf && pf_capable();
	pf_state_free(&st);
	return ok;
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
			"option '--prefetch' needs the memdiag module's prefetcher control; without it the prefetchers stay as they are");
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
