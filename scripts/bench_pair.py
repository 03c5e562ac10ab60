# SPDX-License-Identifier: GPL-2.0
"""bench_pair.py - the DRAM latency pair of "make bench", measured with
both sides running at the same time.

Why: in a VM a DRAM chase's ns per load drifts with the host by minutes
(214 to 319 ns over one run on the Intel VM of Documentation/kernels.rst,
the two sides in turn), far more than the difference being looked for.
Run at once, one chase on each of two CPUs, both see the same host; then
the CPUs are swapped and each side's value is the geometric mean of its two
placements, so that a faster CPU favours neither. A chase moves a few
hundred MB/s, so the two barely load each other; bench-chase against itself
in this design gave 0.9998 on that VM (one CPU reads 0.7 % faster: the
swap is what cancels it).

With fewer than two CPUs the sides run one after the other, as every other
pair does.
"""

import math
import os
import subprocess
import time


def two_cpus():
    """The first two CPUs this process may run on, or None."""
    cpus = sorted(os.sched_getaffinity(0))
    return cpus[:2] if len(cpus) >= 2 else None


def _pinned(argv, cpu):
    return subprocess.Popen(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))


def _at_once(bench, size, md_cpu, chase_cpu):
    """One placement: memdiag on @md_cpu and the chase on @chase_cpu,
    started together; returns (memdiag's result row, chase ns). The
    commands are @bench's own, so they match the one-CPU fallback."""
    md_argv = bench.memdiag_argv("latency --hugepages --size %d" % size, 1)
    ch_argv = bench.chase_argv(str(size), chase_cpu)
    t0 = time.monotonic()
    md = _pinned(md_argv, md_cpu)
    ch = _pinned(ch_argv, chase_cpu)
    ch_out, ch_err = ch.communicate()
    bench.logged(ch_argv, t0, ch.returncode, chase_cpu)
    md_out, md_err = md.communicate()
    bench.logged(md_argv, t0, md.returncode, md_cpu)
    doc = bench.memdiag_doc(md.returncode, md_out, md_err)
    if doc.get("cpus") != [md_cpu]:
        raise RuntimeError("memdiag ran on CPUs %s, not %d" %
                           (doc.get("cpus"), md_cpu))
    return doc["results"][0], \
        bench.chase_values(ch.returncode, ch_out, ch_err)[size]


def latency(bench, size):
    """One trial of the DRAM latency pair at @size bytes: returns
    (memdiag ns, chase ns, detail), each side the geometric mean of its
    two placements (or its one run with fewer than two CPUs)."""
    cpus = two_cpus()
    if not cpus:
        doc = bench.memdiag_run("latency --hugepages --size %d" % size, 1)
        row = doc["results"][0]
        return (row["ns_per_load"], bench.chase_run(str(size))[size],
                {"design": "one after the other (one CPU)",
                 "memdiag_rows": [row]})
    a, b = cpus
    runs, rows = [], []
    for md_cpu, ch_cpu in ((a, b), (b, a)):
        row, ch_ns = _at_once(bench, size, md_cpu, ch_cpu)
        runs.append({"memdiag_cpu": md_cpu, "memdiag_ns": row["ns_per_load"],
                     "peer_cpu": ch_cpu, "peer_ns": ch_ns})
        rows.append(row)
    md = math.sqrt(runs[0]["memdiag_ns"] * runs[1]["memdiag_ns"])
    pe = math.sqrt(runs[0]["peer_ns"] * runs[1]["peer_ns"])
    return md, pe, {"design": "at once on CPUs %d and %d, then swapped" %
                    (a, b), "placements": runs, "memdiag_rows": rows}
