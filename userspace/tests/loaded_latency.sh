#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loaded_latency.sh - "run loaded-latency" measures as calibrate does (TAP
# "ok - " lines, no module needed):
#  - its code path is calibrate's: run/loaded_latency.o calls calib_run()
#    and the binary has no chase of its own for it;
#  - on this machine, at delays 0, 200 and 20000 on socket 0, its latency
#    is within max(10 %, 3 x the larger CoV of the two points) of
#    calibrate --quick --mix read's point at the same threads and delay.
#    Two runs seconds apart on a shared host drift more than one run's
#    repeats do: up to three tries, each a fresh calibrate and run; a
#    method that differs (a 4K-page chase that is not flushed, a scaled
#    latency) fails all three. No skip for a busy host: the runs
#    themselves keep every CPU busy, so any such test would skip always.
# usage: loaded_latency.sh MEMDIAGCTL
. "$(dirname "$0")/tap.sh"

if [ "$(nproc)" -lt 2 ]; then
	skip "loaded-latency against calibrate" "one CPU: nothing to load the memory from"
	exit 0
fi

obj=$(dirname "$bin")/run/loaded_latency.o
if [ -r "$obj" ] && command -v nm > /dev/null; then
	nm -u "$obj" | grep -qw calib_run &&
	      ! nm "$bin" | grep -qw loaded_latency_run
	ok "run loaded-latency measures through calib_run(), calibrate's sweep" $?
else
	skip "run loaded-latency measures through calib_run()" "no $obj or nm"
fi

# compare: 0 when every delay of $tmp/ll.json agrees with $tmp/show.json,
# one "# " line per delay either way
compare() {
	jq -r --slurpfile cal "$tmp/show.json" '
		(.threads - 1) as $gen |
		[$cal[0].sockets[0].curves[] | select(.mix == "read") |
		 .points[] | select(.threads == $gen)] as $pts |
		.results[] | .delay as $d | .ns_per_load as $l | .cov as $lc |
		([$pts[] | select(.delay == $d)][0]) as $c |
		if $c == null then "FAIL delay \($d): calibrate has no such point"
		else
			([0.10, 3 * ([$lc, $c.cov] | max)] | max) as $tol |
			((($l - $c.latency_ns) / $c.latency_ns) | fabs) as $rel |
			"\(if $rel <= $tol then "ok" else "FAIL" end) delay \($d): loaded-latency \($l | . * 10 | round / 10) ns (cov \($lc | . * 1000 | round / 1000)), calibrate \($c.latency_ns) ns (cov \($c.cov)): \($rel * 1000 | round / 10) % apart, allowed \($tol * 1000 | round / 10) %"
		end' "$tmp/ll.json" > "$tmp/cmp" 2>&1 || return 1
	sed 's/^/# /' "$tmp/cmp"
	[ "$(grep -c '^ok ' "$tmp/cmp")" = 3 ]
}

agree=0
for try in 1 2 3; do
	"$bin" -j calibrate --quick --mix read --socket 0 --curve "$tmp/c.json" \
		> /dev/null 2> "$tmp/err" &&
	"$bin" -j calibrate --show --curve "$tmp/c.json" > "$tmp/show.json" 2>> "$tmp/err" &&
	"$bin" -j run loaded-latency --socket 0 --delay 0,200,20000 --reps 3 \
		--min-time 0 > "$tmp/ll.json" 2>> "$tmp/err" || break
	echo "# try $try"
	if compare; then
		agree=1
		break
	fi
done
[ "$agree" = 1 ]
ok "loaded-latency agrees with calibrate at delays 0, 200, 20000 (within max(10 %, 3 x CoV))" $? \
	"$(cat "$tmp/err")"
tap_end
