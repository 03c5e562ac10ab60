#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench.py - "make bench": memdiag's micro-kernels and their peers side by
side on this machine (likwid-bench for bandwidth, a plain pointer chase for
latency). A benchmark, not a test: it prints numbers and ratios and exits 0
whatever they are.

Each pair is run N times, interleaved (memdiag, peer, memdiag, peer, ...;
the order flips every trial so drift does not favour one side), and
compared by the median of the trials' ratios and the best of the N
values. A pair whose median is under 0.98 while the 90 % interval of that
median reaches 0.98 is undecided, and gets --extra-trials more trials
(bench_table.py, median_interval). The DRAM latency
pair instead runs both sides at once, one per CPU, then swapped: its
drift is larger than the difference (bench_pair.py). Bytes are counted the
same way on both sides, and timed the same way: memdiag's stream,
throughput, read-delay and traffic run with --timing whole (each thread's
whole iteration count between two barriers, the slowest thread's time),
as likwid-bench and bench-read time, and at more than one thread memdiag's
default timing (a barrier after every repetition) runs in the same trial
and is shown beside, with its thread wait (bench_table.default_table).
Bytes: likwid-bench counts the bytes a kernel names (no
write-allocate) in MByte = 10^6 B, memdiag's "gbps" counts the named bytes
in 10^9 B/s; the peer's MByte/s is divided by 1000.

Sizes: a level's working set W is per thread. memdiag stream touches three
arrays of A = W/3 per thread (--size is per array, split among threads:
A * T); likwid-bench's --size is all streams of all threads (-W
S0:SIZE:T), so copy (2 streams) gets 2 * A * T and stream triad (3
streams) 3 * A * T: both sides then work on arrays of A bytes per thread.
Load kernels read W per thread: likwid W * T, memdiag read-delay W * T
(split), throughput W (per thread). Which pairs run, at which thread
counts, sizes and SIMD widths, and which are skipped and why, is
bench_plan.py's; a skipped pair is listed, never counted as an error.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

import bench_pair
import bench_plan
import bench_quiet
import bench_table
from bench_table import BAR, json_row, quiet_ratio, side_values, \
    skipped_lines, standing, summary, table_row
from bench_readers import PAGE_NOTES, fmt_size, read_latency, read_value, \
    read_thread_wait
from bench_machine import describe, machine

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

K, M = 1 << 10, 1 << 20
ALL = bench_plan.ALL
CURVE = "1M,2M,4M,8M,16M,32M,64M,128M,256M"


class Bench:
    def __init__(self, args):
        self.args = args
        self.likwid_iters = {}	# likwid command -> iterations it chose
        self.log = []		# every command run: argv, seconds, status
        self.meter = bench_quiet.Meter()

    def logged(self, argv, t0, status, cpu=None):
        """Note a finished command in the log (and on stderr with -v)."""
        entry = {"argv": argv, "seconds": round(time.monotonic() - t0, 3),
                 "status": status,
                 # the 1-minute load average after it: how busy it was
                 "loadavg": os.getloadavg()[0]}
        if cpu is not None:
            entry["cpu"] = cpu
        self.log.append(entry)
        if self.args.verbose:
            print("  %s (%.1fs, exit %d)" % (" ".join(map(shlex.quote, argv)),
                  time.monotonic() - t0, status), file=sys.stderr)

    def run(self, argv):
        t0 = time.monotonic()
        p = subprocess.run(argv, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        self.logged(argv, t0, p.returncode)
        return p

    def memdiag_argv(self, args, threads):
        return [self.args.memdiag, "run"] + args.split() + \
            ["--threads", str(threads), "--reps", str(self.args.reps), "-j"]

    @staticmethod
    def memdiag_doc(status, out, err):
        """memdiagctl's -j document, or RuntimeError with its stderr."""
        try:
            doc = json.loads(out)
        except ValueError:
            raise RuntimeError("memdiagctl exit %d: %s" % (status, err.strip()))
        if status:
            raise RuntimeError("memdiagctl exit %d: %s" % (status, err.strip()))
        return doc

    def memdiag_run(self, args, threads):
        if args.startswith("calibrate "):
            return self.calibrate_run(args)
        p = self.run(self.memdiag_argv(args, threads))
        return self.memdiag_doc(p.returncode, p.stdout, p.stderr)

    def calibrate_run(self, args):
        """memdiagctl ARGS --curve FILE into a file of its own, then
        calibrate --show -j of that file: one run serves every
        generator count of the calibrate-peak pair."""
        with tempfile.TemporaryDirectory(prefix="memdiag-bench-") as d:
            curve = os.path.join(d, "curve.json")
            p = self.run([self.args.memdiag] + args.split() +
                         ["--curve", curve])
            if p.returncode:
                raise RuntimeError("memdiagctl calibrate exit %d: %s" %
                                   (p.returncode, p.stderr.strip()[-300:]))
            p = self.run([self.args.memdiag, "calibrate", "--show", "-j",
                          "--curve", curve])
            return self.memdiag_doc(p.returncode, p.stdout, p.stderr)

    def likwid_run(self, test, size, threads, gbps_hint):
        key = (test, size, threads)
        # likwid-bench reads a byte count as a 32-bit int: above 2 GB its
        # kB (10^3 bytes, rounded; a difference of < 1 ppm)
        wsz = ("%dB" % size if size < 2 ** 31
               else "%dkB" % ((size + 500) // 1000))
        argv = ["likwid-bench", "-t", test, "-W", "S0:%s:%d" % (wsz, threads)]
        # How many iterations (each moves SIZE named bytes) last --seconds:
        # from memdiag's GB/s on the same pair, which the first trial
        # measures first. Otherwise likwid-bench calibrates itself, which
        # takes several seconds, and only in whole seconds ("-s 0.5" runs
        # 10 iterations, microseconds at L1); later runs reuse its count,
        # scaled.
        if key not in self.likwid_iters and gbps_hint:
            self.likwid_iters[key] = max(10, int(self.args.seconds *
                                                 gbps_hint * 1e9 / size))
        if key in self.likwid_iters:
            argv += ["-i", str(self.likwid_iters[key])]
        else:
            argv += ["-s", "1"]
        p = self.run(argv)
        out = p.stdout + p.stderr
        mbs = re.search(r"^MByte/s:\s+([0-9.]+)", out, re.M)
        it = re.search(r"^Iterations per thread:\s+(\d+)", out, re.M)
        got = re.search(r"^Size \(Byte\):\s+(\d+)", out, re.M)
        if p.returncode or not mbs:
            raise RuntimeError("likwid-bench exit %d: %s" %
                               (p.returncode, out.strip()[-300:]))
        secs = re.search(r"^Time:\s+([0-9.e+-]+)", out, re.M)
        if it and secs and key not in self.likwid_iters:
            iters = int(it.group(1)) * self.args.seconds / float(secs.group(1))
            self.likwid_iters[key] = max(10, int(iters))
        if got and int(got.group(1)) != size:
            raise RuntimeError("likwid-bench used %s bytes, not %d" %
                               (got.group(1), size))
        return float(mbs.group(1)) / 1000.0	# MByte/s (10^6) -> GB/s

    def chase_argv(self, sizes, cpu=None):
        """bench-chase at @sizes ("a,b,..."), on @cpu if given."""
        return [self.args.chase, "--hugepages", "--reps",
                str(self.args.reps)] + \
            (["--cpu", str(cpu)] if cpu is not None else []) + sizes.split(",")

    @staticmethod
    def chase_values(status, out, err):
        """{size: ns per load} from bench-chase's output."""
        if status:
            raise RuntimeError("bench-chase exit %d: %s" % (status, err.strip()))
        rows = [json.loads(line) for line in out.splitlines() if line]
        return {d["size_bytes"]: d["ns_per_load"] for d in rows}

    def read_argv(self, size, streams, cpus):
        """bench-read: @streams streams a thread, one thread on each of
        @cpus, @size bytes in all, for --seconds."""
        return [self.args.read, "--streams", str(streams), "--seconds",
                str(self.args.seconds), "--cpus",
                ",".join(map(str, cpus)), str(size)]

    def read_run(self, size, streams, cpus):
        """bench-read's GB/s; RuntimeError if it failed or its sum check
        did (a line not read)."""
        p = self.run(self.read_argv(size, streams, cpus))
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = {}
        if p.returncode or not doc.get("verified"):
            raise RuntimeError("bench-read exit %d: %s" %
                               (p.returncode, p.stderr.strip()))
        return doc["gbps"]

    def chase_run(self, sizes):
        p = self.run(self.chase_argv(sizes))
        return self.chase_values(p.returncode, p.stdout, p.stderr)


def at_once(b, i, trial):
    """One trial of a pair whose two sides run at the same time; the
    disturbance of its runs."""
    try:
        (md, pe, detail), share = b.meter.measure(bench_pair.latency, b,
                                                  i["sz"]["w"])
    except (RuntimeError, OSError, ValueError, KeyError) as e:
        i["errors"].append("trial %d, at once: %s" % (trial + 1, e))
        return []
    for row in detail.pop("memdiag_rows", []):
        read_latency({"results": [row]}, i)	# the huge page note
    i["by_trial"][trial] = {"memdiag": md, "peer_values": pe}
    i.setdefault("trials", []).append(detail)
    return [share]


def parse_args(quick):
    ap = argparse.ArgumentParser(
        description="memdiag's kernels against likwid-bench and a plain "
        "pointer chase, interleaved, at 1, half and all of socket 0's "
        "CPUs, each pair at the widest SIMD width this CPU has; a "
        "benchmark, not a test")
    ap.add_argument("--trials", type=int,
                    default=int(os.environ.get("BENCH_TRIALS",
                                               "2" if quick else "5")),
                    help="runs of each side of each pair (default 5, "
                    "BENCH_QUICK=1: 2)")
    ap.add_argument("--extra-trials", type=int,
                    default=int(os.environ.get("BENCH_EXTRA_TRIALS",
                                               "0" if quick else "6")),
                    help="trials added to each pair whose median ratio is "
                    "below 0.98 while the interval of it reaches 0.98 "
                    "(default 6, BENCH_QUICK=1: 0)")
    ap.add_argument("--max-disturbance", type=float, default=0.05,
                    help="a run during which CPU pressure or steal took "
                    "more than this share of the time is disturbed "
                    "(default 0.05; bench_quiet.py)")
    ap.add_argument("--retries", type=int, default=1,
                    help="times a disturbed trial of a pair is run again "
                    "(default 1)")
    ap.add_argument("--reps", type=int, default=3 if quick else 5,
                    help="memdiag --reps and chase repetitions per run")
    ap.add_argument("--seconds", type=float, default=0.3 if quick else 1.0,
                    help="about how long each likwid-bench run measures "
                    "(default 1, BENCH_QUICK=1: 0.3)")
    ap.add_argument("--dram", default=None,
                    help="DRAM working set of all threads together (K, M "
                    "or G; default 4x socket 0's last-level caches in "
                    "sysfs)")
    ap.add_argument("--only", default=None,
                    help="only pairs whose name matches this regex "
                    "(e.g. 'triad.*DRAM')")
    ap.add_argument("--no-calibrate", action="store_true",
                    help="leave out the calibrate-peak pair (a whole "
                    "calibrate --mix read per trial; with BENCH_QUICK=1 "
                    "calibrate --quick)")
    ap.add_argument("--json", default=os.path.join(TOP, "build", "bench",
                                                   "bench.json"),
                    help="where to write everything (default "
                    "build/bench/bench.json)")
    ap.add_argument("--memdiag", default=os.path.join(TOP, "userspace",
                                                      "memdiagctl"))
    ap.add_argument("--chase", default=os.path.join(TOP, "build", "bench",
                                                    "chase"))
    ap.add_argument("--read", default=os.path.join(TOP, "build", "bench",
                                                   "read"))
    ap.add_argument("--no-curve", action="store_true",
                    help="skip the latency curve (always skipped in quick "
                    "mode)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print each command to stderr")
    args = ap.parse_args()
    if args.trials < 1 or args.reps < 1 or args.extra_trials < 0:
        ap.error("--trials and --reps must be at least 1, --extra-trials "
                 "0 or more")
    if args.retries < 0 or not 0 < args.max_disturbance <= 1:
        ap.error("--retries must be 0 or more, --max-disturbance in (0, 1]")
    if args.dram is not None:
        m = re.fullmatch(r"(\d+)([KMG])", args.dram)
        if not m:
            ap.error("--dram: '%s' is not a size like 384M" % args.dram)
        args.dram = int(m.group(1)) << {"K": 10, "M": 20, "G": 30}[m.group(2)]
    return args


def memdiag_kernels(memdiag, result):
    """The memdiag kernels (and calibrate) this build has."""
    have = set()
    for kern in sorted({p[1] for p in bench_plan.PAIRS}):
        argv = [memdiag, "calibrate", "--help"] if kern == "calibrate" \
            else [memdiag, "run", kern, "--help"]
        if subprocess.run(argv, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            have.add(kern)
        else:
            result["notes"].append("memdiag kernel '%s' not available" % kern)
    return have


def latency_curve(b, result):
    print("latency curve (memdiag, hugepages, 1 rep): where it flattens "
          "is where DRAM starts")
    p = b.run([b.args.memdiag, "run", "latency", "--hugepages", "--size",
               CURVE, "--reps", "1", "-j"])
    try:
        doc = json.loads(p.stdout)
        curve = [(r["size_bytes"], r["ns_per_load"]) for r in doc["results"]]
        print("  " + "  ".join("%s %.0fns" % (fmt_size(s), v)
                               for s, v in curve))
        result["latency_curve"] = [{"size_bytes": s, "ns_per_load": v}
                                   for s, v in curve]
    except (ValueError, KeyError):
        result["notes"].append("latency curve failed: " + p.stderr.strip())


def cached(b, cache, key, fn, *args):
    """fn(*args) run once a trial for every instance it serves, with the
    disturbance of that one run: (value, share); its exception again for
    each instance."""
    if key not in cache:
        try:
            cache[key] = b.meter.measure(fn, *args)
        except RuntimeError as e:
            cache[key] = e
    if isinstance(cache[key], Exception):
        raise cache[key]
    return cache[key]


def one_side(b, i, what, md_cache, peer_cache):
    """One side's value of pair instance @i in this trial and the
    disturbance of the run it came from: (value, share). memdiag and
    chase runs that serve several instances are run once a trial."""
    peer = i["peer"]
    if what in ("memdiag", "memdiag_default"):
        args = i["memdiag_args" if what == "memdiag" else "default_args"]
        doc, share = cached(b, md_cache, (args, i["threads"]),
                            b.memdiag_run, args, i["threads"])
        return read_value(doc, i), share
    if peer["kind"] == "likwid":
        v, share = b.meter.measure(
            b.likwid_run, peer["test"], int(peer["size"]), i["threads"],
            max(side_values(i, "memdiag"), default=None))
        return peer["factor"] * v, share
    if peer["kind"] == "read":
        return b.meter.measure(b.read_run, int(peer["size"]),
                               peer["streams"], peer["cpus"])
    ns, share = cached(b, peer_cache, peer["size"], b.chase_run, peer["size"])
    return ns[i["sz"]["w"]], share


def both_sides(b, i, trial, md_cache, peer_cache):
    """One trial of instance @i, the side that goes first alternating;
    the disturbance of each run of the pair. memdiag's default timing,
    where it runs beside (bench_plan.WHOLE), goes last or first with
    memdiag; its disturbance is kept apart (i["default_shares"]), so
    that it never sends the pair's trial round again."""
    if i["peer"]["kind"] == "chase-at-once":
        return at_once(b, i, trial)
    sides = ["memdiag", "peer_values"]
    if i.get("default_args"):
        sides.append("memdiag_default")
    if trial % 2:
        sides.reverse()
    shares = []
    for what in sides:
        try:
            v, share = one_side(b, i, what, md_cache, peer_cache)
        except (RuntimeError, KeyError, ValueError, TypeError) as e:
            i["errors"].append("trial %d, %s: %s" % (trial + 1, what, e))
            continue
        i["by_trial"].setdefault(trial, {})[what] = v
        if what == "peer_values":
            shares.append(share)
            continue
        w, parts = thread_wait(i, md_cache, what)
        pre = "" if what == "memdiag" else "default_"
        i.setdefault(pre + "waits", {})[trial] = w
        i.setdefault(pre + "parts", {})[trial] = parts
        if what == "memdiag":
            shares.append(share)
        else:
            i.setdefault("default_shares", {})[trial] = share
    return shares


def thread_wait(i, md_cache, what="memdiag"):
    """memdiag's (thread_wait_fraction, parts_per_rep) in this trial's run
    of @i (from the trial's cache of runs) with its own timing (@what
    "memdiag") or the default ("memdiag_default"), or (None, None) (no
    run, or a reader without one)."""
    args = i.get("memdiag_args" if what == "memdiag" else "default_args")
    entry = md_cache.get((args, i.get("threads")))
    if entry is None or isinstance(entry, Exception):
        return None, None
    return read_thread_wait(entry[0], i)


def run_trials(b, todo, trials, t_start):
    """Trials @trials (a range) of every instance in @todo; a disturbed
    trial of an instance is run again, with runs of its own, up to
    --retries times."""
    limit = b.args.max_disturbance
    for trial in trials:
        shared = ({}, {})	# memdiag and chase runs of this trial
        for i in todo:
            caches = shared
            for attempt in range(b.args.retries + 1):
                i["by_trial"].pop(trial, None)
                shares = both_sides(b, i, trial, *caches)
                if all(bench_quiet.disturbance(s) <= limit for s in shares):
                    break
                caches = ({}, {})
            i["shares"][trial] = shares
            i["attempts"][trial] = attempt + 1
        print("trial %d/%d done (%.0fs)" % (trial + 1, trials.stop,
                                            time.monotonic() - t_start),
              file=sys.stderr)


def undecided(b, todo):
    """The instances whose median ratio is under the bar while their
    interval reaches it (bench_table.standing): those more trials can
    decide."""
    out = []
    for i in todo:
        ratio, interval, quiet, _ = quiet_ratio(i, b.args.max_disturbance)
        if quiet >= bench_quiet.MIN_QUIET and \
                standing(ratio, interval) == "undecided":
            out.append(i)
    return out


def all_trials(b, todo):
    """--trials of every instance, then --extra-trials more of those the
    first ones left undecided; the seconds it took."""
    t_start = time.monotonic()
    run_trials(b, todo, range(b.args.trials), t_start)
    more = undecided(b, todo) if b.args.extra_trials else []
    if more:
        print("%d undecided (median below %g, its interval reaching it): "
              "%d more trials of %s" % (len(more), BAR, b.args.extra_trials,
                                        ", ".join(i["name"] for i in more)),
              file=sys.stderr)
        run_trials(b, more, range(b.args.trials,
                                  b.args.trials + b.args.extra_trials),
                   t_start)
    return time.monotonic() - t_start


def calibrate_counts(memdiag, quick, have):
    """The generator counts of calibrate's own plan for socket 0 (its
    --plan measures nothing), or None (the plan module's rule) when it
    cannot tell."""
    if "calibrate" not in have:
        return None
    p = subprocess.run([memdiag, "-j", "calibrate", "--plan", "--socket",
                        "0", "--mix", "read"] + (["--quick"] if quick else []),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True)
    try:
        pts = json.loads(p.stdout)["plan"][0]["points"]
        return sorted({pt["threads"] for pt in pts})
    except (ValueError, KeyError, IndexError):
        return None


def main():
    quick = os.environ.get("BENCH_QUICK", "") not in ("", "0")
    args = parse_args(quick)
    result = {"machine": machine(), "quick": quick, "notes": [], "pairs": []}
    host = bench_plan.host()
    have = memdiag_kernels(args.memdiag, result)
    inst = bench_plan.plan(host, have, quick, not args.no_calibrate,
                           args.dram, calibrate_counts(args.memdiag, quick,
                                                       have))
    if args.only:
        inst = [i for i in inst if re.search(args.only, i["name"])]
    for i in inst:
        i.update({"errors": [], "by_trial": {}, "shares": {},
                  "attempts": {}})
    total = bench_plan.dram_total(host, args.dram)
    result["notes"] += host["notes"]
    result["config"] = {
        "trials": args.trials, "extra_trials": args.extra_trials,
        "reps": args.reps, "interval_coverage": bench_table.COVERAGE,
        "max_disturbance": args.max_disturbance, "retries": args.retries,
        "likwid_seconds": args.seconds, "socket0_cpus": host["cpus"],
        "thread_counts": bench_plan.thread_counts(len(host["cpus"])),
        "cpu_widths": [w[0] for w in bench_plan.widths(host["flags"])],
        "dram_bytes_all_threads": total,
        "llc_bytes_socket0": host["llc_total"],
        "levels": {t: bench_plan.level_sets(host, t, total)[0] for t in
                   sorted({i["threads"] for i in inst})}}
    b = Bench(args)

    print(describe(result["machine"]))
    if not args.no_curve and not quick and not args.only and \
            "latency" in have:
        latency_curve(b, result)
    todo = [i for i in inst if not i["skipped"]]
    skipped = [i for i in inst if i["skipped"]]
    result["seconds"] = round(all_trials(b, todo), 1)

    print()
    print(describe(result["machine"]))
    print("socket 0: CPUs %s; widths this CPU runs: %s; DRAM sets %s in "
          "all (4x socket 0's last-level caches%s)" % (
              ",".join(map(str, host["cpus"])),
              ", ".join(result["config"]["cpu_widths"]), fmt_size(total),
              ", --dram" if args.dram else ""))
    print("median of %d trials (%d more where undecided), then best; "
          "ratio = the median of the trials' memdiag/peer (peer/memdiag "
          "for ns), interval = where that median lies with %g %% "
          "confidence; variant = memdiag's width/the peer's kernel" % (
              args.trials, args.extra_trials, bench_table.COVERAGE * 100))
    print("%-30s %-22s %9s %9s %6s %11s  %9s %9s %6s  %s" % (
        "pair", "variant", "memdiag", "peer", "ratio", "interval",
        "best_md", "best_peer", "ratio", "unit"))
    low = 0
    for i in todo:
        row = json_row(i, args.reps)
        if "trials" in i:
            row["at_once"] = i["trials"]
        low += table_row(i, row, args.max_disturbance)
        result["pairs"].append(row)
    skipped_lines(skipped)
    bench_table.default_table(todo, result["pairs"], args.max_disturbance)
    for line in bench_table.wait_notes(result["pairs"]):
        print("note: " + line)
    for i in skipped:
        row = json_row(i, args.reps)
        row["skipped"] = i["skipped"]
        result["pairs"].append(row)
    result["notes"] += sorted(PAGE_NOTES)
    for note in result["notes"]:
        print("note: " + note)
    result["commands"] = b.log
    result["json"] = args.json
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)
    print(summary(result, low, skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
