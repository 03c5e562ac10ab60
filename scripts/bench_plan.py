# SPDX-License-Identifier: GPL-2.0
"""bench_plan.py - which pairs "make bench" runs on this machine: at which
thread counts and working sets, with which kernel on each side, and which
it skips and why. Pure: it reads the machine only through the dict host()
returns, so that a test can hand it a fake one (or fake sysfs through
MEMDIAG_TEST_SYSFS_CPU and the CPU flags through MEMDIAG_TEST_HIDE_CPU).

Threads. Rows run at 1, half and all of socket 0's CPUs (sysfs
physical_package_id), the counts deduplicated: 1 and 2 on 2 CPUs, 1, 8
and 16 on 16. Thread i runs on socket 0's i-th CPU on both sides
(memdiagctl run --socket 0, likwid-bench -W S0:SIZE:T).

Widths. Both sides of a pair use the same SIMD width, the widest the CPU
flags in /proc/cpuinfo allow (avx512f, avx, sse2, else scalar): memdiag
stream picks its widest code by itself (its JSON "isa", which the bench
checks), throughput is given --width, and likwid-bench runs the kernel of
that width (copy_avx, stream_mem_sse, ...). memdiag's stream triad is a
multiply and an add, so the peer is likwid's non-FMA stream kernel.
read-delay and traffic load 8 bytes at a time whatever the CPU: their
peers are likwid's clload and its widest load, update and copy, and for
read-delay also scripts/bench-read.c at its four streams a thread.

Timing. memdiag's stream, throughput, read-delay and traffic run with
--timing whole, as their peers time (WHOLE below); at more than one
thread the same run with memdiag's default timing is kept beside it.
"""

import os

from bench_machine import (cache_share, cpu_flags, likwid_tests, llc_total,
                           socket_cpus)

K, M = 1 << 10, 1 << 20
ALL = ("L1", "L2", "L3", "DRAM")
QUICK_LEVELS = ("L1", "DRAM")	# BENCH_QUICK=1: the two ends only
# Where sysfs has no caches: the Zen 4 VM's L1d, L2 and L3 (per core,
# per core, shared), so that the levels still mean something.
FALLBACK = {1: 32 * K, 2: 1 * M, 3: 32 * M}
STEP = 768 * K	# DRAM sets: 3 arrays of 256-byte steps, whole 1K blocks

# SIMD widths, widest first: the /proc/cpuinfo flag it needs, likwid's
# kernel suffix, the name memdiag stream's JSON gives its code.
WIDTHS = (("avx512", "avx512f", "_avx512", "avx512"),
          ("avx", "avx", "_avx", "avx"),
          ("sse", "sse2", "_sse", "sse2"),
          ("scalar", None, "", "c"))

# One line per pair: name, memdiag kernel, levels, memdiag arguments,
# reader (how bench.py gets the value from memdiag's JSON), peer
# (kind, likwid kernel family, size, factor: its GB/s times FACTOR, for
# bytes likwid does not count), width rule, unit. In the arguments and
# sizes, {at} is A * T, {a2t} 2A * T, {a3t} 3A * T, {wt} W * T, {w} W,
# {sizes} every level of the pair at that thread count (one memdiag run
# serves them all). Width rules: "stream" and "stream-nt", both sides at
# the widest width; "widest", memdiag scalar against likwid's widest
# kernel; "plain", likwid's kernel as named; a width, throughput --width
# against likwid's kernel of that width. For "ns" lower is better and the
# ratio is peer / memdiag.
PAIRS = [
    ("copy", "stream", ALL, "stream --size {at}", ("stream", "copy"),
     ("likwid", "copy", "{a2t}", 1), "stream", "GB/s"),
    ("copy-nt", "stream", ALL, "stream --nt --size {at}", ("stream", "copy"),
     ("likwid", "copy_mem", "{a2t}", 1), "stream-nt", "GB/s"),
    ("triad", "stream", ALL, "stream --size {at}", ("stream", "triad"),
     ("likwid", "stream", "{a3t}", 1), "stream", "GB/s"),
    ("triad-nt", "stream", ALL, "stream --nt --size {at}",
     ("stream", "triad"), ("likwid", "stream_mem", "{a3t}", 1), "stream-nt",
     "GB/s"),
    ("read-delay/clload", "read-delay", ("DRAM",),
     "read-delay --delay 0 --size {wt}", ("first",),
     ("likwid", "clload", "{wt}", 1), "plain", "GB/s"),
    ("read-delay/load", "read-delay", ("DRAM",),
     "read-delay --delay 0 --size {wt}", ("first",),
     ("likwid", "load", "{wt}", 1), "widest", "GB/s"),
    # the same four streams a thread as read-delay, from bench-read.c:
    # likwid's load and clload walk one, which on some CPUs cannot keep
    # a core's DRAM pipe full (Documentation/kernels.rst, "Streams")
    ("read-delay/read4", "read-delay", ("DRAM",),
     "read-delay --delay 0 --size {wt}", ("first",),
     ("read", "4", "{wt}", 1), None, "GB/s"),
    ("throughput-avx512", "throughput", ALL,
     "throughput --width avx512 --mix load --size {sizes}", ("throughput",),
     ("likwid", "load", "{wt}", 1), "avx512", "GB/s"),
    ("throughput-avx", "throughput", ALL,
     "throughput --width avx --mix load --size {sizes}", ("throughput",),
     ("likwid", "load", "{wt}", 1), "avx", "GB/s"),
    # the SSE code every x86-64 CPU runs, which memdiag picks on none
    # that has AVX: its loops against likwid's _sse kernel all the same
    ("throughput-sse", "throughput", ALL,
     "throughput --width sse --mix load --size {sizes}", ("throughput",),
     ("likwid", "load", "{wt}", 1), "sse", "GB/s"),
    ("latency", "latency", ("L1", "L2", "L3"),
     "latency --hugepages --size {sizes}", ("latency",),
     ("chase", None, "{sizes}", 1), None, "ns"),
    # DRAM: both chases at once, then swapped (bench_pair.py says why)
    ("latency", "latency", ("DRAM",), "latency --hugepages --size {w}",
     ("latency",), ("chase-at-once", None, "{w}", 1), None, "ns"),
    # calibrate's generator at full intensity (delay 0) against likwid's
    # kernels of the same DRAM read/write mix, both in DRAM bytes: load
    # (reads), update (read-modify-write, 1:1) and copy (2:1 with the
    # write-allocate, which likwid does not count: its bytes x 1.5)
    ("traffic-read/load", "traffic", ("DRAM",),
     "traffic --mix read --delay 0 --size {wt}", ("first",),
     ("likwid", "load", "{wt}", 1), "widest", "GB/s"),
    ("traffic-1:1/update", "traffic", ("DRAM",),
     "traffic --mix 1:1 --delay 0 --size {wt}", ("first",),
     ("likwid", "update", "{wt}", 1), "widest", "GB/s"),
    ("traffic-2:1/copy", "traffic", ("DRAM",),
     "traffic --mix 2:1 --delay 0 --size {wt}", ("first",),
     ("likwid", "copy", "{wt}", 1.5), "widest", "GB/s"),
    # calibrate's own read curve, its delay-0 point at each generator
    # count T (one more CPU chases): likwid's load on T threads
    ("calibrate-peak", "calibrate", ("DRAM",),
     "calibrate --socket 0 --mix read", ("calibrate",),
     ("likwid", "load", "{wt}", 1), "widest", "GB/s"),
]

# Timing. The kernels memdiag can time as likwid-bench and bench-read do
# (run --timing whole: each thread's whole iteration count between two
# barriers, the slowest thread's time) run that way against their peer;
# at more than one thread memdiag's default (a barrier after every
# repetition) runs beside them, with its thread wait, compared with the
# same trial's peer but not held to the bar. The others (latency: one
# chase; calibrate) have one timing.
WHOLE = ("stream", "throughput", "read-delay", "traffic")


def host():
    """What the plan needs to know about this machine."""
    cpus = socket_cpus(0)
    notes = []
    if not cpus:
        cpus = sorted(os.sched_getaffinity(0))
        notes.append("sysfs gives no physical_package_id: socket 0 taken "
                     "as the %d CPUs this process may run on" % len(cpus))
    return {"cpus": cpus, "flags": cpu_flags(), "likwid": likwid_tests(),
            "share": cache_share, "llc_total": llc_total(cpus),
            "notes": notes}


def thread_counts(ncpu):
    """1, half and all of @ncpu CPUs, each once."""
    return sorted({1, max(1, ncpu // 2), max(1, ncpu)})


def calibrate_threads(ncpu, quick):
    """calibrate's generator counts on a socket of @ncpu CPUs with one
    cache (one CPU chases): 1 and all of them, and without --quick about
    half. calibrate's own plan is the authority ('calibrate --plan -j':
    on sockets of several caches its half is the count that spreads
    evenly over them): bench.py asks it and passes them to plan()."""
    gen = ncpu - 1
    if gen < 1:
        return []
    th = [1] if gen > 1 else []
    if not quick and gen > 3:
        th.append((gen + 1) // 2)
    return th + [gen]


def widths(flags):
    """The widths this CPU runs, widest first."""
    return [w for w in WIDTHS if w[1] is None or w[1] in flags]


def dram_total(host_info, given=None):
    """The DRAM working set of all threads together: @given, else four
    times socket 0's last-level caches in sysfs (FALLBACK's L3 where sysfs
    has none), a multiple of STEP."""
    want = given or 4 * (host_info["llc_total"] or FALLBACK[3])
    return -(-want // STEP) * STEP


def level_sets(host_info, threads, total):
    """({level: bandwidth working set per thread}, {level: latency chase
    set}, {level: why it is left out}) for @threads threads on socket 0's
    first CPUs: half the L1d and of the L2 each thread gets (SMT siblings
    share them), four L2 shares but at most a quarter of the thread's L3
    share, @total / @threads for DRAM; the chase takes a third of the
    L1d and a quarter of the L2."""
    cpus = host_info["cpus"][:threads]
    share = {}
    for lv in (1, 2, 3):
        share[lv] = host_info["share"](lv, cpus) or \
            (FALLBACK[lv] // threads if lv == 3 else FALLBACK[lv])

    def even(v):	# stream's three arrays of 256-byte steps, 1K blocks
        return max(3 * K, v // (3 * K) * (3 * K))
    l3 = even(min(4 * share[2], share[3] // 4))
    bw = {"L1": even(share[1] // 2), "L2": even(share[2] // 2), "L3": l3,
          "DRAM": -(-total // threads // STEP) * STEP}
    lat = {"L1": share[1] // 3 // K * K, "L2": share[2] // 4, "L3": l3,
           "DRAM": -(-total // STEP) * STEP}
    out = {}
    if l3 < 2 * share[2]:
        out["L3"] = ("a quarter of each thread's L3 share (%dK) is not "
                     "twice its L2 share (%dK)" % (share[3] // 4 // K,
                                                   share[2] // K))
    return bw, lat, out


def sides(pair, cpu_widths, likwid):
    """(memdiag's width, likwid-bench's kernel, why it cannot run or
    None) for @pair on a CPU with @cpu_widths."""
    name, _, _, _, _, peer, rule, _ = pair
    if peer[0] == "read":
        return "scalar", "read%s" % peer[1], None
    if peer[0] != "likwid":
        return None, None, None
    widest = cpu_widths[0]
    if rule in ("stream", "stream-nt"):
        test = peer[1] + widest[2]
        if rule == "stream-nt" and widest[0] == "scalar":
            return widest[3], test, ("memdiag stream has no non-temporal "
                                     "scalar (c) code")
        why = None if test in likwid else \
            "likwid-bench has no %s (likwid-bench -a)" % test
        return widest[3], test, why
    if rule == "plain":
        return "scalar", peer[1], None if peer[1] in likwid else \
            "likwid-bench has no %s (likwid-bench -a)" % peer[1]
    if rule == "widest":
        for w in cpu_widths:
            if peer[1] + w[2] in likwid:
                return "scalar", peer[1] + w[2], None
        return "scalar", peer[1], ("likwid-bench has no %s kernel this CPU "
                                   "runs (likwid-bench -a)" % peer[1])
    w = [x for x in WIDTHS if x[0] == rule][0]
    test = peer[1] + w[2]
    if w not in cpu_widths:
        return rule, test, "this CPU lacks %s (/proc/cpuinfo flags)" % w[1]
    return rule, test, None if test in likwid else \
        "likwid-bench has no %s (likwid-bench -a)" % test


def sizes_for(w, threads):
    """The sizes a pair line can name, for a working set W per thread."""
    a = w // 3
    return {"w": w, "wt": w * threads, "a": a, "at": a * threads,
            "a2t": 2 * a * threads, "a3t": 3 * a * threads}


def plan(host_info, kernels, quick=False, calibrate=True, total=None,
         calib_threads=None):
    """Every pair instance, in run order: dicts with the name, the two
    sides' commands and widths, the sizes, and "skipped" (None, or why).
    @kernels: the memdiag kernels this build has (calibrate included);
    @calib_threads: calibrate's generator counts from its --plan (None:
    calibrate_threads())."""
    ncpu = len(host_info["cpus"])
    if calib_threads is None:
        calib_threads = calibrate_threads(ncpu, quick)
    cpu_widths = widths(host_info["flags"])
    total = dram_total(host_info, total)
    sets = {t: level_sets(host_info, t, total)
            for t in set(thread_counts(ncpu) +
                         list(calib_threads) + [1])}
    inst = []
    for idx, pair in enumerate(PAIRS):
        name, kern, levels, md, reader, peer, rule, unit = pair
        md_isa, test, why = sides(pair, cpu_widths, host_info["likwid"])
        if kern not in kernels:
            why = "memdiag kernel '%s' not available" % kern
        threads = thread_counts(ncpu)
        suffix = ""
        if kern == "latency":
            threads = [1]
        elif kern == "calibrate":
            threads = list(calib_threads) or [1]
            md += " --quick" if quick else ""
            suffix = "+chase"
            if ncpu < 2:
                why = "calibrate needs 2 CPUs on socket 0 (one chases)"
            elif not calibrate:
                why = "left out (--no-calibrate)"
        else:
            md += " --socket 0"
        if quick:
            levels = [lv for lv in levels if lv in QUICK_LEVELS]
        for t in threads:
            bw, lat, left_out = sets[t]
            ws = lat if peer[0].startswith("chase") else bw
            run_levels = [lv for lv in levels if lv not in left_out]
            for lv in levels:
                sz = sizes_for(ws[lv], t)
                sz["sizes"] = ",".join(str(ws[x]) for x in run_levels)
                inst.append({
                    "name": "%s %s %dT%s" % (name, lv, t, suffix),
                    "pair": name, "kernel": kern, "level": lv,
                    "threads": t, "unit": unit, "reader": reader,
                    "memdiag_args": md.format(**sz) + (
                        " --timing whole" if kern in WHOLE else ""),
                    "default_args": md.format(**sz)
                    if kern in WHOLE and t > 1 else None,
                    "timing": "whole" if kern in WHOLE else None,
                    "memdiag_isa": md_isa,
                    "peer": {"kind": peer[0], "test": test,
                             "factor": peer[3],
                             "size": peer[2].format(**sz),
                             "streams": peer[1] if peer[0] == "read"
                             else None,
                             "cpus": host_info["cpus"][:t]},
                    "sz": sz, "order": (ALL.index(lv), t, idx),
                    "skipped": why or left_out.get(lv)})
    inst.sort(key=lambda i: i["order"])
    return inst
