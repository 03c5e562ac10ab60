/* SPDX-License-Identifier: GPL-2.0 */
/*
 * curve.h - bandwidth-latency curve files (Documentation/curves.rst): load,
 * save, the machine fingerprint, and placing a sample on the curves.
 */

#ifndef MEMDIAGCTL_CURVE_H
#define MEMDIAGCTL_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CURVE_FORMAT "memdiag-curve"
#define CURVE_VERSION 1
#define CURVE_FILE "curve.json"
#define CURVE_SYSTEM_DIR "/var/lib/memdiag"

/* Room for any error or reason string these functions write. */
#define CURVE_WHY_SIZE 256

enum curve_source {
	CURVE_SRC_IMC,		/* "imc": the memory controllers' CAS bytes */
	CURVE_SRC_KERNEL,	/* "kernel": counter-free, the kernels' bytes */
};

enum curve_pf {
	CURVE_PF_ON,
	CURVE_PF_OFF,
	CURVE_PF_UNCHANGED,	/* no prefetcher control: as the machine was */
	NR_CURVE_PF,
};

struct curve_point {
	uint32_t threads;
	uint64_t delay;
	double bandwidth_gbps, read_gbps, write_gbps;
	double latency_ns;
	/*
	 * The chase's segment latencies at the 50th, 90th and 99th
	 * percentile (median over the repeats); 0, all three, when not
	 * known (a file that predates them: the keys are optional).
	 */
	double latency_p50_ns, latency_p90_ns, latency_p99_ns;
	double cov;
	uint32_t repeats;
};

/* One read/write mix with one prefetcher state. */
struct curve_mix {
	double read_fraction;	/* 0..1 */
	enum curve_pf prefetch;
	size_t peak_index;	/* the sustainable peak: highest bandwidth */
	struct curve_point *points;
	size_t nr_points;	/* >= 2, in order of rising intensity */
};

/*
 * Calibrate's check of its own curve against reads it did not make
 * (curve_quality.c): read-delay at delay 0 over the same pool (at least
 * 4 x the LLC) on the generator CPUs together and on one of them, and
 * how starved the generators were while the curve was measured.
 */
struct curve_check {
	bool measured;		/* false: an older file, or not measured */
	double read_gbps;	/* all generator CPUs */
	uint32_t read_threads;
	double read_one_gbps;	/* one generator CPU */
	uint64_t read_bytes;	/* what the reads swept */
	/* shares of the measuring time; NaN: unknown on this kernel */
	double steal_share;	/* /proc/stat steal over all CPU time */
	double cpu_pressure_share;	/* PSI cpu "some" over wall time */
};

/* Why a curve is not to be trusted (curve_judge()). */
enum curve_flaw {
	CURVE_FLAW_PEAK_OFF,		/* read peak > 10 % off the read */
	CURVE_FLAW_ONE_OFF,		/* 1-thread point > 10 % off */
	CURVE_FLAW_BELOW_ONE_THREAD,	/* read peak under one thread's read */
	CURVE_FLAW_RISE_IN_NOISE,	/* idle-to-peak rise not above noise */
	CURVE_FLAW_NOT_RISING,		/* bandwidth falls as load rises */
	CURVE_FLAW_PEAK_ONE_REPEAT,	/* the peak rests on one repeat */
	CURVE_FLAW_STARVED,		/* steal time or CPU pressure */
	NR_CURVE_FLAWS,
};

#define CURVE_WHY_FLAW 192
struct curve_quality {
	bool judged;		/* false: an older file, never judged */
	unsigned int flaws;	/* bit per enum curve_flaw */
	char why[NR_CURVE_FLAWS][CURVE_WHY_FLAW];	/* each flaw's numbers */
};

struct curve_socket {
	uint32_t socket;
	char *cpus;		/* "0-19,40-59" */
	uint32_t chase_cpu;
	double idle_latency_ns;
	struct curve_mix *mixes;
	size_t nr_mixes;
	struct curve_check check;
	struct curve_quality quality;
};

/*
 * The fingerprint: each field a malloc()ed string, or NULL when it could
 * not be read. The order is the order of comparison (first mismatch is
 * the reason given).
 */
enum curve_fp_field {
	CURVE_FP_CPU_VENDOR,
	CURVE_FP_CPU_MODEL,
	CURVE_FP_CPU_MODEL_NAME,	/* reported, never compared */
	CURVE_FP_MICROCODE,
	CURVE_FP_SOCKETS,
	CURVE_FP_CORES,
	CURVE_FP_CPUS,
	CURVE_FP_MEMORY_BYTES,
	CURVE_FP_DIMMS,
	CURVE_FP_NUMA,
	CURVE_FP_KERNEL,
	CURVE_FP_THP,
	CURVE_FP_PREFETCH,		/* selects a curve, never stale */
	CURVE_FP_UNCORE_KHZ,
	NR_CURVE_FP,
};

struct curve_fp {
	char *v[NR_CURVE_FP];
};

struct curve {
	unsigned int version;
	char *created;
	char *tool_version;
	enum curve_source source;
	struct curve_fp fp;
	struct curve_socket *sockets;
	size_t nr_sockets;
};

/*
 * Judge @s's curves (curve_quality.c): fill s->quality from its points,
 * its idle latency and s->check. Thresholds in Documentation/calibrate.rst.
 */
void curve_judge(struct curve_socket *s);
/*
 * The curve of the highest read fraction, the first measured on a tie:
 * the one calibrate checks and judges. NULL when @s has none.
 */
const struct curve_mix *curve_read_mix(const struct curve_socket *s);
/* "peak_off_reference", ...: the JSON name of a flaw */
const char *curve_flaw_name(enum curve_flaw f);
/* Judged and without a flaw. */
bool curve_reliable(const struct curve_socket *s);
/*
 * Whether the read peak agrees with the reference read within 10 %: the
 * verdict's utilization is only as good as the peak. true when unknown.
 */
bool curve_peak_checked(const struct curve_socket *s);
/*
 * Into @buf: "unreliable curve: <first flaw's numbers> (+N more)", or
 * "curve not judged (made by an older memdiagctl)"; "" when reliable.
 */
const char *curve_quality_note(const struct curve_socket *s, char *buf,
			       size_t size);

/* JSON key of a fingerprint field ("microcode"). */
const char *curve_fp_key(enum curve_fp_field f);
const char *curve_pf_name(enum curve_pf pf);
const char *curve_source_name(enum curve_source s);

/*
 * The default file for this user, into @buf: /var/lib/memdiag/curve.json
 * for root, $XDG_STATE_HOME/memdiag/curve.json (or
 * $HOME/.local/state/memdiag/curve.json) otherwise. Returns 0, or -1 with
 * errno (ENAMETOOLONG, or ENOENT when neither XDG_STATE_HOME nor HOME
 * is set).
 */
int curve_default_path(char *buf, size_t size);

/*
 * Read and check @path into @c (zeroed first; curve_free() it even on
 * failure). Returns 0, or -1 with errno set and @why naming the file and
 * the field that is wrong ("sockets[0].curves[1].points[3].latency_ns:
 * missing"); never crashes on any input.
 */
int curve_load(const char *path, struct curve *c, char *why, size_t size);

/*
 * Load the file readers use: @path when not NULL, otherwise the user's
 * default then /var/lib/memdiag/curve.json. @used receives the path tried
 * last. On ENOENT for all of them (errno ENOENT) @why says where it
 * looked: "no curve in PATH or PATH: run memdiagctl calibrate".
 */
int curve_find_load(const char *path, struct curve *c, char *used,
		    size_t used_size, char *why, size_t size);

/*
 * Check @c as curve_load() checks a file (the writer's guard). Returns 0
 * or -1 with EINVAL and @why.
 */
int curve_check(const struct curve *c, char *why, size_t size);

/*
 * Write @c to @path atomically (temporary file and rename); the file is
 * 0644. The directory must exist: a mistyped --curve must not leave
 * folders behind. Checks @c first. Returns 0 or -1 with errno and @why.
 */
int curve_save(const char *path, const struct curve *c, char *why,
	       size_t size);

/*
 * mkdir -p (0755) of @path's directory: for the default state directory
 * (curve_default_path()) only. 0 or -1 with errno.
 */
int curve_make_dirs(const char *path);

void curve_free(struct curve *c);
void curve_fp_free(struct curve_fp *fp);

/* The socket entry of @c for @socket, or NULL. */
const struct curve_socket *curve_socket_find(const struct curve *c,
					     uint32_t socket);

/*
 * Read this machine's fingerprint (curve_fp.c) into @fp (curve_fp_free()
 * it). Unreadable fields are NULL; @prefetch is the live prefetcher
 * state when the caller knows it ("on", "off", "mixed"; NULL: unknown).
 */
void curve_fp_collect(struct curve_fp *fp, const char *prefetch);

/*
 * Compare a file's fingerprint @file with the live one @now. Returns 0
 * when they match, 1 when the curve is stale with @reason "curve is
 * stale: microcode changed (0x1 -> 0x2)" (the first differing field;
 * fields NULL on either side, cpu_model_name and prefetch are skipped).
 */
int curve_fp_compare(const struct curve_fp *file, const struct curve_fp *now,
		     char *reason, size_t size);

/*
 * Is @c another machine's, or this one's before a change? 1 with
 * @reason as curve_fp_compare() gives it, else 0: every command that
 * shows or uses a curve names a stale one.
 */
int curve_stale(const struct curve *c, char *reason, size_t size);

/* The result of placing a bandwidth on one socket's curves. */
struct curve_place {
	double peak_gbps;	/* sustainable peak at this read fraction */
	double utilization;	/* bw / peak_gbps */
	double expected_latency_ns;	/* on the ascending branch */
	double idle_latency_ns;
	double peak_latency_ns;	/* latency at the peak (interpolated) */
	double max_latency_ns;	/* highest of each curve, bent-back incl. */
	/* lowest utilization of the bent-back points; > 1 when none */
	double bent_back_min_utilization;
	double headroom_gbps;
};

/*
 * Place @bw_gbps at @read_fraction on @s's curves for prefetcher state
 * @pf, interpolating between the mixes that bracket @read_fraction (at
 * equal utilization) and in bandwidth on each (Documentation/curves.rst).
 * Returns 0, or -1 with ENOENT and @why when @s has no curve for @pf, or
 * EINVAL when @bw_gbps or @read_fraction is not a finite number >= 0.
 */
int curve_place(const struct curve_socket *s, enum curve_pf pf,
		double read_fraction, double bw_gbps, struct curve_place *out,
		char *why, size_t size);

/*
 * The read fraction of @s's curve for state @pf with the lowest peak, or
 * NaN when @s has none for @pf: where reads and writes are not counted
 * apart (AMD's Data Fabric), the mix that gives the highest utilization.
 */
double curve_lowest_peak_fraction(const struct curve_socket *s,
				  enum curve_pf pf);

/* The verdict's label, in order of precedence (curves.rst). */
enum verdict_label {
	VERDICT_IDLE,
	VERDICT_OK,
	VERDICT_LATENCY_RISING,
	VERDICT_BANDWIDTH_BOUND,
	VERDICT_SATURATED,
};

enum verdict_disagree {
	VERDICT_AGREE,
	VERDICT_MEASURED_HIGHER,
	VERDICT_MEASURED_LOWER,
};

/* One socket's live sample, as watch and snapshot have it. */
struct verdict_in {
	double read_gbps, write_gbps;
	/* reads and writes together, for when they are NaN (AMD's DF) */
	double total_gbps;
	/*
	 * the DRAM latency measured: the load miss real latency, else the
	 * L3's (AMD); NaN: unknown (verdict_measured_latency_ns())
	 */
	double measured_latency_ns;
	/* per-channel bytes of the interval; NULL/0 when not known */
	const uint64_t *channel_bytes;
	const uint32_t *channel_id;
	size_t nr_channels;
};

struct verdict {
	bool valid;		/* false: @reason says why there is none */
	char reason[CURVE_WHY_SIZE];
	struct curve_place place;
	double stress;		/* 0..1 */
	enum verdict_label label;
	/*
	 * The curve judged reliable by calibrate (curve_reliable()), and its
	 * read peak within 10 % of the reference read: the utilization is
	 * only as good as the peak it divides by.
	 */
	bool curve_judged;	/* false: a file of an older memdiagctl */
	bool curve_reliable;
	bool utilization_checked;
	/*
	 * no read/write split (AMD's DF): placed on the curve with the
	 * lowest peak, the highest utilization the total can mean
	 */
	bool read_fraction_assumed;
	enum verdict_disagree disagree;
	bool imbalanced;
	uint32_t imbalanced_channel;
	double imbalanced_share;	/* of the socket's bytes, 0..1 */
};

#define VERDICT_IDLE_UTIL 0.05
#define VERDICT_BOUND_UTIL 0.85
#define VERDICT_RISING_STRESS 0.25
#define VERDICT_MEASURED_UTIL 0.5	/* L_meas counts from here on */
#define VERDICT_DISAGREE_RATIO 2.0
#define VERDICT_IMBALANCE_SHARE 1.5	/* times the fair share */

const char *verdict_label_name(enum verdict_label l);
/* "higher", "lower", or NULL when they agree */
const char *verdict_disagree_name(enum verdict_disagree d);

/*
 * The verdict of @in on @s (NULL: none in the file) for prefetcher state
 * @pf (verdict.c). Never fails: an impossible verdict is !valid with the
 * reason.
 */
void verdict_compute(const struct curve_socket *s, enum curve_pf pf,
		     const struct verdict_in *in, struct verdict *v);

struct interval;

/*
 * The DRAM latency @m measured for the verdict: the load miss real
 * latency, else (AMD) the L3's miss latency; NaN when neither.
 */
double verdict_measured_latency_ns(const struct interval *m);

/*
 * Why @m has no bandwidth the verdict can place (a fixed Data Fabric
 * channel set), or NULL.
 */
const char *verdict_no_bandwidth(const struct interval *m);

/*
 * A verdict that is null for every socket (no file, stale, malformed):
 * fill @v with !valid and @reason.
 */
void verdict_none(struct verdict *v, const char *reason);

/*
 * For the curve*.c files: format @why, set errno to @err and return -1,
 * so a failure is one return statement.
 */
int curve_fail(int err, char *why, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* MEMDIAGCTL_CURVE_H */
