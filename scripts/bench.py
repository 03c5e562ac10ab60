#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench.py - "make bench": memdiag's micro-kernels and their peers side by
side on this machine (likwid-bench for bandwidth, a plain pointer chase for
latency). A benchmark, not a test: it prints numbers and ratios and exits 0
whatever they are.

Each pair is run N times, interleaved (memdiag, peer, memdiag, peer, ...;
the order flips every trial so drift does not favour one side), and
compared by the median and the best of the N values. The DRAM latency
pair instead runs both sides at once, one per CPU, then swapped: its
drift is larger than the difference (bench_pair.py). Bytes are counted the
same way on both sides: likwid-bench counts the bytes a kernel names (no
write-allocate) in MByte = 10^6 B, memdiag's "gbps" counts the named bytes
in 10^9 B/s; the peer's MByte/s is divided by 1000.

Sizes: a level's working set W is per thread. memdiag stream touches three
arrays of A = W/3 per thread (--size is per array, split among threads:
A * T); likwid-bench's --size is all streams of all threads (-W
S0:SIZE:T), so copy (2 streams) gets 2 * A * T and stream triad (3
streams) 3 * A * T: both sides then work on arrays of A bytes per thread.
Load kernels read W per thread: likwid W * T, memdiag read-delay W * T
(split), throughput W (per thread).
"""

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

import bench_pair
from bench_machine import (cache_sizes, describe, dram_default, llc_bytes,
                           machine, socket0_cpus)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

K, M = 1 << 10, 1 << 20

# Working set per thread of each level, from this machine's caches in
# sysfs (cpu0's L1d, L2 and last level), so that a level means the same
# on a 48K/2M Intel core and a 32K/1M Zen 4 one: half of the L1d and of
# the L2 for bandwidth (a third and a quarter for the chase, which also
# keeps TLB and page-table lines there), four L2s for the L3 (past the L2
# by twice, and far inside the L3 this VM can use: the latency curve is
# flat from 4M to 16M on the Intel VM, whose sysfs L3 of 480M is the
# host's), and four last-level caches for DRAM. FALLBACK is for a machine
# whose sysfs has no cache sizes: the Zen 4 VM's values.
FALLBACK = {1: 32 * K, 2: 1 * M, 3: 32 * M}
ALL = ("L1", "L2", "L3", "DRAM")
CURVE = "1M,2M,4M,8M,16M,32M,64M,128M,256M"
QUICK_LEVELS = ("L1", "DRAM")	# BENCH_QUICK=1: the two ends only


def level_sets(caches, dram):
    """Working sets per thread of each level, for bandwidth and for the
    latency chase; @caches maps 1, 2, 3 to bytes, @dram is DRAM's."""
    l1, l2, l3 = (caches.get(k) or FALLBACK[k] for k in (1, 2, 3))
    l3_set = min(4 * l2, l3 // 4)
    # 3K: stream's three arrays of whole 256-byte steps (768), in the
    # whole 1K blocks throughput loads
    def even(v):
        return max(3 * K, v // (3 * K) * (3 * K))
    bw = {"L1": even(l1 // 2), "L2": even(l2 // 2), "L3": even(l3_set),
          "DRAM": dram}
    lat = {"L1": l1 // 3 // K * K, "L2": l2 // 4, "L3": l3_set,
           "DRAM": dram}
    return bw, lat


def stream_op(op):
    """memdiag stream: the median GB/s of one op, verified."""
    def get(doc, sz):
        for r in doc["results"]:
            if r["op"] == op:
                if r.get("verified") is not True:
                    raise RuntimeError("stream result not verified")
                return r["gbps"]
        raise RuntimeError("no '%s' in the stream results" % op)
    return get


def first_gbps(doc, sz):
    return doc["results"][0]["gbps"]


PAGE_NOTES = set()	# latency runs that did not get the huge pages asked for


def latency_at(doc, sz):
    for r in doc["results"]:
        if r["size_bytes"] == sz["w"]:
            # over 4K pages a DRAM chase also times page walks (about
            # twice the ns on the VM of kernels.rst): say when memdiag's
            # run got fewer huge pages than whole ones fit
            huge, page = r.get("hugepage_bytes"), r.get("page_size_bytes")
            fit = sz["w"] // (2 * M) * 2 * M
            if huge is not None and page and huge < fit:
                PAGE_NOTES.add("memdiag latency at %s ran with %d of %d "
                               "bytes in huge pages" %
                               (fmt_size(sz["w"]), huge, sz["w"]))
            return r["ns_per_load"]
    raise RuntimeError("no latency result for %d bytes" % sz["w"])


def throughput_load(width):
    """memdiag throughput: the --mix load row at W (per thread), which
    must have run at the width asked for (sse, avx or avx512)."""
    def get(doc, sz):
        if doc.get("width") != width:
            raise RuntimeError("throughput ran at width %s, not %s" %
                               (doc.get("width"), width))
        for r in doc["results"]:
            if r["size_bytes"] == sz["w"] and r["mix"] == "load":
                return r["gbps"]
        raise RuntimeError("no load result for %d bytes" % sz["w"])
    return get


# A pair's thread counts: SCALE is 1 and 2 and, where socket 0 has more
# than two CPUs, half and all of them (thread_counts()).
SCALE = "scale"


def thread_counts(ncpu):
    """1 and 2 threads, and half and all of socket 0's @ncpu CPUs where
    it has more than two: the bandwidth a kernel reaches alone, and where
    the socket's memory is the limit."""
    counts = {1, 2} if ncpu >= 2 else {1}
    if ncpu > 2:
        counts |= {(ncpu + 1) // 2, ncpu}
    return tuple(sorted(counts))


def dram_per_thread(dram, llc, threads):
    """The DRAM working set of one of @threads threads: @dram (4x the
    last-level cache, the 1- and 2-thread rows' rule) up to two threads;
    beyond, a share of 4x the cache, so that all of them together still
    cannot be served from it without a socket's worth of threads each
    touching gigabytes (at least 16M, whole 3K steps)."""
    if threads <= 2:
        return dram
    share = max(4 * llc // threads, 16 * M)
    return (share + 3 * K - 1) // (3 * K) * (3 * K)


# calibrate's thread counts: 1 and every generator (--quick's plan)
CALIBRATE = "calibrate"


def calibrate_point(doc, sz):
    """calibrate --show's read curve: the delay-0 point of sz's threads."""
    for c in doc["sockets"][0]["curves"]:
        if c["read_fraction"] != 1:
            continue
        for p in c["points"]:
            if p["threads"] == sz["threads"] and p["delay"] == 0:
                return p["bandwidth_gbps"]
    raise RuntimeError("no delay-0 point of %d threads in the read curve" %
                       sz["threads"])


# One line per pair: name, memdiag kernel it needs, levels, thread counts,
# memdiag arguments, how to read memdiag's value, the peer, the unit.
# In the arguments, {at} is A * T, {wt} W * T, {w} W, {sizes} every level
# of the pair (one memdiag run serves them all); the peer is
# ("likwid", TEST, SIZE), ("likwid", TEST, FACTOR, SIZE) (its GB/s times
# FACTOR: bytes likwid does not count) or ("chase", SIZES). For "ns" (latency) lower is
# better and the ratio is peer / memdiag, so ratio >= 1 means memdiag is as
# good as its peer everywhere.
PAIRS = [
    ("copy", "stream", ALL, SCALE, "stream --size {at}", stream_op("copy"),
     ("likwid", "copy_avx512", "{a2t}"), "GB/s"),
    ("copy-nt", "stream", ALL, SCALE, "stream --nt --size {at}",
     stream_op("copy"), ("likwid", "copy_mem_avx512", "{a2t}"), "GB/s"),
    ("triad", "stream", ALL, SCALE, "stream --size {at}", stream_op("triad"),
     ("likwid", "stream_avx512", "{a3t}"), "GB/s"),
    ("triad-nt", "stream", ALL, SCALE, "stream --nt --size {at}",
     stream_op("triad"), ("likwid", "stream_mem_avx512", "{a3t}"), "GB/s"),
    ("read-delay/clload", "read-delay", ("DRAM",), SCALE,
     "read-delay --delay 0 --size {wt}", first_gbps,
     ("likwid", "clload", "{wt}"), "GB/s"),
    ("read-delay/load_avx512", "read-delay", ("DRAM",), SCALE,
     "read-delay --delay 0 --size {wt}", first_gbps,
     ("likwid", "load_avx512", "{wt}"), "GB/s"),
    ("throughput-avx512", "throughput", ALL, SCALE,
     "throughput --width avx512 --mix load --size {sizes}",
     throughput_load("avx512"),
     ("likwid", "load_avx512", "{wt}"), "GB/s"),
    ("throughput-avx", "throughput", ALL, SCALE,
     "throughput --width avx --mix load --size {sizes}",
     throughput_load("avx"),
     ("likwid", "load_avx", "{wt}"), "GB/s"),
    ("latency", "latency", ("L1", "L2", "L3"), (1,),
     "latency --hugepages --size {sizes}", latency_at, ("chase", "{sizes}"),
     "ns"),
    # DRAM: both chases at once, then swapped (bench_pair.py says why)
    ("latency", "latency", ("DRAM",), (1,), "latency --hugepages --size {w}",
     latency_at, ("chase-at-once", "{w}"), "ns"),
    # calibrate's generator at full intensity (delay 0) against likwid's
    # kernels of the same DRAM read/write mix, both in DRAM bytes: load
    # (reads), update (read-modify-write, 1:1) and copy (2:1 with the
    # write-allocate, which likwid does not count: its bytes x 1.5)
    ("traffic-read/load_avx512", "traffic", ("DRAM",), SCALE,
     "traffic --mix read --delay 0 --size {wt}", first_gbps,
     ("likwid", "load_avx512", "{wt}"), "GB/s"),
    ("traffic-1:1/update_avx512", "traffic", ("DRAM",), SCALE,
     "traffic --mix 1:1 --delay 0 --size {wt}", first_gbps,
     ("likwid", "update_avx512", "{wt}"), "GB/s"),
    # calibrate's read curve at delay 0, its 1-thread point and its peak's
    # generators (all CPUs but the chase's), against likwid-bench's load
    # on as many threads over 4x the last-level cache in all: one
    # calibrate --quick per trial serves both
    ("calibrate/load_avx512", "calibrate", ("DRAM",), CALIBRATE,
     "calibrate", calibrate_point, ("likwid", "load_avx512", "{pool}"),
     "GB/s"),
    ("traffic-2:1/copy_avx512", "traffic", ("DRAM",), SCALE,
     "traffic --mix 2:1 --delay 0 --size {wt}", first_gbps,
     ("likwid", "copy_avx512", 1.5, "{wt}"), "GB/s"),
]


def sizes_for(w, threads):
    """The sizes a pair line can name, for a working set W per thread."""
    a = w // 3
    return {"w": w, "wt": w * threads, "a": a, "at": a * threads,
            "a2t": 2 * a * threads, "a3t": 3 * a * threads}


class Bench:
    def __init__(self, args):
        self.args = args
        self.likwid_iters = {}	# likwid command -> iterations it chose
        self.log = []		# every command run: argv, seconds, status

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

    def calibrate_run(self):
        """calibrate --quick --mix read into a temporary file, then its
        --show -j document (every thread count of its plan)."""
        path = os.path.join(TOP, "build", "bench", "calibrate-curve.json")
        p = self.run([self.args.memdiag, "calibrate", "--quick", "--mix",
                      "read", "--curve", path])
        if p.returncode:
            raise RuntimeError("calibrate exit %d: %s" %
                               (p.returncode, p.stderr.strip()[-300:]))
        p = self.run([self.args.memdiag, "-j", "calibrate", "--show",
                      "--curve", path])
        return self.memdiag_doc(p.returncode, p.stdout, p.stderr)

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
        p = self.run(self.memdiag_argv(args, threads))
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

    def chase_run(self, sizes):
        p = self.run(self.chase_argv(sizes))
        return self.chase_values(p.returncode, p.stdout, p.stderr)


def fmt_size(v):
    for unit, m in (("G", 1 << 30), ("M", M), ("K", K)):
        if v >= m and v % m == 0:
            return "%d%s" % (v // m, unit)
    return str(v)


def pair_ratio(by_trial, lower_better):
    """The pair's ratio from {trial: {"memdiag": v, "peer_values": v}}:
    each trial ran both sides next to each other (at once for the DRAM
    latency pair), so a trial's own ratio is one measurement, and the
    pair's is their median. The two sides' medians can come from
    different trials, and so from a different host state (a process that
    drew the slow one of the VM's two speeds, a minute of a busy
    neighbour). A trial where one side failed has no ratio. Returns
    (median or None, [ratio per trial, rounded to 4 places])."""
    ratios = []
    for t in sorted(by_trial):
        v = by_trial[t]
        if "memdiag" not in v or "peer_values" not in v:
            continue
        md, pe = v["memdiag"], v["peer_values"]
        ratios.append(pe / md if lower_better else md / pe)
    if not ratios:
        return None, []
    return statistics.median(ratios), [round(r, 4) for r in ratios]


def side_values(i, side):
    """One side's values of pair instance @i ("memdiag" or "peer_values"),
    in trial order, from the trials where that side succeeded."""
    return [v[side] for _, v in sorted(i["by_trial"].items()) if side in v]


def at_once(b, i, trial):
    """One trial of a pair whose two sides run at the same time."""
    try:
        md, pe, detail = bench_pair.latency(b, i["sz"]["w"])
    except (RuntimeError, OSError, ValueError, KeyError) as e:
        i["errors"].append("trial %d, at once: %s" % (trial + 1, e))
        return
    for row in detail.pop("memdiag_rows", []):
        latency_at({"results": [row]}, i["sz"])	# the huge page note
    i["by_trial"][trial] = {"memdiag": md, "peer_values": pe}
    i.setdefault("trials", []).append(detail)


def instances(bw_levels, lat_levels, counts, llc, quick, only):
    """Every pair at every level and thread count it runs at (@counts for
    SCALE), grouped so that pairs sharing a memdiag run follow each
    other."""
    inst = []
    for idx, (name, kern, levels, threads, md, get, peer, unit) in \
            enumerate(PAIRS):
        ws = lat_levels if peer[0].startswith("chase") else bw_levels
        if quick:
            levels = [lv for lv in levels if lv in QUICK_LEVELS]
        if threads == SCALE:
            threads = counts
        elif threads == CALIBRATE:
            threads = sorted({1, max(1, counts[-1] - 1)})
        for t in threads:
            tws = dict(ws, DRAM=dram_per_thread(ws["DRAM"], llc, t))
            for lv in levels:
                sz = sizes_for(tws[lv], t)
                sz["threads"] = t
                sz["pool"] = max(4 * llc, 64 * M)
                sz["sizes"] = ",".join(str(tws[x]) for x in levels)
                full = "%s %s %dT" % (name, lv, t)
                if only and not re.search(only, full):
                    continue
                inst.append({"name": full, "pair": name, "kernel": kern,
                             "level": lv, "threads": t, "unit": unit,
                             "memdiag_args": md.format(**sz), "get": get,
                             "peer": peer, "sz": sz,
                             "peer_args": peer[-1].format(**sz),
                             "order": (ALL.index(lv), t, idx),
                             "errors": [], "by_trial": {}})
    inst.sort(key=lambda i: i["order"])
    return inst


def main():
    quick = os.environ.get("BENCH_QUICK", "") not in ("", "0")
    ap = argparse.ArgumentParser(
        description="memdiag's kernels against likwid-bench and a plain "
        "pointer chase, interleaved; a benchmark, not a test")
    ap.add_argument("--trials", type=int,
                    default=int(os.environ.get("BENCH_TRIALS",
                                               "2" if quick else "5")),
                    help="runs of each side of each pair (default 5, "
                    "BENCH_QUICK=1: 2)")
    ap.add_argument("--reps", type=int, default=3 if quick else 5,
                    help="memdiag --reps and chase repetitions per run")
    ap.add_argument("--seconds", type=float, default=0.3 if quick else 1.0,
                    help="about how long each likwid-bench run measures "
                    "(default 1, BENCH_QUICK=1: 0.3)")
    ap.add_argument("--dram", default=None,
                    help="DRAM working set per thread (K, M or G; default "
                    "4x the last-level cache in sysfs, at least 384M "
                    "(192M with BENCH_QUICK=1))")
    ap.add_argument("--only", default=None,
                    help="only pairs whose name matches this regex "
                    "(e.g. 'triad.*DRAM')")
    ap.add_argument("--json", default=os.path.join(TOP, "build", "bench",
                                                   "bench.json"),
                    help="where to write everything (default build/bench/bench.json)")
    ap.add_argument("--memdiag", default=os.path.join(TOP, "userspace",
                                                      "memdiagctl"))
    ap.add_argument("--chase", default=os.path.join(TOP, "build", "bench",
                                                    "chase"))
    ap.add_argument("--no-curve", action="store_true",
                    help="skip the latency curve (always skipped in quick mode)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print each command to stderr")
    args = ap.parse_args()
    if args.trials < 1 or args.reps < 1:
        ap.error("--trials and --reps must be at least 1")
    if args.dram is None:
        dram = dram_default(192 * M if quick else 384 * M)
    else:
        m = re.fullmatch(r"(\d+)([KMG])", args.dram)
        if not m:
            ap.error("--dram: '%s' is not a size like 384M" % args.dram)
        dram = int(m.group(1)) << {"K": 10, "M": 20, "G": 30}[m.group(2)]
    if dram % 768:
        ap.error("--dram: must be a multiple of 768 bytes (3 arrays of "
                 "256-byte steps)")

    # the latency chase's DRAM level: the same rule, one buffer
    bw_levels, lat_levels = level_sets(cache_sizes(), dram)
    lat_levels["DRAM"] = dram_default(128 * M)
    b = Bench(args)
    result = {"machine": machine(), "quick": quick,
              "config": {"trials": args.trials, "reps": args.reps,
                         "likwid_seconds": args.seconds,
                         "levels": bw_levels,
                         "latency_levels": lat_levels},
              "notes": [], "pairs": []}

    # which memdiag kernels exist
    have = {}
    for kern in sorted({p[1] for p in PAIRS}):
        r = subprocess.run([args.memdiag, kern, "--help"] if
                           kern == "calibrate" else
                           [args.memdiag, "run", kern, "--help"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        have[kern] = r.returncode == 0
        if not have[kern]:
            note = "memdiag kernel '%s' not available" % kern
            result["notes"].append(note)
            print("note: %s: its pairs are skipped" % note)

    counts = thread_counts(len(socket0_cpus()))
    inst = instances(bw_levels, lat_levels, counts, llc_bytes(), quick,
                     args.only)
    result["config"]["thread_counts"] = list(counts)

    print(describe(result["machine"]))
    if not args.no_curve and not quick and not args.only and have["latency"]:
        print("latency curve (memdiag, hugepages, 1 rep): where it flattens "
              "is where DRAM starts")
        p = b.run([args.memdiag, "run", "latency", "--hugepages", "--size",
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

    todo = [i for i in inst if have[i["kernel"]]]
    skipped = [i for i in inst if not have[i["kernel"]]]
    t_start = time.monotonic()
    for trial in range(args.trials):
        md_cache, peer_cache = {}, {}
        for i in todo:
            def side_memdiag():
                # one calibrate serves all its thread counts
                calib = i["kernel"] == "calibrate"
                key = (i["memdiag_args"], 0 if calib else i["threads"])
                if key not in md_cache:
                    try:
                        md_cache[key] = b.calibrate_run() if calib else \
                            b.memdiag_run(i["memdiag_args"], i["threads"])
                    except RuntimeError as e:
                        md_cache[key] = e
                doc = md_cache[key]
                if isinstance(doc, Exception):
                    raise doc
                return i["get"](doc, i["sz"])

            def side_peer():
                peer = i["peer"]
                if peer[0] == "likwid":
                    factor = peer[2] if len(peer) == 4 else 1
                    return factor * b.likwid_run(peer[1],
                                                 int(i["peer_args"]),
                                                 i["threads"],
                                                 max(side_values(i, "memdiag"),
                                                     default=None))
                key = i["peer_args"]
                if key not in peer_cache:
                    try:
                        peer_cache[key] = b.chase_run(key)
                    except RuntimeError as e:
                        peer_cache[key] = e
                if isinstance(peer_cache[key], Exception):
                    raise peer_cache[key]
                return peer_cache[key][i["sz"]["w"]]

            if i["peer"][0] == "chase-at-once":
                at_once(b, i, trial)
                continue
            sides = [("memdiag", side_memdiag), ("peer_values", side_peer)]
            if trial % 2:
                sides.reverse()
            for what, fn in sides:
                try:
                    i["by_trial"].setdefault(trial, {})[what] = fn()
                except (RuntimeError, KeyError, ValueError, TypeError) as e:
                    i["errors"].append("trial %d, %s: %s" % (trial + 1, what, e))
        print("trial %d/%d done (%.0fs)" % (trial + 1, args.trials,
                                            time.monotonic() - t_start),
              file=sys.stderr)

    # the table
    hdr = "%-30s %9s %9s %6s   %9s %9s %6s  %s" % (
        "pair", "memdiag", "peer", "ratio", "best_md", "best_peer", "ratio",
        "unit")
    print()
    print(describe(result["machine"]))
    print("median of %d trials, then best of %d; ratio = the median of "
          "the trials' memdiag/peer (peer/memdiag for ns)" %
          (args.trials, args.trials))
    print(hdr)
    low = 0
    for i in inst:
        md_vals = side_values(i, "memdiag")
        pe_vals = side_values(i, "peer_values")
        row = {"name": i["name"], "pair": i["pair"], "level": i["level"],
               "threads": i["threads"], "unit": i["unit"],
               "memdiag_command": "memdiagctl run %s --threads %d --reps %d -j"
               % (i["memdiag_args"], i["threads"], args.reps),
               "peer": i["peer"][0] if i["peer"][0].startswith("chase")
               else "likwid-bench -t %s -W S0:%sB:%d" % (
                   i["peer"][1], i["peer_args"], i["threads"]),
               "working_set_per_thread": i["sz"]["w"],
               "memdiag_values": md_vals, "peer_values": pe_vals,
               "errors": i["errors"]}
        if "trials" in i:
            row["at_once"] = i["trials"]
        if not have[i["kernel"]]:
            row["skipped"] = "memdiag kernel '%s' not available" % i["kernel"]
            result["pairs"].append(row)
            continue
        if not md_vals or not pe_vals:
            print("%-30s %s" % (i["name"], "error: " + (i["errors"] or ["?"])[0]))
            result["pairs"].append(row)
            continue
        lower_better = i["unit"] == "ns"
        md_med = statistics.median(md_vals)
        pe_med = statistics.median(pe_vals)
        best = min if lower_better else max
        md_best, pe_best = best(md_vals), best(pe_vals)
        if lower_better:
            ratio, ratio_best = pe_med / md_med, pe_best / md_best
        else:
            ratio, ratio_best = md_med / pe_med, md_best / pe_best
        row["ratio_of_medians"] = round(ratio, 4)
        trial_ratio, row["trial_ratios"] = pair_ratio(i["by_trial"],
                                                      lower_better)
        if trial_ratio is not None:
            ratio = trial_ratio
        flag = "  (at once)" if "trials" in i else ""
        row.update({"memdiag_median": md_med, "peer_median": pe_med,
                    "ratio_median": round(ratio, 4), "memdiag_best": md_best,
                    "peer_best": pe_best, "ratio_best": round(ratio_best, 4)})
        if ratio < 0.98:
            flag += "  < 0.98"
            low += 1
        print("%-30s %9.2f %9.2f %6.3f   %9.2f %9.2f %6.3f  %s%s" % (
            i["name"], md_med, pe_med, ratio, md_best, pe_best, ratio_best,
            i["unit"], flag))
        result["pairs"].append(row)
    result["notes"] += sorted(PAGE_NOTES)
    for note in result["notes"]:
        print("note: " + note)
    result["seconds"] = round(time.monotonic() - t_start, 1)
    result["commands"] = b.log
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)
    print("%d pairs, %d with a median ratio below 0.98; %.0f s; all values "
          "in %s" % (len([r for r in result["pairs"] if "ratio_median" in r]),
                     low, result["seconds"], args.json))
    return 0


if __name__ == "__main__":
    sys.exit(main())
