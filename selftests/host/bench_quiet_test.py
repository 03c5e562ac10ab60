#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench_quiet_test.py - make bench's judgement of its own trials
(scripts/bench_quiet.py, bench_table.table_row, bench.all_trials): the
shares of CPU pressure and steal from canned /proc files, a disturbed trial
run again, a pair's ratio over its quiet trials only, and a pair with too
few of them marked disturbed and not counted below 0.98, and more trials
for a pair its first ones leave undecided. TAP on stdout, exit 1 on any
failure."""

import io
import os
import sys
import tempfile
import types
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import bench  # noqa: E402
import bench_quiet  # noqa: E402
import bench_table  # noqa: E402
from tap import Results  # noqa: E402

results = Results()
check = results.checker()



def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def stat_text(steal):
    # user nice system idle iowait irq softirq steal, then two CPUs
    return ("cpu  100 0 50 9000 0 0 0 %d 0 0\n"
            "cpu0 50 0 25 4500 0 0 0 0 0 0\n"
            "cpu1 50 0 25 4500 0 0 0 0 0 0\n" % steal)


with tempfile.TemporaryDirectory() as d:
    psi = os.path.join(d, "cpu")
    stat = os.path.join(d, "stat")
    clock = iter([100.0, 110.0])
    m = bench_quiet.Meter(psi, stat, clock=lambda: next(clock))
    write(d, "cpu", "some avg10=0.00 avg60=0.00 avg300=0.00 total=2000000\n"
          "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
    write(d, "stat", stat_text(800))
    before = m.now()
    # 10 s of wall: 0.5 s of pressure, and 10 % of two CPUs' 10 s stolen
    write(d, "cpu", "some avg10=5.00 avg60=0.00 avg300=0.00 total=2500000\n"
          "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
    write(d, "stat", stat_text(800 + 2 * m.hz))
    share = m.share(before, m.now())
    check("CPU pressure: 0.5 s waiting in 10 s is 0.05 (%s)" % share,
          share["cpu_pressure"] == 0.05)
    check("steal: 2 s of two CPUs' 20 s is 0.1 (%s)" % share,
          share["steal"] == 0.1)
    check("a run's disturbance is the larger share",
          bench_quiet.disturbance(share) == 0.1)
    m2 = bench_quiet.Meter(os.path.join(d, "none"), os.path.join(d, "none"))
    check("no PSI, no /proc/stat: no figure, and no disturbance",
          bench_quiet.disturbance(m2.share(m2.now(), m2.now())) == 0)

q = bench_quiet.quiet_trials({0: [{"cpu_pressure": 0.01, "steal": 0.0}],
                              1: [{"cpu_pressure": 0.2, "steal": None}],
                              2: []}, 0.05)
check("quiet trials: under the limit, or without a reading (%s)" % q,
      q == {0, 2})


def instance(ratios, disturbed):
    """A GB/s pair instance with one trial per ratio (peer 10 GB/s);
    the trials in @disturbed had a run at 20 % CPU pressure."""
    return {"name": "triad DRAM 2T", "memdiag_isa": "avx", "unit": "GB/s",
            "peer": {"test": "stream_avx", "kind": "likwid"},
            "by_trial": {t: {"memdiag": 10.0 * r, "peer_values": 10.0}
                         for t, r in enumerate(ratios)},
            "shares": {t: [{"cpu_pressure": 0.2 if t in disturbed else 0.0,
                            "steal": 0.0}] for t in range(len(ratios))}}


def row_of(i):
    row = {"memdiag_values": bench_table.side_values(i, "memdiag"),
           "peer_values": bench_table.side_values(i, "peer_values")}
    with redirect_stdout(io.StringIO()) as out:
        low = bench_table.table_row(i, row, 0.05)
    return low, row, out.getvalue()


# trials 0 and 4 drew a neighbour: over all five the median is 0.99
low, row, line = row_of(instance([0.5, 0.99, 1.01, 1.02, 0.4], {0, 4}))
check("the ratio is the median of the quiet trials (%s)" % row["ratio_median"],
      row["ratio_median"] == 1.01 and row["quiet_trials"] == 3)
check("3 of 5 quiet: not disturbed, not below 0.98",
      not row["disturbed"] and not low and "disturbed" not in line)
low, row, line = row_of(instance([0.5, 0.99, 0.9, 0.8, 0.4], {0, 3, 4}))
check("2 of 5 quiet: disturbed, printed so, not counted below 0.98 (%s)" %
      line.strip(),
      row["disturbed"] and not low and
      "disturbed (2 of 5 trials quiet)" in line)
low, row, line = row_of(instance([0.9, 0.95, 0.9], set()))
check("quiet and low: counted below 0.98", low and "< 0.98" in line)

# run_trials: a disturbed trial runs again, once (--retries 1), with runs
# of its own; a quiet one does not.
calls = []


def fake_side(b, i, what, md_cache, peer_cache):
    calls.append((len(calls), what, id(md_cache)))
    # the first run of the whole bench is disturbed, later ones quiet
    return 10.0, {"cpu_pressure": 0.3 if len(calls) == 1 else 0.0,
                  "steal": 0.0}


bench.one_side = fake_side
args = types.SimpleNamespace(trials=2, retries=1, max_disturbance=0.05,
                             extra_trials=0)
i = {"peer": {"kind": "likwid"}, "by_trial": {}, "errors": [], "shares": {},
     "attempts": {}}
with redirect_stdout(io.StringIO()), \
        open(os.devnull, "w") as null:
    err, sys.stderr = sys.stderr, null
    bench.all_trials(types.SimpleNamespace(args=args), [i])
    sys.stderr = err
check("the disturbed first trial ran twice, the second once (%s)" %
      i["attempts"], i["attempts"] == {0: 2, 1: 1} and len(calls) == 6)
check("the retry used runs of its own (not the trial's shared cache)",
      calls[0][2] != calls[2][2])
check("the trial keeps the retry's disturbance",
      all(bench_quiet.disturbance(s) == 0 for s in i["shares"][0]))

# all_trials: --extra-trials more trials for a pair whose median is under
# 0.98 while its interval reaches 0.98, none for one that is settled.


def ratio_side(b, i, what, md_cache, peer_cache):
    """Two calls a trial: memdiag's value makes trial t's ratio
    i["ratios"][t % len]; every run quiet."""
    t = i["calls"] // 2
    i["calls"] += 1
    r = i["ratios"][t % len(i["ratios"])]
    return (10.0 * r if what == "memdiag" else 10.0), \
        {"cpu_pressure": 0.0, "steal": 0.0}


def pair(name, ratios):
    return {"name": name, "unit": "GB/s", "ratios": ratios, "calls": 0,
            "peer": {"kind": "likwid"}, "by_trial": {}, "errors": [],
            "shares": {}, "attempts": {}}


bench.one_side = ratio_side
noisy = pair("noisy", [0.9, 1.05])		# median 0.9, interval to 1.05
low = pair("low", [0.9, 0.92])			# every trial under 0.98
even = pair("even", [1.0])
args = types.SimpleNamespace(trials=5, retries=0, max_disturbance=0.05,
                             extra_trials=6)
with redirect_stdout(io.StringIO()), open(os.devnull, "w") as null:
    err, sys.stderr = sys.stderr, null
    bench.all_trials(types.SimpleNamespace(args=args), [noisy, low, even])
    sys.stderr = err
check("an undecided pair got 6 more trials (%d in all)" %
      len(noisy["by_trial"]), sorted(noisy["by_trial"]) == list(range(11)))
check("a pair below 0.98 in all its interval got none (%d)" %
      len(low["by_trial"]), len(low["by_trial"]) == 5)
check("a pair at 1.00 got none (%d)" % len(even["by_trial"]),
      len(even["by_trial"]) == 5)

results.finish()
