#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# storm.sh [KILLS [RMMODS [CYCLES]]] - storms against the simulated
# platform, in the 8-CPU guest of prefetch-sim.sh: clients SIGKILLed at
# random points of their sessions and prefetch changes (KILLS, default
# 20), rmmod with live clients (RMMODS, default 3), CPU hotplug cycles
# during sessions and prefetch changes (CYCLES, default 4), and two
# processes changing prefetchers at once (KILLS / 2 requests each).
# make check runs the defaults; make stress 1000 100 100 (vmtests).
#
# After each storm: every control register the sim holds is what it held
# before (a session's registers all put back) and every core's prefetch
# register holds its original after a restore (or, after rmmod, by
# itself), no request was left half applied, memdiag still answers, and
# kmemleak (where the kernel has it) finds nothing. run.sh checks dmesg.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO; STORM_KILLS, STORM_RMMODS,
# STORM_CYCLES for the counts when no arguments are given.
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh
. selftests/memdiag/prefetch-lib.sh

kills=${1:-${STORM_KILLS:-20}}
rmmods=${2:-${STORM_RMMODS:-3}}
cycles=${3:-${STORM_CYCLES:-4}}
all_off="0xf 0xf 0xf 0xf 0xf 0xf 0xf 0xf"
kml=/sys/kernel/debug/kmemleak

# the control registers but 0x1a4 (checked on its own); a register written
# back to 0 is as if never written
controls() { sim_controls | awk '$3 != "0x1a4" && $4 != "0x0"'; }

# after NAME: registers as before, memdiag answers, kmemleak clean
after() {
	local bad=
	controls > /tmp/ctl.after
	cmp -s /tmp/ctl.before /tmp/ctl.after ||
		bad="control registers differ: $(diff /tmp/ctl.before /tmp/ctl.after | grep '^[<>]' | head -4 | tr '\n' ' ')"
	if lsmod | grep -q '^memdiag '; then
		"$ctl" prefetch restore > /dev/null 2>&1 ||
			bad="$bad; prefetch restore failed"
		"$ctl" info > /dev/null 2>&1 || bad="$bad; info failed"
	fi
	[ "$(pf_values)" = "${orig[*]}" ] || bad="$bad; prefetch registers $(pf_values)"
	if [ -e $kml ]; then
		echo scan > $kml
		grep -q unreferenced $kml && bad="$bad; kmemleak: $(head -3 $kml)"
	fi
	if [ -z "$bad" ]; then ok "$1"; else not_ok "$1" "$bad"; fi
}

rand_ms() { echo "0.0$((RANDOM % 90 + 10))"; }	# 10-99 ms

pf_guest_check || { tap_end; exit 1; }
check "insmod memdiag_sim uarch=skx" insmod "$simko" uarch=skx
pf_poke_originals
check "insmod memdiag platform=sim" insmod "$ko" platform=sim
controls > /tmp/ctl.before

# --- clients killed at random points: a request is done whole or not at all
half=
for i in $(seq 1 "$kills"); do
	case $((RANDOM % 3)) in
	0) "$ctl" watch --all --interval 10ms > /dev/null 2>&1 & ;;
	1) "$ctl" prefetch disable > /dev/null 2>&1 & ;;
	2) "$ctl" prefetch restore > /dev/null 2>&1 & ;;
	esac
	pid=$!
	sleep "$(rand_ms)"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	v=$(pf_values)
	[ "$v" = "$all_off" ] || [ "$v" = "${orig[*]}" ] || half="$half kill $i: $v;"
done
if [ -z "$half" ]; then
	ok "$kills clients SIGKILLed at random points: no prefetch request half applied"
else
	not_ok "$kills clients SIGKILLed: a request half applied" "$half"
fi
after "after $kills SIGKILLed clients: registers as before, memdiag answers"

# --- two processes changing prefetchers at once
rm -f /tmp/two.err
n=$((kills / 2 > 0 ? kills / 2 : 1))
( for i in $(seq 1 $n); do
	"$ctl" prefetch disable --socket 0 > /dev/null || echo "A disable $i" >> /tmp/two.err
	"$ctl" prefetch enable --socket 0 l2-stream > /dev/null || echo "A enable $i" >> /tmp/two.err
  done ) &
a=$!
( for i in $(seq 1 $n); do
	"$ctl" prefetch disable --cpu 2-5 l1-ip > /dev/null || echo "B disable $i" >> /tmp/two.err
	"$ctl" prefetch restore --cpu 2-5 > /dev/null || echo "B restore $i" >> /tmp/two.err
  done ) &
b=$!
wait $a $b
if [ ! -s /tmp/two.err ]; then
	ok "two processes changing prefetchers at once: all $((4 * n)) requests succeed"
else
	not_ok "two processes changing prefetchers at once" "$(head -5 /tmp/two.err)"
fi
after "after two concurrent changers: every core restored"

# --- CPU hotplug cycles during sessions and prefetch changes
"$ctl" watch --all --interval 20ms > /dev/null 2>&1 &
w=$!
( for i in $(seq 1 "$cycles"); do
	"$ctl" prefetch disable --socket $((i % 2)) > /dev/null 2>&1
	"$ctl" prefetch restore > /dev/null 2>&1
  done ) &
c=$!
for i in $(seq 1 "$cycles"); do
	cpu=$((RANDOM % 7 + 1))
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	sleep "$(rand_ms)"
	echo 1 > /sys/devices/system/cpu/cpu$cpu/online
done
wait $c
kill -9 $w 2>/dev/null
wait $w 2>/dev/null
check "every CPU online again" test "$(cat /sys/devices/system/cpu/online)" = 0-7
after "after $cycles hotplug cycles during a session and changes: registers as before"

# --- rmmod with live clients
bad=
for i in $(seq 1 "$rmmods"); do
	lsmod | grep -q '^memdiag ' || insmod "$ko" platform=sim || bad="$bad insmod $i;"
	"$ctl" watch --all --interval 10ms > /dev/null 2>&1 &
	w1=$!
	"$ctl" watch --socket 1 --interval 10ms > /dev/null 2>&1 &
	w2=$!
	"$ctl" prefetch disable > /dev/null 2>&1
	sleep "$(rand_ms)"
	# a request in flight holds the module: retry, as an admin would
	for t in 1 2 3 4 5 6 7 8 9 10; do
		rmmod memdiag 2>/dev/null && break
		sleep 0.2
	done
	lsmod | grep -q '^memdiag ' && bad="$bad rmmod $i failed 10 times;"
	kill -9 $w1 $w2 2>/dev/null
	wait $w1 $w2 2>/dev/null
	[ "$(pf_values)" = "${orig[*]}" ] || bad="$bad rmmod $i left $(pf_values);"
	controls > /tmp/ctl.after
	cmp -s /tmp/ctl.before /tmp/ctl.after || bad="$bad rmmod $i left control registers;"
done
if [ -z "$bad" ]; then
	ok "rmmod with live clients, $rmmods times: every register as before"
else
	not_ok "rmmod with live clients" "$bad"
fi
after "after the rmmods: registers as before"

check "rmmod memdiag_sim" rmmod memdiag_sim
tap_end
