// SPDX-License-Identifier: GPL-2.0
/*
 * progress_line.c - the progress line on standard error: "\r" back to the
 * start of the line and an erase to its end (ECMA-48 EL, which every
 * terminal emulator in use knows) before each new text, so that a shorter
 * line leaves nothing of a longer one behind.
 */

#include <stdio.h>
#include <unistd.h>

#include "progress_line.h"

bool progress_line_wanted(void)
{
	return isatty(STDERR_FILENO);
}

void progress_line_show(const char *text)
{
	fprintf(stderr, "\r\033[K%s", text);
	fflush(stderr);
}

void progress_line_end(bool keep)
{
	fputs(keep ? "\n" : "\r\033[K", stderr);
	fflush(stderr);
}
