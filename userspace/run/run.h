/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - "memdiagctl run": what cmd/cmd_run.c shares with the file of
 * each kernel (read_delay.c, stream.c, ...). The options every kernel
 * takes are in struct run_args; a kernel's own options are a struct of
 * its own, filled from its table of struct run_param rows, so that an
 * option a kernel has no row for is refused from the tables alone.
 */

#ifndef MEMDIAGCTL_RUN_H
#define MEMDIAGCTL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../kernels/kernel.h"
#include "cli.h"
#include "print.h"
#include "counters/counters.h"

#define RUN_MAX_SIZES 16
#define RUN_MAX_LIST 64		/* values of a list option (--delay) */

struct run_kernel;

/* --min-time's default: seconds each measurement is timed at least */
#define RUN_DEFAULT_MIN_TIME 0.2

/*
 * Set by Ctrl-C (SIGINT) during a run: no further phase starts; a kernel
 * with one result per size prints those finished, "run" exits 130.
 */
extern volatile sig_atomic_t run_interrupted;
#define RUN_EXIT_INTERRUPTED 130

/* The options every kernel takes. */
struct run_args {
	const struct run_kernel *kernel;
	const void *opts;	/* the kernel's own, as its table filled them */
	uint64_t threads;
	int *cpu;		/* --cpus, then the threads' CPUs */
	size_t nr_cpu;
	uint64_t size[RUN_MAX_SIZES];
	size_t nr_size;
	uint64_t reps;		/* at least, per measurement */
	double min_time;	/* seconds timed per measurement at least */
	enum kern_timing timing;	/* --timing */
	bool hugepages;
	int membind;		/* --membind N, or -1 */
	bool size_given;	/* --size was given (else the kernel's default) */
	/* the option that chose the CPUs ("--cpus", "--node 1", ...) or "" */
	char cpus_opt[32];
	/* per thread, filled by the run (kern_cfg.node, .mem_node); -1: unknown */
	int *node;
	int *mem_node;
	/* the memdiag counters around each timed phase (never NULL) */
	struct counters *counters;
};

/* A comma list option's values (--delay 0,20,50). */
struct run_list {
	uint64_t v[RUN_MAX_LIST];
	size_t n;
};

/* The first value of @l, or 0 when the option was not given. */
static inline uint64_t run_list_first(const struct run_list *l)
{
	return l->n ? l->v[0] : 0;
}

/*
 * The --delay N row of a kernel whose options struct @type holds it in
 * @field, a struct run_list (read-delay, traffic): one value, in NOPs.
 */
#define RUN_MAX_DELAY 1000000000ull
#define RUN_PARAM_DELAY(type, field)					\
	{ .opt = "delay", .parse = run_param_list,			\
	  .offset = offsetof(type, field),				\
	  .min = 0, .max = RUN_MAX_DELAY, .max_items = 1 }

struct run_param;

/*
 * Read @arg for @row into @dst (the option's field in the kernel's
 * options); -1 with what is wrong in @err.
 */
typedef int (*run_parse_fn)(const struct run_param *row, const char *arg,
			    void *dst, char *err, size_t size);

/*
 * One option a kernel takes, as ethtool's param_parser rows: the option,
 * how its value is read and where it goes. A list row (run_param_list)
 * with @max_items 1 takes one value and says which kernels take a list.
 */
struct run_param {
	const char *opt;	/* the long option without "--" */
	run_parse_fn parse;
	size_t offset;		/* of the field in the kernel's options */
	uint64_t min, max;	/* numbers, list items: the range */
	size_t max_items;	/* lists */
	const char *what;	/* enums: "barrier", with @names */
	const char *const *names;
	unsigned int nr_names;
};

int run_param_uint(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size);		/* uint64_t */
int run_param_list(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size);		/* struct run_list */
int run_param_flag(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size);		/* bool */
int run_param_string(const struct run_param *row, const char *arg,
		     void *dst, char *err, size_t size); /* const char * */
int run_param_enum(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size);		/* unsigned int */
int run_param_gbps(const struct run_param *row, const char *arg, void *dst,
		   char *err, size_t size);		/* double */

/*
 * One kernel of "memdiagctl run". run() runs it with @cfg, then prints
 * the head (run_print_head()) and a "results" array, one object per
 * result between run_result_open() and run_result_close() (which adds
 * its counters), then the counter table (counters_text()), and sets
 * *printed once anything is printed; it returns an MDC_EXIT_* code,
 * reporting errors itself. Before each kernel call it reserves the
 * counter slots of that call's phases with counters_next().
 */
struct run_kernel {
	const char *name;
	/*
	 * Its paragraph under "Kernels:" in run --help (which the bash
	 * completion reads the kernel names from): lines of at most 59
	 * columns, '\n' between them.
	 */
	const char *help;
	uint64_t default_size;		/* 0: default_sizes instead */
	const uint64_t *default_sizes;	/* 0-terminated list */
	bool size_list;			/* --size takes a comma list */
	bool all_cpus;			/* threads default to every CPU */
	/* why --membind cannot bind this kernel's memory, or NULL */
	const char *no_membind;
	/* why --timing whole cannot time this kernel, or NULL */
	const char *no_whole;
	const struct run_param *params;	/* its own options; NULL opt ends */
	size_t opts_size;		/* sizeof its options struct */
	const void *opts_default;	/* their values when not given */
	/* what the head adds for this kernel (NULL: nothing) */
	void (*head)(struct printer *p, const struct run_args *a);
	int (*run)(const char *cmd, struct printer *p,
		   const struct run_args *a, const struct kern_cfg *cfg,
		   bool *printed);
};

extern const struct run_kernel run_read_delay, run_stream, run_latency,
	run_loaded_latency, run_stencil, run_throughput, run_transpose,
	run_traffic;

/* The kernels in the order --help lists them, and how many (kernels.c). */
extern const struct run_kernel *const run_kernels[];
extern const size_t run_nr_kernels;

/*
 * An option of run (options.c): its getopt_long() row and its --help
 * entry, which help.c prints, so that what run takes and what its help
 * says come from one row.
 */
struct run_opt {
	const char *name;	/* the long option */
	int has_arg;		/* as getopt_long() */
	int val;		/* its short option or RUN_OPT_*; kernel options: 0 */
	const char *noun;	/* "kernel 'x' has no NOUN"; NULL: "does not take it" */
	const char *arg;	/* its argument in the help ("N"); NULL: a flag */
	const char *help;	/* its help, lines split by '\n' */
	bool or_prev;		/* the usage line gives it as the row before's alternative */
};

/* getopt_long()'s values of the options of run_copts[] without a letter */
enum {
	RUN_OPT_CSV = 200,	/* above every char, below RUN_OPT_KERNEL */
	RUN_OPT_MIN_TIME,
	RUN_OPT_NODE,
	RUN_OPT_SOCKET,
	RUN_OPT_MEMBIND,
	RUN_OPT_TIMING,
	RUN_OPT_KERNEL = 256,	/* + i: run_kopts[i] without a letter */
};

/* The options every kernel takes. */
extern const struct run_opt run_copts[];
extern const size_t run_nr_copts;

/*
 * The kernel options; the command line gives each kernel the value (or ""
 * for a flag) of each, NULL when not given (run_apply_params()).
 */
extern const struct run_opt run_kopts[];
extern const size_t run_nr_kopts;

/*
 * Fill the options of @a->kernel (into @opts, of kernel->opts_size bytes)
 * from its defaults and @given (indexed like run_kopts[]). An option the
 * kernel has no row for, or a bad value, is a usage error naming the
 * option (and the kernels that do take it); returns an exit code.
 */
int run_apply_params(const char *cmd, const struct run_kernel *k,
		     const char *const *given, void *opts);

/* "a, b or c" of the kernels for which @has(k, @arg) is true (all: NULL). */
void run_kernel_list(char *buf, size_t size,
		     bool (*has)(const struct run_kernel *k, const void *arg),
		     const void *arg);

/* run --help (help.c): the usage line, the kernels and the options. */
void run_usage(FILE *f);

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

/* Read one item of a list; @ctx is run_parse_list()'s. */
typedef int (*run_item_fn)(const void *ctx, const char *s, uint64_t *v,
			   char *err, size_t size);
/* "64K", "1M", "1G" (binary multiples) or plain bytes, 4K to 1024G. */
int run_parse_size(const void *ctx, const char *s, uint64_t *v, char *err,
		   size_t size);
/*
 * A comma list of at most @max values, each read by @one(@ctx, ...), into
 * @v and @n; @what names them in messages ("sizes", "delays").
 */
int run_parse_list(const char *s, const char *what, size_t max,
		   run_item_fn one, const void *ctx, uint64_t *v, size_t *n,
		   char *err, size_t size);

/* output.c: the pieces of output every kernel's has */

/* --timing repetition|whole into @t; an exit code. */
int run_timing_option(const char *cmd, const char *arg, enum kern_timing *t);

/* "64M" when @v is a whole multiple, else bytes. */
void run_fmt_size(char *buf, size_t size, uint64_t v);
/* Open the document and print what was run, on which CPUs, how often. */
void run_print_head(struct printer *p, const struct run_args *a);
/*
 * Open a result: kernel, threads, size_bytes, reps and timed_s (the
 * repetitions its measurement took and their seconds timed in all), as
 * every result has.
 */
void run_result_open(struct printer *p, const struct run_args *a,
		     uint64_t size, const struct kern_timed *t);
/* Its counters (those of @slot) and the end of the result. */
void run_result_close(struct printer *p, const struct run_args *a,
		      size_t slot);
/* PREFIX_min and PREFIX_max of @s into the JSON object. */
void run_stats_json(struct printer *p, const char *prefix,
		    const struct kern_stats *s);
/*
 * GB/s as every bandwidth kernel prints them: the median as "gbps", then
 * gbps_min and gbps_max (JSON) or the min and max columns (text).
 */
void run_print_gbps(struct printer *p, const struct kern_stats *s);

#endif /* MEMDIAGCTL_RUN_H */
