/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - what "memdiagctl run" (cmd_run.c) shares with the files that
 * run and print one kernel each (run_<kernel>.c): the parsed options, the
 * table of kernels, and the pieces of output every result has.
 */

#ifndef MEMDIAGCTL_RUN_H
#define MEMDIAGCTL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernels/kernel.h"
#include "cli.h"
#include "print.h"
#include "run_counters.h"

#define RUN_MAX_SIZES 16
#define RUN_MAX_DELAYS 64

struct run_kernel;

struct run_args {
	const struct run_kernel *kernel;
	uint64_t threads;
	bool have_threads;
	int *cpu;		/* --cpus, then the threads' CPUs */
	size_t nr_cpu;
	bool have_cpus;
	uint64_t size[RUN_MAX_SIZES];
	size_t nr_size;
	uint64_t delay;		/* the first of --delay */
	bool have_delay;
	uint64_t delays[RUN_MAX_DELAYS];	/* --delay, a comma list */
	size_t nr_delay;
	uint64_t reps;
	bool hugepages;
	bool nt;		/* --nt: non-temporal stores (stream) */
	/* stencil, transpose: as given, checked against the kernel's names */
	const char *variant;	/* --variant */
	/* stencil */
	uint64_t sweeps;
	bool have_sweeps;
	enum stencil_barrier barrier;
	bool have_barrier;
	uint64_t groups;
	bool have_groups;
	double model_gbps;
	bool have_model_gbps;
	/* throughput: names as given, checked by run_throughput.c */
	const char *width;	/* --width */
	const char *mix;	/* --mix */
	/* transpose */
	uint64_t distance;	/* --distance */
	bool have_distance;
	/* per thread, filled by the run (kern_cfg.node, .mem_node); -1: unknown */
	int *node;
	int *mem_node;
	/* the memdiag counters around each timed phase (never NULL) */
	struct run_counters *counters;
};

/*
 * One kernel of "memdiagctl run". run() runs it with @cfg, then prints
 * the head (run_print_head()) and a "results" array, one object per
 * result starting with run_result_common() and holding its counters
 * (run_counters_json()), then the counter table (run_counters_text()),
 * and sets *printed once anything is printed; it returns an MDC_EXIT_*
 * code, reporting errors itself with cli_err(). Before each kernel call
 * it reserves the counter slots of that call's phases with
 * run_counters_next(a->counters, ...).
 */
struct run_kernel {
	const char *name;
	uint64_t default_size;		/* 0: default_sizes instead */
	const uint64_t *default_sizes;	/* 0-terminated list */
	bool size_list;			/* --size takes a comma list */
	bool has_delay;			/* --delay means something */
	bool delay_list;		/* --delay takes a comma list */
	bool all_cpus;			/* threads default to every CPU */
	bool has_variant;		/* --variant: run() parses it */
	bool stencil_opts;		/* --sweeps, --barrier, --groups, ... */
	bool has_width;			/* --width and --mix mean something */
	bool has_distance;		/* --distance does */
	bool has_nt;			/* --nt means something */
	int (*run)(const char *cmd, struct printer *p,
		   const struct run_args *a, const struct kern_cfg *cfg,
		   bool *printed);
};

int run_read_delay(const char *cmd, struct printer *p,
		   const struct run_args *a, const struct kern_cfg *cfg,
		   bool *printed);
int run_stream(const char *cmd, struct printer *p, const struct run_args *a,
	       const struct kern_cfg *cfg, bool *printed);
int run_latency(const char *cmd, struct printer *p, const struct run_args *a,
		const struct kern_cfg *cfg, bool *printed);
int run_loaded_latency(const char *cmd, struct printer *p,
		       const struct run_args *a, const struct kern_cfg *cfg,
		       bool *printed);
int run_stencil(const char *cmd, struct printer *p, const struct run_args *a,
		const struct kern_cfg *cfg, bool *printed);
int run_throughput(const char *cmd, struct printer *p,
		   const struct run_args *a, const struct kern_cfg *cfg,
		   bool *printed);
int run_transpose(const char *cmd, struct printer *p,
		  const struct run_args *a, const struct kern_cfg *cfg,
		  bool *printed);

/*
 * One of @nr @names, or with @list a comma list of them, given to option
 * @opt, into a bit mask (bit i: names[i]); @what names one ("mix",
 * "stencil variant"). Returns MDC_EXIT_OK, or reports a usage error
 * (unknown or repeated name, empty list item) that lists @names and
 * returns MDC_EXIT_USAGE.
 */
int run_parse_names(const char *cmd, const char *opt, const char *what,
		    const char *s, const char *const *names, unsigned int nr,
		    bool list, unsigned int *mask);
/* "a, b or c" of the names whose bit is set in @mask. */
void run_name_list(char *buf, size_t size, const char *const *names,
		   unsigned int nr, unsigned int mask);
/*
 * kern_cpu_has(), except for the features the test hook
 * MEMDIAG_TEST_HIDE_CPU (a comma list such as "avx512f,avx") hides.
 */
bool run_cpu_has(enum kern_cpu_feature f);
/*
 * Whether @bytes of buffers leave a quarter of the machine's memory free:
 * beyond that, first-touching them would wake the OOM killer rather than
 * fail cleanly (mmap overcommits). True when the size is unknown.
 */
bool run_fits_memory(uint64_t bytes);

/* "64M" when @v is a whole multiple, else bytes. */
void run_fmt_size(char *buf, size_t size, uint64_t v);
/* Open the document and print what was run, on which CPUs, how often. */
void run_print_head(struct printer *p, const struct run_args *a);
/* kernel, threads, size_bytes, reps: the keys every result starts with */
void run_result_common(struct printer *p, const struct run_args *a,
		       uint64_t size);
/* PREFIX_min and PREFIX_max of @s into the JSON object. */
void run_stats_json(struct printer *p, const char *prefix,
		    const struct kern_stats *s);

#endif /* MEMDIAGCTL_RUN_H */
