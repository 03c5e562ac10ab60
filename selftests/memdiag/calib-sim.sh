#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# calib-sim.sh - calibrate with memdiag.ko on the simulated platform, in a
# 4-CPU guest of two sockets (CPUs 0-1 and 2-3):
#  - the x axis from the memory controllers (bandwidth_source "imc"): the
#    sim counts what it is told, so every point must read the told 10 GB/s
#    read and 4 GB/s write, whatever the generator does;
#  - --prefetch on,off: curves for both states, every prefetcher of socket
#    0 switched and the originals put back afterwards, socket 1 untouched;
#  - SIGINT in the middle: calibrate dies of it, stores nothing, and the
#    prefetchers are back;
#  - the fingerprint records the prefetcher state calibrate found, so that
#    watch finds a curve taken without --prefetch ("unchanged");
#  - validate: on, then off on every socket by default, the state in each
#    row, the originals back after it and after SIGINT; unchanged touches
#    nothing; refused (nobody) with exit 3.
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO.
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh

ko=${MEMDIAG_KO:?}
simko=${MEMDIAG_SIM_KO:?}
# originals no step writes, so that "restored" cannot be "zeroed"
orig=(0x8 0x4 0x2 0x1)

pf() { reg msr "$1" 0x1a4; }
# pf_off CPU CPU: both CPUs' prefetchers are off (0xf)
pf_off() { [ "$(pf "$1")$(pf "$2")" = 0xf0xf ]; }
originals() {
	local cpu bad=
	for cpu in 0 1 2 3; do
		[ "$(pf $cpu)" = "${orig[$cpu]}" ] || bad="$bad cpu$cpu=$(pf $cpu)"
	done
	no_problems "$1" "$bad"
}

rmmod memdiag 2> /dev/null
rmmod memdiag_sim 2> /dev/null
check "insmod memdiag_sim uarch=skx" insmod "$simko" uarch=skx
for cpu in 0 1 2 3; do
	poke "msr $cpu 0x1a4 ${orig[$cpu]}"
done
check "insmod memdiag platform=sim" insmod "$ko" platform=sim
set_rates 0 10000 4000 200 1000000 500000 3000

c=/tmp/calib-sim.json
check "calibrate --quick --mix read --prefetch on,off --socket 0: exit 0" \
	"$ctl" calibrate --quick --mix read --prefetch on,off --socket 0 --curve $c
check "the file says bandwidth_source imc" jqt '.bandwidth_source == "imc"' $c
check "one curve with prefetchers on, one off" jqt \
	'[.sockets[0].curves[].prefetch] == ["on", "off"]' $c
check "every point reads the told 14 GB/s, 10 of them reads, within 3 %" jqt \
	'all(.sockets[0].curves[].points[];
	     (.bandwidth_gbps - 14 | fabs) <= 0.42 and (.read_gbps - 10 | fabs) <= 0.3)' $c
originals "after the run: the prefetchers' originals are back, socket 1 untouched"
check "the fingerprint records the state found: partly off on every CPU, mixed" \
	jqt '.fingerprint.prefetch == "mixed"' $c

# as from a terminal: a script's background job would ignore SIGINT
env --default-signal=INT "$ctl" calibrate --mix read --prefetch off \
	--socket 0 --curve /tmp/int.json > /tmp/int.out 2>&1 &
pid=$!
wait_for 600 pf_off 0 1
check "while calibrating with --prefetch off: socket 0's prefetchers off" \
	test "$(pf 0)$(pf 1)$(pf 2)" = "0xf0xf${orig[2]}"
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: calibrate dies of it (status 130)" test "$rc" = 130
check "SIGINT: nothing stored" test ! -e /tmp/int.json
originals "SIGINT: the prefetchers' originals are back"
grep -q 'interrupted' /tmp/int.out && ok "SIGINT: says it was interrupted" ||
	not_ok "SIGINT: says it was interrupted" "$(cat /tmp/int.out)"


# validate checks with the prefetchers of every socket on, then off, by
# default (root, prefetcher control), and puts the originals back; the
# sim counts what it is told, so the checks themselves may FAIL (exit 8).
"$ctl" -j validate --size 4M --reps 1 > /tmp/v.json 2> /tmp/v.err
rc=$?
if { [ $rc = 0 ] || [ $rc = 8 ]; } && jqt '[.checks[].prefetch] ==
	[range(12) | "on"] + [range(12) | "off"]' /tmp/v.json > /dev/null; then
	ok "validate: every check with prefetchers on, then off, the state in each row (exit $rc)"
else
	not_ok "validate: every check with prefetchers on, then off, the state in each row" \
		"exit $rc" "$(cat /tmp/v.json /tmp/v.err)"
fi
originals "validate: the prefetchers' originals are back on both sockets"
"$ctl" validate --prefetch unchanged --size 4M --reps 1 > /tmp/v.txt 2>&1
check "validate --prefetch unchanged: the rows say so (text), nothing switched" \
	sh -c "grep -q '^prefetch  *op' /tmp/v.txt && [ \$(grep -c '^unchanged ' /tmp/v.txt) = 12 ]"
originals "validate --prefetch unchanged: the registers untouched"
expect_rc "validate --prefetch sideways: exit 1 naming the option" 1 \
	"option '--prefetch': unknown 'sideways'" "$ctl" validate --prefetch sideways
expect_rc "validate --prefetch off as nobody: exit 3, says why" 3 \
	"needs CAP_" "${nobody[@]}" "$ctl" validate --prefetch off
originals "validate refused: the registers untouched"

env --default-signal=INT "$ctl" validate --prefetch off --size 32M --reps 100 \
	> /tmp/vint.out 2>&1 &
pid=$!
wait_for 600 pf_off 0 3
check "while validating with --prefetch off: every socket's prefetchers off" \
	test "$(pf 0)$(pf 1)$(pf 2)$(pf 3)" = "0xf0xf0xf0xf"
kill -INT $pid
wait $pid
rc=$?
check "validate, SIGINT: dies of it (status 130), says it was interrupted" \
	sh -c "[ $rc = 130 ] && grep -q 'interrupted' /tmp/vint.out"
originals "validate, SIGINT: the prefetchers' originals are back"

# Without --prefetch the curve is "unchanged": it describes the live state,
# which the fingerprint records, so watch finds it with every prefetcher
# on (memdiag reports "on" there, not "unchanged").
for cpu in 0 1 2 3; do
	poke "msr $cpu 0x1a4 0x0"
done
u=/tmp/calib-unchanged.json
check "calibrate --quick --mix read --socket 0, prefetchers as they are: exit 0" \
	"$ctl" calibrate --quick --mix read --socket 0 --curve $u
check "its curve is unchanged, the fingerprint says on" jqt \
	'[.sockets[0].curves[].prefetch] == ["unchanged"] and .fingerprint.prefetch == "on"' $u
"$ctl" -j watch --socket 0 --interval 300ms --count 1 --curve $u > /tmp/wu.json 2> /tmp/wu.err
check "watch finds that curve for prefetchers on: a verdict, no reason" \
	jqt '.verdict != null and .verdict_reason == null' /tmp/wu.json
for cpu in 0 1 2 3; do
	poke "msr $cpu 0x1a4 ${orig[$cpu]}"
done

check "rmmod memdiag" rmmod memdiag
check "rmmod memdiag_sim" rmmod memdiag_sim
tap_end
