#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups-sim.sh - the core estimate (DRAM bytes per cgroup, group-get) on
# the simulated platform, inside a test VM. The simulator is told each
# CPU's DRAM-fill rate; loads in their own cgroups spin pinned to those
# CPUs. A socket's cgroups must add up to its CPU's rate times the
# window, within 2 %, with a cgroup's share of a CPU its share of the
# scheduler's CPU time: two cgroups switching on one CPU told 3 GB/s, one
# alone told 1 GB/s; and a task moved between cgroups while it runs is
# charged the rate times its time in each, within 2 %, as is one that
# migrates between CPUs of unequal rates on two sockets.
# memdiagctl stat -- CMD reads the same estimate for CMD's own cgroup,
# the exporter for its per-group counters, watch --group for a subtree.
# Also: the do form (one cgroup; ENOENT for one that never ran), and a
# new session after the last one ended. Prints TAP.
#
# Needs at least 4 CPUs (CPU 0 is left to this script); a sim uarch with
# an offcore DRAM event (skx default).
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO, MEMDIAG_SIM_UARCH.
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

bin=selftests/memdiag/genl_groups
cg=/tmp/groups-cg2
pids=()

cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	[ -n "${G_PID:-}" ] && kill "$G_PID" 2>/dev/null
	for d in "$cg"/md-*; do [ -d "$d" ] && rmdir "$d"; done
	[ -d "$cg/kubepods.slice" ] &&
		find "$cg/kubepods.slice" -depth -type d -exec rmdir {} +
	mountpoint -q "$cg" && umount "$cg"
	sim_cleanup
}
trap cleanup EXIT

if [ "$(nproc)" -lt 4 ]; then
	skip "the core estimate per cgroup" "$(nproc) CPUs, the test pins loads to CPUs 1 to 3"
	tap_end
	exit 0
fi
sim_start
for ((s = 0; s < nsock; s++)); do set_rates "$s" 0 0 0 0 0 0; done

mkdir -p "$cg"
check "cgroup2 mounted on $cg" mount -t cgroup2 none "$cg"

taskset -pc 0 $$ > /dev/null
coproc G { "$bin"; }
read -r -t 30 started <&"${G[0]}"
check "a session with groups=1 starts (got: $started)" test "$started" = started

# run_in NAME CPU: a load that spins without a pause in cgroup md-NAME,
# pinned to CPU; its pid in $load. Not in $(...): the load would hold
# its pipe open.
run_in() {
	mkdir -p "$cg/md-$1"
	sh -c "echo \$\$ > $cg/md-$1/cgroup.procs && exec taskset -c $2 $bin burn 10 0 /dev/null" > /dev/null &
	load=$!
	pids+=("$load")
}
cgid() { stat -c %i "$cg/md-$1"; }
# usage NAME: the cgroup's cpu.stat usage_usec (the scheduler's CPU time),
# read without a fork
usage() {
	local k v
	while read -r k v; do
		[ "$k" = usage_usec ] && { echo "$v"; return; }
	done < "$cg/md-$1/cpu.stat"
}

# dump FILE: group-get's "socket cgroup_id bytes" lines into FILE, and in
# $at the moment of its reading: the mean of the times around it (also
# in $t0 for /tmp/groups.0, where a window starts)
dump() {
	local l t=${EPOCHREALTIME/./} first=
	: > "$1"
	echo dump >&"${G[1]}"
	while read -r -t 60 l <&"${G[0]}"; do
		# the tool prints once the dump is in, so the first line
		# bounds the read; the time this loop takes does not
		[ -n "$first" ] || first=${EPOCHREALTIME/./}
		if [ "$l" = . ]; then
			at=$(( (t + first) / 2 ))
			[ "$1" = /tmp/groups.0 ] && t0=$at
			return 0
		fi
		echo "$l" >> "$1"
	done
	return 1
}
# bytes FILE NAME: the cgroup's bytes over every socket
bytes() { awk -v id="$(cgid "$2")" '$2 == id { b += $3 } END { printf "%.0f\n", b }' "$1"; }
# sock_delta S: every cgroup's bytes on socket S over the window
sock_delta() {
	awk -v s="$1" 'FNR == NR { if ($1 == s) b0 += $3; next } $1 == s { b1 += $3 }
		END { printf "%.0f\n", b1 - b0 }' /tmp/groups.0 /tmp/groups.1
}
delta() { echo $(( $(bytes /tmp/groups.1 "$1") - $(bytes /tmp/groups.0 "$1") )); }
# check_rate NAME MBPS BYTES US: BYTES over US microseconds = MBPS
check_rate() {
	local r
	r=$(awk -v b="$3" -v t="$4" 'BEGIN { if (t > 0) printf "%.1f", b / t; else print "none" }')
	check "$1 = $2 MB/s within 2% (got $r MB/s: $3 B over $4 us)" \
		within 2 "$r" "$2"
}

# The loads spin without a pause, each alone on its CPU but for kernel
# threads, so a CPU's time is its cgroup's. CPU 1, told 3 GB/s, runs two
# cgroups' loads, a and x, which the scheduler switches between; CPU 2,
# told 1 GB/s, cgroup b's. The reference is the wall time (bash's
# EPOCHREALTIME, no fork), the clock the simulator counts by. This script
# and the tool stay on CPU 0.
taskset -pc 0 $$ > /dev/null
# Only CPU 1 counts on socket 0 and only CPU 2 on socket 1 (the sockets'
# own rates are 0), so all a socket's cgroups must add up to that CPU's
# rate times the window: nothing lost, nothing counted twice. Of that,
# the loads' cgroups get what kernel threads leave them (PREEMPT_RT's
# interrupt threads among them).
echo 3000 > $dbg/cpu1/offcore_read_mbps
echo 1000 > $dbg/cpu2/offcore_read_mbps
run_in a 1
run_in x 1
run_in b 2
sleep 1
ua0=$(usage a) ux0=$(usage x)
if dump /tmp/groups.0 && sleep 5 && dump /tmp/groups.1; then
	ua=$(( $(usage a) - ua0 )) ux=$(( $(usage x) - ux0 ))
	w=$((at - t0))
	echo "# window $w us; a $(delta a) B, x $(delta x) B; cpu.stat a $ua us, x $ux us"
	check_rate "socket 0, CPU 1 alone counting: every cgroup's bytes / the window" \
		3000 "$(sock_delta 0)" "$w"
	check "two cgroups switching on CPU 1: a and x got at least 90 % of it" \
		awk -v l="$(( $(delta a) + $(delta x) ))" -v t="$(sock_delta 0)" \
		'BEGIN { printf "%.4f\n", l / t; exit !(l >= 0.9 * t && l <= t) }' 
	# a ratio of two times of one CPU's clock: whatever that clock's
	# rate in the guest, it cancels
	check "a's share of CPU 1's bytes is its share of the CPU time the scheduler gave a and x, within 2 points" \
		awk -v a="$(delta a)" -v x="$(delta x)" -v ua="$ua" -v ux="$ux" \
		'BEGIN { d = a / (a + x) - ua / (ua + ux); printf "bytes %.4f, time %.4f\n", a / (a + x), ua / (ua + ux); exit !(d < 0.02 && d > -0.02) }'

	check_rate "socket 1, CPU 2 alone counting: every cgroup's bytes / the window" \
		1000 "$(sock_delta 1)" "$w"
	check "a cgroup alone on CPU 2: b got at least 90 % of it" \
		awk -v l="$(delta b)" -v t="$(sock_delta 1)" \
		'BEGIN { printf "%.4f\n", l / t; exit !(l >= 0.9 * t && l <= t) }' 
else
	not_ok "group-get dumps answered"
fi
# memdiagctl top reads the same estimate (its own groups session): its
# rows are the cgroups, sourced core_estimate, and add up with "other" to
# the groups' total; a and x on CPU 1 are its 3 GB/s (within 3 %: top
# times its intervals from user space, a TCG guest's jitter included).
"$ctl" -j top --by cgroup --interval 2 --count 2 > /tmp/top.json 2> /tmp/top.err
check "top --by cgroup -j: exit 0, two intervals of both sockets" \
	sh -c "[ \$(wc -l < /tmp/top.json) = 4 ] || { cat /tmp/top.err; false; }"
last0='[inputs] | map(select(.socket == 0)) | last'
check "top: every row's source is core_estimate, and rows + other = the groups' bytes" \
	jq -n -e "$last0 | (.groups | length > 0) and all(.groups[]; .source == \"core_estimate\") and
		(([.groups[].bytes] | add) + .other_bytes == .groups_bytes)" /tmp/top.json
ax=$(jq -n "$last0 | ([.groups[] | select(.group | test(\"md-[ax]\$\")) | .bytes] | add) / .interval_s / 1e6" /tmp/top.json)
check "top: md-a + md-x on CPU 1 = 3000 MB/s within 3% (got $ax)" within 3 "$ax" 3000
# and its text table keeps the group names in one column, the longer
# source name included
"$ctl" top --by cgroup --interval 1 --count 1 > /tmp/top.txt 2> /tmp/top.err
check "top text: every core_estimate row's group starts in the header's group column" \
	awk '/GB\/s +share +source/ { col = index($0, "group"); next }
		/core_estimate/ && col && !/ other \(/ { n++; if (index($0, $NF) != col) bad++ }
		END { print n " rows, " bad + 0 " misaligned"; exit !(n > 0 && !bad) }' /tmp/top.txt
for p in "${pids[@]}"; do kill "$p"; done
# not a bare wait: the tool's coprocess runs on
wait "${pids[@]}" 2>/dev/null
pids=()

# memdiagctl stat -- CMD without resctrl: CMD runs in a cgroup of its own
# below stat's, and its own bytes are the module's core estimate of it.
# A load spins 4 s pinned to CPU 1 (told 3 GB/s, nothing else runs there
# now). Its time on CPU 1 lies between the time it spun (its own clock)
# and stat's elapsed time (fork to exit, which adds the start of taskset
# and the exec), so its socket-0 bytes / 3000 MB/s must too, within 2 %
# each side. A killed stat's leftover cgroup beside it is swept, and none
# is left after.
mkdir -p "$cg/memdiag-stat-4000000"	# above any pid_max: never alive
"$ctl" -j stat -o /tmp/stat.json -- taskset -c 1 "$bin" burn 1000 0 /tmp/busy 4 2> /tmp/stat.err
rc=$?
own=$(jq -r '[.own.sockets[] | select(.socket == 0) | .bytes] | add // 0' /tmp/stat.json 2> /dev/null)
el=$(jq -r '.elapsed_s // 0' /tmp/stat.json 2> /dev/null)
echo "# stat: own $(jq -c .own /tmp/stat.json 2> /dev/null); busy $(cat /tmp/busy) ns, elapsed $el s"
check "stat -- CMD: exit 0, own bytes sourced core_estimate (got $(jq -r .own.source /tmp/stat.json 2> /dev/null))" \
	sh -c "[ $rc = 0 ] && [ \"\$(jq -r .own.source /tmp/stat.json)\" = core_estimate ] || { cat /tmp/stat.err; false; }"
check "stat -- CMD: own bytes on socket 0 / 3000 MB/s lie between the time CMD spun and stat's elapsed time, within 2 %" \
	awk -v b="${own:-0}" -v busy="$(cat /tmp/busy)" -v el="$el" \
	'BEGIN { t = b / 3000e6; printf "%.4f s on CPU 1 by the bytes; spun %.4f s, elapsed %.4f s\n", t, busy / 1e9, el;
		exit !(t >= 0.98 * busy / 1e9 && t <= 1.02 * el) }'
# without the right to make a cgroup (CAP_PERFMON only: the module's
# counters, not the cgroup tree), CMD still runs, own says why, and
# nothing is made
"${nobody[@]}" --inh-caps=+perfmon --ambient-caps=+perfmon "$ctl" -j stat -- true > /dev/null 2> /tmp/stat-np.json
rc=$?
check "stat -- CMD with CAP_PERFMON only: exit 0, no own bytes, why said, no cgroup made (exit $rc)" \
	sh -c "[ $rc = 0 ] && jq -e '.own.reason | test(\"cannot make the command.s cgroup.*Permission denied.*as root\")' /tmp/stat-np.json > /dev/null &&
		! ls -d $cg/memdiag-stat-* 2> /dev/null | grep -q . || { cat /tmp/stat-np.json; false; }"
check "stat -- CMD: its cgroup and a killed stat's are removed" \
	sh -c "! ls -d $cg/memdiag-stat-* 2> /dev/null | grep -q ."

# The exporter without resctrl: memdiag_group_dram_bytes_total from the
# core estimate, source="core_estimate". It starts before cgroup e and a
# pod's container cgroup exist, so their counters count from 0. A load
# spins in each (CPUs 1 and 2), then both stop: the last value the
# exporter wrote for e (it shows a group while it moves bytes, the
# interval of the load's end included) must be the module's own count
# of e (group-get); the pod's uid is in memdiag_group_info; a socket has
# at most K + 2 series (--top 3).
pod=$cg/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod0c1f2e3d_4b5a_6978_8a9b_0c1d2e3f4a5b.slice
ctr=$pod/cri-containerd-$(printf 'ab%.0s' $(seq 32)).scope
prom=/tmp/prom/memdiag.prom
mkdir -p /tmp/prom
"$ctl" export --textfile /tmp/prom --interval 1s --top 3 > /tmp/export.log 2>&1 &
xp=$!
pids+=("$xp")
sleep 2.5
mkdir -p "$ctr"
run_in e 1
sh -c "echo \$\$ > $ctr/cgroup.procs && exec taskset -c 2 $bin burn 10 0 /dev/null" > /dev/null &
podload=$!
sleep 0.5
# watch --group reads the same estimate beside each socket's row: cgroup
# e alone on CPU 1 gets at least 90 % of its 3 GB/s (kernel threads,
# PREEMPT_RT's interrupt threads among them, take the rest) and no more
# than 3 % above it, in the mean of socket 0's rows: a row's seconds are
# timed from user space, and a TCG guest delivers the read's cross-call
# to a spinning vCPU up to ~100 ms late, which the next row gives back
"$ctl" -j watch --all --group /md-e --interval 2s --count 3 > /tmp/watch.json 2> /tmp/watch.err
wrow=$(jq -c -s '[.[] | select(.socket == 0)] | {group_gbps: ([.[].group_gbps] | add / length), rows: [.[].group_gbps], group_source: .[0].group_source}' /tmp/watch.json 2> /dev/null)
wg=$(echo "$wrow" | jq -r '.group_gbps // 0' 2> /dev/null)
sleep 0.5
cp "$prom" /tmp/prom.during 2> /dev/null
kill "$load" "$podload"
wait "$load" "$podload" 2> /dev/null
# e_value: the socket-0 value of e's series in $prom, if it is shown
e_value() {
	awk '/^memdiag_group_dram_bytes_total\{/ && /socket="0"/ && /md-e"/ &&
		/source="core_estimate"/ { print $NF }' "$prom" 2> /dev/null
}
last=
for i in $(seq 25); do
	v=$(e_value)
	[ -n "$v" ] && last=$v
	sleep 0.2
done
dump /tmp/groups.e
mod=$(awk -v id="$(cgid e)" '$1 == 0 && $2 == id { print $3 }' /tmp/groups.e)
echo "# export: e's last counter ${last:-none}, the module's count of e ${mod:-none}"
check "export: group series for e and the pod, source=\"core_estimate\"" \
	sh -c "grep -q 'md-e\".*source=\"core_estimate\"' /tmp/prom.during &&
		grep -q 'group=\"pod:0c1f2e3d-4b5a-6978-8a9b-0c1d2e3f4a5b\".*source=\"core_estimate\"' /tmp/prom.during ||
		{ cat /tmp/export.log /tmp/prom.during; false; }"
check "export: e's last counter is the module's count of e (got ${last:-none} and ${mod:-none})" \
	test -n "$last" -a "${last%.*}" = "${mod:-x}"
check "export: memdiag_group_info gives the pod's uid" \
	grep -q '^memdiag_group_info{.*pod_uid="0c1f2e3d-4b5a-6978-8a9b-0c1d2e3f4a5b"' /tmp/prom.during
check "export: at most K + 2 = 5 group series per socket" \
	awk '/^memdiag_group_dram_bytes_total\{/ { match($0, /socket="[0-9]+"/); n[substr($0, RSTART, RLENGTH)]++ }
		END { for (s in n) { print s, n[s]; if (n[s] > 5) bad = 1 } exit bad }' /tmp/prom.during
check "watch --group /md-e: core_estimate, 90 % to 103 % of CPU 1's 3 GB/s in the mean of 3 rows (got ${wrow:-nothing})" \
	sh -c "[ \"\$(echo '$wrow' | jq -r .group_source)\" = core_estimate ] &&
		awk -v g='${wg:-0}' 'BEGIN { exit !(g >= 2.7 && g <= 3.09) }' || { cat /tmp/watch.err; false; }"
kill "$xp"
wait "$xp" 2> /dev/null

# On CPU 3, told 2 GB/s, a task moves from cgroup c to d while it runs,
# and each is charged for its own part: at the move the module makes
# every CPU charge what it counted and look again at whose task runs
# (cgroup_attach_task). The other loads are stopped first: a TCG guest
# delivers that cross-call late when every vCPU spins.
echo 2000 > $dbg/cpu3/offcore_read_mbps
run_in c 3
mkdir -p "$cg/md-d"
sleep 1
if dump /tmp/groups.0; then
	sleep 6
	m0=${EPOCHREALTIME/./}
	echo "$load" > "$cg/md-d/cgroup.procs"
	m1=${EPOCHREALTIME/./}
	tmove=$(( (m0 + m1) / 2 ))
	sleep 6
	dump /tmp/groups.1
	echo "# the move took $((m1 - m0)) us"
	check_rate "a task moved from cgroup c to d mid-run: c's bytes / its time in c" \
		2000 "$(delta c)" $((tmove - t0))
	check_rate "a task moved from cgroup c to d mid-run: d's bytes / its time in d" \
		2000 "$(delta d)" $((at - tmove))
else
	not_ok "group-get dumps answered"
fi

# A task of cgroup f migrates from CPU 1 (3 GB/s, socket 0) to CPU 2
# (1 GB/s, socket 1) while it runs: each socket charges f its CPU's rate
# times f's time there, within 2 %, the two rates unequal so that bytes
# charged to the wrong CPU's rate or socket show.
kill "$load"
wait "$load" 2> /dev/null
rm -f /tmp/moves
export BURN_MOVES=/tmp/moves
run_in f 1
unset BURN_MOVES
sleep 1
# sbytes FILE NAME S: the cgroup's bytes on socket S
sbytes() { awk -v id="$(cgid "$2")" -v s="$3" '$1 == s && $2 == id { b += $3 } END { printf "%.0f\n", b }' "$1"; }
if dump /tmp/groups.0; then
	sleep 5
	taskset -pc 2 "$load" > /dev/null
	sleep 5
	dump /tmp/groups.1
	# when the load first ran on CPU 2, by its own note
	tmig=$(awk '$2 == 2 { print $1; exit }' /tmp/moves)
	echo "# f's CPUs: $(tr '\n' ' ' < /tmp/moves)"
	check_rate "a task of f migrated from CPU 1 to CPU 2: f's socket-0 bytes / its time on CPU 1" \
		3000 $(( $(sbytes /tmp/groups.1 f 0) - $(sbytes /tmp/groups.0 f 0) )) $((tmig - t0))
	check_rate "a task of f migrated from CPU 1 to CPU 2: f's socket-1 bytes / its time on CPU 2" \
		1000 $(( $(sbytes /tmp/groups.1 f 1) - $(sbytes /tmp/groups.0 f 1) )) $((at - tmig))
else
	not_ok "group-get dumps answered"
fi
kill "$load"
wait "$load" 2> /dev/null

# The do form answers one cgroup; an unknown one is ENOENT.
echo "get 0 $(cgid a)" >&"${G[1]}"
read -r -t 30 l <&"${G[0]}"
check "group-get do: socket 0, cgroup a, its bytes (got: $l)" \
	awk -v l="$l" -v id="$(cgid a)" 'BEGIN { split(l, f, " "); exit !(f[1] == 0 && f[2] == id && f[3] > 0) }'
echo "get 0 1234567890123" >&"${G[1]}"
read -r -t 30 l <&"${G[0]}"
check "group-get do of a cgroup that never ran: ENOENT (got: $l)" \
	test "${l%% *} ${l#* }" != "" -a "${l%% *}" = error -a "$(echo "$l" | cut -d' ' -f2)" = 2

# validate --groups without MBM: the core estimate against the memory
# controllers, its read loop pinned on the CPU validate runs on (CPU 0,
# as this script) in a cgroup of its own, with the prefetchers off (where
# it is judged) and on (its gap shown). Told the same 2 GB/s for socket
# 0's reads and CPU 0's fills it must pass; told 1 GB/s of fills, fail.
set_rates 0 2000 0 0 0 0 0
echo 2000 > $dbg/cpu0/offcore_read_mbps
"$ctl" -j validate --groups > /tmp/vg.json 2> /tmp/vg.err
rc=$?
echo "# validate --groups: exit $rc, $(jq -c '[.runs[] | {prefetch, diff_percent, pass}]' /tmp/vg.json 2> /dev/null)"
check "validate --groups, fills = reads: exit 0, prefetchers off judged PASS, on shown (exit $rc)" \
	sh -c "[ $rc = 0 ] && jq -e '.source == \"core_estimate\" and .runs[0].prefetch == \"off\" and .runs[0].pass == true and
		.runs[1].prefetch == \"on\" and .runs[1].pass == null' /tmp/vg.json > /dev/null || { cat /tmp/vg.err; false; }"
echo 1000 > $dbg/cpu0/offcore_read_mbps
"$ctl" -j validate --groups > /tmp/vg.json 2> /tmp/vg.err
rc=$?
echo "# validate --groups: exit $rc, $(jq -c '[.runs[] | {prefetch, diff_percent, pass}]' /tmp/vg.json 2> /dev/null)"
check "validate --groups, fills half the reads: exit 8, FAIL said (exit $rc)" \
	sh -c "[ $rc = 8 ] && jq -e '.runs[0].pass == false' /tmp/vg.json > /dev/null && grep -q FAIL /tmp/vg.err"
echo 0 > $dbg/cpu0/offcore_read_mbps
set_rates 0 0 0 0 0 0 0

# The session ends with its socket: the accounting stops.
exec {G[1]}>&-
wait "$G_PID" 2>/dev/null
G_PID=
out=$(echo dump | "$bin" 2>&1 | head -1)
check "after the groups session ended, a new one starts afresh (got: $out)" test "$out" = started
tap_end
