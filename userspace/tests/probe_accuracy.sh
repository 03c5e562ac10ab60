#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# probe_accuracy.sh - scripts/probe-accuracy.sh in a tiny mode on this
# machine's memory (TAP "ok - " lines): the table and the JSON have a
# row per level, the no-load level injects nothing and the delay-0 level
# injects what the generator counted (> 0), the labels add up to the
# samples; bad arguments exit 2; a failed run leaves no JSON behind.
# usage: probe_accuracy.sh MEMDIAGCTL
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/probe-accuracy.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
ok() { # cond name [diagnostics file]
	if [ "$1" = 1 ]; then
		echo "ok - $2"
	else
		failed=$((failed + 1))
		echo "not ok - $2"
		[ -n "${3:-}" ] && sed 's/^/#   /' "$3"
	fi
}
if [ "$(nproc)" -lt 2 ]; then
	echo "ok - probe accuracy # SKIP one CPU: nothing to load the memory from"
	exit 0
fi
export MEMDIAGCTL=$bin
"$bin" calibrate --quick --mix read --curve "$tmp/c.json" > /dev/null 2>&1
"$script" --curve "$tmp/c.json" --delays none,0 --samples 3 --interval 0.05 \
	--json "$tmp/a.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
ok $((rc == 0)) "probe-accuracy.sh --delays none,0 runs (exit $rc)" "$tmp/err"
r=0
grep -q "^delay .*injected .*est_med .*labels" "$tmp/out" &&
	grep -q "^none " "$tmp/out" && grep -q "^0 " "$tmp/out" && r=1
ok $r "the table has its columns and a row per level" "$tmp/out"
r=0
jq -e '(.levels | length) == 2 and .levels[0].injected_gbps == 0 and
	.levels[1].injected_gbps > 0.5 and
	all(.levels[]; ([.labels[]] | add) == .samples and .samples == 3) and
	.summary.idle_samples == 3' "$tmp/a.json" > /dev/null 2>&1 && r=1
ok $r "JSON: nothing injected without load, the generator's count at delay 0, labels add up" "$tmp/a.json"
"$script" --samples x > "$tmp/out" 2> "$tmp/err"
rc=$?
r=0
[ "$rc" = 2 ] && grep -q "samples needs a number" "$tmp/err" && r=1
ok $r "--samples x: exit 2 naming the option" "$tmp/err"
"$script" --curve "$tmp/none.json" --json "$tmp/b.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
r=0
[ "$rc" = 1 ] && [ ! -e "$tmp/b.json" ] && [ ! -e "$tmp/b.json.tmp" ] && r=1
ok $r "a missing curve: exit 1, no JSON left behind" "$tmp/err"
[ "$failed" = 0 ]
