#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench_ratio_test.py - make bench's pair ratio (scripts/bench.py,
pair_ratio): the median of each trial's own ratio, memdiag and peer of
the same trial, a trial with one side missing left out. TAP on stdout,
exit 1 on any failure."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import bench_table  # noqa: E402

checks = []


def check(name, ok):
    checks.append((name, ok))


def trials(md, pe):
    return {t: {"memdiag": m, "peer_values": p}
            for t, (m, p) in enumerate(zip(md, pe))}


# Two speeds per process on both sides (triad-nt L1 1T, Intel VM, 24
# November 2026): the medians are 71.73 against 76.63 (0.936), but three
# of five trials drew the same speed on both sides.
md = [71.12, 71.73, 71.02, 77.07, 77.39]
pe = [70.72, 77.04, 71.54, 78.20, 76.63]
r, each = bench_table.pair_ratio(trials(md, pe), False)
check("pairs each trial's two sides (bimodal: 0.986 to 1.006, not 0.936)",
      r is not None and abs(r - 71.02 / 71.54) < 1e-9)
check("one ratio per trial, in trial order",
      each == [round(m / p, 4) for m, p in zip(md, pe)])

# A trial where the peer failed: its memdiag value must not be paired
# with the next trial's peer value.
by = {0: {"memdiag": 100.0, "peer_values": 100.0},
      1: {"memdiag": 50.0},
      2: {"memdiag": 100.0, "peer_values": 100.0}}
r, each = bench_table.pair_ratio(by, False)
check("a trial with one side missing is left out", r == 1.0 and each == [1.0, 1.0])

# Latency: lower is better, the ratio is peer / memdiag.
r, _ = bench_table.pair_ratio(trials([200.0, 210.0, 190.0], [210.0, 210.0, 190.0]),
                        True)
check("ns: peer / memdiag", r == 1.0)
r, _ = bench_table.pair_ratio(trials([200.0], [210.0]), True)
check("ns: a faster memdiag is above 1", abs(r - 1.05) < 1e-9)

r, each = bench_table.pair_ratio({}, False)
check("no trial with both sides: no ratio", r is None and each == [])

print("1..%d" % len(checks))
for n, (name, ok) in enumerate(checks, 1):
    print("%sok %d - %s" % ("" if ok else "not ", n, name))
sys.exit(0 if all(ok for _, ok in checks) else 1)
