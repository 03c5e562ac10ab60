#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# probe_accuracy.sh - scripts/probe-accuracy.sh in a tiny mode on this
# machine's memory (TAP): the table and the JSON have a
# row per level, the no-load level injects nothing and the delay-0 level
# injects what the generator counted (> 0), the labels add up to the
# samples; bad arguments exit 2; a failed run leaves no JSON behind.
# usage: probe_accuracy.sh MEMDIAGCTL
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/probe-accuracy.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../selftests/tap.sh"
if [ "$(nproc)" -lt 2 ]; then
	skip "probe accuracy" "one CPU: nothing to load the memory from"
	exit 0
fi
export MEMDIAGCTL=$bin
"$bin" calibrate --quick --mix read --curve "$tmp/c.json" > /dev/null 2>&1
"$script" --curve "$tmp/c.json" --delays none,0 --samples 3 --interval 0.05 \
	--json "$tmp/a.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
ok "probe-accuracy.sh --delays none,0 runs (exit $rc)" $rc "$(cat "$tmp/err")"
grep -q "^delay .*injected .*est_med .*labels" "$tmp/out" &&
	grep -q "^none " "$tmp/out" && grep -q "^0 " "$tmp/out"
ok "the table has its columns and a row per level" $? "$(cat "$tmp/out")"
jq -e '(.levels | length) == 2 and .levels[0].injected_gbps == 0 and
	.levels[1].injected_gbps > 0.5 and
	all(.levels[]; ([.labels[]] | add) == .samples and .samples == 3) and
	.summary.idle_samples == 3' "$tmp/a.json" > /dev/null 2>&1
ok "JSON: nothing injected without load, the generator's count at delay 0, labels add up" $? "$(cat "$tmp/a.json")"
"$script" --samples x > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q "samples needs a number" "$tmp/err"
ok "--samples x: exit 2 naming the option" $? "$(cat "$tmp/err")"
"$script" --curve "$tmp/none.json" --json "$tmp/b.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" = 1 ] && [ ! -e "$tmp/b.json" ] && [ ! -e "$tmp/b.json.tmp" ]
ok "a missing curve: exit 1, no JSON left behind" $? "$(cat "$tmp/err")"
tap_end
