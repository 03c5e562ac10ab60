#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scale_curve_test.sh - scale-check's P4 compares run loaded-latency with
# calibrate at the same load: curve_at (scripts/scale-curve.sh) reads the
# read curve's latency at a bandwidth. On a canned curve: between two
# points, below the first (from idle), past the peak (nothing), a point
# past the peak whose bandwidth fell back (not part of the branch), and
# another generator count's points left out. TAP; exit 1 on a failure.
set -u
cd "$(dirname "$0")/../.." || exit 1
. scripts/scale-curve.sh

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# 1 generator: 2 GB/s at 110 ns, 6 at 130, 10 at 170, then a noisy point
# whose bandwidth fell back to 8 (delay 20, 250 ns) and the peak 12 at
# 260; 3 generators' points would give other values
cat > "$tmp" <<'JSON'
{"sockets": [{"curves": [
 {"read_fraction": 0.5, "points": [
  {"threads": 1, "delay": 1000, "bandwidth_gbps": 2, "latency_ns": 900}]},
 {"read_fraction": 1, "points": [
  {"threads": 1, "delay": 1000, "bandwidth_gbps": 2, "latency_ns": 110},
  {"threads": 1, "delay": 20, "bandwidth_gbps": 8, "latency_ns": 250},
  {"threads": 1, "delay": 0, "bandwidth_gbps": 12, "latency_ns": 260},
  {"threads": 1, "delay": 200, "bandwidth_gbps": 6, "latency_ns": 130},
  {"threads": 1, "delay": 50, "bandwidth_gbps": 10, "latency_ns": 170},
  {"threads": 3, "delay": 200, "bandwidth_gbps": 4, "latency_ns": 500}]}]}]}
JSON

n=0
fail=0
is() { # NAME GOT WANT
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1: got '$2', want '$3'"
		fail=1
	fi
}
at() { curve_at "$tmp" 1 100 "$1" | awk '{ printf "%.2f", $1 }'; }

is "between 2 and 6 GB/s: 110 + 20 x 2/4" "$(at 4)" 120.00
is "on a point: 6 GB/s is 130" "$(at 6)" 130.00
is "below the first point: from idle 100 at 0 GB/s" "$(at 1)" 105.00
is "between 6 and the peak 10: 130 + 40 x 3/4" "$(at 9)" 160.00
is "8 GB/s is on the branch (150), not the fallen-back point (250)" "$(at 8)" 150.00
is "11 GB/s: between 10 and 12, the fallen-back point skipped" "$(at 11)" 215.00
is "past the peak: nothing" "$(at 12.5)" ""
is "3 generators: their own points, from idle" \
	"$(curve_at "$tmp" 3 100 2 | awk '{ printf "%.2f", $1 }')" 300.00
is "no idle given: nothing below the first point" \
	"$(curve_at "$tmp" 1 "" 1)" ""
echo "1..$n"
exit $fail
