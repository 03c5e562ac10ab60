#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""coverage-table.py - the per-file table of Documentation/coverage.rst
from an lcov tracefile (scripts/coverage-report.sh): lines and branches
found and hit per file of module/, and the share of the lines a test on
the simulated platform can reach, that is less the functions the hw-only
list names (selftests/memdiag/coverage-hw-only: "FILE FUNCTION REASON",
FUNCTION "*" for the whole file). lcov gives each function's first line;
a function's lines run to the next function's first line in that file.
Prints reStructuredText; a hw-only function that a test did reach is
flagged, since the list is then wrong."""
import argparse
import collections
import sys

BAR = 85.0  # issue 27: each file at >= 85 % of its sim-reachable lines


def parse_info(path, prefix):
    """{file: {"fn": [(line, name)], "da": {line: hits}, "brf", "brh"}}"""
    files = {}
    cur = None
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if line.startswith("SF:"):
                name = line[3:]
                if name.startswith(prefix):
                    name = name[len(prefix):]
                cur = files.setdefault(name, {"fn": [], "da": {},
                                              "brf": 0, "brh": 0})
            elif cur is None:
                continue
            elif line.startswith("FN:"):
                no, fname = line[3:].split(",", 1)
                cur["fn"].append((int(no), fname))
            elif line.startswith("DA:"):
                no, hits = line[3:].split(",")[:2]
                cur["da"][int(no)] = cur["da"].get(int(no), 0) + int(hits)
            elif line.startswith("BRDA:"):
                taken = line.split(",")[3]
                cur["brf"] += 1
                cur["brh"] += taken not in ("-", "0")
            elif line == "end_of_record":
                cur = None
    return files


def parse_hw_only(path):
    """{file: {function: reason}}; function "*" is the whole file"""
    hw = collections.defaultdict(dict)
    with open(path) as f:
        for raw in f:
            if not raw.strip() or raw.startswith("#"):
                continue
            fname, func, reason = raw.rstrip("\n").split(None, 2)
            hw[fname][func] = reason
    return hw


def function_lines(fns, da):
    """{function: [lines]}: each DA line goes to the last function that
    starts at or before it"""
    starts = sorted(fns)
    out = collections.defaultdict(list)
    for no in da:
        owner = None
        for start, name in starts:
            if start > no:
                break
            owner = name
        if owner is not None:
            out[owner].append(no)
    return out


def pct(hit, found):
    return "%.1f" % (100.0 * hit / found) if found else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("info")
    ap.add_argument("--hw-only", required=True)
    ap.add_argument("--prefix", default="")
    ap.add_argument("--boots", default="?")
    a = ap.parse_args()
    files = parse_info(a.info, a.prefix)
    hw = parse_hw_only(a.hw_only)
    rows, notes, below = [], [], []
    tot = collections.Counter()
    for name in sorted(files):
        r = files[name]
        da = r["da"]
        owners = function_lines(r["fn"], da)
        excluded = set()
        for func, reason in hw.get(name, {}).items():
            lines = list(da) if func == "*" else owners.get(func)
            if lines is None:
                notes.append("%s: %s is on the hw-only list but not in "
                             "the file" % (name, func))
                continue
            ran = [no for no in lines if da[no]]
            if ran:
                notes.append("%s: %s is on the hw-only list, yet a test "
                             "ran %d of its lines" % (name, func, len(ran)))
            excluded.update(lines)
        lf = len(da)
        lh = sum(1 for h in da.values() if h)
        reach = [no for no in da if no not in excluded]
        rh = sum(1 for no in reach if da[no])
        share = pct(rh, len(reach))
        if reach and 100.0 * rh / len(reach) < BAR:
            below.append(name)
        rows.append((name, "%d/%d" % (lh, lf), pct(lh, lf),
                     "%d/%d" % (r["brh"], r["brf"]), pct(r["brh"], r["brf"]),
                     str(len(excluded)), "%d/%d" % (rh, len(reach)), share))
        tot.update(lh=lh, lf=lf, bh=r["brh"], bf=r["brf"],
                   hw=len(excluded), rh=rh, rf=len(reach))
    rows.append(("**all**", "%d/%d" % (tot["lh"], tot["lf"]),
                 pct(tot["lh"], tot["lf"]),
                 "%d/%d" % (tot["bh"], tot["bf"]), pct(tot["bh"], tot["bf"]),
                 str(tot["hw"]), "%d/%d" % (tot["rh"], tot["rf"]),
                 pct(tot["rh"], tot["rf"])))
    head = ("file", "lines hit", "%", "branches hit", "%", "hw-only lines",
            "sim-reachable hit", "%")
    widths = [max(len(x[i]) for x in rows + [head]) for i in range(len(head))]
    rule = "  ".join("=" * w for w in widths)
    print("Coverage of module/ over %s boot(s)" % a.boots)
    print()
    print(rule)
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
    print(rule)
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
    print(rule)
    print()
    print("Under %.0f %% of the sim-reachable lines: %s" %
          (BAR, ", ".join(below) if below else "none"))
    for n in notes:
        print("warning: " + n, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
