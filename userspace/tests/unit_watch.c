// SPDX-License-Identifier: GPL-2.0
/* unit_watch.c - unit tests: watch, fed canned notifications (cmd_watch.c). */

#include "helpers.h"
#include "units.h"

static void canned_summary(struct info_summary *sum)
{
	static uint32_t ids[] = { 0, 1 };
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	sum->have_nr_sockets = true;
	sum->nr_sockets = 2;
	sum->socket = ids;
	sum->nr_socket = 2;
	sum->tsc_khz = TSC_KHZ;
	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++)
		sum->cap[i].listed = sum->cap[i].available = true;
}

struct wrun {
	struct watch w;
	struct buf b;
	struct capture c;
	int init_rc;
};

static void wrun_start(struct wrun *r, bool json, const struct info_summary *sum)
{
	memset(&r->w, 0, sizeof(r->w));
	r->w.cmd = "watch";
	r->w.json = json;
	r->w.all = true;
	r->w.interval_ms = 1000;
	r->w.threshold = WATCH_DEFAULT_THRESHOLD;
	r->w.family = 0x1f;	/* reply_start()'s */
	/* the wall clock of time_ns 10^12 is 1.7 x 10^18 */
	r->w.have_unix_offset = true;
	r->w.unix_offset_ns = 1700000000000000000LL - 1000000000000LL;
	buf_open(&r->b);
	r->w.out = r->b.f;
	capture_start(&r->c);
	r->init_rc = watch_init(&r->w, sum);
}

static void wrun_feed(struct wrun *r, const struct snap *s)
{
	char buf[2048];

	watch_msg(snap_msg(buf, MEMDIAG_CMD_SNAPSHOT_NTF, s, true), &r->w);
}

static void wrun_end(struct wrun *r, char **out, char **err)
{
	*err = capture_end(&r->c);
	buf_close(&r->b);
	*out = r->b.data;
	watch_free(&r->w);
}

#define WATCH_HEADER_TEST "sock  rd_GB/s  wr_GB/s  tot_GB/s  ocr_GB/s  l1m_lat_cyc  lmr_lat_cyc  lmr_lat_ns  sat  ch_imb  busy_ch  prefetch"

static const char watch_text[] =
	"sock  rd_GB/s  wr_GB/s  tot_GB/s  ocr_GB/s  l1m_lat_cyc  lmr_lat_cyc  lmr_lat_ns  sat  ch_imb  busy_ch  prefetch\n"
	"   0    25.60     6.40     32.00     19.20        300.0        200.0       100.0   no       -        -  -\n"
	"   1    80.00    20.00    100.00     32.00        500.0        400.0       200.0  yes       -        -  -\n";

static const char watch_json[] =
	"{\"socket\":0,\"time_ns\":1001000000000,\"time_unix_ns\":1700000001000000000,\"interval_ns\":1000000000,"
	"\"valid\":true,\"read_bytes\":25600000000,\"write_bytes\":6400000000,"
	"\"read_gbps\":25.6,\"write_gbps\":6.4,\"total_gbps\":32,"
	"\"offcore_read_bytes\":19200000000,\"offcore_read_gbps\":19.2,"
	"\"l1_miss_latency_cycles\":300,\"load_miss_real_latency_cycles\":200,"
	"\"core_ghz\":2,\"load_miss_real_latency_ns\":100,\"saturated\":false,\"nr_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,\"busiest_channel_gbps\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n"
	"{\"socket\":1,\"time_ns\":1001000001000,\"time_unix_ns\":1700000001000001000,\"interval_ns\":1000000000,"
	"\"valid\":true,\"read_bytes\":80000000000,\"write_bytes\":20000000000,"
	"\"read_gbps\":80,\"write_gbps\":20,\"total_gbps\":100,"
	"\"offcore_read_bytes\":32000000000,\"offcore_read_gbps\":32,"
	"\"l1_miss_latency_cycles\":500,\"load_miss_real_latency_cycles\":400,"
	"\"core_ghz\":2,\"load_miss_real_latency_ns\":200,\"saturated\":true,\"nr_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,\"busiest_channel_gbps\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n";

static void test_watch_canned(void)
{
	struct info_summary sum;
	struct snap a0, b0, a1, b1;
	struct wrun r;
	char *out, *err;
	int json;

	canned_summary(&sum);
	canned_pair(0, &a0, &b0);
	canned_pair(1, &a1, &b1);
	for (json = 0; json <= 1; json++) {
		wrun_start(&r, json, &sum);
		wrun_feed(&r, &a0);
		wrun_feed(&r, &a1);
		wrun_feed(&r, &b0);
		wrun_feed(&r, &b1);
		wrun_end(&r, &out, &err);
		ok(r.init_rc == MDC_EXIT_OK && r.w.rc == MDC_EXIT_OK && !*err,
		   "watch %s: canned pair: no note, no error", json ? "json" : "text");
		is_str(out, json ? watch_json : watch_text,
		       json ? "watch json: the canned pair of two sockets"
			    : "watch text: the canned pair of two sockets");
		free(out);
		free(err);
	}
}

static void test_watch_epoch(void)
{
	struct info_summary sum;
	struct snap a, b, c, d;
	struct wrun r;
	char *out, *err;
	int json;

	canned_summary(&sum);
	canned_pair(0, &a, &b);
	c = b;
	snap_set(&c, SA(TIME_NS), b.v[SA(TIME_NS)] + SEC);
	snap_set(&c, SA(IMC_EPOCH), 2);
	snap_set(&c, SA(DRAM_READ_BYTES), 64);
	snap_set(&c, SA(DRAM_WRITE_BYTES), 0);
	d = c;
	snap_set(&d, SA(TIME_NS), c.v[SA(TIME_NS)] + SEC);
	snap_set(&d, SA(DRAM_READ_BYTES), 64 + 2000000000);
	for (json = 0; json <= 1; json++) {
		wrun_start(&r, json, &sum);
		r.w.all = false;
		r.w.socket = 0;
		wrun_feed(&r, &a);
		wrun_feed(&r, &b);
		wrun_feed(&r, &c);
		wrun_feed(&r, &d);
		wrun_end(&r, &out, &err);
		if (!json) {
			is_str(out,
			       "sock  rd_GB/s  wr_GB/s  tot_GB/s  ocr_GB/s  l1m_lat_cyc  lmr_lat_cyc  lmr_lat_ns  sat  ch_imb  busy_ch  prefetch\n"
			       "   0    25.60     6.40     32.00     19.20        300.0        200.0       100.0   no       -        -  -\n"
			       "   0        -        -         -      0.00            -            -           -    -       -        -  -\n"
			       "   0     2.00     0.00      2.00      0.00            -            -           -    -       -        -  -\n",
			       "watch text: an imc-epoch change blanks that interval's DRAM columns, then resumes");
			is_str(err,
			       "memdiagctl: watch: note: socket 0: imc-epoch changed from 1 to 2 (counting restarted), so this interval's rd_GB/s, wr_GB/s and tot_GB/s are not shown\n",
			       "watch text: one note for the invalid interval");
		} else {
			has_str(out,
				"{\"socket\":0,\"time_ns\":1002000000000,\"time_unix_ns\":1700000002000000000,\"interval_ns\":1000000000,"
				"\"valid\":false,\"read_bytes\":null,\"write_bytes\":null,"
				"\"read_gbps\":null,\"write_gbps\":null,\"total_gbps\":null,"
				"\"offcore_read_bytes\":0,\"offcore_read_gbps\":0,"
				"\"l1_miss_latency_cycles\":null,\"load_miss_real_latency_cycles\":null,"
				"\"core_ghz\":null,\"load_miss_real_latency_ns\":null,\"saturated\":null,\"nr_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,\"busiest_channel_gbps\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n",
				"watch json: the invalid interval: valid false, DRAM keys null");
			has_str(out, "\"valid\":true,\"read_bytes\":2000000000,\"write_bytes\":0,\"read_gbps\":2,",
				"watch json: the next interval is valid from the new baseline");
			is_str(err,
			       "memdiagctl: watch: note: socket 0: imc-epoch changed from 1 to 2 (counting restarted), so this interval's read_bytes, write_bytes, read_gbps, write_gbps and total_gbps are null\n",
			       "watch json: one note, naming the keys");
		}
		free(out);
		free(err);
	}

	/* both groups at once */
	wrun_start(&r, false, &sum);
	c = b;
	snap_set(&c, SA(TIME_NS), b.v[SA(TIME_NS)] + SEC);
	snap_set(&c, SA(IMC_EPOCH), 7);
	snap_set(&c, SA(CORE_EPOCH), 3);
	wrun_feed(&r, &b);
	wrun_feed(&r, &c);
	wrun_end(&r, &out, &err);
	is_str(err,
	       "memdiagctl: watch: note: socket 0: imc-epoch changed from 1 to 7 (counting restarted) and core-epoch changed from 1 to 3 (counting restarted), so none of this interval's metrics is shown\n",
	       "watch: both epochs in one note line");
	has_str(out, "   0        -        -         -         -            -            -           -    -       -        -  -\n",
		"watch: every metric blank when both groups restarted");
	free(out);
	free(err);
}

/* Long: one scenario, its checks in the order the behaviour unfolds. */
static void test_watch_unavailable(void)
{
	struct info_summary sum;
	struct snap a, b;
	struct wrun r;
	char *out, *err;
	unsigned int i;

	/* under TCG: nothing to measure, no session */
	canned_summary(&sum);
	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++) {
		sum.cap[i].available = false;
		snprintf(sum.cap[i].reason, sizeof(sum.cap[i].reason),
			 "reason %u", i);
	}
	wrun_start(&r, false, &sum);
	wrun_end(&r, &out, &err);
	ok(r.init_rc == MDC_EXIT_UNAVAILABLE && !*out,
	   "watch: no counter group available: exit 7, nothing on stdout (got %d)",
	   r.init_rc);
	is_str(err,
	       "memdiagctl: watch: nothing to measure: no counter is available on this machine\n"
	       "memdiagctl: watch: imc-bandwidth: reason 0\n"
	       "memdiagctl: watch: core-latency: reason 1\n"
	       "memdiagctl: watch: offcore: reason 2\n",
	       "watch: the reason of each counter group");
	free(out);
	free(err);

	/* a VM with IMC but no core PMU, and no TSC frequency either */
	canned_summary(&sum);
	sum.tsc_khz = 0;
	sum.cap[MEMDIAG_CAPABILITY_CORE_LATENCY].available = false;
	snprintf(sum.cap[MEMDIAG_CAPABILITY_CORE_LATENCY].reason, 256,
		 "the core PMU is not visible (hypervisor?)");
	sum.cap[MEMDIAG_CAPABILITY_OFFCORE].available = false;
	canned_pair(0, &a, &b);
	a.have &= (1u << SA(SOCKET)) | (1u << SA(TIME_NS)) |
		  (1u << SA(IMC_EPOCH)) | (1u << SA(DRAM_READ_BYTES)) |
		  (1u << SA(DRAM_WRITE_BYTES));
	b.have = a.have;
	wrun_start(&r, true, &sum);
	wrun_feed(&r, &a);
	wrun_feed(&r, &b);
	wrun_feed(&r, &a);	/* stale: ignored */
	wrun_end(&r, &out, &err);
	ok(r.init_rc == MDC_EXIT_OK, "watch: some counters missing: runs");
	is_str(err,
	       "memdiagctl: watch: note: l1_miss_latency_cycles, load_miss_real_latency_cycles, core_ghz, load_miss_real_latency_ns and saturated will be null: core-latency is unavailable: the core PMU is not visible (hypervisor?)\n"
	       "memdiagctl: watch: note: offcore_read_bytes and offcore_read_gbps will be null: offcore is unavailable\n",
	       "watch: each missing group explained once at start, none again later");
	is_str(out,
	       "{\"socket\":0,\"time_ns\":1001000000000,\"time_unix_ns\":1700000001000000000,\"interval_ns\":1000000000,"
	       "\"valid\":true,\"read_bytes\":25600000000,\"write_bytes\":6400000000,"
	       "\"read_gbps\":25.6,\"write_gbps\":6.4,\"total_gbps\":32,"
	       "\"offcore_read_bytes\":null,\"offcore_read_gbps\":null,"
	       "\"l1_miss_latency_cycles\":null,\"load_miss_real_latency_cycles\":null,"
	       "\"core_ghz\":null,\"load_miss_real_latency_ns\":null,\"saturated\":null,\"nr_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,\"busiest_channel_gbps\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n",
	       "watch json: unavailable metrics are null, never 0");
	free(out);
	free(err);

	/* only the TSC frequency is missing; and a module that sends no IMC */
	canned_summary(&sum);
	sum.tsc_khz = 0;
	canned_pair(0, &a, &b);
	a.have &= ~((1u << SA(DRAM_READ_BYTES)) | (1u << SA(DRAM_WRITE_BYTES)) |
		    (1u << SA(IMC_EPOCH)));
	b.have = a.have;
	wrun_start(&r, false, &sum);
	wrun_feed(&r, &a);
	wrun_feed(&r, &b);
	wrun_end(&r, &out, &err);
	is_str(err,
	       "memdiagctl: watch: note: lmr_lat_ns will be -: the memdiag module did not report the TSC frequency (tsc-khz)\n"
	       "memdiagctl: watch: note: rd_GB/s, wr_GB/s and tot_GB/s will be -: the memdiag module sends no DRAM counters\n",
	       "watch: no tsc-khz, and counters missing though listed available");
	has_str(out,
		"   0        -        -         -     19.20        300.0        200.0           -   no       -        -  -\n",
		"watch text: '-' for what is missing, the rest printed");
	free(out);
	free(err);
}

/* Long: one scenario, its checks in the order the behaviour unfolds. */
static void test_watch_flow(void)
{
	struct info_summary sum;
	struct snap s, t;
	struct wrun r;
	char *out, *err, *p, buf[2048];
	struct nlmsghdr *nlh;
	int i, headers = 0, rows = 0;

	/* --socket 1: socket 0 is not printed; --count 2 stops at 2 rows */
	canned_summary(&sum);
	wrun_start(&r, true, &sum);
	r.w.all = false;
	r.w.socket = 1;
	watch_free(&r.w);
	r.init_rc = watch_init(&r.w, &sum);
	r.w.count = 2;
	for (i = 0; i < 6; i++) {
		s = steady(T0 + (uint64_t)i * SEC, 1, 0);
		wrun_feed(&r, &s);
		snap_set(&s, SA(SOCKET), 1);
		wrun_feed(&r, &s);
		ok(watch_done(&r.w) == (i >= 2),
		   "watch --socket 1 --count 2: %s after %d snapshots",
		   i >= 2 ? "done" : "not done", i + 1);
	}
	wrun_end(&r, &out, &err);
	for (p = out; (p = strstr(p, "\"socket\":")); p++)
		rows++;
	ok(rows == 2 && !strstr(out, "\"socket\":0") && !*err,
	   "watch --socket 1 --count 2: two rows, all of socket 1 (got %d)", rows);
	free(out);
	free(err);

	/* the header every 20 rows; other messages ignored */
	wrun_start(&r, false, &sum);
	r.w.all = false;
	r.w.socket = 0;
	for (i = 0; i <= 21; i++) {
		s = steady(T0 + (uint64_t)i * SEC, 1, 0);
		wrun_feed(&r, &s);
		nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT, &s, false);
		watch_msg(nlh, &r.w);	/* a reply, not a notification */
		nlh->nlmsg_type = 0x20;	/* another family */
		watch_msg(nlh, &r.w);
	}
	wrun_end(&r, &out, &err);
	rows = 0;
	for (p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, "sock ", 5))
			headers++;
		else
			rows++;
	}
	ok(rows == 21 && headers == 2 && !strncmp(out, "sock ", 5) &&
	   strstr(out, "\n   0     1.00     0.00      1.00      0.00        100.0        100.0        40.0   no       -        -  -\nsock "),
	   "watch text: the header repeats after 20 rows (%d rows, %d headers)",
	   rows, headers);
	free(out);
	free(err);

	/* a malformed notification is skipped with one note */
	wrun_start(&r, false, &sum);
	for (i = 0; i < 2; i++) {
		nlh = reply_start(buf);
		((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd =
			MEMDIAG_CMD_SNAPSHOT_NTF;
		mnl_attr_put_u32(nlh, SA(SOCKET), 0);
		mnl_attr_put_u32(nlh, SA(TIME_NS), 5);
		watch_msg(nlh, &r.w);
	}
	canned_pair(0, &s, &t);
	wrun_feed(&r, &s);
	wrun_feed(&r, &t);
	wrun_end(&r, &out, &err);
	is_str(err, "memdiagctl: watch: note: ignoring a malformed snapshot from the memdiag module: attribute time-ns (type 3) has the wrong size\n",
	       "watch: a malformed notification noted once");
	has_str(out, "   0    25.60", "watch: and the good ones still printed");
	free(out);
	free(err);

	/* a full disk: the row is not lost silently */
	{
		FILE *f = fopen("/dev/full", "w");

		if (!f) {
			skip("watch: a write error stops with exit 6", "no /dev/full");
		} else {
			wrun_start(&r, true, &sum);
			r.w.out = f;
			canned_pair(0, &s, &t);
			wrun_feed(&r, &s);
			wrun_feed(&r, &t);
			wrun_end(&r, &out, &err);
			ok(r.w.rc == MDC_EXIT_LOCAL,
			   "watch: a write error stops with exit 6");
			has_str(err, "memdiagctl: watch: cannot write output: No space left on device",
				"watch: the write error is reported");
			fclose(f);
			free(out);
			free(err);
		}
	}
}

static int lines(const char *s)
{
	int n = 0;

	while ((s = strchr(s, '\n'))) {
		n++;
		s++;
	}
	return n;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Long: one scenario, its checks in the order the behaviour unfolds. */
static void test_watch_loop(void)
{
	struct info_summary sum;
	struct fake_kernel k;
	struct snap a, b, c;
	struct nl_error e;
	struct wrun r;
	struct nl nl;
	sigset_t mask;
	char *out, *err;
	double t;
	int sfd, rc;

	if (nl_open(&nl, &e) < 0) {
		skip("watch loop: over a netlink socket", strerror(e.err));
		return;
	}
	k.tx = mnl_socket_open(NETLINK_GENERIC);
	k.to = nl.portid;
	if (!k.tx || mnl_socket_bind(k.tx, 0, MNL_SOCKET_AUTOPID) < 0) {
		skip("watch loop: over a netlink socket", "no second socket");
		goto out;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	canned_summary(&sum);
	canned_pair(0, &a, &b);
	c = b;
	snap_set(&c, SA(TIME_NS), b.v[SA(TIME_NS)] + SEC);

	/* --socket 0 --count 2: stops by itself after two rows */
	rc = fake_send(&k, &a, 0x1f);
	if (rc == -EPERM || rc == -EACCES || sfd < 0) {
		skip("watch loop: over a netlink socket",
		     "sending to a netlink socket needs CAP_NET_ADMIN");
		goto out_sfd;
	}
	fake_send(&k, &a, 0x20);	/* another family's: ignored */
	fake_send(&k, &b, 0x1f);
	fake_send(&k, &c, 0x1f);
	wrun_start(&r, true, &sum);
	r.w.all = false;
	r.w.socket = 0;
	watch_free(&r.w);
	watch_init(&r.w, &sum);
	r.w.count = 2;
	rc = watch_loop(&r.w, &nl, sfd);
	wrun_end(&r, &out, &err);
	ok(rc == MDC_EXIT_OK && !*err && lines(out) == 2 &&
	   strstr(out, "\"read_gbps\":25.6,") &&
	   strstr(out, "\"interval_ns\":1000000000,\"valid\":true,\"read_bytes\":0,"),
	   "watch loop: --count 2 over the socket prints two rows and returns 0 (%d lines)",
	   lines(out));
	free(out);
	free(err);

	/* a signal ends it at once, even with snapshots waiting */
	nl_drain(&nl);
	fake_send(&k, &a, 0x1f);
	fake_send(&k, &b, 0x1f);
	kill(getpid(), SIGUSR1);
	wrun_start(&r, false, &sum);
	rc = watch_loop(&r.w, &nl, sfd);
	wrun_end(&r, &out, &err);
	ok(rc == MDC_EXIT_OK && !*out && !*err,
	   "watch loop: a signal in the signalfd stops it cleanly, exit 0");
	free(out);
	free(err);

	/* a socket that never reports is waited for 2 intervals + 1 s */
	nl_drain(&nl);
	a = snap_at(0, T0);
	b = snap_at(0, T0 + 1000000);
	snap_imc(&a, 1, 0, 0);
	snap_imc(&b, 1, 64000, 0);
	fake_send(&k, &a, 0x1f);
	fake_send(&k, &b, 0x1f);
	wrun_start(&r, true, &sum);
	r.w.interval_ms = 1;
	watch_free(&r.w);
	watch_init(&r.w, &sum);
	r.w.count = 1;
	t = seconds();
	rc = watch_loop(&r.w, &nl, sfd);
	t = seconds() - t;
	wrun_end(&r, &out, &err);
	ok(rc == MDC_EXIT_OK && t > 0.9 && t < 3 &&
	   lines(out) == 1 && strstr(out, "\"socket\":0,") &&
	   strstr(out, "\"read_gbps\":0.064,"),
	   "watch loop: --count with a silent socket ends after the grace time (%.2f s)",
	   t);
	has_str(err, "memdiagctl: watch: note: stopping: socket 1 sent too few snapshots for --count 1 while the others were done\n",
	       "watch loop: says which socket it gave up on");
	free(out);
	free(err);
out_sfd:
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
out:
	if (k.tx)
		mnl_socket_close(k.tx);
	nl_close(&nl);
}

/*
 * The timeline forms: --csv (the JSON keys as the header, one row per
 * socket and interval, null as an empty field) and --timestamp (the wall
 * clock of time_ns first in each text row, ISO 8601).
 */
static void test_watch_csv_timestamp(void)
{
	struct info_summary sum;
	struct snap a0, b0, a1, b1;
	struct wrun r;
	char *out, *err;
	int csv;

	setenv("TZ", "UTC", 1);
	tzset();
	canned_summary(&sum);
	canned_pair(0, &a0, &b0);
	canned_pair(1, &a1, &b1);
	for (csv = 0; csv <= 1; csv++) {
		wrun_start(&r, false, &sum);
		r.w.csv = csv;
		r.w.timestamp = !csv;
		wrun_feed(&r, &a0);
		wrun_feed(&r, &a1);
		wrun_feed(&r, &b0);
		b1.have &= ~(1u << MEMDIAG_A_SNAPSHOT_L1D_PEND_MISS);
		wrun_feed(&r, &b1);
		wrun_end(&r, &out, &err);
		if (csv)
			is_str(out,
			       "socket,time_ns,time_unix_ns,interval_ns,valid,read_bytes,write_bytes,read_gbps,write_gbps,total_gbps,offcore_read_bytes,offcore_read_gbps,l1_miss_latency_cycles,load_miss_real_latency_cycles,core_ghz,load_miss_real_latency_ns,saturated,nr_channels,channel_imbalance,busiest_channel,busiest_channel_gbps,prefetch_disabled,prefetch_mixed,prefetch_changed\n"
			       "0,1001000000000,1700000001000000000,1000000000,true,25600000000,6400000000,25.6,6.4,32,19200000000,19.2,300,200,2,100,false,,,,,,,\n"
			       "1,1001000001000,1700000001000001000,1000000000,true,80000000000,20000000000,80,20,100,32000000000,32,,,2,,,,,,,,,\n",
			       "watch --csv: the header, a row per socket, empty fields for nulls");
		else
			is_str(out,
			       "time                           " WATCH_HEADER_TEST "\n"
			       "2023-11-14T22:13:21.000+00:00     0    25.60     6.40     32.00     19.20        300.0        200.0       100.0   no       -        -  -\n"
			       "2023-11-14T22:13:21.000+00:00     1    80.00    20.00    100.00     32.00            -            -           -    -       -        -  -\n",
			       "watch --timestamp: the wall clock of each row, ISO 8601");
		free(out);
		free(err);
	}
}

/* csv_row(): RFC 4180 quoting, lists joined, a nested object refused. */
/*
 * @s with @n channels whose counts add up to its DRAM totals, channel
 * @hot carrying @extra more bytes of reads than the others (ids 10, 11..).
 */
static void with_channels(struct snap *s, size_t n, size_t hot, uint64_t extra)
{
	uint64_t rd = s->v[SA(DRAM_READ_BYTES)] - extra;
	uint64_t wr = s->v[SA(DRAM_WRITE_BYTES)];
	size_t i;

	s->nr_chan = n;
	for (i = 0; i < n; i++) {
		s->chan[i].id = (uint32_t)(10 + i);
		s->chan[i].read_bytes = rd / n + (i == hot ? extra : 0);
		s->chan[i].write_bytes = wr / n;
	}
}

/* Per-channel imbalance: text columns, JSON keys, and when it is null. */
static void test_watch_channels(void)
{
	struct info_summary sum;
	struct snap a, b;
	struct wrun r;
	char *out, *err;
	int json;

	canned_summary(&sum);
	canned_pair(0, &a, &b);
	/* socket 0 moves 32 GB in the second: 8 GB on each of 4 channels */
	with_channels(&a, 4, 0, 0);
	with_channels(&b, 4, 2, 8000000000ull);
	for (json = 0; json <= 1; json++) {
		wrun_start(&r, json, &sum);
		r.w.all = false;
		r.w.socket = 0;
		wrun_feed(&r, &a);
		wrun_feed(&r, &b);
		wrun_end(&r, &out, &err);
		if (json)
			has_str(out, "\"saturated\":false,\"nr_channels\":4,\"channel_imbalance\":1.75,\"busiest_channel\":12,\"busiest_channel_gbps\":14,",
				"watch json: channel 12 carries 14 of 32 GB/s over 4 channels: imbalance 1.75");
		else
			has_str(out, "  no    1.75       12  -\n",
				"watch text: ch_imb 1.75, busy_ch 12");
		free(out);
		free(err);
	}

	/* a channel gone backwards: no per-channel values that interval */
	b.chan[1].read_bytes = 0;
	wrun_start(&r, true, &sum);
	r.w.all = false;
	r.w.socket = 0;
	wrun_feed(&r, &a);
	wrun_feed(&r, &b);
	wrun_end(&r, &out, &err);
	has_str(out, "\"nr_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,",
		"watch json: a channel that went backwards gives no imbalance");
	free(out);
	free(err);
}

/*
 * watch --csv with a curve: the verdict's keys flattened into the row
 * (verdict_*), the same columns in a row without a verdict, all empty.
 */
static void test_watch_csv_verdict(void)
{
	struct curve_point pts[] = {
		{ .bandwidth_gbps = 10, .read_gbps = 10, .latency_ns = 90 },
		{ .bandwidth_gbps = 40, .read_gbps = 40, .latency_ns = 150 },
		{ .bandwidth_gbps = 64, .read_gbps = 64, .latency_ns = 300 },
	};
	struct curve_mix mix = {
		.read_fraction = 1, .prefetch = CURVE_PF_UNCHANGED,
		.peak_index = 2, .points = pts, .nr_points = 3,
	};
	struct curve_socket cs = {
		.socket = 0, .idle_latency_ns = 80, .mixes = &mix, .nr_mixes = 1,
	};
	struct verdict_src vs = {
		.curve = { .sockets = &cs, .nr_sockets = 1 },
		.usable = true,
	};
	struct info_summary sum;
	struct snap a0, b0, a1, b1;
	struct wrun r;
	char *out, *err;

	canned_summary(&sum);
	canned_pair(0, &a0, &b0);
	canned_pair(1, &a1, &b1);
	wrun_start(&r, true, &sum);
	r.w.json = false;
	r.w.csv = true;
	r.w.vs = &vs;
	wrun_feed(&r, &a0);
	wrun_feed(&r, &a1);
	wrun_feed(&r, &b0);
	wrun_feed(&r, &b1);
	wrun_end(&r, &out, &err);
	has_str(out, ",prefetch_changed,verdict_utilization,verdict_peak_gbps,verdict_headroom_gbps,verdict_expected_latency_ns,verdict_stress,verdict_label,verdict_latency_disagreement,verdict_imbalanced_channel,verdict_imbalanced_channel_share,verdict_bandwidth_source,verdict_reason\n",
		"watch --csv with a curve: the verdict's columns in the header");
	has_str(out, ",0.5,64,32,",
		"watch --csv: socket 0 at 32 of 64 GB/s: utilization 0.5, headroom 32");
	has_str(out, ",imc,\n1,",
		"watch --csv: socket 0's row ends with its bandwidth source, no reason");
	has_str(out, ",,,,,,,,,,,no curve for this socket: run memdiagctl calibrate\n",
		"watch --csv: socket 1 without a curve: the same columns, empty, and the reason");
	free(out);
	free(err);
}

static void test_csv_row(void)
{
	struct buf b;
	int rc1, rc2;

	buf_open(&b);
	rc1 = csv_row(b.f, "{\"a\":\"x,\\\"y\\\"\",\"b\":[\"l2\",\"dcu\"],\"c\":null,\"d\":1.5}", true);
	rc2 = csv_row(b.f, "{\"a\":{\"b\":1}}", false);
	buf_close(&b);
	ok(rc1 == 0 && rc2 < 0, "csv_row: a flat object written, a nested one refused");
	is_str(b.data, "a,b,c,d\n\"x,\"\"y\"\"\",l2;dcu,,1.5\n",
	       "csv_row: quotes a comma and a quote, joins a list, null is empty");
	free(b.data);
}

void unit_watch(void)
{
	test_watch_channels();
	test_watch_csv_verdict();
	test_csv_row();
	test_watch_canned();
	test_watch_csv_timestamp();
	test_watch_epoch();
	test_watch_unavailable();
	test_watch_flow();
	test_watch_loop();
}
