// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - "memdiagctl run": the micro-kernels of kernels/ (memory read
 * benchmark with NOP delays, STREAM, pointer-chase latency, loaded
 * latency, stencils, load throughput, transpose) on pinned threads, N
 * repetitions summarized as median, min, max and CoV.
 */

#include <errno.h>
#include <stddef.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cpulist.h"
#include "parse.h"
#include "run.h"

#define RUN_DEFAULT_REPS 5
#define RUN_MAX_REPS 1000
#define RUN_MIN_SIZE 4096ull
#define RUN_MAX_SIZE (1ull << 40)
#define RUN_MAX_DELAY 1000000000ull
#define RUN_MAX_SWEEPS 100000ull
#define RUN_MAX_GBPS 1e6	/* GB/s: more than any machine has */

/* latency: one size in each of L1, L2, L3 and DRAM of a typical server */
static const uint64_t default_lat_sizes[] = {
	16ull << 10, 256ull << 10, 8ull << 20, 256ull << 20, 0
};

/* throughput: L1, L2, L3 and, beyond even large L3s, DRAM */
static const uint64_t default_tp_sizes[] = {
	16ull << 10, 256ull << 10, 8ull << 20, 1ull << 30, 0
};

/* The kernels, in the order --help lists them. */
static const struct run_kernel run_kernels[] = {
	/* read-delay: far larger than any LLC here; stream: per array */
	{ .name = "read-delay", .default_size = 1ull << 30, .has_delay = true,
	  .run = run_read_delay },
	{ .name = "stream", .default_size = 256ull << 20, .has_nt = true,
	  .run = run_stream },
	{ .name = "latency", .default_sizes = default_lat_sizes,
	  .size_list = true, .run = run_latency },
	/* loaded-latency: per thread, far larger than any LLC here */
	{ .name = "loaded-latency", .default_size = 256ull << 20,
	  .has_delay = true, .delay_list = true, .all_cpus = true,
	  .run = run_loaded_latency },
	/* stencil: one grid (the paper's 200^3 is 61M), N = cbrt(size / 8) */
	{ .name = "stencil", .default_size = 64ull << 20,
	  .has_variant = true, .stencil_opts = true, .run = run_stencil },
	{ .name = "throughput", .default_sizes = default_tp_sizes,
	  .size_list = true, .has_width = true, .run = run_throughput },
	/* 128M: N = 4096, as in the seed */
	{ .name = "transpose", .default_size = 128ull << 20,
	  .has_variant = true, .has_distance = true, .run = run_transpose },
};

#define NR_KERNELS (sizeof(run_kernels) / sizeof(run_kernels[0]))

void cmd_run_usage(FILE *f)
{
	fputs("Usage: " PROG " run KERNEL [--threads N] [--cpus LIST] [--size SIZE]\n"
	      "                      [--delay N] [--nt] [--reps N] [--hugepages]\n"
	      "                      [--sweeps N] [--variant LIST] [--barrier spin|tree]\n"
	      "                      [--groups N] [--model-gbps X]\n"
	      "                      [--width W] [--mix LIST] [--distance D]\n"
	      "                      [-j|--json] [-p|--pretty]\n"
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
	      "              ns and TSC cycles per load, per working-set size\n"
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
	      "\n"
	      "Options:\n"
	      "  -t, --threads N   threads (default: the number of --cpus, or 1;\n"
	      "                    loaded-latency: every CPU)\n"
	      "  -c, --cpus LIST   CPUs to pin the threads to, e.g. 0-3,8 (default:\n"
	      "                    the first CPUs this process may run on)\n"
	      "  -s, --size SIZE   bytes, or a number with K, M or G (64K, 1M, 1G)\n"
	      "  -d, --delay N     NOPs after every four reads (read-delay, default\n"
	      "                    0; loaded-latency, a comma list)\n"
	      "      --nt          stream: non-temporal (streaming) stores, which\n"
	      "                    bypass the caches and skip the write-allocate read\n"
	      "  -r, --reps N      repetitions (default 5)\n"
	      "  -H, --hugepages   ask for transparent hugepages (MADV_HUGEPAGE)\n"
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
	      "                    (0 to 1024; default 8)\n"
	      "  -j, --json        print one JSON document\n"
	      "  -p, --pretty      indent the JSON output (implies --json)\n"
	      "\n"
	      "GB/s are 10^9 bytes/s. Progress goes to stderr only when stdout is\n"
	      "a terminal.\n",
	      f);
}

/* long-only options */
enum {
	OPT_SWEEPS = 256,
	OPT_VARIANT,
	OPT_BARRIER,
	OPT_GROUPS,
	OPT_MODEL_GBPS,
	OPT_WIDTH,
	OPT_MIX,
	OPT_DISTANCE,
	OPT_NT,
};

static const struct option run_options[] = {
	{ "sweeps", required_argument, NULL, OPT_SWEEPS },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "barrier", required_argument, NULL, OPT_BARRIER },
	{ "groups", required_argument, NULL, OPT_GROUPS },
	{ "model-gbps", required_argument, NULL, OPT_MODEL_GBPS },
	{ "threads", required_argument, NULL, 't' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "size", required_argument, NULL, 's' },
	{ "delay", required_argument, NULL, 'd' },
	{ "nt", no_argument, NULL, OPT_NT },
	{ "reps", required_argument, NULL, 'r' },
	{ "hugepages", no_argument, NULL, 'H' },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "mix", required_argument, NULL, OPT_MIX },
	{ "distance", required_argument, NULL, OPT_DISTANCE },
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* "64K", "1M", "1G" (binary multiples) or plain bytes. */
static int parse_size(const char *s, uint64_t *v, char *err, size_t size)
{
	uint64_t n = 0, mul = 1;
	size_t i;

	for (i = 0; s[i] >= '0' && s[i] <= '9'; i++) {
		if (n > RUN_MAX_SIZE)	/* out of range anyway; no wrap */
			continue;
		n = n * 10 + (uint64_t)(s[i] - '0');
	}
	if (i && s[i] && !s[i + 1]) {
		switch (s[i]) {
		case 'k': case 'K':
			mul = 1ull << 10;
			break;
		case 'm': case 'M':
			mul = 1ull << 20;
			break;
		case 'g': case 'G':
			mul = 1ull << 30;
			break;
		default:
			mul = 0;
		}
		i++;
	}
	if (!i || s[i] || !mul) {
		snprintf(err, size,
			 "'%s' is not a size: use bytes or a number with K, M or G (64K, 1M, 1G)",
			 s);
		return -1;
	}
	if (n > RUN_MAX_SIZE / mul || n * mul < RUN_MIN_SIZE ||
	    n * mul > RUN_MAX_SIZE) {
		snprintf(err, size, "'%s' is out of range: it must be from 4K to 1024G",
			 s);
		return -1;
	}
	*v = n * mul;
	return 0;
}

/* One --delay value: a number of NOPs up to RUN_MAX_DELAY. */
static int parse_delay(const char *s, uint64_t *v, char *err, size_t size)
{
	return parse_uint(s, 0, RUN_MAX_DELAY, v, err, size);
}

/*
 * A comma list of at most @max values, each read by @one, into @v and
 * @n; @what names them in messages ("sizes", "delays").
 */
static int parse_list(const char *s, const char *what, size_t max,
		      int (*one)(const char *, uint64_t *, char *, size_t),
		      uint64_t *v, size_t *n, char *err, size_t size)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int rc = 0;

	if (!copy) {
		snprintf(err, size, "out of memory");
		return -1;
	}
	*n = 0;
	if (!*s || s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,")) {
		snprintf(err, size, "'%s' is not a list of %s", s, what);
		rc = -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == max) {
			snprintf(err, size, "more than %zu %s", max, what);
			rc = -1;
		} else {
			rc = one(tok, &v[(*n)++], err, size);
		}
	}
	free(copy);
	return rc;
}

/* GB/s: a decimal number above 0 ("25", "12.5"). */
static int parse_gbps(const char *s, double *v, char *err, size_t size)
{
	size_t i = 0, digits = 0;
	char *end;

	while (s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (s[i] == '.')
		for (i++; s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (!digits || s[i]) {
		snprintf(err, size, "'%s' is not a number of GB/s (like 25 or 12.5)",
			 s);
		return -1;
	}
	/* what was checked above is what the C locale's strtod() reads */
	*v = strtod(s, &end);
	if (!(*v > 0) || *v > RUN_MAX_GBPS) {
		snprintf(err, size, "'%s' is out of range: it must be more than 0 and at most %.0f",
			 s, RUN_MAX_GBPS);
		return -1;
	}
	return 0;
}

/* "0-3,8" into a->cpu; each must be a CPU this process may run on. */
static int parse_cpus(const char *s, struct run_args *a, char *err,
		      size_t size, const cpu_set_t *allowed)
{
	uint32_t *cpu;
	size_t i, n;

	a->nr_cpu = 0;
	free(a->cpu);
	a->cpu = NULL;
	if (cpulist_parse(s, allowed, &cpu, &n, err, size) < 0)
		return -1;
	a->cpu = calloc(n, sizeof(*a->cpu));
	if (!a->cpu) {
		free(cpu);
		snprintf(err, size, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		a->cpu[i] = (int)cpu[i];
	a->nr_cpu = n;
	free(cpu);
	return 0;
}

/*
 * "a, b or c": the names of the kernels, or with @flag (the offset of a
 * bool in struct run_kernel) of those that have it set.
 */
static void kernel_list(char *buf, size_t size, size_t flag)
{
	size_t k, n = 0, len = 0, nr = 0;

	for (k = 0; k < NR_KERNELS; k++)
		if (flag == offsetof(struct run_kernel, name) ||
		    *(const bool *)((const char *)&run_kernels[k] + flag))
			nr++;
	buf[0] = 0;
	for (k = 0; k < NR_KERNELS && len < size; k++) {
		if (flag != offsetof(struct run_kernel, name) &&
		    !*(const bool *)((const char *)&run_kernels[k] + flag))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					!n ? "" : n + 1 == nr ? " or " : ", ",
					run_kernels[k].name);
		n++;
	}
}

/* Option @opt, which kernel @kname has no @what for: a usage error. */
static int not_for_kernel(const char *cmd, const char *opt, const char *what,
			  const char *kname, size_t flag)
{
	char names[256];

	kernel_list(names, sizeof(names), flag);
	return cli_usage(cmd, "option '%s': kernel '%s' has no %s (only %s %s)",
			 opt, kname, what, names,
			 strchr(names, ' ') ? "have" : "has");
}

static int parse_args(struct run_args *a, struct opts *o, int argc,
		      char **argv)
{
	const char *cmd = "run";
	const char *kname;
	cpu_set_t allowed;
	long online;
	char err[200], names[256];
	bool help = false;
	size_t k, i;
	int c;

	memset(a, 0, sizeof(*a));
	a->reps = RUN_DEFAULT_REPS;
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
		cli_err(cmd, "cannot read the CPUs this process may use", "%s",
			strerror(errno));
		return MDC_EXIT_LOCAL;
	}
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:c:s:d:r:Hjph", run_options,
				NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_uint(optarg, 1, KERN_MAX_THREADS, &a->threads,
				       err, sizeof(err)) < 0)
				return cli_usage(cmd, "option '--threads': %s", err);
			a->have_threads = true;
			break;
		case 'c':
			if (parse_cpus(optarg, a, err, sizeof(err), &allowed) < 0)
				return cli_usage(cmd, "option '--cpus': %s", err);
			a->have_cpus = true;
			break;
		case 's':
			if (parse_list(optarg, "sizes", RUN_MAX_SIZES,
				       parse_size, a->size, &a->nr_size, err,
				       sizeof(err)) < 0)
				return cli_usage(cmd, "option '--size': %s", err);
			break;
		case 'd':
			if (parse_list(optarg, "delays", RUN_MAX_DELAYS,
				       parse_delay, a->delays, &a->nr_delay, err,
				       sizeof(err)) < 0)
				return cli_usage(cmd, "option '--delay': %s", err);
			a->delay = a->delays[0];
			a->have_delay = true;
			break;
		case 'r':
			if (parse_uint(optarg, 1, RUN_MAX_REPS, &a->reps, err,
				       sizeof(err)) < 0)
				return cli_usage(cmd, "option '--reps': %s", err);
			break;
		case 'H':
			a->hugepages = true;
			break;
		case OPT_NT:
			a->nt = true;
			break;
		case OPT_SWEEPS:
			if (parse_uint(optarg, 1, RUN_MAX_SWEEPS, &a->sweeps,
				       err, sizeof(err)) < 0)
				return cli_usage(cmd, "option '--sweeps': %s", err);
			a->have_sweeps = true;
			break;
		case OPT_VARIANT:
			/* each kernel knows its own variants: checked by its run() */
			a->variant = optarg;
			break;
		case OPT_BARRIER:
			for (i = 0; i < STENCIL_NR_BARRIERS &&
			     strcmp(optarg, stencil_barrier_name[i]); i++)
				;
			if (i == STENCIL_NR_BARRIERS)
				return cli_usage(cmd, "option '--barrier': '%s' is not a barrier: use spin or tree",
						 optarg);
			a->barrier = (enum stencil_barrier)i;
			a->have_barrier = true;
			break;
		case OPT_GROUPS:
			if (parse_uint(optarg, 1, KERN_MAX_THREADS, &a->groups,
				       err, sizeof(err)) < 0)
				return cli_usage(cmd, "option '--groups': %s", err);
			a->have_groups = true;
			break;
		case OPT_MODEL_GBPS:
			if (parse_gbps(optarg, &a->model_gbps, err,
				       sizeof(err)) < 0)
				return cli_usage(cmd, "option '--model-gbps': %s", err);
			a->have_model_gbps = true;
			break;
		case OPT_WIDTH:
			a->width = optarg;
			break;
		case OPT_MIX:
			a->mix = optarg;
			break;
		case OPT_DISTANCE:
			if (parse_uint(optarg, 0, TR_MAX_DISTANCE, &a->distance,
				       err, sizeof(err)) < 0)
				return cli_usage(cmd, "option '--distance': %s", err);
			a->have_distance = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'p':
			o->json = o->pretty = true;
			break;
		case 'h':
			help = true;
			break;
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	kernel_list(names, sizeof(names), offsetof(struct run_kernel, name));
	/* "run KERNEL --help" fails for a kernel this build lacks: scripts ask */
	if (help) {
		for (k = 0; optind < argc && k < NR_KERNELS &&
		     strcmp(argv[optind], run_kernels[k].name); k++)
			;
		if (optind < argc && k == NR_KERNELS)
			return cli_usage(cmd, "unknown kernel '%s': use %s",
					 argv[optind], names);
		cmd_run_usage(stdout);
		return -1;
	}
	if (optind >= argc)
		return cli_usage(cmd, "no kernel given: %s", names);
	kname = argv[optind++];
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	for (k = 0; k < NR_KERNELS && strcmp(kname, run_kernels[k].name); k++)
		;
	if (k == NR_KERNELS)
		return cli_usage(cmd, "unknown kernel '%s': use %s", kname, names);
	a->kernel = &run_kernels[k];
	if (a->have_delay && !a->kernel->has_delay)
		return not_for_kernel(cmd, "--delay", "delay", kname,
				      offsetof(struct run_kernel, has_delay));
	if (a->variant && !a->kernel->has_variant)
		return not_for_kernel(cmd, "--variant", "variants", kname,
				      offsetof(struct run_kernel, has_variant));
	if (!a->kernel->stencil_opts) {
		const char *opt = a->have_sweeps ? "--sweeps" :
				  a->have_barrier ? "--barrier" :
				  a->have_groups ? "--groups" :
				  a->have_model_gbps ? "--model-gbps" : NULL;

		kernel_list(names, sizeof(names),
			    offsetof(struct run_kernel, stencil_opts));
		if (opt)
			return cli_usage(cmd, "option '%s': kernel '%s' does not take it (only %s %s)",
					 opt, kname, names,
					 strchr(names, ' ') ? "do" : "does");
	}
	if ((a->width || a->mix) && !a->kernel->has_width)
		return not_for_kernel(cmd, a->width ? "--width" : "--mix",
				      a->width ? "width" : "mix", kname,
				      offsetof(struct run_kernel, has_width));
	if (a->have_distance && !a->kernel->has_distance)
		return not_for_kernel(cmd, "--distance", "prefetch distance",
				      kname, offsetof(struct run_kernel, has_distance));
	if (a->nr_delay > 1 && !a->kernel->delay_list) {
		kernel_list(names, sizeof(names),
			    offsetof(struct run_kernel, delay_list));
		return cli_usage(cmd, "option '--delay': kernel '%s' takes one delay (only %s %s a list)",
				 kname, names, strchr(names, ' ') ? "take" : "takes");
	}
	if (a->nt && !a->kernel->has_nt)
		return not_for_kernel(cmd, "--nt", "non-temporal stores", kname,
				      offsetof(struct run_kernel, has_nt));
	if (a->nr_size > 1 && !a->kernel->size_list) {
		kernel_list(names, sizeof(names),
			    offsetof(struct run_kernel, size_list));
		return cli_usage(cmd, "option '--size': kernel '%s' takes one size (only %s %s a list)",
				 kname, names, strchr(names, ' ') ? "take" : "takes");
	}
	if (!a->nr_size && a->kernel->default_sizes) {
		for (i = 0; a->kernel->default_sizes[i]; i++)
			a->size[i] = a->kernel->default_sizes[i];
		a->nr_size = (size_t)i;
	} else if (!a->nr_size) {
		a->size[0] = a->kernel->default_size;
		a->nr_size = 1;
	}
	online = sysconf(_SC_NPROCESSORS_ONLN);
	if (a->have_threads && online > 0 && a->threads > (uint64_t)online)
		return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the %ld online CPUs",
				 a->threads, online);
	if (a->have_threads && a->have_cpus && a->threads > a->nr_cpu)
		return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the CPUs --cpus lists (%zu)",
				 a->threads, a->nr_cpu);
	if (!a->have_threads && a->have_cpus) {
		a->threads = a->nr_cpu;
	} else if (!a->have_threads) {
		a->threads = 1;
		if (a->kernel->all_cpus && CPU_COUNT(&allowed) > 1)
			a->threads = CPU_COUNT(&allowed) > KERN_MAX_THREADS ?
				     KERN_MAX_THREADS :
				     (uint64_t)CPU_COUNT(&allowed);
	}
	if (!a->have_cpus) {
		a->cpu = calloc(a->threads, sizeof(*a->cpu));
		if (!a->cpu) {
			cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
			return MDC_EXIT_LOCAL;
		}
		for (i = 0; i < CPU_SETSIZE && a->nr_cpu < a->threads; i++)
			if (CPU_ISSET(i, &allowed))
				a->cpu[a->nr_cpu++] = i;
		if (a->nr_cpu < a->threads)
			return cli_usage(cmd, "option '--threads': '%" PRIu64 "' is more than the CPUs this process may use (%zu)",
					 a->threads, a->nr_cpu);
	}
	a->nr_cpu = a->threads;
	if (a->have_groups && a->threads % a->groups)
		return cli_usage(cmd, "option '--groups': %" PRIu64 " threads do not make %" PRIu64 " groups of equal size: use a divisor of --threads",
				 a->threads, a->groups);
	return MDC_EXIT_OK;
}

static void mark(void *arg, enum kern_mark m, unsigned int rep,
		 unsigned int phase)
{
	(void)rep;	/* repetitions of a phase add up in one slot */
	run_counters_mark(arg, m == KERN_MARK_BEGIN, phase);
}

static void progress(void *arg, unsigned int rep, unsigned int reps)
{
	fprintf(stderr, "\r%s: repetition %u/%u%s", (const char *)arg, rep,
		reps, rep == reps ? "\r\033[K" : "");
}

/* "64M" when it is a whole multiple, else bytes. */
void run_fmt_size(char *buf, size_t size, uint64_t v)
{
	if (v >= (1ull << 30) && !(v % (1ull << 30)))
		snprintf(buf, size, "%" PRIu64 "G", v >> 30);
	else if (v >= (1ull << 20) && !(v % (1ull << 20)))
		snprintf(buf, size, "%" PRIu64 "M", v >> 20);
	else if (v >= (1ull << 10) && !(v % (1ull << 10)))
		snprintf(buf, size, "%" PRIu64 "K", v >> 10);
	else
		snprintf(buf, size, "%" PRIu64, v);
}

/*
 * The NUMA node of each thread's CPU and the node its memory landed on
 * (JSON, null where unknown); in text the nodes the threads ran on.
 */
static void print_nodes(struct printer *p, const struct run_args *a)
{
	uint32_t node[KERN_MAX_THREADS];
	char list[256];
	size_t i, j, n = 0;

	print_open_array(p, "nodes");
	for (i = 0; i < a->nr_cpu; i++) {
		if (a->node[i] < 0)
			print_string(p, PRINT_JSON, NULL, "%s", NULL);
		else
			print_uint(p, PRINT_JSON, NULL, "%u",
				   (unsigned int)a->node[i]);
	}
	print_close_array(p);
	print_open_array(p, "mem_nodes");
	for (i = 0; i < a->nr_cpu; i++) {
		if (a->mem_node[i] < 0)
			print_string(p, PRINT_JSON, NULL, "%s", NULL);
		else
			print_uint(p, PRINT_JSON, NULL, "%u",
				   (unsigned int)a->mem_node[i]);
	}
	print_close_array(p);
	/* the distinct known nodes, ascending, for the text line */
	for (i = 0; i < a->nr_cpu; i++) {
		uint32_t v = (uint32_t)a->node[i];

		if (a->node[i] < 0)
			continue;
		for (j = 0; j < n && node[j] < v; j++)
			;
		if (j < n && node[j] == v)
			continue;
		memmove(&node[j + 1], &node[j], (n - j) * sizeof(*node));
		node[j] = v;
		n++;
	}
	if (n) {
		cpulist_format(list, sizeof(list), node, n);
		print_textf(p, " (node%s %s)", n == 1 ? "" : "s", list);
	}
}

void run_print_head(struct printer *p, const struct run_args *a)
{
	uint32_t cpu[KERN_MAX_THREADS];
	char list[256];
	size_t i;

	for (i = 0; i < a->nr_cpu; i++)
		cpu[i] = (uint32_t)a->cpu[i];
	cpulist_format(list, sizeof(list), cpu, a->nr_cpu);
	print_open_object(p, NULL);
	print_string(p, PRINT_ANY, "kernel", "kernel %s", a->kernel->name);
	print_u64(p, PRINT_ANY, "threads", ", %" PRIu64 " thread", a->threads);
	print_textf(p, "%s", a->threads == 1 ? "" : "s");
	print_string(p, PRINT_TEXT, NULL, " on CPU %s", list);
	print_open_array(p, "cpus");
	for (i = 0; i < a->nr_cpu; i++)
		print_uint(p, PRINT_JSON, NULL, "%u", cpu[i]);
	print_close_array(p);
	print_nodes(p, a);
	print_u64(p, PRINT_ANY, "reps", ", %" PRIu64 " rep", a->reps);
	print_textf(p, "%s", a->reps == 1 ? "" : "s");
	print_bool(p, PRINT_ANY, "hugepages", ", hugepages: %s", a->hugepages);
	if (a->kernel->has_delay && !a->kernel->delay_list)
		print_u64(p, PRINT_ANY, "delay", ", delay %" PRIu64 " NOPs", a->delay);
	print_textf(p, "\n");
}

/* The keys every result has, in the same order. */
void run_result_common(struct printer *p, const struct run_args *a,
			  uint64_t size)
{
	print_string(p, PRINT_JSON, "kernel", "%s", a->kernel->name);
	print_u64(p, PRINT_JSON, "threads", "%" PRIu64, a->threads);
	print_u64(p, PRINT_JSON, "size_bytes", "%" PRIu64, size);
	print_u64(p, PRINT_JSON, "reps", "%" PRIu64, a->reps);
}

void run_stats_json(struct printer *p, const char *prefix,
		       const struct kern_stats *s)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_min", prefix);
	print_double(p, PRINT_JSON, key, "%f", s->min);
	snprintf(key, sizeof(key), "%s_max", prefix);
	print_double(p, PRINT_JSON, key, "%f", s->max);
}

int cmd_run(const struct opts *gopts, int argc, char **argv)
{
	const char *cmd = "run";
	struct opts o = *gopts;
	struct run_counters counters;
	struct kern_cfg cfg;
	struct run_args a;
	struct printer p;
	bool printed = false;
	size_t i;
	int rc, orc;

	rc = parse_args(&a, &o, argc, argv);
	if (rc < 0) {		/* --help */
		free(a.cpu);
		return MDC_EXIT_OK;
	}
	if (rc != MDC_EXIT_OK) {
		free(a.cpu);
		return rc;
	}
	a.node = malloc(a.nr_cpu * sizeof(*a.node));
	a.mem_node = malloc(a.nr_cpu * sizeof(*a.mem_node));
	if (!a.node || !a.mem_node) {
		free(a.cpu);
		free(a.node);
		free(a.mem_node);
		cli_err(cmd, "out of memory", "%s", strerror(ENOMEM));
		return MDC_EXIT_LOCAL;
	}
	for (i = 0; i < a.nr_cpu; i++)
		a.node[i] = a.mem_node[i] = -1;
	memset(&cfg, 0, sizeof(cfg));
	cfg.nthreads = (unsigned int)a.threads;
	cfg.node = a.node;
	cfg.mem_node = a.mem_node;
	cfg.cpu = a.cpu;
	cfg.reps = (unsigned int)a.reps;
	cfg.hugepages = a.hugepages;
	if (isatty(STDOUT_FILENO) && isatty(STDERR_FILENO)) {
		cfg.progress = progress;
		cfg.progress_arg = (void *)(uintptr_t)a.kernel->name;
	}
	/* before the kernel allocates: the session is not timed */
	run_counters_open(&counters);
	a.counters = &counters;
	if (counters.on) {
		cfg.mark = mark;
		cfg.mark_arg = &counters;
	}
	print_init(&p, stdout, o.json, o.pretty);
	rc = a.kernel->run(cmd, &p, &a, &cfg, &printed);
	run_counters_close(&counters);
	free(a.cpu);
	free(a.node);
	free(a.mem_node);
	if (!printed)
		return rc;	/* the kernel failed: reported, nothing printed */
	print_close_object(&p);
	orc = cli_output_end(cmd, &p);
	return rc != MDC_EXIT_OK ? rc : orc;
}
