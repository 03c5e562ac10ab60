#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
op_rows_test.py - every request of the netlink spec has its privilege
rule twice over, and nothing else has one (TAP): a row of op_need[] in
module/genl.c (the check the kernel runs) and a row of the privilege
matrix in Documentation/memdiag.rst (what privilege-sim.sh tests), named
as the spec names it; the spec's events are covered by the matrix's
"joining ``monitor``" row instead.

Usage: selftests/host/op_rows_test.py [TOP]
"""

import os
import re
import sys

import yaml


def spec_ops(top):
    """(requests, events) of the YNL spec, by name."""
    path = os.path.join(top, "Documentation/netlink/specs/memdiag.yaml")
    with open(path, encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    reqs, events = [], []
    for op in spec["operations"]["list"]:
        (reqs if "do" in op or "dump" in op else events).append(op["name"])
    return reqs, events


def op_need_rows(top):
    """The MEMDIAG_CMD_* names of op_need[]'s rows in module/genl.c."""
    with open(os.path.join(top, "module/genl.c"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"\} op_need\[\] = \{(.*?)\n\};", text, re.S)
    if not m:
        return None
    return re.findall(r"\[MEMDIAG_CMD_([A-Z0-9_]+)\]\s*=", m.group(1))


def matrix_rows(top):
    """The first cell of each row of memdiag.rst's privilege matrix."""
    path = os.path.join(top, "Documentation/memdiag.rst")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"\.\. privilege-matrix-begin(.*?)\.\. privilege-matrix-end",
                  text, re.S)
    if not m:
        return None
    return re.findall(r"^   \* - (.+)$", m.group(1), re.M)[1:]


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
    reqs, events = spec_ops(top)
    need = op_need_rows(top)
    matrix = matrix_rows(top)
    results = []

    def result(ok, what, detail=""):
        results.append((ok, what, detail))

    result(need is not None, "module/genl.c has op_need[]")
    result(matrix is not None, "memdiag.rst has the privilege matrix")
    need = need or []
    matrix = matrix or []
    want_need = [r.upper().replace("-", "_") for r in reqs]
    want_matrix = ["``%s``" % r for r in reqs]
    result(sorted(need) == sorted(want_need),
           "op_need[] has a row for each request of the spec (%s), and only those"
           % ", ".join(reqs),
           "spec: %s; op_need: %s" % (sorted(want_need), sorted(need)))
    rows = [r for r in matrix if not r.startswith("joining ")]
    result(sorted(rows) == sorted(want_matrix),
           "the privilege matrix has a row for each request, and only those",
           "spec: %s; matrix: %s" % (sorted(want_matrix), sorted(rows)))
    joins = [r for r in matrix if r.startswith("joining ")]
    result(not events or joins,
           "the spec's events (%s) have the matrix's row for joining their group"
           % ", ".join(events), "matrix: %s" % matrix)
    print("1..%d" % len(results))
    failed = 0
    for i, (ok, what, detail) in enumerate(results, 1):
        print("%sok %d - %s" % ("" if ok else "not ", i, what))
        if not ok:
            failed += 1
            print("#   " + detail)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
