#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# coverage.sh - "make coverage": line and branch coverage of module/ under
# the VM tests. Builds (once) the coverage kernel (scripts/debug-kernel.sh
# coverage: the check-debug config plus gcov and KCOV), memdiag.ko and
# memdiag_sim.ko against it with GCOV_PROFILE=y, runs the VM tests that
# boot a stock kernel (what make check-debug runs; MEMDIAG_TEST= selects
# fewer) with each guest's counters copied out before it powers off, and
# merges them with lcov (scripts/coverage-report.sh): the per-file table
# goes to stdout and build/coverage/table.rst, the HTML report to
# build/coverage/html/. Exit status: the tests', or 1 if no report came out.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
out=build/coverage
# counters of an earlier run would be merged into this one's
rm -rf "$out/gcda" "$out/html" "$out"/*.info "$out/table.rst"
t0=$(date +%s)
MEMDIAG_KERNELS=coverage MEMDIAG_VM_ONLY=1 scripts/test.sh && rc=0 || rc=$?
scripts/coverage-report.sh "$out" || rc=1
echo "coverage: $(( $(date +%s) - t0 )) s (kernel, module and the VM boots)"
exit "$rc"
