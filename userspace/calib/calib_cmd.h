/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calib_cmd.h - what "calibrate"'s option parsing (cmd_calibrate.c) hands
 * to the measuring (calib_run.c) and prefetcher switching (calib_pf.c).
 */

#ifndef MEMDIAGCTL_CALIB_CMD_H
#define MEMDIAGCTL_CALIB_CMD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "curve.h"

struct cal_args {
	bool have_socket;
	uint32_t socket;
	unsigned int mixes;	/* bit per enum kern_mix */
	unsigned int pf;	/* bit 0: on, bit 1: off; 0: unchanged */
	bool quick, show;
	bool plan_only;		/* --plan: print the plan, measure nothing */
	uint64_t max_memory;	/* --max-memory; 0: MemAvailable only */
	unsigned int reps;
	const char *curve;	/* --curve, or NULL */
};

/*
 * Measure and store; *@stop (set by SIGINT/SIGTERM) cuts it short, puts
 * the prefetchers back and stores nothing. An exit code.
 */
int calib_main(const char *cmd, const struct opts *o,
	       const struct cal_args *a, volatile sig_atomic_t *stop);

/*
 * The prefetchers of the whole machine as they are now (pf_state_summary:
 * "on", "off", "mixed"), for the fingerprint; NULL when the module cannot
 * tell (not loaded, no prefetcher control). Quiet: calibrating without
 * the module is normal.
 */
const char *calib_pf_live(const char *cmd);

/*
 * Whether the prefetchers can be switched here (the module loaded with
 * prefetch-set, a prefetcher to switch, CAP_SYS_ADMIN and CAP_SYS_RAWIO);
 * if not, why in @why. Quiet: validate then leaves them as they are.
 */
bool calib_pf_can(const char *cmd, char *why, size_t len);

/* The prefetchers of one socket, switched through the module. */
struct calib_pf;
/* calib_pf_open()'s @socket for every socket (validate's stream runs) */
#define CALIB_PF_ALL UINT32_MAX
/*
 * Connect and check that the prefetchers of @socket (or CALIB_PF_ALL) can
 * be switched: an exit code (reported), *@pf allocated on success.
 */
int calib_pf_open(const char *cmd, uint32_t socket, struct calib_pf **pf);
/* All of them on (@on) or off: an exit code (reported). */
int calib_pf_set(const char *cmd, struct calib_pf *pf, bool on);
/* Close and free, changing nothing (nothing was switched yet). */
void calib_pf_free(struct calib_pf *pf);
/* Put back what the module found (restore), close and free. */
int calib_pf_close(const char *cmd, struct calib_pf *pf);

#endif /* MEMDIAGCTL_CALIB_CMD_H */
