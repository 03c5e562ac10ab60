/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conn.h - reaching the memdiag module: the family, its protocol version
 * and operations, and the sessions during which the counters run.
 *
 * Nothing here prints. Each function returns an exit code (enum mdc_exit)
 * and, when that is not MDC_EXIT_OK, fills @err with what failed and the
 * module's extack text; the caller shows it (cli_report()) or keeps it as
 * a reason (cli_error_phrase()).
 */

#ifndef MEMDIAGCTL_CONN_H
#define MEMDIAGCTL_CONN_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "info.h"
#include "nl.h"

/*
 * The memdiag family is absent; @loaded says whether the module is (then
 * this process is in another network namespace). MDC_EXIT_NO_MODULE.
 */
int md_no_family(bool loaded, struct cli_error *err);

/*
 * The module is not loaded: how to load it, or, where this host cannot
 * (host_reach.h), that the counters are out of reach and which commands
 * work without them. MDC_EXIT_NO_MODULE.
 */
int md_not_loaded(struct cli_error *err);

/*
 * Open a socket, resolve the memdiag family and check its version before
 * anything is sent. On success the caller closes both (nl_family_free(),
 * nl_close()); on failure nothing is left open. Always sets @err.
 */
int md_connect(struct nl *nl, struct nl_family *fam, struct cli_error *err);

/*
 * MDC_EXIT_PROTO when @fam lacks operation @op (@name): a module older
 * than this memdiagctl but of the same protocol version.
 */
int md_need_op(const struct nl_family *fam, uint32_t op, const char *name,
	       struct cli_error *err);

/*
 * What snapshot, watch and run do first: md_connect(), check that the
 * module has the session-start and snapshot operations, and summarize its
 * get-info reply into @sum. On success the caller frees @sum and closes
 * @fam and @nl; on failure nothing is left open. Always sets @err.
 */
int md_open(struct nl *nl, struct nl_family *fam, struct info_summary *sum,
	    struct cli_error *err);

/*
 * Start a session at @interval_ms counting the Data Fabric channels of
 * the mask @df_channels all the time (0: none asked, every channel in
 * turns); its id in *@id, and the core mode in *@core_mode when that is
 * not NULL (MEMDIAG_CORE_MODE_MAX + 1 when the module did not say). A
 * refused df-channels is MDC_EXIT_KERNEL naming it; no counter to read
 * (EOPNOTSUPP, ENODEV) is MDC_EXIT_UNAVAILABLE, counters in use elsewhere
 * (EBUSY) MDC_EXIT_KERNEL with that said. Always sets @err (a warning too).
 */
int session_start(struct nl *nl, const struct nl_family *fam,
		  uint32_t interval_ms, uint32_t df_channels, uint32_t *id,
		  uint32_t *core_mode, struct cli_error *err);

/*
 * The same, asking the module to count each cgroup's DRAM bytes (the
 * core estimate, read with groups_read()); where it cannot, the module's
 * reason as MDC_EXIT_UNAVAILABLE.
 */
int session_start_groups(struct nl *nl, const struct nl_family *fam,
			 uint32_t interval_ms, uint32_t *id,
			 struct cli_error *err);

/*
 * Stop session @id. A failure is worth at most a warning: closing the
 * socket ends the session anyway.
 */
int session_stop(struct nl *nl, const struct nl_family *fam, uint32_t id,
		 struct cli_error *err);

#endif /* MEMDIAGCTL_CONN_H */
