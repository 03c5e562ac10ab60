// SPDX-License-Identifier: GPL-2.0
/*
 * kernels.c - the kernels "memdiagctl run" has (run.h): the one table
 * that cmd/cmd_run.c picks from and --help (help.c) and the option rows
 * (params.c) list, so a new kernel is one pointer here.
 */

#include <stddef.h>

#include "run/run.h"

/* The kernels, in the order --help lists them. */
const struct run_kernel *const run_kernels[] = {
	&run_read_delay, &run_stream, &run_latency, &run_loaded_latency,
	&run_stencil, &run_throughput, &run_transpose, &run_traffic,
};

const size_t run_nr_kernels = sizeof(run_kernels) / sizeof(run_kernels[0]);
