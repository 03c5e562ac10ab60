// SPDX-License-Identifier: GPL-2.0
/*
 * unit_counters.c - unit tests: the counters around "run"
 * (counters/counters.c) and the harness's marks.
 */

#include "helpers.h"
#include "units.h"
#include "../../kernels/simd.h"

/* the unit: "unit.bin -f counters" runs its tests alone */
FIXTURE(counters) {};
FIXTURE_SETUP(counters) {}
FIXTURE_TEARDOWN(counters) {}

/* A struct counters as counters_open() leaves it, without a module. */
static void ctr_setup(struct __test_metadata *_metadata,
		      struct counters *c, size_t nr_sock)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->on = true;
	c->tsc_khz = TSC_KHZ;
	c->core_mode = MEMDIAG_CORE_MODE_MSR;
	c->imc.listed = c->core.listed = c->offcore.listed = true;
	c->imc.available = c->core.available = c->offcore.available = true;
	c->nr_sock = nr_sock;
	c->sock_id = calloc(nr_sock, sizeof(*c->sock_id));
	for (i = 0; i < nr_sock; i++)
		c->sock_id[i] = (uint32_t)i;
}

/* The JSON of @slot's result object, or of the text table (@what). */
static char *ctr_out(struct __test_metadata *_metadata,
		     const struct counters *c, size_t slot, bool json,
		     const char *what)
{
	struct printer p;
	struct buf b;

	buf_open(&b);
	print_init(&p, b.f, json, false);
	print_open_object(&p, NULL);
	if (json)
		counters_json(&p, c, slot);
	else
		counters_text(&p, c, what);
	print_close_object(&p);
	if (print_end(&p) != 0)
		ok(false, "run counters: output ends cleanly");
	buf_close(&b);
	return b.data;
}

static void ctr_add_pair(struct counters *c, size_t slot,
			 const struct snap *a, const struct snap *b)
{
	const struct snap *pa[2] = { &a[0], &a[1] };
	const struct snap *pb[2] = { &b[0], &b[1] };

	counters_add(c, slot, pa, pb);
}

/* Long: one scenario, its checks in the order the behaviour unfolds. */
TEST_F(counters, counters)
{
	static const char *const labels[] = { "copy", "scale" };
	struct counters c;
	struct snap a[2], b[2], e[2];
	size_t slot;
	char *out;

	ctr_setup(_metadata, &c, 2);
	slot = counters_next(&c, 2, labels);
	ok(slot == 0 && c.nr_slot == 2, "run counters: two slots for two phases");
	/* copy: the canned second twice over (two repetitions) */
	canned_pair(0, &a[0], &b[0]);
	canned_pair(1, &a[1], &b[1]);
	ctr_add_pair(&c, 0, a, b);
	ctr_add_pair(&c, 0, a, b);
	/* 2 x (25.6 + 6.4 + 80 + 20) GB = 264 GB; 2 x (19.2 + 32) GB offcore */
	counters_traffic(&c, 0, 240000000000, 51200000000);
	out = ctr_out(_metadata, &c, 0, true, NULL);
	has_str(out, "\"counters\":{\"interval_ns\":2000000000,\"interval_s\":2,\"timed_s\":null,\"intervals\":2,\"valid\":true,"
		"\"read_bytes\":211200000000,\"write_bytes\":52800000000,"
		"\"offcore_read_bytes\":102400000000,\"traffic_bytes\":240000000000,"
		"\"traffic_read_bytes\":51200000000,\"volume_ratio\":1.1,"
		"\"offcore_volume_ratio\":2,\"null_reasons\":{},",
		"run counters: two intervals summed over both sockets; volume ratios 264/240 and 102.4/51.2");
	has_str(out, "{\"socket\":0,\"valid\":true,\"read_bytes\":51200000000,"
		"\"write_bytes\":12800000000,\"read_gbps\":25.6,\"write_gbps\":6.4,"
		"\"offcore_read_bytes\":38400000000,\"l1_miss_latency_cycles\":300,"
		"\"load_miss_real_latency_cycles\":200,\"null_reasons\":{}}",
		"run counters: socket 0's deltas, rates and latencies over the sum");
	has_str(out, "{\"socket\":1,\"valid\":true,\"read_bytes\":160000000000,",
		"run counters: socket 1's read bytes");
	has_str(out, "\"load_miss_real_latency_cycles\":400,\"null_reasons\":{}}]},"
		"\"counters_reason\":null}",
		"run counters: socket 1's latency; counters_reason null");
	free(out);

	/* scale: socket 0's IMC restarts during the second interval */
	ctr_add_pair(&c, 1, a, b);
	e[0] = b[0];
	e[1] = b[1];
	snap_set(&e[0], SA(IMC_EPOCH), 2);
	ctr_add_pair(&c, 1, a, e);
	out = ctr_out(_metadata, &c, 1, true, NULL);
	has_str(out, "\"valid\":false,\"read_bytes\":null,\"write_bytes\":null,"
		"\"offcore_read_bytes\":102400000000,\"null_reasons\":{\"read_bytes\":"
		"\"socket 0: imc-epoch changed from 1 to 2 during the run (the counters were reset or reprogrammed), so the interval is invalid\"",
		"run counters: an imc-epoch change makes the totals null, with the reason");
	has_str(out, "{\"socket\":0,\"valid\":false,\"read_bytes\":null,\"write_bytes\":null,"
		"\"read_gbps\":null,\"write_gbps\":null,\"offcore_read_bytes\":38400000000,"
		"\"l1_miss_latency_cycles\":300,",
		"run counters: ... and socket 0's DRAM values null, its core values kept");
	has_str(out, "{\"socket\":1,\"valid\":true,\"read_bytes\":160000000000,",
		"run counters: ... and socket 1 unaffected");
	free(out);

	out = ctr_out(_metadata, &c, 0, false, "op");
	has_str(out, "op       sock    time_s      rd_MB      wr_MB     ocr_MB  rd_GB/s  wr_GB/s  l1m_cyc  lmr_cyc\n"
		"copy        0    2.0000    51200.0    12800.0    38400.0    25.60     6.40    300.0    200.0\n"
		"copy        1    2.0000   160000.0    40000.0    64000.0    80.00    20.00    500.0    400.0\n"
		"scale       0    2.0000          -          -    38400.0        -        -    300.0    200.0\n",
		"run counters: the text table, a row per op and socket, '-' for null");
	has_str(out, "volume check (IMC read+write bytes / computed bytes with write-allocate): copy 1.100\n",
		"run counters: the text volume check");
	has_str(out, "note: - in rd_MB, wr_MB, rd_GB/s, wr_GB/s: socket 0: imc-epoch changed from 1 to 2",
		"run counters: the text says once why the columns are empty");
	free(out);

	/* a slot nothing marked, and one beyond the reserved ones */
	slot = counters_next(&c, 1, NULL);
	out = ctr_out(_metadata, &c, slot, true, NULL);
	has_str(out, "\"counters\":null,\"counters_reason\":\"nothing was timed\"",
		"run counters: a slot without intervals is null, with why");
	free(out);
	out = ctr_out(_metadata, &c, 9, true, NULL);
	has_str(out, "\"counters_reason\":\"counters were not read for this kernel\"",
		"run counters: a result without a slot is null, with why");
	free(out);
	counters_close(&c);

	/* no core counters (core-mode none), an idle socket, a missing one */
	ctr_setup(_metadata, &c, 2);
	c.core_mode = MEMDIAG_CORE_MODE_NONE;
	snprintf(c.core_mode_reason, sizeof(c.core_mode_reason), "no PMU here");
	slot = counters_next(&c, 1, NULL);
	a[0] = snap_at(0, T0);
	b[0] = snap_at(0, T0 + SEC / 2);
	snap_imc(&a[0], 1, 1000, 0);
	snap_imc(&b[0], 1, 1000 + 5000000000, 0);
	{
		const struct snap *pa[2] = { &a[0], NULL };
		const struct snap *pb[2] = { &b[0], NULL };

		counters_add(&c, slot, pa, pb);
	}
	out = ctr_out(_metadata, &c, slot, true, NULL);
	has_str(out, "{\"socket\":0,\"valid\":true,\"read_bytes\":5000000000,"
		"\"write_bytes\":0,\"read_gbps\":10,\"write_gbps\":0,"
		"\"offcore_read_bytes\":null,\"l1_miss_latency_cycles\":null,"
		"\"load_miss_real_latency_cycles\":null,\"null_reasons\":{"
		"\"offcore_read_bytes\":\"the core counters are not counted in this session (core-mode none): no PMU here\",",
		"run counters: 5 GB in 0.5 s is 10 GB/s; core values null with core-mode none's reason");
	has_str(out, "{\"socket\":1,\"valid\":false,\"read_bytes\":null,",
		"run counters: a socket missing from the snapshots is invalid");
	has_str(out, "\"null_reasons\":{\"read_bytes\":\"socket 1 was missing from a snapshot\"",
		"run counters: ... and says so");
	free(out);
	counters_close(&c);

	/* counting, but no load missed the L1 */
	ctr_setup(_metadata, &c, 1);
	slot = counters_next(&c, 1, NULL);
	canned_pair(0, &a[0], &b[0]);
	b[0].v[SA(L1_MISS)] = a[0].v[SA(L1_MISS)];
	b[0].v[SA(LFB_HIT)] = a[0].v[SA(LFB_HIT)];
	{
		const struct snap *pa[1] = { &a[0] };
		const struct snap *pb[1] = { &b[0] };

		counters_add(&c, slot, pa, pb);
	}
	out = ctr_out(_metadata, &c, slot, true, NULL);
	has_str(out, "\"l1_miss_latency_cycles\":\"no load missed the L1 during the run\"",
		"run counters: no L1 miss: the latencies are null, not 0");
	free(out);
	counters_close(&c);

	/* no session at all */
	ctr_setup(_metadata, &c, 1);
	c.on = false;
	snprintf(c.reason, sizeof(c.reason), "the memdiag module is not loaded");
	out = ctr_out(_metadata, &c, 0, true, NULL);
	is_str(out, "{\"counters\":null,\"counters_reason\":\"the memdiag module is not loaded\"}\n",
	       "run counters: without a session, null and the reason");
	free(out);
	out = ctr_out(_metadata, &c, 0, false, "size");
	is_str(out, "counters: unavailable: the memdiag module is not loaded\n",
	       "run counters: without a session, one text line says why");
	free(out);
	counters_close(&c);
}

/*
 * A DF socket (AMD Zen 2/3) at @t_ns: @rdwr bytes the module estimates
 * for the socket (none when @rdwr is 0: a fixed set), channels 0-7 with
 * counted_ns @ns_lo for 0-3 and @ns_hi for 4-7.
 */
static struct snap snap_df(uint64_t t_ns, uint64_t rdwr, uint64_t ns_lo,
			   uint64_t ns_hi)
{
	struct snap s = snap_at(0, t_ns);
	uint32_t i;

	snap_set(&s, SA(IMC_EPOCH), 1);
	if (rdwr)
		snap_set(&s, SA(DRAM_RDWR_BYTES), rdwr);
	for (i = 0; i < 8; i++)
		s.chan[i] = (struct snap_chan){ .id = i, .rdwr = true,
			.rdwr_bytes = 1000 * i, .counted_ns = i < 4 ? ns_lo : ns_hi };
	s.nr_chan = s.nr_channels = 8;
	return s;
}

/* AMD's DF: the socket total, and the channels a slot did not count. */
TEST_F(counters, counters_df)
{
	static const char *const labels[] = { "copy" };
	struct counters c;
	struct snap a[1], b[1];
	const struct snap *pa[1] = { &a[0] }, *pb[1] = { &b[0] };
	size_t slot;
	char *out;

	ctr_setup(_metadata, &c, 1);
	slot = counters_next(&c, 1, labels);
	/* 6 GB in 0.5 s; channels 4-7 counted, 0-3 not */
	a[0] = snap_df(T0, 1000, 7 * SEC, 7 * SEC);
	b[0] = snap_df(T0 + SEC / 2, 1000 + 6000000000, 7 * SEC, 7 * SEC + SEC / 2);
	counters_add(&c, slot, pa, pb);
	counters_traffic(&c, slot, 5000000000, 3000000000);
	out = ctr_out(_metadata, &c, slot, true, NULL);
	has_str(out, "\"read_bytes\":null,\"write_bytes\":null,\"offcore_read_bytes\":null,"
		"\"rdwr_bytes\":6000000000,\"unmeasured_channels\":4,"
		"\"traffic_bytes\":5000000000,\"traffic_read_bytes\":3000000000,"
		"\"volume_ratio\":1.2,",
		"run counters, DF: the socket total is rdwr_bytes, the volume ratio its, 4 channels unmeasured");
	has_str(out, "\"read_bytes\":\"socket 0: the Data Fabric counts reads and writes together (rdwr_bytes): no read/write split on AMD Zen 2/3\"",
		"run counters, DF: read_bytes null, saying there is no split");
	has_str(out, "\"load_miss_real_latency_cycles\":null,\"rdwr_bytes\":6000000000,"
		"\"unmeasured_channels\":4,\"null_reasons\":{",
		"run counters, DF: the socket's rdwr_bytes and unmeasured_channels");
	free(out);
	out = ctr_out(_metadata, &c, slot, false, "op");
	has_str(out, "rd_MB      wr_MB    rdwr_MB     ocr_MB",
		"run counters, DF: the text has an rdwr_MB column");
	has_str(out, "volume check (IMC read+write bytes / computed bytes with write-allocate): copy 1.200",
		"run counters, DF: the text volume check from rdwr_bytes");
	free(out);
	counters_close(&c);

	/* a fixed set: no socket total, said why; every channel counted */
	ctr_setup(_metadata, &c, 1);
	slot = counters_next(&c, 1, NULL);
	a[0] = snap_df(T0, 0, SEC, SEC);
	b[0] = snap_df(T0 + SEC, 0, 2 * SEC, 2 * SEC);
	counters_add(&c, slot, pa, pb);
	counters_traffic(&c, slot, 5000000000, 3000000000);
	out = ctr_out(_metadata, &c, slot, true, NULL);
	has_str(out, "\"rdwr_bytes\":null,\"unmeasured_channels\":0,",
		"run counters, fixed DF set: rdwr_bytes null");
	has_str(out, "\"rdwr_bytes\":\"socket 0: a fixed Data Fabric channel set (df-channels) counts some channels only: no socket total\"",
		"run counters, fixed DF set: ... saying why");
	has_str(out, "\"volume_ratio\":\"socket 0: a fixed Data Fabric channel set",
		"run counters, fixed DF set: ... and no volume ratio, the same reason");
	free(out);
	counters_close(&c);
}

/* What the marks saw of the threads. */
struct mark_log {
	pthread_mutex_t lock;
	int in_body;		/* threads inside body() now */
	unsigned int bodies;	/* body() calls finished */
	unsigned int nthreads;
	char seq[64];		/* "B0.0 E0.0 ..." compressed to letters */
	size_t len;
	bool bad;		/* a mark saw a thread inside body() */
	bool short_end;		/* an END mark before every body was done */
	bool torn_down;		/* teardown ran before the last mark */
	bool late;		/* a mark after teardown */
	double begun;		/* when the last BEGIN mark returned */
	double span[4];		/* from there to the END mark's call */
};

static struct mark_log mlog;

static int mk_setup(void *ctx, unsigned int tid)
{
	(void)ctx;
	(void)tid;
	return 0;
}

static void mk_body(void *ctx, unsigned int tid, unsigned int phase)
{
	struct timespec ts = { 0, 2000000 };

	(void)ctx;
	(void)phase;
	pthread_mutex_lock(&mlog.lock);
	mlog.in_body++;
	pthread_mutex_unlock(&mlog.lock);
	/* thread 1 lags, so a mark that does not wait for it would see it */
	if (tid)
		nanosleep(&ts, NULL);
	pthread_mutex_lock(&mlog.lock);
	mlog.in_body--;
	mlog.bodies++;
	pthread_mutex_unlock(&mlog.lock);
}

static void mk_teardown(void *ctx, unsigned int tid)
{
	struct timespec ts = { 0, 1000000 };

	(void)ctx;
	pthread_mutex_lock(&mlog.lock);
	mlog.torn_down = true;
	pthread_mutex_unlock(&mlog.lock);
	if (!tid)
		nanosleep(&ts, NULL);
}

static void mk_mark(void *arg, enum kern_mark m, unsigned int rep,
		    unsigned int phase)
{
	struct timespec ts = { 0, 3000000 };
	unsigned int bodies;

	(void)arg;
	if (m == KERN_MARK_END && rep * 2 + phase < 4)
		mlog.span[rep * 2 + phase] = kern_now() - mlog.begun;
	pthread_mutex_lock(&mlog.lock);
	if (mlog.in_body)
		mlog.bad = true;
	if (mlog.torn_down)
		mlog.late = true;
	/* bodies done so far: every thread, every phase before this one */
	if (m == KERN_MARK_END &&
	    mlog.bodies != (rep * 2 + phase + 1) * mlog.nthreads)
		mlog.short_end = true;
	if (mlog.len + 1 < sizeof(mlog.seq))
		mlog.seq[mlog.len++] = (char)((m == KERN_MARK_BEGIN ? 'a' : 'A') +
					      rep * 2 + phase);
	bodies = mlog.bodies;
	pthread_mutex_unlock(&mlog.lock);
	/* a slow mark: nobody may start, end or tear down meanwhile */
	nanosleep(&ts, NULL);
	pthread_mutex_lock(&mlog.lock);
	if (mlog.in_body || mlog.bodies != bodies || mlog.torn_down)
		mlog.bad = true;
	pthread_mutex_unlock(&mlog.lock);
	if (m == KERN_MARK_BEGIN)
		mlog.begun = kern_now();
}

TEST_F(counters, harness_marks)
{
	static const struct kern_ops ops = {
		.setup = mk_setup, .body = mk_body, .teardown = mk_teardown,
		.nphases = 2,
	};
	int cpus[2] = { 0, 0 };
	struct kern_cfg cfg;
	cpu_set_t set;
	double sec[4];
	char err[160];
	int rc;

	memset(&mlog, 0, sizeof(mlog));
	pthread_mutex_init(&mlog.lock, NULL);
	memset(&cfg, 0, sizeof(cfg));
	cfg.nthreads = mlog.nthreads = 2;
	/* both on the first CPU this process may use */
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		while (cpus[0] < CPU_SETSIZE - 1 && !CPU_ISSET(cpus[0], &set))
			cpus[1] = ++cpus[0];
	cfg.cpu = cpus;
	cfg.reps = 2;
	cfg.mark = mk_mark;
	rc = kern_run(&cfg, &ops, NULL, sec, err, sizeof(err));
	ok(rc == 0, "harness: two threads, two phases, two repetitions run (%s)",
	   rc ? err : "ok");
	is_str(mlog.seq, "aAbBcCdD",
	       "harness: BEGIN and END marks around each phase of each repetition, in order");
	ok(!mlog.bad && !mlog.short_end,
	   "harness: no thread is in the kernel during a mark, and END comes after every thread's end");
	ok(!mlog.late, "harness: teardown waits for the last mark");
	ok(sec[0] <= mlog.span[0] && sec[1] <= mlog.span[1] &&
	   sec[2] <= mlog.span[2] && sec[3] <= mlog.span[3],
	   "harness: each phase's time lies within its marks, theirs excluded (%g <= %g)",
	   sec[0], mlog.span[0]);
	pthread_mutex_destroy(&mlog.lock);
}

/* transpose_run(): the variants asked for are phases 0, 1, ... to the marks */
static char tr_seq[64];

static void tr_log_mark(void *arg, enum kern_mark m, unsigned int rep,
			unsigned int phase)
{
	size_t len = strlen(tr_seq);

	(void)arg;
	snprintf(tr_seq + len, sizeof(tr_seq) - len, "%c%u%u ",
		 m == KERN_MARK_BEGIN ? 'b' : 'e', rep, phase);
}

TEST_F(counters, transpose_marks)
{
	struct transpose_result r;
	struct kern_cfg cfg;
	cpu_set_t set;
	char err[160];
	int cpu = 0, rc;

	if (!kern_cpu_has(KERN_CPU_SSE2)) {
		skip("transpose: its variants are phases to the marks",
		     "no SSE2");
		return;
	}
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		while (cpu < CPU_SETSIZE - 1 && !CPU_ISSET(cpu, &set))
			cpu++;
	memset(&cfg, 0, sizeof(cfg));
	cfg.nthreads = 1;
	cfg.cpu = &cpu;
	cfg.reps = 2;
	cfg.mark = tr_log_mark;
	tr_seq[0] = 0;
	/* naive not asked for: it runs first as the reference, unmarked */
	rc = transpose_run(&cfg, 64, 1u << TR_SSE | 1u << TR_SSE_PREFETCH, 8,
			   -1, &r, err, sizeof(err));
	ok(rc == 0 && r.verified[TR_SSE] && r.verified[TR_SSE_PREFETCH],
	   "transpose: sse and sse-prefetch run and are verified (%s)",
	   rc ? err : "ok");
	is_str(tr_seq, "b00 e00 b10 e10 b01 e01 b11 e11 ",
	       "transpose: its variants are phases 0 and 1 to the marks, the reference run unmarked");
}
