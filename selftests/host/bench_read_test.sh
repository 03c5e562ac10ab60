#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench_read_test.sh - scripts/bench-read.c, the plain multi-stream reader
# make bench and scale-check compare read-delay and calibrate with: it
# builds, it reads every line it counts (its sum check passes: a loop that
# skipped a line would exit 1), it reports the bytes it was given at every
# stream and thread count, it counts fixed work unless told --fixed-time,
# and it refuses bad arguments. TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/selftests/tap.sh"

cc -O2 -std=gnu11 -Wall -Wextra -Werror -pthread -o "$tmp/read" \
	"$top/scripts/bench-read.c"
ok "bench-read builds with -Wall -Wextra -Werror" $?
cpus=$(python3 -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0))[:2])))')
nt=$(echo "$cpus" | tr ',' '\n' | wc -l)
# SIZE STREAMS: every thread's share, whole lines of every stream
for case in "1048576 1" "1048576 4" "3000000 3" "2097152 8"; do
	set -- $case
	out=$("$tmp/read" --streams "$2" --seconds 0.05 --cpus "$cpus" "$1")
	rc=$?
	want=$(( $1 / nt / 64 / $2 * 64 * $2 * nt ))
	echo "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
ok = (d['verified'] is True and d['size_bytes'] == $want and
      d['streams'] == $2 and d['threads'] == $nt and d['gbps'] > 0 and
      d['seconds'] > 0)
sys.exit(0 if ok and $rc == 0 else 1)" 2>/dev/null
	ok "$2 streams, $nt threads, $1 bytes: every line read and summed, $want bytes counted ($out)" $?
done
# fixed work (the default): every thread the same sweeps, so the bytes
# are sweeps x size; --fixed-time: each thread its own --seconds
out=$("$tmp/read" --streams 4 --seconds 0.05 --cpus "$cpus" 1048576)
echo "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
moved = d['gbps'] * d['seconds'] * 1e9
sys.exit(0 if d['counting'] == 'fixed_work' and d['sweeps'] >= 1 and
         abs(moved - d['sweeps'] * d['size_bytes']) < 1e-4 * moved else 1)" 2>/dev/null
ok "fixed work by default: every thread sweeps the same count, bytes = sweeps x size ($out)" $?
out=$("$tmp/read" --fixed-time --streams 4 --seconds 0.05 --cpus "$cpus" 1048576)
echo "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if d['counting'] == 'fixed_time' and d['seconds'] >= 0.05 and
         d['verified'] is True else 1)" 2>/dev/null
ok "--fixed-time: each thread reads for its --seconds ($out)" $?
for bad in "--streams 0 1M" "--streams 17 1M" "--cpus 0,x 1M" "--seconds 0 1M" "1X" "--streams 4 128"; do
	# shellcheck disable=SC2086
	"$tmp/read" $bad > /dev/null 2>&1
	[ $? = 2 ]
	ok "refuses '$bad' with exit 2" $?
done
tap_end
