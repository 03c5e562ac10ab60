// SPDX-License-Identifier: GPL-2.0
/*
 * traffic.c - "memdiagctl run traffic": calibrate's traffic generator
 * alone (read-delay's sweep with a read/write mix), GB/s of the DRAM bytes
 * it moves by its own count; what make bench compares with likwid-bench.
 */

#include <inttypes.h>
#include <stddef.h>

#include "../../kernels/calib.h"
#include "run/pages.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/warn.h"

struct traffic_args {
	struct run_list delay;	/* one value: --delay N */
	const char *mix;	/* --mix read|2:1|1:1 */
};

static const struct run_param traffic_params[] = {
	RUN_PARAM_DELAY(struct traffic_args, delay),
	{ .opt = "mix", .parse = run_param_string,
	  .offset = offsetof(struct traffic_args, mix) },
	{ NULL }
};

static const struct traffic_args traffic_default;

static void traffic_head(struct printer *p, const struct run_args *a)
{
	const struct traffic_args *o = a->opts;

	print_u64(p, PRINT_ANY, "delay", ", delay %" PRIu64 " NOPs",
		  run_list_first(&o->delay));
	print_string(p, PRINT_ANY, "mix", ", mix %s", o->mix ? o->mix : "read");
}

static int traffic_main(const char *cmd, struct printer *p,
			const struct run_args *a, const struct kern_cfg *cfg,
			bool *printed)
{
	const struct traffic_args *o = a->opts;
	struct traffic_result r;
	unsigned int mask = 1u << KERN_MIX_READ, m;
	char err[200], sz[32], row[64];
	const char *label[] = { sz };
	size_t slot;
	int rc;

	if (o->mix) {
		rc = run_parse_names(cmd, "--mix", "mix", o->mix, kern_mix_name,
				     KERN_NR_MIXES, false, &mask);
		if (rc)
			return rc;
	}
	for (m = 0; !(mask & (1u << m)); m++)
		;
	run_fmt_size(sz, sizeof(sz), a->size[0]);
	run_check_llc(a->size[0], "the traffic array");
	slot = counters_next(a->counters, 1, label);
	/* one run: its time left is the whole run's */
	run_progress_plan(cfg, 1, NULL);
	if (traffic_run(cfg, a->size[0], run_list_first(&o->delay),
			(enum kern_mix)m, &r, err, sizeof(err))) {
		cli_err(cmd, "traffic failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	run_print_head(p, a);
	*printed = true;
	print_textf(p, "%-8s %10s %10s %10s %8s %10s %8s %6s\n", "size",
		    "GB/s", "min", "max", "cov", "read_share", "pages", "reps");
	print_open_array(p, "results");
	run_result_open(p, a, a->size[0], &r.timed);
	print_string(p, PRINT_TEXT, NULL, "%-8s", sz);
	run_print_gbps(p, &r.gbps);
	/* read-modify-write: each written line was read by the kernel itself */
	print_double(p, PRINT_JSON, "traffic_gbps", "%f", r.gbps.median);
	snprintf(row, sizeof(row), "traffic %s", sz);
	run_print_cov(p, " %8.4f", r.gbps.cov, row);
	print_double(p, PRINT_ANY, "read_share", " %10.3f",
		     kern_mix_read_share((enum kern_mix)m));
	run_print_pages(p, &r.pages);
	print_uint(p, PRINT_TEXT, NULL, " %6u\n", r.timed.reps);
	run_check_hugepages(a, &r.pages, row);
	print_u64(p, PRINT_JSON, "traffic_read_bytes", "%" PRIu64, r.bytes.read);
	print_u64(p, PRINT_JSON, "traffic_write_bytes", "%" PRIu64, r.bytes.write);
	print_string(p, PRINT_JSON, "verified", "%s", NULL);
	run_result_close(p, a, slot);
	print_close_array(p);
	counters_text(p, a->counters, "size");
	return MDC_EXIT_OK;
}

/* as read-delay: far larger than any LLC here */
const struct run_kernel run_traffic = {
	/* its paragraph of run --help, lines of at most 59 columns */
	.help =
		"calibrate's traffic generator: read-delay's sweep with\n"
		"--mix read (default), 2:1 or 1:1 (DRAM reads:writes:\n"
		"the written records are read first, so write-allocate\n"
		"is in the count); GB/s counts the DRAM bytes it moves\n"
		"(--size: the whole array, split among the threads;\n"
		"default 1G; --delay N NOPs after every four records)",
	.name = "traffic", .default_size = 1ull << 30,
	.params = traffic_params,
	.opts_size = sizeof(struct traffic_args),
	.opts_default = &traffic_default,
	.head = traffic_head, .run = traffic_main,
};
