#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sim-run.sh - the counters "memdiagctl run" reads around its kernels, on
# the simulated platform, inside a test VM: the simulator is told a DRAM
# bandwidth per socket and the deltas over each run must match it (within
# 3 %), over exactly the marked part; stream's volume ratio must be the
# simulated bytes over the bytes stream computes; an epoch change during a
# run invalidates it; a refused session (nobody, counters in use) leaves
# the run working with the reason. Prints TAP.
#
# On the sim the IMC counts what it is told, not what the kernel moves:
# these tests check the plumbing, not the kernels' traffic.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO, MEMDIAG_SIM_UARCH (default skx).
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

sim_start
cps=$("$ctl" -j info | jq '.sockets[0].cpus | length')
echo "# $cps CPUs on socket 0"

# Socket 0 reads 10 GB/s and writes 4, with 200-cycle loads; the others idle.
set_rates 0 10000 4000 200 1000000 500000 3000
for s in $(seq 1 $((nsock - 1))); do set_rates "$s" 0 0 0 0 0 0; done

# --delay makes each repetition last some 0.2 s under TCG, so that the
# time between the module's clock and the simulator's reads (up to
# milliseconds for the per-CPU counters, read by cross-calls) matters
# little
out=/tmp/rd.json
"$ctl" -j run read-delay --size 4M --reps 2 --min-time 0 --delay 10000 > $out 2> /tmp/rd.err
rc=$?
# stderr: at most run's warnings (4M may fit in the guest's L3)
check "run read-delay -j with the module: exit 0, nothing but warnings on stderr" \
	sh -c "[ $rc = 0 ] && ! grep -qv '^memdiagctl: run: warning: ' /tmp/rd.err || { cat /tmp/rd.err; false; }"
r=".results[0].counters"
check "read-delay: counters valid over 2 intervals, counters_reason null" jqt \
	"$r.valid == true and $r.intervals == 2 and .results[0].counters_reason == null" $out
ns=$(jqv $out "$r.interval_ns")
check_value "read-delay: socket 0 read bytes / interval = 10 GB/s" 3 $out \
	"$r.sockets[0].read_bytes / $r.interval_ns" 10
check_value "read-delay: socket 0 write bytes / interval = 4 GB/s" 3 $out \
	"$r.sockets[0].write_bytes / $r.interval_ns" 4
check_value "read-delay: socket 0 read_gbps 10" 3 $out "$r.sockets[0].read_gbps" 10
check_value "read-delay: socket 0 offcore reads $cps x 3 GB/s" 5 $out \
	"$r.sockets[0].offcore_read_bytes / $r.interval_ns" "$((cps * 3))"
check_value "read-delay: socket 0 L1 miss latency 300 cycles" 1 $out \
	"$r.sockets[0].l1_miss_latency_cycles" 300
check_value "read-delay: socket 0 load miss real latency 200 cycles" 1 $out \
	"$r.sockets[0].load_miss_real_latency_cycles" 200
if [ "$nsock" -gt 1 ]; then
	check "read-delay: idle socket 1 read and wrote 0 bytes" jqt \
		"$r.sockets[1].read_bytes == 0 and $r.sockets[1].write_bytes == 0 and $r.sockets[1].offcore_read_bytes == 0" $out
	check "read-delay: idle socket 1's latencies are null, with the reason" jqt \
		"$r.sockets[1].l1_miss_latency_cycles == null and ($r.sockets[1].null_reasons.l1_miss_latency_cycles | test(\"no load missed\"))" $out
	check "read-delay: the totals are socket 0's plus socket 1's" jqt \
		"$r.read_bytes == ([$r.sockets[].read_bytes] | add)" $out
fi
# The interval holds the span between the marks, which holds the timed
# repetitions; the difference is the latency of the snapshots (two samples
# of every counter per repetition: milliseconds under TCG). The timed part
# comes from the JSON's gbps, rounded to 4 decimals: some 1 % here.
timed=$(jqv $out "(4194304 / (.results[0].gbps_min * 1e9) + 4194304 / (.results[0].gbps_max * 1e9))")
check "read-delay: interval ($ns ns) >= the span between the marks ($(jqv $out "$r.timed_s") s) >= the timed reps ($timed s)" \
	awk -v ns="$ns" -v m="$(jqv $out "$r.timed_s")" -v t="$timed" \
	'BEGIN { exit !(ns / 1e9 >= m - 5e-5 && m + 5e-5 >= t * 0.97) }'
"$ctl" run read-delay --size 4M --reps 1 --min-time 0 --delay 1000 > /tmp/rd.txt 2>&1
check "read-delay text: the counter table, socket 0 row" grep -Eq '^4M +0 +[0-9.]+ +[0-9.]+ ' /tmp/rd.txt
check "read-delay text: says the counters are the simulator's" \
	grep -q '^counters: from the simulated platform (memdiag_sim), not hardware' /tmp/rd.txt
check "read-delay -j: platform sim" jqt '.platform == "sim"' /tmp/rd.json
check "read-delay text: the idle socket's latencies are explained" \
	grep -q "note: - in l1m_cyc, lmr_cyc: socket 1: no load missed the L1" /tmp/rd.txt

# stream: the IMC bytes over the computed ones. The sim counts 14 GB/s
# whatever stream does, so each op's ratio is 14 GB/s x its interval over
# the bytes stream computed: 524288 elements x 24 or 32 bytes (16 or 24
# read) x the sweeps per op x 2 reps; with --nt (no write-allocate read)
# 16 or 24 bytes (8 or 16 read).
# stream_check FILE REPS NT
stream_check() {
	local f=$1 reps=$2 nt=$3 i=0 op c sw per rd bytes want v tag
	tag="stream${nt:+ --nt}"
	sw=$(jqv "$f" .sweeps)
	check "$tag: sweeps ($sw) per op: 64 MiB per array over 4 MiB arrays" test "$sw" = 16
	check "$tag: \"nt\": ${nt:-false} in the head and every result" jqt \
		".nt == ${nt:-false} and all(.results[]; .nt == ${nt:-false})" "$f"
	for op in copy scale add triad; do
		c=".results[$i].counters"
		per=$((i < 2 ? 24 : 32))
		[ -n "$nt" ] && per=$((per - 8))
		rd=$((per - 8))
		bytes=$((524288 * per * sw * reps))
		check "$tag $op: traffic_bytes = 524288 x $per x $sw sweeps x $reps reps, $rd of each $per read" jqt \
			"$c.traffic_bytes == $bytes and $c.traffic_read_bytes == $((524288 * rd * sw * reps))" "$f"
		want=$(jqv "$f" "14 * $c.interval_ns / $bytes")
		check_value "$tag $op: volume_ratio = 14 GB/s x interval / traffic ($want)" 3 "$f" \
			"$c.volume_ratio" "$want"
		check "$tag $op: volume_ratio is (read + write bytes) / traffic_bytes" jqt \
			"(($c.read_bytes + $c.write_bytes) / $c.traffic_bytes - $c.volume_ratio | fabs) < 1e-4 * $c.volume_ratio" "$f"
		i=$((i + 1))
	done
	check "$tag: each op has its own interval" jqt \
		'[.results[].counters.interval_ns] | unique | length == 4' "$f"
}
out=/tmp/st.json
"$ctl" -j run stream --size 4M --reps 2 --min-time 0 > $out 2> /tmp/st.err
rc=$?
check "run stream -j with the module: exit 0, verified" \
	sh -c "[ $rc = 0 ] && [ -s $out ] && jq -e '[.results[].verified] | all' $out >/dev/null || { cat /tmp/st.err; false; }"
stream_check $out 2 ""
out=/tmp/stnt.json
"$ctl" -j run stream --size 4M --reps 1 --min-time 0 --nt > $out 2> /tmp/stnt.err
rc=$?
check "run stream --nt -j with the module: exit 0, verified" \
	sh -c "[ $rc = 0 ] && [ -s $out ] && jq -e '[.results[].verified] | all' $out >/dev/null || { cat /tmp/stnt.err; false; }"
stream_check $out 1 true
check "stream --nt: traffic_gbps = gbps (nothing read before a store)" jqt \
	'all(.results[]; .traffic_gbps == .gbps)' $out

# every kernel's results carry their own counters: loaded-latency one
# slot per delay, stencil one per variant
out=/tmp/ll.json
"$ctl" run loaded-latency --threads 2 --reps 1 --min-time 0 --delay 0,1000 -j > $out 2>/tmp/ll.err
check "loaded-latency: a valid counters object for each delay, socket 0 read > 0" jqt \
	'(.results | length) == 2 and all(.results[]; .counters.valid and .counters.read_bytes > 0 and .counters_reason == null)' $out
out=/tmp/st.json
"$ctl" run stencil --size 64K --reps 1 --min-time 0 --sweeps 2 --model-gbps 10 -j > $out 2>/tmp/st.err
check "stencil: a valid counters object for each variant, verified" jqt \
	'(.results | length) == 4 and all(.results[]; .verified and .counters.valid and .counters.read_bytes > 0)' $out
# throughput: a slot per size and mix; transpose: one per variant, each
# its own kern_run() but a phase of its own to the marks, so each slot
# holds exactly its variant's one repetition
out=/tmp/tp.json
"$ctl" run throughput --size 16K --mix load --reps 1 --min-time 0 -j > $out 2>/tmp/tp.err
check "throughput: a valid counters object, socket 0 read > 0" jqt \
	'(.results | length) == 1 and all(.results[]; .counters.valid and .counters.read_bytes > 0 and .counters.intervals == 1 and .counters_reason == null)' $out
out=/tmp/tr.json
"$ctl" run transpose --size 64K --reps 1 --min-time 0 -j > $out 2>/tmp/tr.err
check "transpose: a valid counters object for each variant, one interval each, verified" jqt \
	'(.results | length) >= 3 and all(.results[]; .verified and .counters.valid and .counters.read_bytes > 0 and .counters.intervals == 1 and .counters_reason == null)' $out
check "transpose: each variant has its own interval" jqt \
	'([.results[].counters.interval_ns] | unique | length) == (.results | length)' $out

# Another agent resets an IMC counter control while a repetition runs:
# the run goes on, its counters say the interval is invalid. A first run
# tells how long a repetition takes here, so the second lasts seconds.
t=$("$ctl" -j run read-delay --size 4M --reps 1 --min-time 0 --delay 1000 | jq '.results[0].counters.timed_s')
delay=$(awk -v t="$t" 'BEGIN { d = int(1000 * 6 / (t > 0 ? t : 0.001)); print (d > 1e9 ? 1e9 : d) }')
"$ctl" -j run read-delay --size 4M --reps 1 --min-time 0 --delay "$delay" > /tmp/reset.json 2> /tmp/reset.err &
pid=$!
sleep 1
running=$(kill -0 $pid 2>/dev/null && echo yes)
ctl0=$(awk '$1 != "msr" && ($3 == "0xd8" || $3 == "0x40") && $4 != "0x0" { print $1, $2, $3; exit }' $dbg/regs)
poke "$ctl0 0x0"
wait $pid
rc=$?
check "a reset during the run ($ctl0; delay $delay): the run was still going" \
	test "$running" = yes
check "... exit 0" test "$rc" = 0
check "... the counters are invalid: the reset socket's DRAM bytes null with the epoch change" jqt \
	'.results[0].counters as $c | $c.valid == false and $c.read_bytes == null and
	 ([$c.sockets[] | select(.valid == false) | .read_bytes == null and
	   (.null_reasons.read_bytes | test("imc-epoch changed from [0-9]+ to [0-9]+ during the run"))] == [true])' /tmp/reset.json
check "... the other sockets and the reset socket's core counters stand" jqt \
	'.results[0].counters.sockets | ([.[] | select(.valid) | .read_bytes != null] | length) == '"$((nsock - 1))"' and
	 ([.[] | select(.valid == false) | .offcore_read_bytes != null] == [true])' /tmp/reset.json

# Refused sessions: the run works and says why.
"${nobody[@]}" "$ctl" -j run read-delay --size 4M --reps 1 --min-time 0 > /tmp/nobody.json 2> /tmp/nobody.err
rc=$?
check "run as nobody: exit 0, counters null, the reason names permission and CAP_PERFMON" \
	sh -c "[ $rc = 0 ] && [ -s /tmp/nobody.json ] && jq -e '.results[0].counters == null and (.results[0].counters_reason | test(\"permission denied.*CAP_PERFMON\"))' /tmp/nobody.json"
poke "msr 1 0x186 0x43003c"
"$ctl" run read-delay --size 4M --reps 1 --min-time 0 > /tmp/busy.txt 2>&1
rc=$?
check "counters in use elsewhere: exit 0 and the text says so" \
	sh -c "[ $rc = 0 ] && grep -q '^counters: unavailable: the counters are in use by another agent: .*in use' /tmp/busy.txt"
poke "msr 1 0x186 0x0"

check "rmmod memdiag" rmmod memdiag
"$ctl" -j run read-delay --size 4M --reps 1 --min-time 0 > /tmp/nomod.json 2> /tmp/nomod.err
check "run without the module: counters null, the reason says it is not loaded" jqt \
	'.results[0].counters == null and (.results[0].counters_reason | test("the memdiag module is not loaded"))' /tmp/nomod.json
check "rmmod memdiag_sim" rmmod memdiag_sim

tap_end
