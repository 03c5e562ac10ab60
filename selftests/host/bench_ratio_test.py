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
import bench_readers  # noqa: E402
import bench_table  # noqa: E402
from tap import Results  # noqa: E402

results = Results()
check = results.checker()



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

# The interval of the median: order statistics, whatever the noise.
lo, hi, cov = bench_table.median_interval([1.0, 0.9, 1.1, 0.8, 1.2])
check("5 trials: the interval is the smallest and largest, 93.75 %",
      (lo, hi, cov) == (0.8, 1.2, 0.9375))
x = [0.5, 0.66, 0.84, 0.85, 0.89, 0.9, 0.9, 0.93, 0.95, 0.98, 1.05]
lo, hi, cov = bench_table.median_interval(x)
check("11 trials: the 3rd and 9th of them, 93.46 %",
      (lo, hi, cov) == (0.84, 0.95, 0.9346))
check("no trials: no interval", bench_table.median_interval([]) is None)
# read4 DRAM 2T, 13:10 UTC (above): nine of eleven trials under 0.98
check("every trial's ratio and the interval under 0.98: below",
      bench_table.standing(0.9, (0.84, 0.95, 0.93)) == "below")
# copy-nt DRAM 2T, the same run: median 0.927, trials 0.80 to 1.49
check("the median under 0.98, the interval reaching it: undecided",
      bench_table.standing(0.927, (0.894, 1.097, 0.93)) == "undecided")
check("a median at 0.98 stands at or above, whatever the interval",
      bench_table.standing(0.98, (0.5, 1.5, 0.93)) == "at or above")

# memdiag's barrier wait: the share of the row the value came from, and
# a note only for a row with waits (memdiag gives null for one
# thread) that the bar does not clear.
doc = {"isa": "avx", "results": [
    {"op": "copy", "gbps": 270.0, "verified": True,
     "thread_wait_fraction": 0.041, "parts_per_rep": 4},
    {"op": "triad", "gbps": 310.0, "verified": True,
     "thread_wait_fraction": 0.2}]}
inst = {"memdiag_isa": "avx", "reader": ("stream", "copy")}
check("the wait is the copy row's, the row the value came from",
      bench_readers.read_value(doc, inst) == 270.0 and
      bench_readers.read_thread_wait(doc, inst) == (0.041, 4))
check("a latency pair has no wait",
      bench_readers.read_thread_wait({}, {"reader": ("latency",)}) ==
      (None, None))
rows = [{"name": "copy L1 2T", "threads": 2, "standing": "undecided",
         "memdiag_thread_wait_fraction": [0.04, None, 0.13, 0.03, 0.05],
         "memdiag_parts_per_rep": [1, 2, 8, 2, 2]},
        {"name": "copy L1 1T", "threads": 1, "standing": "undecided",
         "memdiag_thread_wait_fraction": [None, None]},
        {"name": "triad L1 2T", "threads": 2, "standing": "at or above",
         "memdiag_thread_wait_fraction": [0.04]},
        {"name": "copy L2 2T", "threads": 2, "standing": "below",
         "memdiag_thread_wait_fraction": [None]}]
notes = bench_table.wait_notes(rows)
check("one note, for the undecided 2-thread row with waits: median of the "
      "trials that have one, and their range (%s)" % notes,
      len(notes) == 1 and notes[0].startswith("copy L1 2T: ") and
      "median 4.5 %" in notes[0] and "(3.0-13.0 over" in notes[0] and
      "repetitions of 1-8 calls" in notes[0])

results.finish()
