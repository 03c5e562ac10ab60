// SPDX-License-Identifier: GPL-2.0
/*
 * help.c - "memdiagctl run --help": what run does, its kernels and its
 * options (the man page says the same; tests/helpman.sh checks).
 */

#include <stdio.h>

#include "cmd.h"
#include "opts.h"

static void usage_options(FILE *f);

void cmd_run_usage(FILE *f)
{
	fputs("Usage: " PROG " run KERNEL [--threads N] [--cpus LIST] [--size SIZE]\n"
	      "                      [--delay N] [--nt] [--reps N] [--hugepages]\n"
	      "                      [--sweeps N] [--variant LIST] [--barrier spin|tree]\n"
	      "                      [--groups N] [--model-gbps X]\n"
	      "                      [--width W] [--mix LIST] [--distance D]\n"
	      "                      [-j|--json] [-p|--pretty] [--csv]\n"
	      "\n"
	      "Run a memory micro-kernel on pinned threads, each on memory it\n"
	      "touched first, --reps times, and print the median, min and max\n"
	      "bandwidth or latency and the coefficient of variation (stddev/mean).\n"
	      "When the memdiag module is loaded and its counters can be read, each\n"
	      "result also gets, per socket, the DRAM bytes read and written, the\n"
	      "offcore DRAM read bytes and the L1 miss and load miss real latencies\n"
	      "(core cycles) over exactly the timed part; otherwise the run goes on\n"
	      "and says why there are no counters.\n"
	      "\n"
	      "Kernels:\n"
	      "  read-delay  the memory read benchmark of Helm & Taura: reads the\n"
	      "              first 8 bytes of each 64-byte record, --delay NOPs\n"
	      "              after every four; GB/s counts 64 bytes per record\n"
	      "              (--size: the whole array, split among the threads;\n"
	      "              default 1G)\n"
	      "  stream      STREAM copy, scale, add, triad, verified; gbps counts\n"
	      "              the bytes the kernel names (16 or 24 per element),\n"
	      "              traffic_gbps adds the write-allocate (24 or 32)\n"
	      "              unless --nt; with counters, each op's volume_ratio\n"
	      "              is the DRAM bytes the memory controllers counted\n"
	      "              over the bytes the op moves (traffic_gbps's bytes;\n"
	      "              Helm & Taura, Fig. 6) (--size: each of the three\n"
	      "              arrays, split among the threads; default 256M)\n"
	      "  latency     pointer chase over a random cycle of 64-byte lines:\n"
	      "              ns and TSC cycles per load, per working-set size,\n"
	      "              and the page size the kernel really gave it\n"
	      "              (--size: a comma list, per thread; default\n"
	      "              16K,256K,8M,256M)\n"
	      "  loaded-latency\n"
	      "              the chase on the first CPU while the other threads\n"
	      "              run read-delay, once per --delay: one row per delay\n"
	      "              with the others' GB/s and the chase's ns and cycles\n"
	      "              (2 threads or more, default every CPU; --size: per\n"
	      "              thread, default 256M; --delay: a comma list, default\n"
	      "              0,20,50,100,200,500,1000,2000,5000,20000)\n"
	      "  stencil     3D 7-point Jacobi and Gauss-Seidel sweeps, threaded\n"
	      "              and with wavefront temporal blocking, verified bitwise\n"
	      "              against serial sweeps: MLUP/s beside the paper's model\n"
	      "              (bandwidth / bytes per update) (--size: one grid of\n"
	      "              n^3 doubles, n = cbrt(size / 8); default 64M, n = 203)\n"
	      "  throughput  x86-membench-style load loops in assembly at one SIMD\n"
	      "              width, loads only or mixed with FP adds or NOPs, each\n"
	      "              thread on its own buffer, timed with the TSC: GB/s of\n"
	      "              bytes loaded (= traffic: nothing is written) and bytes\n"
	      "              per TSC cycle per thread (--size: a comma list of\n"
	      "              multiples of 1K, per thread; default 16K,256K,8M,1G)\n"
	      "  transpose   N x N double matrix transpose: naive, sse,\n"
	      "              sse-prefetch, avx, avx-prefetch, each verified against\n"
	      "              naive; GB/s counts 2*N*N*8 bytes, traffic_gbps adds the\n"
	      "              write-allocate (--size: bytes of one matrix, N the\n"
	      "              largest multiple of 8 that fits; default 128M, N = 4096;\n"
	      "              threads split the destination's rows)\n"
	      "  traffic     calibrate's traffic generator: read-delay's sweep with\n"
	      "              --mix read (default), 2:1 or 1:1 (DRAM reads:writes:\n"
	      "              the written records are read first, so write-allocate\n"
	      "              is in the count); GB/s counts the DRAM bytes it moves\n"
	      "              (--size: the whole array, split among the threads;\n"
	      "              default 1G; --delay N NOPs after every four records)\n"
	      "\n", f);
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
	      "  -s, --size SIZE   bytes, or a number with K, M or G (64K, 1.5G); KB,\n"
	      "                    KiB, kB, MB, MiB, GB, GiB too, all binary: 64MB is\n"
	      "                    64 x 2^20 bytes, as in likwid-bench and MLC\n"
	      "  -d, --delay N     NOPs after every four reads (read-delay, default\n"
	      "                    0; loaded-latency, a comma list)\n"
	      "      --nt          stream: non-temporal (streaming) stores, which\n"
	      "                    bypass the caches and skip the write-allocate read\n"
	      "  -r, --reps N      repetitions (default 5)\n"
	      "  -H, --hugepages   ask for transparent hugepages (MADV_HUGEPAGE,\n"
	      "                    buffers aligned to them)\n"
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
	      "                    load-nop (default: all three)\n"
	      "      --distance D  transpose: prefetch the source D rows ahead\n"
	      "                    (0 to 1024; default 8)\n", f);
	cli_opts_usage(f, CLI_OPT_JSON, 20, NULL);
	fputs("      --csv         CSV: a header row, then one row per result with\n"
	      "                    the JSON's values (nested keys joined with '.',\n"
	      "                    e.g. meta.hostname, counters.sockets.0.read_bytes)\n",
	      f);
	cli_opts_usage(f, CLI_OPT_HELP, 20, NULL);
	fputs("\n"
	      "GB/s are 10^9 bytes/s. Progress goes to stderr only when stdout is\n"
	      "a terminal. -j and --csv begin with \"meta\": host name, CPU model,\n"
	      "kernel, memdiag version and commit, date and the exact command line.\n"
	      "\n"
	      "Ctrl-C stops the run after the phase running and prints the results\n"
	      "finished (still valid JSON); a second Ctrl-C ends it at once.\n"
	      "\n"
	      "Exit status: 0 success, 1 usage error, 6 a kernel failed (out of\n"
	      "memory, a verification failed), 130 interrupted by Ctrl-C.\n",
	      f);
}
