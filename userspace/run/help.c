// SPDX-License-Identifier: GPL-2.0
/*
 * help.c - "memdiagctl run --help": what run does, its kernels and its
 * options (the man page says the same; tests/helpman.sh checks).
 */

#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "opts.h"
#include "run/run.h"

static void usage_options(FILE *f);

/*
 * The kernels of run_kernels[], each name in the 14 columns before its
 * paragraph (on a line of its own when longer than those allow).
 */
static void run_help_kernels(FILE *f)
{
	size_t i;

	for (i = 0; i < run_nr_kernels; i++) {
		const struct run_kernel *k = run_kernels[i];
		const char *line = k->help, *nl;

		if (strlen(k->name) <= 10)
			fprintf(f, "  %-10s  ", k->name);
		else
			fprintf(f, "  %s\n%14s", k->name, "");
		while ((nl = strchr(line, '\n'))) {
			fprintf(f, "%.*s\n%14s", (int)(nl - line), line, "");
			line = nl + 1;
		}
		fprintf(f, "%s\n", line);
	}
}

void cmd_run_usage(FILE *f)
{
	fputs("Usage: " PROG " run KERNEL [--threads N] [--cpus LIST | --node N | --socket N]\n"
	      "                      [--membind N] [--size SIZE]\n"
	      "                      [--delay N] [--nt] [--reps N] [--min-time SECONDS]\n"
	      "                      [--timing repetition|whole]\n"
	      "                      [--hugepages] [--pages auto|4k|huge]\n"
	      "                      [--sweeps N] [--variant LIST] [--barrier spin|tree]\n"
	      "                      [--groups N] [--model-gbps X]\n"
	      "                      [--width W] [--mix LIST] [--distance D] [--matrix]\n"
	      "                      [-j|--json] [-p|--pretty] [--csv]\n"
	      "\n"
	      "Run a memory micro-kernel on pinned threads, each on memory it\n"
	      "touched first, each measurement repeated at least --reps times and\n"
	      "until --min-time seconds were timed, and print the median, min and\n"
	      "max bandwidth or latency and the coefficient of variation (stddev/mean).\n"
	      "When the memdiag module is loaded and its counters can be read, each\n"
	      "result also gets, per socket, the DRAM bytes read and written, the\n"
	      "offcore DRAM read bytes and the L1 miss and load miss real latencies\n"
	      "(core cycles) over exactly the timed part; otherwise the run goes on\n"
	      "and says why there are no counters.\n"
	      "\n"
	      "Kernels:\n", f);
	run_help_kernels(f);
	fputs("\n", f);
	usage_options(f);
}

/* The second half of the help: the options. */
static void usage_options(FILE *f)
{
	fputs("Options:\n"
	      "  -t, --threads N   threads (default: the number of --cpus, or 1;\n"
	      "                    loaded-latency: every CPU)\n"
	      "  -c, --cpus LIST   CPUs to pin the threads to, e.g. 0-3,8 (default:\n"
	      "                    the first CPUs this process may run on)\n"
	      "      --node N      the threads on NUMA node N's CPUs (sysfs), the\n"
	      "                    first --threads of them\n"
	      "      --socket N    the threads on package N's CPUs\n"
	      "      --membind N   every buffer bound to NUMA node N (default: the\n"
	      "                    node of each thread's CPU); results say where\n"
	      "                    the memory is (memory_node, from move_pages) and\n"
	      "                    a warning when it is not on N\n"
	      "  -s, --size SIZE   bytes, or a number with K, M or G (64K, 1.5G); KB,\n"
	      "                    KiB, kB, MB, MiB, GB, GiB too, all binary: 64MB is\n"
	      "                    64 x 2^20 bytes, as in likwid-bench and MLC\n"
	      "  -d, --delay N     NOPs after every four reads (read-delay, default\n"
	      "                    0; loaded-latency, a comma list)\n"
	      "      --nt          stream: non-temporal (streaming) stores, which\n"
	      "                    bypass the caches and skip the write-allocate read\n"
	      "  -r, --reps N      repetitions of each measurement at least (default 5)\n"
	      "      --min-time SECONDS  and until they add up to this much time\n"
	      "                    timed (default 0.2; 0.5, 300ms; 0: exactly --reps;\n"
	      "                    at most 3600 s, 100000 reps); each row says its\n"
	      "                    reps (-j: reps, timed_s, and the share\n"
	      "                    of thread time spent waiting for the\n"
	      "                    slowest thread, thread_wait_fraction, and\n"
	      "                    the loop's calls per repetition,\n"
	      "                    parts_per_rep); stream and throughput\n"
	      "                    first warm up for 0.5 s, not kept\n"
	      "      --timing repetition|whole  how threads are timed. repetition\n"
	      "                    (default): every repetition ends at a barrier\n"
	      "                    of all threads, as STREAM's implicit barrier\n"
	      "                    ends each kernel, so a lagging thread holds\n"
	      "                    up each one. whole: as likwid-bench times,\n"
	      "                    each thread runs its whole iteration count\n"
	      "                    (the calls that last --min-time, sized on a\n"
	      "                    first call not kept) between two barriers,\n"
	      "                    and a repetition's time is the slowest\n"
	      "                    thread's own; exactly --reps such runs;\n"
	      "                    thread_wait_fraction is then the wait at\n"
	      "                    the one barrier that ends each run. stream,\n"
	      "                    throughput, read-delay and traffic only (the\n"
	      "                    others are refused: their threads share data\n"
	      "                    or time one chase); at one thread it changes\n"
	      "                    only the repetition's length. The head says\n"
	      "                    which (-j: timing)\n"
	      "  -H, --hugepages   ask for transparent hugepages (MADV_HUGEPAGE,\n"
	      "                    buffers aligned to them); every kernel reports\n"
	      "                    what was granted (pages, hugepage_bytes) and\n"
	      "                    warns when it was not; latency: --pages huge\n"
	      "      --pages auto|4k|huge  latency: the chase's pages. auto (default):\n"
	      "                    huge pages for a working set of one huge page or\n"
	      "                    more, as MLC chases, 4K below; 4k: base pages,\n"
	      "                    whose page walks are then in the latency; huge:\n"
	      "                    ask at every size. Each row says the page size\n"
	      "                    asked, the one granted and whether page walks\n"
	      "                    are in it (walks: 4K pages over more than the\n"
	      "                    L2 cache; ?: huge pages in a virtual machine,\n"
	      "                    whose host's pages are not visible)\n"
	      "      --variant LIST  stencil and transpose: a comma list of the\n"
	      "                    kernel's variants (default: all, for transpose\n"
	      "                    all this CPU runs); stencil's: jacobi-threaded,\n"
	      "                    jacobi-wavefront, gs-threaded, gs-wavefront;\n"
	      "                    transpose's: naive, sse, sse-prefetch, avx,\n"
	      "                    avx-prefetch\n"
	      "      --sweeps N    stencil: sweeps per repetition (default 8, rounded\n"
	      "                    up to whole wavefront passes)\n"
	      "      --barrier spin|tree  stencil: the barrier after each plane\n"
	      "                    (default spin)\n"
	      "      --groups N    stencil: wavefront thread groups (default: one per\n"
	      "                    last-level cache); each does one sweep per thread\n"
	      "                    in a pass\n"
	      "      --model-gbps X  stencil: the model's bandwidth in GB/s (default:\n"
	      "                    a STREAM triad on the same threads and size)\n"
	      "      --width W     throughput: sse (128-bit), avx (256; also avx2) or avx512\n"
	      "                    (512) loads (default: the widest this CPU has)\n"
	      "      --mix LIST    throughput: a comma list of load, load-fadd and\n"
	      "                    load-nop (default: all three); traffic and\n"
	      "                    loaded-latency: one of read, 2:1, 1:1 (default\n"
	      "                    read)\n"
	      "      --distance D  transpose: prefetch the source D rows ahead\n"
	      "                    (0 to 1024; default 8)\n"
	      "      --matrix      latency: the NUMA node x node latency matrix\n"
	      "                    (not with --cpus, --threads, --node, --socket,\n"
	      "                    --membind)\n", f);
	cli_opts_usage(f, CLI_OPT_JSON, 20, NULL);
	fputs("      --csv         CSV: a header row, then one row per result with\n"
	      "                    the JSON's values (nested keys joined with '.',\n"
	      "                    e.g. meta.hostname, counters.sockets.0.read_bytes)\n",
	      f);
	cli_opts_usage(f, CLI_OPT_HELP, 20, NULL);
	fputs("\n"
	      "GB/s are 10^9 bytes/s. Progress (the size, phase and repetition\n"
	      "running, ~N s left for the whole run) goes to stderr only when\n"
	      "stdout is a terminal. -j and --csv begin with \"meta\": host name, CPU model,\n"
	      "kernel, memdiag version and commit, date and the exact command line.\n"
	      "\n"
	      "The head names the statistic each row shows: the median of the reps,\n"
	      "with min and max beside it. After the results, stderr\n"
	      "(and -j's \"warnings\") says which rows are noisy (CoV above 0.10:\n"
	      "rerun on a quiet machine or raise --min-time; -j: \"noisy\" per row) and\n"
	      "when a size meant for DRAM (latency: the largest; read-delay, stream,\n"
	      "traffic: all buffers) fits in the last-level cache sysfs gives for\n"
	      "CPU 0. loaded-latency repeats each delay --reps times and more until\n"
	      "--min-time at the idle cost of a flushed load (at most 64).\n"
	      "\n"
	      "Ctrl-C stops the run after the repetition running and prints the rows\n"
	      "whose measurement finished (latency's and throughput's sizes, stream's\n"
	      "ops, loaded-latency's delays, stencil's and transpose's variants, each\n"
	      "measured in turn; still valid JSON); a second Ctrl-C ends it at once.\n"
	      "\n"
	      "Exit status: 0 success, 1 usage error (a bad node or socket too), 6 a\n"
	      "kernel failed (out of memory, a verification failed), 130 interrupted\n"
	      "by Ctrl-C.\n",
	      f);
}
