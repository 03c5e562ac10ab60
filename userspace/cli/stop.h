/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stop.h - SIGINT and SIGTERM as a flag, for the commands that must
 * finish a step and put the machine back (the prefetchers) before they
 * stop: calibrate, probe and validate. watch and export wait for the
 * signals in a signalfd instead, beside their netlink socket.
 */

#ifndef MEMDIAGCTL_STOP_H
#define MEMDIAGCTL_STOP_H

#include <signal.h>

/* The handlers a catch replaced, for cli_stop_release(). */
struct cli_stop {
	struct sigaction old_int;
	struct sigaction old_term;
};

/*
 * Clear *@flag and, until cli_stop_release(), have SIGINT and SIGTERM
 * store their number in it. No SA_RESTART: a blocking read or sleep
 * returns EINTR, so that the command sees the flag at once.
 */
void cli_stop_catch(struct cli_stop *s, volatile sig_atomic_t *flag);

/* Put back the handlers cli_stop_catch() found. */
void cli_stop_release(struct cli_stop *s);

#endif /* MEMDIAGCTL_STOP_H */
