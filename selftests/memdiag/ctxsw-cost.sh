#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ctxsw-cost.sh - what the core estimate adds to a context switch, on the
# simulated platform inside a test VM (scripts/bench-ctxsw.sh boots it; a
# benchmark, not a test). Two processes in two cgroups pass a byte back
# and forth on one CPU, so that every switch changes cgroup, with no
# session and then with a session that asked for groups, in turns.
# Prints one "trial N off NS on NS" line per trial (NS: a round trip, two
# switches), then "same-cgroup off NS on NS" for both in one cgroup.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO, CTXSW_TRIALS (5), CTXSW_LOOPS
# (20000).
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

bin=selftests/memdiag/genl_groups
cg=/tmp/ctxsw-cg2
trials=${CTXSW_TRIALS:-5}
loops=${CTXSW_LOOPS:-20000}
cleanup() {
	[ -n "${G_PID:-}" ] && kill "$G_PID" 2>/dev/null
	echo $$ > "$cg/cgroup.procs" 2>/dev/null
	rmdir "$cg/md-p" "$cg/md-q" 2>/dev/null
	mountpoint -q "$cg" && umount "$cg"
	sim_cleanup
}
trap cleanup EXIT

sim_start > /dev/null
mkdir -p "$cg"
mount -t cgroup2 none "$cg" || { echo "cannot mount cgroup2"; exit 1; }
mkdir "$cg/md-p" "$cg/md-q"
echo $$ > "$cg/md-p/cgroup.procs"

# run [PROCS]: one round trip's ns, both ends on CPU 1
run() { taskset -c 1 "$bin" pingpong "$loops" "$@"; }
# with_groups COMMAND...: COMMAND while a session counts groups
with_groups() {
	local started
	coproc G { "$bin"; }
	read -r started <&"${G[0]}"
	[ "$started" = started ] || { echo "no groups session: $started" >&2; return 1; }
	"$@"
	exec {G[1]}>&-
	wait "$G_PID"
	G_PID=
}
for ((i = 1; i <= trials; i++)); do
	off=$(run "$cg/md-q/cgroup.procs")
	on=$(with_groups run "$cg/md-q/cgroup.procs")
	echo "trial $i off $off on $on"
done
off=$(run)
on=$(with_groups run)
echo "same-cgroup off $off on $on"
