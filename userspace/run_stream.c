// SPDX-License-Identifier: GPL-2.0
/*
 * run_stream.c - "memdiagctl run stream": copy, scale, add, triad, verified;
 * GB/s as STREAM counts them and with the write-allocate.
 */

#include <inttypes.h>
#include <math.h>

#include "run.h"

int run_stream(const char *cmd, struct printer *p,
		      const struct run_args *a, const struct kern_cfg *cfg,
		      bool *printed)
{
	struct stream_result r;
	char err[200], sz[32];
	size_t slot;
	int op;

	/* phase op of the harness is op: its counters are slot + op */
	slot = run_counters_next(a->counters, STREAM_NR_OPS, stream_op_name);
	if (stream_run(cfg, a->size[0], &r, err, sizeof(err))) {
		cli_err(cmd, "stream failed", "%s", err);
		return MDC_EXIT_LOCAL;
	}
	for (op = 0; op < STREAM_NR_OPS; op++)
		run_counters_traffic(a->counters, slot + (size_t)op,
				     r.traffic_bytes[op] * a->reps,
				     r.traffic_read_bytes[op] * a->reps);
	run_fmt_size(sz, sizeof(sz), a->size[0]);
	run_print_head(p, a);
	*printed = true;
	print_string(p, PRINT_TEXT, NULL, "%s per array\n", sz);
	print_textf(p, "%-6s %10s %10s %10s %13s %8s\n", "op", "GB/s", "min",
		    "max", "traffic_GB/s", "cov");
	print_open_array(p, "results");
	for (op = 0; op < STREAM_NR_OPS; op++) {
		print_open_object(p, NULL);
		run_result_common(p, a, a->size[0]);
		print_string(p, PRINT_ANY, "op", "%-6s", stream_op_name[op]);
		print_double(p, PRINT_ANY, "gbps", " %10.2f", r.gbps[op].median);
		run_stats_json(p, "gbps", &r.gbps[op]);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps[op].min);
		print_double(p, PRINT_TEXT, NULL, " %10.2f", r.gbps[op].max);
		print_double(p, PRINT_ANY, "traffic_gbps", " %13.2f",
			     r.traffic_gbps[op].median);
		print_double(p, PRINT_ANY, "cov", " %8.4f\n", r.gbps[op].cov);
		print_bool(p, PRINT_JSON, "verified", "%s", r.verified);
		run_counters_json(p, a->counters, slot + (size_t)op);
		print_close_object(p);
	}
	print_close_array(p);
	print_bool(p, PRINT_TEXT, NULL, "verified: %s", r.verified);
	print_textf(p, " (average relative error a %.3g, b %.3g, c %.3g; limit 1e-13)\n",
		    r.avg_rel_err[0], r.avg_rel_err[1], r.avg_rel_err[2]);
	run_counters_text(p, a->counters, "op");
	if (r.verified)
		return MDC_EXIT_OK;
	cli_err(cmd, "stream results failed validation",
		"average relative error above 1e-13: see the output");
	return MDC_EXIT_LOCAL;
}

