#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cost.sh [SECONDS] - what "memdiagctl export" costs, in a test VM on the
# simulated platform (a measurement for Documentation/fleet.rst, not a
# test): the exporter's CPU time at a 1 s interval, the whole guest's
# non-idle CPU time with and without it (the difference is the exporter
# plus the module's sampler), and one snapshot against reading the same
# core counters through /dev/cpu/*/msr (selftests/fleet/snapcost.bin).
#
#   selftests/vm/run.sh --kernel KVER --env MEMDIAG_KO=build/KVER/memdiag.ko \
#	--env MEMDIAG_SIM_KO=build/KVER/memdiag_sim.ko -- selftests/fleet/cost.sh
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-30}
ctl=userspace/memdiagctl
hz=$(getconf CLK_TCK)

insmod "${MEMDIAG_SIM_KO:?}" uarch=skx
insmod "${MEMDIAG_KO:?}" platform=sim
modprobe msr
ip link set lo up

busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }

b0=$(busy); sleep "$secs"; b1=$(busy)
idle_busy=$((b1 - b0))

"$ctl" export --interval 1s 2>/dev/null &
pid=$!
sleep 3
read -r -a st < /proc/$pid/stat
e0=$((st[13] + st[14])); b0=$(busy)
sleep "$secs"
read -r -a st < /proc/$pid/stat
e1=$((st[13] + st[14])); b1=$(busy)
kill $pid; wait $pid || true

awk -v s="$secs" -v hz="$hz" -v e="$((e1 - e0))" -v on="$((b1 - b0))" \
	-v off="$idle_busy" -v cpus="$(nproc)" 'BEGIN {
	printf "{\"seconds\": %d, \"cpus\": %d, \"exporter_cpu_pct\": %.3f, ", s, cpus, 100 * e / hz / s
	printf "\"guest_busy_pct_without\": %.3f, \"guest_busy_pct_with\": %.3f}\n",
		100 * off / hz / s, 100 * on / hz / s }'
selftests/fleet/snapcost.bin 100
rmmod memdiag
rmmod memdiag_sim
