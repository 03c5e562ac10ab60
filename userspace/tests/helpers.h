/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helpers.h - what the unit tests share: captured output and stderr, and
 * canned netlink replies and snapshots (the checks are in units.h).
 */

#ifndef MEMDIAGCTL_TEST_HELPERS_H
#define MEMDIAGCTL_TEST_HELPERS_H

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/memdiag.h>
#include <libmnl/libmnl.h>

#include "cli.h"
#include "cmd.h"
#include "conn.h"
#include "cpulist.h"
#include "csv.h"
#include "info.h"
#include "info_show.h"
#include "metrics.h"
#include "names.h"
#include "nl.h"
#include "parse.h"
#include "prefetch.h"
#include "print.h"
#include "snapshot_collect.h"
#include "snapshot_show.h"
#include "verdict_live.h"
#include "counters/counters.h"
#include "snapshot.h"
#include "watch.h"
#include "../../kernels/kernel.h"

/* Diagnostics on stdout: each line of @s prefixed with "#   label: ". */
void diag(const char *label, const char *s);

/* Output of a printer, in memory. */
struct buf {
	char *data;
	size_t len;
	FILE *f;
};

void buf_open(struct buf *b);

void buf_close(struct buf *b);

/* stderr, redirected to a file while code under test reports to it. */
struct capture {
	FILE *tmp;
	int saved;
};

void capture_start(struct capture *c);

char *capture_end(struct capture *c);

/* A generic netlink reply to fill with attributes. */
struct nlmsghdr *reply_start(char *buf);

/* canned snapshots: the attribute, time zero, the TSC */
#define SA(x) MEMDIAG_A_SNAPSHOT_##x

struct snap snap_at(uint32_t socket, uint64_t t_ns);

void snap_imc(struct snap *s, uint32_t epoch, uint64_t rd, uint64_t wr);

struct core_counts {
	uint64_t cycles, ref, pend, l1m, lfb, ocr;
};

void snap_core(struct snap *s, uint32_t epoch, struct core_counts c);

#define T0 1000000000000ull	/* 1000 s of CLOCK_MONOTONIC */
#define SEC 1000000000ull
#define TSC_KHZ 2500000u	/* 2.5 GHz */

/*
 * The canned pair of memdiagctl(8)'s example, one second apart on a
 * 28-CPU socket at 2.0 GHz (TSC 2.5 GHz): socket 0 moderately loaded,
 * socket 1 saturated.
 */
void canned_pair(uint32_t socket, struct snap *a, struct snap *b);

/* Snapshot @i of a socket counting 1 GB/s of reads: 1 byte per ns. */
struct snap steady(uint64_t t_ns, uint32_t epoch, uint64_t base);

/*
 * A snapshot message as memdiag builds it, pads included when @pad, with
 * a channel nest for each of s->chan[0 .. nr_chan).
 */
struct nlmsghdr *snap_msg(char *buf, uint8_t cmd, const struct snap *s,
			 bool pad);

/*
 * The real poll loop over a real netlink socket: as root, another netlink
 * socket can send it unicast messages that look like the notifications.
 */
struct fake_kernel {
	struct mnl_socket *tx;
	uint32_t to;
};

int fake_send(struct fake_kernel *k, const struct snap *s, uint16_t type);

/* watch fed canned notifications (wrun_*): its output and stderr captured */
struct wrun {
	struct watch w;
	struct buf b;
	struct capture c;
	int init_rc;
};

/* Two sockets, every capability available, TSC_KHZ. */
void canned_summary(struct info_summary *sum);
void wrun_start(struct wrun *r, bool json, const struct info_summary *sum);
void wrun_feed(struct wrun *r, const struct snap *s);
void wrun_end(struct wrun *r, char **out, char **err);

/* kern_ops.setup for a fake kernel with no memory of its own: 0 */
int unit_setup_nothing(void *ctx, unsigned int tid);

#endif /* MEMDIAGCTL_TEST_HELPERS_H */
