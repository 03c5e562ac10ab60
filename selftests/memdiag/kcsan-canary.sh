#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kcsan-canary.sh - the positive control of make check-kcsan
# (Documentation/races.rst): two writers, pinned to CPUs 0 and 1, race
# on memdiag_sim's planted word (module/sim/kcsan_canary.c) until KCSAN
# reports the race in mdsim_canary_rmw(), for at most
# KCSAN_CANARY_SECONDS (default 300). Passes only when the dmesg holds
# that report, and no such report came before the writers started. Says
# how long one write of KCSAN_CANARY_RMW read-modify-writes (default
# 10^6) takes alone and how long the first report took. Prints TAP.
#
# MEMDIAG_KCSAN=1 (its row in vmtests) says the kernel has KCSAN, so a
# kernel without it fails; without MEMDIAG_KCSAN that is a skip.
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

ko=${MEMDIAG_SIM_KO:?MEMDIAG_SIM_KO must name memdiag_sim.ko}
rmw=${KCSAN_CANARY_RMW:-1000000}
limit=${KCSAN_CANARY_SECONDS:-300}
canary=$dbg/kcsan_canary
kcsan=/sys/kernel/debug/kcsan
title='BUG: KCSAN: data-race in mdsim_canary_rmw'
# both sides seen (the two names, no offsets), or the writer unseen
# (one name with its offset), in memdiag_sim: the canary's race alone
title_ere="$title( \\[memdiag_sim\\] / mdsim_canary_rmw|\\+0x[0-9a-f]+/0x[0-9a-f]+) \\[memdiag_sim\\]\$"

writers=()
cleanup() {
	local p
	for p in "${writers[@]}"; do kill "$p" 2> /dev/null; done
	wait 2> /dev/null
	grep -q '^memdiag_sim ' /proc/modules && rmmod memdiag_sim
}
trap cleanup EXIT

now_us() { echo "${EPOCHREALTIME/./}"; }

if [ ! -r $kcsan ]; then
	if [ "${MEMDIAG_KCSAN:-}" = 1 ]; then
		not_ok "KCSAN is in this kernel" "no $kcsan"
	else
		skip "KCSAN reports the planted race" "this kernel has no KCSAN"
	fi
	tap_end
	exit
fi
check "KCSAN is enabled" grep -qx 'enabled: 1' $kcsan
if ! taskset -c 1 true 2> /dev/null; then
	not_ok "the guest has CPUs 0 and 1 for the two writers" "$(nproc) CPU(s)"
	tap_end
	exit
fi
n=$(dmesg | grep -cF "$title")
check "no canary report before the writers start ($n)" test "$n" = 0
if ! out=$(insmod "$ko" 2>&1); then
	not_ok "insmod memdiag_sim" "$out"
	tap_end
	exit
fi
ok "insmod memdiag_sim"

# alone: no other writer, so no race to see; how long a write takes
t0=$(now_us)
check "one write of $rmw read-modify-writes alone" sh -c "echo $rmw > $canary"
echo "# one write alone: $((($(now_us) - t0) / 1000)) ms"

# the kernel's clock times the report from this mark
mark="memdiag kcsan-canary: the writers start on CPUs 0 and 1"
echo "$mark" > /dev/kmsg
for cpu in 0 1; do
	# shellcheck disable=SC2016 # the inner shell expands its arguments
	taskset -c $cpu bash -c 'n=0
		while echo "$1" > "$2"; do n=$((n + 1)); echo $n > "$3"; done' \
		_ "$rmw" "$canary" /tmp/kcsan-canary.$cpu &
	writers+=($!)
done
t0=$(now_us)
found=
while [ $(($(now_us) - t0)) -lt $((limit * 1000000)) ]; do
	dmesg | grep -qF "$title" && { found=1; break; }
	sleep 0.5
done
secs=$(awk -v us=$(($(now_us) - t0)) 'BEGIN { printf "%.1f", us / 1e6 }')
alive=0
for p in "${writers[@]}"; do kill -0 "$p" 2> /dev/null && alive=$((alive + 1)); done
for p in "${writers[@]}"; do kill "$p" 2> /dev/null; done
wait 2> /dev/null
writers=()
writes="$(cat /tmp/kcsan-canary.0 2> /dev/null || echo 0) and $(cat /tmp/kcsan-canary.1 2> /dev/null || echo 0)"
echo "# writes completed by CPU 0 and CPU 1 in ${secs} s: $writes"
check "both writers still wrote when they were stopped" test $alive = 2
if [ -n "$found" ]; then
	# dmesg's "[seconds]" stamps: the mark's, then the first report's
	first=$(dmesg | awk -v m="$mark" -v t="$title" '
		{ s = $0; sub(/^\[ */, "", s); s += 0 }
		index($0, m) { start = s }
		start != "" && index($0, t) { printf "%.2f", s - start; exit }')
	echo "# first report ${first:-?} s after the writers started (kernel clock; seen after $secs s)"
	bad=$(dmesg | grep -F "$title" | grep -vE "$title_ere" || true)
	no_problems "KCSAN reports the planted race in mdsim_canary_rmw and nothing else with it" "$bad"
	dmesg | awk -v t="$title" 'index($0, t) { on = 1 } on { print; if (/Reported by/ || ++n == 30) exit }' |
		sed 's/^/#   /'
else
	not_ok "KCSAN reports the planted race in mdsim_canary_rmw" \
		"no '$title' in the dmesg after $limit s"
fi
check "rmmod memdiag_sim" rmmod memdiag_sim
tap_end
