#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench.sh - "make bench": build memdiagctl and the plain pointer chase,
# then run memdiag's kernels against likwid-bench and the chase
# (scripts/bench.py; its --help lists the options). A benchmark, not a
# test: never part of "make check". BENCH_QUICK=1 for a short run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

for tool in likwid-bench python3 cc; do
	if ! command -v "$tool" >/dev/null; then
		echo "bench: $tool is missing: run 'make deps' (installs likwid, python3, gcc)" >&2
		exit 1
	fi
done
make -s -C userspace memdiagctl
mkdir -p build/bench
cc -O2 -std=gnu11 -Wall -Wextra -Werror -o build/bench/chase scripts/bench-chase.c
cc -O2 -std=gnu11 -Wall -Wextra -Werror -pthread -o build/bench/read scripts/bench-read.c
exec python3 scripts/bench.py "$@"
