// SPDX-License-Identifier: GPL-2.0
/* stop.c - SIGINT and SIGTERM as a flag (stop.h). */

#include <string.h>

#include "stop.h"

/* the flag of the catch in force; one at a time, as commands run */
static volatile sig_atomic_t *stop_flag;

static void on_stop_signal(int sig)
{
	*stop_flag = sig;
}

void cli_stop_catch(struct cli_stop *s, volatile sig_atomic_t *flag)
{
	struct sigaction sa;

	*flag = 0;
	stop_flag = flag;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &s->old_int);
	sigaction(SIGTERM, &sa, &s->old_term);
}

void cli_stop_release(struct cli_stop *s)
{
	sigaction(SIGINT, &s->old_int, NULL);
	sigaction(SIGTERM, &s->old_term, NULL);
}
