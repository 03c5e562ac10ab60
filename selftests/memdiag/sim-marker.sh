#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sim-marker.sh - libmemdiag-marker and "memdiagctl stat --marker" on the
# simulated platform, inside a test VM: the simulator is told a DRAM
# bandwidth and a load latency on socket 0, so every region's bytes over
# its counted time must be that rate (within 1 %, 2 % for the outer
# region), a counted time that holds the time the library measured
# around its calls; two threads nest regions
# in one process (examples/marker_demo); the regions print as JSON, text
# and CSV; without the module or without a session the calls and times
# are still reported, with the reason there are no counts. Prints TAP.
#
# On the sim the IMC counts what it is told, not what the program moves:
# this checks the library's snapshots, sums and hand-over, not a
# workload's traffic.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO, MEMDIAG_SIM_UARCH (default skx).
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

demo=examples/marker_demo
if [ ! -x $demo ]; then
	not_ok "$demo is built (make -C userspace)"
	tap_end
	exit 1
fi
sim_start

# Socket 0 reads 10 GB/s and writes 4, with 200-cycle loads; the others idle.
set_rates 0 10000 4000 200 1000000 500000 3000
for s in $(seq 1 $((nsock - 1))); do set_rates "$s" 0 0 0 0 0 0; done

out=/tmp/marker.json
# 2 threads x 3 calls of "outer" { "sleep" 500 ms }
"$ctl" -j stat --marker -o $out -- $demo -t 2 -n 3 -m 500 -x 0 > /tmp/marker.out 2> /tmp/marker.err
rc=$?
check "stat --marker -j -o FILE -- marker_demo: exit 0, nothing on stdout or stderr" \
	sh -c "[ $rc = 0 ] && [ ! -s /tmp/marker.out ] && [ ! -s /tmp/marker.err ] || { cat /tmp/marker.err; false; }"
check "two regions, outer and sleep, 6 calls each, every call counted" jqt \
	'[.regions[] | [.name, .calls, .counted_calls]] == [["outer", 6, 6], ["sleep", 6, 6]]' $out
check "the command's own counts are there too" jqt '.counters.valid and .counters_reason == null' $out
# outer's ends are snapshots right next to sleep's: under TCG a sample
# takes milliseconds, so its rate is held to 2 %
for reg in sleep outer; do
	r=".regions[] | select(.name == \"$reg\")"
	pct=1
	[ $reg = outer ] && pct=2
	check "$reg: valid counters over its 6 calls" jqt \
		"$r | .counters.valid and .counters.intervals == 6 and .counters_reason == null" $out
	check_value "$reg: socket 0 read bytes / counted time = 10 GB/s" $pct $out \
		"$r | .counters.sockets[0].read_bytes / .counters.interval_s / 1e9" 10
	check_value "$reg: socket 0 read_gbps 10" $pct $out "$r | .counters.sockets[0].read_gbps" 10
	check_value "$reg: socket 0 write bytes / counted time = 4 GB/s" $pct $out \
		"$r | .counters.sockets[0].write_bytes / .counters.interval_s / 1e9" 4
	# the snapshots bracket the calls: the counted time holds the
	# library's, plus at most 100 ms per call of snapshot round trips
	v=$(jqv $out "$r | [.time_s, .counters.interval_s] | @tsv")
	check "$reg: the library's time <= the counted time <= it + 0.6 s (got $v)" \
		awk -v t="${v%%$'\t'*}" -v c="${v##*$'\t'}" 'BEGIN { exit !(t > 0 && t <= c && c <= t + 0.6) }'
	check_value "$reg: load miss real latency 200 cycles" 1 $out \
		"$r | .counters.sockets[0].load_miss_real_latency_cycles" 200
	if [ "$nsock" -gt 1 ]; then
		check "$reg: idle socket 1 read 0 bytes" jqt \
			"$r | .counters.sockets[1].read_bytes == 0" $out
	fi
done
v=$(jqv $out '.regions[] | select(.name == "sleep") | .time_s')
check "sleep: 6 calls of 500 ms: time_s 3 to 4 (got $v)" \
	awk -v v="$v" 'BEGIN { exit !(v >= 3 && v <= 4) }'
check "outer holds sleep: more bytes" jqt \
	'(.regions | map({(.name): .counters.sockets[0].read_bytes}) | add) as $b | $b.outer > $b.sleep' $out

"$ctl" stat --marker -- $demo -n 2 -m 100 -x 0 > /tmp/marker.txt 2>&1
check "text: the regions' calls and time, and their counter rows" sh -c \
	"grep -Eq '^sleep +2 +0\.[0-9]+' /tmp/marker.txt &&
	 grep -Eq '^sleep +0 +[0-9.]+ +[0-9.]+ ' /tmp/marker.txt &&
	 grep -q 'counts are socket-wide' /tmp/marker.txt || { cat /tmp/marker.txt; false; }"

"$ctl" stat --marker --csv -o /tmp/marker.csv -- $demo -n 2 -m 100 -x 0
check "--csv: the command's table, an empty line, then a header and one row per region" sh -c \
	"awk 'NF == 0 { e = NR } END { exit !e }' /tmp/marker.csv &&
	 grep -q '^name,calls,time_s,counted_calls,counters.interval_ns,' /tmp/marker.csv &&
	 grep -Eq '^outer,2,' /tmp/marker.csv && grep -Eq '^sleep,2,' /tmp/marker.csv"

# the library alone: no stat, so no session (nothing counts), but a file
rm -f /tmp/alone.json
MEMDIAG_MARKER_FILE=/tmp/alone.json $demo -n 1 -m 10 -x 0 2> /tmp/alone.err
check "without stat's session: calls and time, counters_reason names the session" jqt \
	'.regions[0].calls == 1 and (.counters_reason | test("session"))' /tmp/alone.json
check "the demo says why there are no counters" grep -q "no counters: .*session" /tmp/alone.err

check "rmmod memdiag" rmmod memdiag
"$ctl" -j stat --marker -o /tmp/nomod.json -- $demo -n 2 -m 10 -x 0 2> /dev/null
rc=$?
check "stat --marker without the module: exit 0, regions with calls, counters null: not loaded" \
	sh -c "[ $rc = 0 ] && jq -e '[.regions[].calls] == [2, 2] and all(.regions[]; .counters == null and (.counters_reason | test(\"not loaded\")))' /tmp/nomod.json"
check "rmmod memdiag_sim" rmmod memdiag_sim

tap_end
