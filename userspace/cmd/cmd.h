/* SPDX-License-Identifier: GPL-2.0 */
/* cmd.h - the memdiagctl commands the command table in memdiagctl.c runs. */

#ifndef MEMDIAGCTL_CMD_H
#define MEMDIAGCTL_CMD_H

#include <stdio.h>

#include <libmnl/libmnl.h>
#include <linux/memdiag.h>

#include "cli.h"
#include "conn.h"
#include "info.h"
#include "metrics.h"
#include "print.h"
#include "verdict_live.h"

/*
 * A command gets the global options and its own argv (argv[0] is its
 * name) and returns an exit code from enum mdc_exit, having reported any
 * failure itself.
 */
int cmd_info(const struct opts *o, int argc, char **argv);
void cmd_info_usage(FILE *f);
int cmd_snapshot(const struct opts *o, int argc, char **argv);
int cmd_validate(const struct opts *o, int argc, char **argv);
void cmd_validate_usage(FILE *f);
/* validate --groups: resctrl's MBM against the memory controllers */
int validate_groups(const char *cmd, const struct opts *o);
void cmd_snapshot_usage(FILE *f);
int cmd_watch(const struct opts *o, int argc, char **argv);
void cmd_watch_usage(FILE *f);
int cmd_prefetch(const struct opts *o, int argc, char **argv);
void cmd_prefetch_usage(FILE *f);
/* "stat -- CMD": the counters over one command's lifetime */
int cmd_stat(const struct opts *o, int argc, char **argv);
void cmd_stat_usage(FILE *f);
/* "export": Prometheus metrics over HTTP and/or a textfile (cmd_export.c) */
int cmd_export(const struct opts *o, int argc, char **argv);
void cmd_export_usage(FILE *f);
/* "run": the micro-kernels of kernels/; needs no module (run/) */
int cmd_run(const struct opts *o, int argc, char **argv);
void cmd_run_usage(FILE *f);
/* The kernels "run" has, from its table: "read-delay, ... or traffic". */
void cmd_run_kernel_names(char *buf, size_t size);
/* the curves of this machine (cmd_calibrate.c, cmd_probe.c, cmd_plot.c) */
int cmd_calibrate(const struct opts *o, int argc, char **argv);
void cmd_calibrate_usage(FILE *f);
int cmd_probe(const struct opts *o, int argc, char **argv);
void cmd_probe_usage(FILE *f);
int cmd_plot(const struct opts *o, int argc, char **argv);
void cmd_plot_usage(FILE *f);
int cmd_top(const struct opts *o, int argc, char **argv);
void cmd_top_usage(FILE *f);

/*
 * Print a get-info reply. Returns an exit code: the reply is checked
 * before anything is printed. Separate from cmd_info() so the tests can
 * feed it canned replies.
 */
int info_show(const char *cmd, struct printer *p, const struct nlmsghdr *nlh);

/*
 * Whether --socket @socket names a socket of @sum; when not, report it as
 * a usage error of @cmd (exit code returned) listing the ones there are.
 */
int info_check_socket(const char *cmd, const struct info_summary *sum,
		      uint32_t socket);

/* The snapshot printer, separate from cmd_snapshot() for the tests. */
int snapshot_show(const char *cmd, struct printer *p,
		  const struct nlmsghdr *const *msgs, size_t nr, bool channels);

/* What snapshot_show_judged() needs for the verdict over a window. */
struct snapshot_window {
	const struct nlmsghdr *const *before;	/* the first reading */
	size_t nr_before;
	uint32_t tsc_khz;
	const struct verdict_src *vs;
};

/* snapshot_show(), then each socket's rates and verdict over @w. */
int snapshot_show_judged(const char *cmd, struct printer *p,
			 const struct nlmsghdr *const *msgs, size_t nr,
			 bool channels, const struct snapshot_window *w);

/* Snapshot replies, copied as they came (snapshot_collect.c). */
struct snapshot_collect {
	struct nlmsghdr **msgs;
	size_t nr;
};

void snapshot_collect_free(struct snapshot_collect *c);
/* Sleep @ms, whatever signals come (their flags are checked after). */
void snapshot_sleep_ms(uint32_t ms);
/* Read the counters into @c: do for one socket, dump for all. An exit code. */
int snapshot_request(const char *cmd, struct nl *nl,
		     const struct nl_family *fam, bool all, uint32_t socket,
		     bool channels, struct snapshot_collect *c);

#endif /* MEMDIAGCTL_CMD_H */
