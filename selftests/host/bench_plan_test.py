#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench_plan_test.py - make bench's pair list (scripts/bench_plan.py) on
fake machines: the kernels on both sides follow the CPU flags, the thread
counts follow socket 0's CPUs in sysfs (faked with MEMDIAG_TEST_SYSFS_CPU),
DRAM sets are 4x the socket's last-level caches, and the summary counts
the skipped pairs. TAP on stdout, exit 1 on any failure."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import bench_table  # noqa: E402
from tap import Results  # noqa: E402
import bench_plan  # noqa: E402

results = Results()
check = results.checker()
KERNELS = {p[1] for p in bench_plan.PAIRS}



def likwid_all():
    """Every kernel name the pairs can ask likwid-bench for, at every
    width, as likwid-bench -a lists them on x86."""
    names = {"clload"}
    for base in ("copy", "copy_mem", "stream", "stream_mem", "load",
                 "update"):
        for w in bench_plan.WIDTHS:
            names.add(base + w[2])
    return names


def fake_sysfs(root, ncpu0, ncpu1=0, llc_per=8):
    """A sysfs cpu directory: @ncpu0 CPUs on package 0, then @ncpu1 on
    package 1; each CPU a 32K L1d and a 512K L2 of its own, a 32M L3 per
    @llc_per consecutive CPUs (a Zen CCX)."""
    n = ncpu0 + ncpu1
    with open(os.path.join(root, "online"), "w") as f:
        f.write("0-%d\n" % (n - 1))
    for c in range(n):
        d = os.path.join(root, "cpu%d" % c)
        os.makedirs(os.path.join(d, "topology"))
        with open(os.path.join(d, "topology", "physical_package_id"),
                  "w") as f:
            f.write("%d\n" % (0 if c < ncpu0 else 1))
        first = c // llc_per * llc_per
        for idx, (lv, kind, size, shared) in enumerate((
                (1, "Data", "32K", str(c)), (1, "Instruction", "32K", str(c)),
                (2, "Unified", "512K", str(c)),
                (3, "Unified", "32768K", "%d-%d" % (first,
                                                    first + llc_per - 1)))):
            e = os.path.join(d, "cache", "index%d" % idx)
            os.makedirs(e)
            for key, val in (("level", lv), ("type", kind), ("size", size),
                             ("shared_cpu_list", shared)):
                with open(os.path.join(e, key), "w") as f:
                    f.write("%s\n" % val)


def fake_host(flags, root):
    """bench_plan.host() over the fake sysfs at @root, with @flags and a
    likwid-bench that has every kernel."""
    old = os.environ.get("MEMDIAG_TEST_SYSFS_CPU")
    os.environ["MEMDIAG_TEST_SYSFS_CPU"] = root
    try:
        h = bench_plan.host()
    finally:
        if old is None:
            del os.environ["MEMDIAG_TEST_SYSFS_CPU"]
        else:
            os.environ["MEMDIAG_TEST_SYSFS_CPU"] = old
    h["flags"], h["likwid"] = set(flags), likwid_all()
    # cache_share reads sysfs when the plan asks: keep it on the fake
    h["share"] = lambda lv, cpus, f=bench_plan.cache_share: \
        with_sysfs(root, f, lv, cpus)
    return h


def with_sysfs(root, fn, *a):
    old = os.environ.get("MEMDIAG_TEST_SYSFS_CPU")
    os.environ["MEMDIAG_TEST_SYSFS_CPU"] = root
    try:
        return fn(*a)
    finally:
        if old is None:
            del os.environ["MEMDIAG_TEST_SYSFS_CPU"]
        else:
            os.environ["MEMDIAG_TEST_SYSFS_CPU"] = old


def running(inst):
    return [i for i in inst if not i["skipped"]]


def names_avx512(i):
    return "avx512" in "%s %s %s" % (i["peer"]["test"], i["memdiag_isa"],
                                     i["memdiag_args"])


ZEN3 = {"sse", "sse2", "avx", "avx2", "fma"}
SKX = ZEN3 | {"avx512f", "avx512bw"}

with tempfile.TemporaryDirectory() as tmp:
    two, sixteen = os.path.join(tmp, "two"), os.path.join(tmp, "sixteen")
    os.makedirs(two)
    os.makedirs(sixteen)
    fake_sysfs(two, 2, llc_per=2)
    fake_sysfs(sixteen, 16, 16)

    # Widths: no AVX-512 kernel on either side without avx512f
    inst = bench_plan.plan(fake_host(ZEN3, two), KERNELS)
    check("no avx512f: no running pair names an AVX-512 kernel",
          running(inst) and not any(names_avx512(i) for i in running(inst)))
    check("no avx512f: throughput-avx512 is skipped, naming avx512f",
          all("avx512f" in (i["skipped"] or "") for i in inst
              if i["pair"] == "throughput-avx512") and
          any(i["pair"] == "throughput-avx512" for i in inst))
    check("no avx512f: stream copy runs avx code against copy_avx",
          {(i["memdiag_isa"], i["peer"]["test"]) for i in inst
           if i["pair"] == "copy"} == {("avx", "copy_avx")})
    inst = bench_plan.plan(fake_host(SKX, two), KERNELS)
    check("avx512f: copy, triad-nt, throughput-avx512 and traffic use "
          "AVX-512 kernels",
          {(i["pair"], i["peer"]["test"]) for i in running(inst)
           if i["pair"] in ("copy", "triad-nt", "throughput-avx512",
                            "traffic-read/load")} ==
          {("copy", "copy_avx512"), ("triad-nt", "stream_mem_avx512"),
           ("throughput-avx512", "load_avx512"),
           ("traffic-read/load", "load_avx512")} and
          not any(i["skipped"] for i in inst))
    inst = bench_plan.plan(fake_host({"sse", "sse2"}, two), KERNELS)
    check("sse2 only: the sse kernels; throughput-avx512 and -avx skipped, "
          "throughput-sse runs",
          {i["peer"]["test"] for i in inst if i["pair"] == "triad-nt"} ==
          {"stream_mem_sse"} and
          all(i["skipped"] for i in inst
              if i["pair"] in ("throughput-avx512", "throughput-avx")) and
          {(i["memdiag_isa"], i["peer"]["test"], i["skipped"])
           for i in inst if i["pair"] == "throughput-sse"} ==
          {("sse", "load_sse", None)})
    inst = bench_plan.plan(fake_host(ZEN3, two), KERNELS)
    check("AVX2: throughput-sse runs memdiag's sse code against load_sse "
          "too, at every level",
          {(i["level"], i["memdiag_isa"], i["peer"]["test"], i["skipped"])
           for i in inst if i["pair"] == "throughput-sse"} ==
          {(lv, "sse", "load_sse", None) for lv in bench_plan.ALL})

    # Threads: 1, half and all of socket 0 (package 1's CPUs not counted)
    inst = bench_plan.plan(fake_host(ZEN3, sixteen), KERNELS)
    for pair in ("copy", "triad-nt", "read-delay/load", "throughput-avx",
                 "traffic-2:1/copy"):
        check("16 CPUs on socket 0 (32 online): %s at 1, 8, 16 threads" %
              pair, sorted({i["threads"] for i in inst
                            if i["pair"] == pair}) == [1, 8, 16])
    check("16 CPUs: calibrate-peak at its generator counts 1, 8, 15",
          sorted(i["threads"] for i in inst
                 if i["pair"] == "calibrate-peak") == [1, 8, 15] and
          all(i["name"].endswith("T+chase") for i in inst
              if i["pair"] == "calibrate-peak"))
    dram = [i for i in running(inst) if i["level"] == "DRAM" and
            i["pair"] != "latency"]
    check("16 CPUs, two 32M L3s: every DRAM row's set is >= 256M in all",
          dram and all(i["sz"]["wt"] >= 4 * 64 << 20 for i in dram))
    rd = {i["threads"]: i for i in inst if i["pair"] == "read-delay/read4"}
    check("16 CPUs: read-delay/read4 at 1, 8, 16 threads, bench-read at "
          "4 streams on socket 0's first T CPUs, read-delay's set",
          sorted(rd) == [1, 8, 16] and
          all(i["peer"]["streams"] == "4" and
              i["peer"]["cpus"] == list(range(t)) and
              i["peer"]["size"] == str(i["sz"]["wt"]) and
              "--size %d " % i["sz"]["wt"] in i["memdiag_args"] + " " and
              not i["skipped"] for t, i in rd.items()))
    check("16 CPUs: memdiag runs on socket 0, likwid-bench on S0",
          all("--socket 0" in i["memdiag_args"] for i in running(inst)
              if i["kernel"] not in ("latency",)))
    inst = bench_plan.plan(fake_host(ZEN3, two), KERNELS)
    check("2 CPUs: rows at 1 and 2 threads only",
          sorted({i["threads"] for i in inst if i["kernel"] != "latency"})
          == [1, 2])
    check("2 CPUs: calibrate-peak at 1 generator thread",
          [i["name"] for i in inst if i["pair"] == "calibrate-peak"] ==
          ["calibrate-peak DRAM 1T+chase"])
    check("thread counts: 1 CPU -> 1, 3 -> 1 and 3", bench_plan.
          thread_counts(1) == [1] and bench_plan.thread_counts(3) == [1, 3])

    # MEMDIAG_TEST_HIDE_CPU narrows the bench's flags as it does memdiag's
    os.environ["MEMDIAG_TEST_HIDE_CPU"] = "avx512f,avx"
    flags = bench_plan.cpu_flags()
    del os.environ["MEMDIAG_TEST_HIDE_CPU"]
    check("MEMDIAG_TEST_HIDE_CPU=avx512f,avx hides both from the flags",
          "avx" not in flags and "avx512f" not in flags)

    # The summary counts what was skipped
    inst = bench_plan.plan(fake_host(ZEN3, two), KERNELS)
    skipped = [i for i in inst if i["skipped"]]
    rows = [{"name": i["name"], "ratio_median": 1.0, "disturbed": n == 2}
            for n, i in enumerate(running(inst))][:5] + \
        [{"name": "x", "errors": ["e"]}] + \
        [{"name": i["name"], "skipped": i["skipped"]} for i in skipped]
    line = bench_table.summary({"pairs": rows, "seconds": 1, "json": "f",
                                "config": {"max_disturbance": 0.05}}, 0,
                               skipped)
    check("summary: 5 ran, %d skipped with the reason, 1 failed, 1 "
          "disturbed (%s)" % (len(skipped), line),
          len(skipped) == 8 and
          line.startswith("5 pairs ran, 8 skipped (this CPU lacks avx512f")
          and ", 1 failed;" in line and "; 1 disturbed (" in line)

results.finish()
