// SPDX-License-Identifier: GPL-2.0
/* unit_watch.c - unit tests: watch, fed canned notifications (cmd_watch.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f watch" runs its tests alone */
FIXTURE(watch) {};
FIXTURE_SETUP(watch) {}
FIXTURE_TEARDOWN(watch) {}

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
	"\"core_ghz\":2,\"load_miss_real_latency_ns\":100,\"saturated\":false,\"nr_channels\":null,\"unmeasured_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,\"busiest_channel_gbps\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n"
	"{\"socket\":1,\"time_ns\":1001000001000,\"time_unix_ns\":1700000001000001000,\"interval_ns\":1000000000,"
	"\"valid\":true,\"read_bytes\":80000000000,\"write_bytes\":20000000000,"
	"\"read_gbps\":80,\"write_gbps\":20,\"total_gbps\":100,"
	"\"offcore_read_bytes\":32000000000,\"offcore_read_gbps\":32,"
	"\"l1_miss_latency_cycles\":500,\"load_miss_real_latency_cycles\":400,"
	"\"core_ghz\":2,\"load_miss_real_latency_ns\":200,\"saturated\":true,\"nr_channels\":null,\"unmeasured_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,\"busiest_channel_gbps\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n";

TEST_F(watch, watch_canned)
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

TEST_F(watch, watch_epoch)
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
				"\"core_ghz\":null,\"load_miss_real_latency_ns\":null,\"saturated\":null,\"nr_channels\":null,\"unmeasured_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,\"busiest_channel_gbps\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n",
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
TEST_F(watch, watch_unavailable)
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
	       "\"core_ghz\":null,\"load_miss_real_latency_ns\":null,\"saturated\":null,\"nr_channels\":null,\"unmeasured_channels\":null,\"channel_imbalance\":null,\"busiest_channel\":null,\"busiest_channel_gbps\":null,\"prefetch_disabled\":null,\"prefetch_mixed\":null,\"prefetch_changed\":null}\n",
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
TEST_F(watch, watch_flow)
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
TEST_F(watch, watch_loop)
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
TEST_F(watch, watch_csv_timestamp)
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
			       "socket,time_ns,time_unix_ns,interval_ns,valid,read_bytes,write_bytes,read_gbps,write_gbps,total_gbps,offcore_read_bytes,offcore_read_gbps,l1_miss_latency_cycles,load_miss_real_latency_cycles,core_ghz,load_miss_real_latency_ns,saturated,nr_channels,unmeasured_channels,channel_imbalance,busiest_channel,busiest_channel_gbps,prefetch_disabled,prefetch_mixed,prefetch_changed\n"
			       "0,1001000000000,1700000001000000000,1000000000,true,25600000000,6400000000,25.6,6.4,32,19200000000,19.2,300,200,2,100,false,,,,,,,,\n"
			       "1,1001000001000,1700000001000001000,1000000000,true,80000000000,20000000000,80,20,100,32000000000,32,,,2,,,,,,,,,,\n",
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
TEST_F(watch, csv_row)
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

/* AMD's L3-sampled DRAM latency: a column and two keys, only when available */
TEST_F(watch, watch_l3)
{
	struct info_summary sum;
	struct snap a, b;
	struct wrun r;
	char *out, *err;
	int json;

	canned_summary(&sum);
	sum.cap[MEMDIAG_CAPABILITY_L3_DRAM_LATENCY].available = true;
	canned_pair(0, &a, &b);
	snap_set(&a, MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_LATENCY_CYCLES, 0);
	snap_set(&b, MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_LATENCY_CYCLES, 3000000);
	snap_set(&a, MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_REQUESTS, 0);
	snap_set(&b, MEMDIAG_A_SNAPSHOT_L3_SAMPLED_DRAM_REQUESTS, 10000);
	for (json = 0; json <= 1; json++) {
		wrun_start(&r, json, &sum);
		wrun_feed(&r, &a);
		wrun_feed(&r, &b);
		wrun_end(&r, &out, &err);
		if (json)
			ok(strstr(out, "\"load_miss_real_latency_ns\":100,\"l3_dram_latency_cycles\":300,\"l3_dram_latency_ns\":120,\"saturated\"") != NULL,
			   "watch json: l3_dram_latency_cycles 300 and _ns 120 (at the 2.5 GHz TSC), after the core latencies: %s", out);
		else
			ok(strstr(out, "lmr_lat_ns  l3_lat_ns  sat") &&
			   strstr(out, "100.0      120.0"),
			   "watch text: an l3_lat_ns column, 120.0: %s", out);
		free(out);
		free(err);
	}
	canned_summary(&sum);
	wrun_start(&r, 1, &sum);
	wrun_feed(&r, &a);
	wrun_feed(&r, &b);
	wrun_end(&r, &out, &err);
	ok(!strstr(out, "l3_dram"), "watch json: no L3 keys where the capability is unavailable");
	free(out);
	free(err);
}
