/* SPDX-License-Identifier: GPL-2.0 */
/* units.h - one function per unit test file, run by unit.c. */

#ifndef MEMDIAGCTL_TEST_UNITS_H
#define MEMDIAGCTL_TEST_UNITS_H

void unit_print(void);
void unit_cpulist(void);
void unit_names(void);
void unit_info(void);
void unit_cli(void);
void unit_opts(void);
void unit_nl(void);
void unit_parse(void);
void unit_metrics(void);
void unit_snapshot(void);
void unit_watch(void);
void unit_watch_chan(void);
void unit_run_counters(void);
void unit_run_warn(void);
void unit_run_progress(void);
void unit_barrier(void);
void unit_prefetch(void);

#endif /* MEMDIAGCTL_TEST_UNITS_H */
