// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - the options of "memdiagctl run", each once: its
 * getopt_long() row and its --help entry, from which help.c prints the
 * usage line and the options (tests/helpman.sh holds the man page to
 * them). Those every kernel takes come first, then the kernel options,
 * which a kernel takes when it has a struct run_param row for them.
 */

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"

/* The options of every kernel, in the order --help lists them. */
const struct run_opt run_copts[] = {
	{ .name = "threads", .has_arg = required_argument, .val = 't',
	  .arg = "N",
	  .help = "threads (default: the number of --cpus, or 1;\n"
		  "loaded-latency: every CPU)" },
	{ .name = "cpus", .has_arg = required_argument, .val = 'c',
	  .arg = "LIST",
	  .help = "CPUs to pin the threads to, e.g. 0-3,8 (default:\n"
		  "the first CPUs this process may run on)" },
	{ .name = "node", .has_arg = required_argument, .val = RUN_OPT_NODE,
	  .arg = "N", .or_prev = true,
	  .help = "the threads on NUMA node N's CPUs (sysfs), the\n"
		  "first --threads of them" },
	{ .name = "socket", .has_arg = required_argument, .val = RUN_OPT_SOCKET,
	  .arg = "N", .or_prev = true,
	  .help = "the threads on package N's CPUs" },
	{ .name = "membind", .has_arg = required_argument,
	  .val = RUN_OPT_MEMBIND, .arg = "N",
	  .help = "every buffer bound to NUMA node N (default: the\n"
		  "node of each thread's CPU); results say where\n"
		  "the memory is (memory_node, from move_pages) and\n"
		  "a warning when it is not on N" },
	{ .name = "size", .has_arg = required_argument, .val = 's',
	  .arg = "SIZE",
	  .help = "bytes, or a number with K, M or G (64K, 1.5G); KB,\n"
		  "KiB, kB, MB, MiB, GB, GiB too, all binary: 64MB is\n"
		  "64 x 2^20 bytes, as in likwid-bench and MLC" },
	{ .name = "reps", .has_arg = required_argument, .val = 'r', .arg = "N",
	  .help = "repetitions of each measurement at least (default 5)" },
	{ .name = "min-time", .has_arg = required_argument,
	  .val = RUN_OPT_MIN_TIME, .arg = "SECONDS",
	  .help = "and until they add up to this much time\n"
		  "timed (default 0.2; 0.5, 300ms; 0: exactly --reps;\n"
		  "at most 3600 s, 100000 reps); each row says its\n"
		  "reps (-j: reps, timed_s, and the share\n"
		  "of thread time spent waiting for the\n"
		  "slowest thread, thread_wait_fraction, and\n"
		  "the loop's calls per repetition,\n"
		  "parts_per_rep); stream and throughput\n"
		  "first warm up for 0.5 s, not kept" },
	{ .name = "timing", .has_arg = required_argument, .val = RUN_OPT_TIMING,
	  .arg = "repetition|whole",
	  .help = "how threads are timed. repetition\n"
		  "(default): every repetition ends at a barrier\n"
		  "of all threads, as STREAM's implicit barrier\n"
		  "ends each kernel, so a lagging thread holds\n"
		  "up each one. whole: as likwid-bench times,\n"
		  "each thread runs its whole iteration count\n"
		  "(the calls that last --min-time, sized on a\n"
		  "first call not kept) between two barriers,\n"
		  "and a repetition's time is the slowest\n"
		  "thread's own; exactly --reps such runs;\n"
		  "thread_wait_fraction is then the wait at\n"
		  "the one barrier that ends each run. stream,\n"
		  "throughput, read-delay and traffic only (the\n"
		  "others are refused: their threads share data\n"
		  "or time one chase); at one thread it changes\n"
		  "only the repetition's length. The head says\n"
		  "which (-j: timing)" },
	{ .name = "hugepages", .has_arg = no_argument, .val = 'H',
	  .help = "ask for transparent hugepages (MADV_HUGEPAGE,\n"
		  "buffers aligned to them); every kernel reports\n"
		  "what was granted (pages, hugepage_bytes) and\n"
		  "warns when it was not; latency: --pages huge" },
	{ .name = "csv", .has_arg = no_argument, .val = RUN_OPT_CSV,
	  .help = "CSV: a header row, then one row per result with\n"
		  "the JSON's values (nested keys joined with '.',\n"
		  "e.g. meta.hostname, counters.sockets.0.read_bytes)" },
};
const size_t run_nr_copts = sizeof(run_copts) / sizeof(run_copts[0]);

/*
 * The kernel options, in the order --help lists them; .noun names what a
 * kernel without the option's row lacks ("kernel 'x' has no NOUN").
 */
const struct run_opt run_kopts[] = {
	{ .name = "delay", .has_arg = required_argument, .val = 'd',
	  .noun = "delay", .arg = "N",
	  .help = "NOPs after every four reads (read-delay, default\n"
		  "0; loaded-latency, a comma list)" },
	{ .name = "nt", .has_arg = no_argument, .noun = "non-temporal stores",
	  .help = "stream: non-temporal (streaming) stores, which\n"
		  "bypass the caches and skip the write-allocate read" },
	{ .name = "pages", .has_arg = required_argument, .arg = "auto|4k|huge",
	  .help = "latency: the chase's pages. auto (default):\n"
		  "huge pages for a working set of one huge page or\n"
		  "more, as MLC chases, 4K below; 4k: base pages,\n"
		  "whose page walks are then in the latency; huge:\n"
		  "ask at every size. Each row says the page size\n"
		  "asked, the one granted and whether page walks\n"
		  "are in it (walks: 4K pages over more than the\n"
		  "L2 cache; ?: huge pages in a virtual machine,\n"
		  "whose host's pages are not visible)" },
	{ .name = "variant", .has_arg = required_argument, .noun = "variants",
	  .arg = "LIST",
	  .help = "stencil and transpose: a comma list of the\n"
		  "kernel's variants (default: all, for transpose\n"
		  "all this CPU runs); stencil's: jacobi-threaded,\n"
		  "jacobi-wavefront, gs-threaded, gs-wavefront;\n"
		  "transpose's: naive, sse, sse-prefetch, avx,\n"
		  "avx-prefetch" },
	{ .name = "sweeps", .has_arg = required_argument, .arg = "N",
	  .help = "stencil: sweeps per repetition (default 8, rounded\n"
		  "up to whole wavefront passes)" },
	{ .name = "barrier", .has_arg = required_argument, .arg = "spin|tree",
	  .help = "stencil: the barrier after each plane\n"
		  "(default spin)" },
	{ .name = "groups", .has_arg = required_argument, .arg = "N",
	  .help = "stencil: wavefront thread groups (default: one per\n"
		  "last-level cache); each does one sweep per thread\n"
		  "in a pass" },
	{ .name = "model-gbps", .has_arg = required_argument, .arg = "X",
	  .help = "stencil: the model's bandwidth in GB/s (default:\n"
		  "a STREAM triad on the same threads and size)" },
	{ .name = "width", .has_arg = required_argument, .noun = "width",
	  .arg = "W",
	  .help = "throughput: sse (128-bit), avx (256; also avx2) or avx512\n"
		  "(512) loads (default: the widest this CPU has)" },
	{ .name = "mix", .has_arg = required_argument, .noun = "mix",
	  .arg = "LIST",
	  .help = "throughput: a comma list of load, load-fadd and\n"
		  "load-nop (default: all three); traffic and\n"
		  "loaded-latency: one of read, 2:1, 1:1 (default\n"
		  "read)" },
	{ .name = "distance", .has_arg = required_argument,
	  .noun = "prefetch distance", .arg = "D",
	  .help = "transpose: prefetch the source D rows ahead\n"
		  "(0 to 1024; default 8)" },
	{ .name = "matrix", .has_arg = no_argument, .noun = "matrix",
	  .help = "latency: the NUMA node x node latency matrix\n"
		  "(not with --cpus, --threads, --node, --socket,\n"
		  "--membind)" },
};
const size_t run_nr_kopts = sizeof(run_kopts) / sizeof(run_kopts[0]);
