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
#
# MEMDIAG_COVERAGE_ADD=1 (make coverage ADD=1) keeps the counters of the
# last run and its module build, and adds the boots of the rows selected
# (a row run again replaces its earlier boot): one report over rows run at
# different times. gcc stamps its notes with the build's time and gcov
# refuses counters of another build, so the module's sources must be
# those of that build; the tests may have changed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
out=build/coverage
if [ -n "${MEMDIAG_COVERAGE_ADD:-}" ]; then
	if [ ! -f "$out/memdiag.ko" ] || [ ! -f "$out/memdiag_sim.ko" ]; then
		echo "coverage: ADD=1: no earlier build in $out: run make coverage without it first" >&2
		exit 1
	fi
	changed=$(find Kbuild module include -name Kbuild -o -name '*.[ch]' |
		while IFS= read -r f; do cmp -s "$f" "$out/src/$f" || printf '%s ' "$f"; done)
	if [ -n "$changed" ]; then
		echo "coverage: ADD=1: changed since the last build, whose counters these would join: $changed" >&2
		exit 1
	fi
	export MEMDIAG_COVERAGE_REUSE=1
	rm -rf "$out/html" "$out"/*.info "$out/table.rst"
else
	# counters of an earlier run would be merged into this one's
	rm -rf "$out/gcda" "$out/html" "$out"/*.info "$out/table.rst"
fi
t0=$(date +%s)
MEMDIAG_SUITE=full MEMDIAG_KERNELS=coverage MEMDIAG_VM_ONLY=1 scripts/test.sh && rc=0 || rc=$?
scripts/coverage-report.sh "$out" || rc=1
echo "coverage: $(( $(date +%s) - t0 )) s (kernel, module and the VM boots)"
exit "$rc"
