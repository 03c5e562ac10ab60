// SPDX-License-Identifier: GPL-2.0
/*
 * run_read_delay.c - "memdiagctl run read-delay": the memory read benchmark
 * with NOP delays, one array size, GB/s per repetition.
 */

#include <inttypes.h>
#include <math.h>

#include "run.h"

int run_read_delay(const char *cmd, struct printer *p,
			  const struct run_args *a, const struct kern_cfg *cfg,
			  bool *printed)
{
	struct read_delay_result r;
	char err[200], sz[32];
	const char *label[] = { sz };
	size_t slot;

	run_fmt_size(sz, sizeof(sz), a->size[0]);
	slot = run_counters_next(a->counters, 1, label);
	if (read_delay_run(cfg, a->size[0], a->delay, &r, err, sizeof(err))) {
		cli_err(cmd, "read-delay failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	run_print_head(p, a);
	*printed = true;
	print_textf(p, "%-8s %10s %10s %10s %8s\n", "size", "GB/s", "min",
		    "max", "cov");
	print_open_array(p, "results");
	print_open_object(p, NULL);
	run_result_common(p, a, a->size[0]);
	print_string(p, PRINT_TEXT, NULL, "%-8s", sz);
	print_u64(p, PRINT_JSON, "delay", "%" PRIu64, a->delay);
	print_double(p, PRINT_ANY, "gbps", " %10.2f", r.gbps.median);
	run_stats_json(p, "gbps", &r.gbps);
	print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps.min);
	print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps.max);
	/* reads only: what is named is what moves */
	print_double(p, PRINT_JSON, "traffic_gbps", "%f", r.gbps.median);
	print_double(p, PRINT_ANY, "cov", " %8.4f\n", r.gbps.cov);
	print_string(p, PRINT_JSON, "verified", "%s", NULL);
	print_u64(p, PRINT_JSON, "records", "%" PRIu64, r.records);
	run_counters_json(p, a->counters, slot);
	print_close_object(p);
	print_close_array(p);
	run_counters_text(p, a->counters, "size");
	return MDC_EXIT_OK;
}

