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

import json
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


def _memdiag_ns(p, out, err, cpu):
    try:
        doc = json.loads(out)
        row = doc["results"][0]
    except (ValueError, KeyError, IndexError):
        raise RuntimeError("memdiagctl exit %d: %s" % (p.returncode,
                                                       err.strip()))
    if p.returncode:
        raise RuntimeError("memdiagctl exit %d: %s" % (p.returncode,
                                                       err.strip()))
    if doc.get("cpus") != [cpu]:
        raise RuntimeError("memdiag ran on CPUs %s, not %d" %
                           (doc.get("cpus"), cpu))
    return row["ns_per_load"], row


def _chase_ns(p, out, err):
    if p.returncode:
        raise RuntimeError("bench-chase exit %d: %s" % (p.returncode,
                                                        err.strip()))
    return json.loads(out.splitlines()[0])["ns_per_load"]


def _at_once(bench, md_argv, chase_argv, md_cpu, chase_cpu):
    """One placement: memdiag on @md_cpu and the chase on @chase_cpu,
    started together; returns (memdiag ns, chase ns, memdiag's row)."""
    t0 = time.monotonic()
    md = _pinned(md_argv, md_cpu)
    ch = _pinned(chase_argv[:1] + ["--cpu", str(chase_cpu)] + chase_argv[1:],
                 chase_cpu)
    ch_out, ch_err = ch.communicate()
    md_out, md_err = md.communicate()
    for argv, p in ((md_argv, md), (chase_argv, ch)):
        bench.log.append({"argv": argv, "cpu": md_cpu if p is md else
                          chase_cpu, "seconds": round(time.monotonic() - t0, 3),
                          "status": p.returncode,
                          "loadavg": os.getloadavg()[0]})
    md_ns, row = _memdiag_ns(md, md_out, md_err, md_cpu)
    return md_ns, _chase_ns(ch, ch_out, ch_err), row


def latency(bench, memdiag, chase, size, reps):
    """One trial of the DRAM latency pair at @size bytes: returns
    (memdiag ns, chase ns, detail), each side the geometric mean of its
    two placements (or its one run with fewer than two CPUs)."""
    md_argv = [memdiag, "run", "latency", "--hugepages", "--size",
               str(size), "--threads", "1", "--reps", str(reps), "-j"]
    chase_argv = [chase, "--hugepages", "--reps", str(reps), str(size)]
    cpus = two_cpus()
    if not cpus:
        doc = bench.memdiag_run("latency --hugepages --size %d" % size, 1)
        ch = bench.chase_run(str(size))
        return (doc["results"][0]["ns_per_load"], ch[size],
                {"design": "one after the other (one CPU)"})
    a, b = cpus
    runs, rows = [], []
    for md_cpu, ch_cpu in ((a, b), (b, a)):
        md_ns, ch_ns, row = _at_once(bench, md_argv, chase_argv, md_cpu,
                                     ch_cpu)
        runs.append({"memdiag_cpu": md_cpu, "memdiag_ns": md_ns,
                     "peer_cpu": ch_cpu, "peer_ns": ch_ns})
        rows.append(row)
    md = math.sqrt(runs[0]["memdiag_ns"] * runs[1]["memdiag_ns"])
    pe = math.sqrt(runs[0]["peer_ns"] * runs[1]["peer_ns"])
    return md, pe, {"design": "at once on CPUs %d and %d, then swapped" %
                    (a, b), "placements": runs, "memdiag_rows": rows}
