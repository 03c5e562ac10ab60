/* SPDX-License-Identifier: GPL-2.0 */
/* cmd.h - the memdiagctl commands the command table in memdiagctl.c runs. */

#ifndef MEMDIAGCTL_CMD_H
#define MEMDIAGCTL_CMD_H

#include <stdio.h>

struct opts;		/* cli.h: the global options */

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

#endif /* MEMDIAGCTL_CMD_H */
