#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# top.sh - "memdiagctl top" from outside (TAP "ok - " lines), over fake
# /proc and /sys trees (MEMDIAG_TEST_HOST_ROOT): on a host without resctrl it
# says so in one line and exits 7; over a resctrl tree whose counters a
# background "kernel" moves at known rates, each pod's bytes are its own,
# the rows and 'other' add up to every control group's bytes, root makes
# memdiag groups under each thread's control group and removes them at
# exit, a killed run's groups are swept by the next, and nobody writes
# nothing.
# usage: top.sh MEMDIAGCTL
. "$(dirname "$0")/tap.sh"

# A host with no resctrl in its mount table.
mkdir -p "$tmp/bare/proc/self"
echo "25 1 0:22 / /sys rw - sysfs sysfs rw" > "$tmp/bare/proc/self/mountinfo"
MEMDIAG_TEST_HOST_ROOT=$tmp/bare "$bin" top --count 1 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 7 ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
	grep -q "no per-group numbers on this host: resctrl is not mounted" "$tmp/err" &&
	grep -q "top shows each pod's GB/s" "$tmp/err"
ok "top: no resctrl: exit 7 and one line saying why and what it would show (exit $rc)" $? "$(cat "$tmp/err")"

# The fake host: two L3 domains on two sockets, cgroup2 with two pods and
# a service, one thread each (tids 101, 102, 103).
R=$tmp/host
RC=$R/sys/fs/resctrl
CG=$R/sys/fs/cgroup
POD_A=kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1111aaaa_2222_3333_4444_555566667777.slice
POD_B=kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod9999bbbb_2222_3333_4444_555566667777.slice
mkdir -p "$R/proc/self" "$RC/info/L3_MON" "$RC/mon_groups" "$CG/$POD_A" \
	"$CG/$POD_B" "$CG/system.slice/cron.service"
cat > "$R/proc/self/mountinfo" <<MI
30 25 0:26 / /sys/fs/resctrl rw,relatime - resctrl resctrl rw
31 25 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw
MI
printf 'llc_occupancy\nmbm_total_bytes\nmbm_local_bytes\n' > "$RC/info/L3_MON/mon_features"
echo 224 > "$RC/info/L3_MON/num_rmids"
printf '101\n102\n103\n' > "$RC/tasks"
for d in 0 1; do
	c=$R/sys/devices/system/cpu/cpu$d
	mkdir -p "$c/cache/index3" "$c/topology" "$RC/mon_data/mon_L3_0$d"
	echo 3 > "$c/cache/index3/level"
	echo $d > "$c/cache/index3/id"
	echo $d > "$c/topology/physical_package_id"
	echo 0 > "$RC/mon_data/mon_L3_0$d/mbm_total_bytes"
done
echo 101 > "$CG/$POD_A/cgroup.threads"
echo 102 > "$CG/$POD_B/cgroup.threads"
echo 103 > "$CG/system.slice/cron.service/cgroup.threads"
: > "$CG/cgroup.threads"
for t in 101 102 103; do mkdir -p "$R/proc/$t"; done

# The "kernel": every 50 ms each memdiag group's counters grow by its
# thread's rate on socket 0 (tid 101: 3 MB per tick, 102: 1 MB, 103:
# 0.5 MB), and the root's by their sum plus 0.5 MB nobody owns.
kernel() {
	# resctrl's advisory lock, which memdiag takes around its writes:
	# no group is made or removed halfway through a tick
	exec 9< "$RC"
	while [ -e "$R/run" ]; do
		flock 9
		sum=524288
		for g in "$RC"/mon_groups/memdiag-*; do
			[ -d "$g" ] || continue
			f=$g/mon_data/mon_L3_00/mbm_total_bytes
			mkdir -p "$g/mon_data/mon_L3_00" "$g/mon_data/mon_L3_01"
			[ -e "$f" ] || { echo 0 > "$f"; echo 0 > "$g/mon_data/mon_L3_01/mbm_total_bytes"; }
			t=$(cat "$g/tasks" 2>/dev/null)
			case $t in
			101) step=3145728 ;; 102) step=1048576 ;; 103) step=524288 ;;
			'') step=0 ;;
			*) step=2097152; echo "$t" >> "$R/seen" ;;	# stat's command
			esac
			echo $(($(cat "$f") + step)) > "$f.new" && mv "$f.new" "$f"
			sum=$((sum + step))
		done
		f=$RC/mon_data/mon_L3_00/mbm_total_bytes
		echo $(($(cat "$f") + sum)) > "$f.new" && mv "$f.new" "$f"
		flock -u 9
		sleep 0.05
	done 2> /dev/null	# a group top removes mid-tick is no error
}

# a killed memdiag's group (pid 4194305 is beyond pid_max) and runc's
mkdir -p "$RC/mon_groups/memdiag-4194305-0"
: > "$R/run"
kernel &
kpid=$!
MEMDIAG_TEST_HOST_ROOT=$R "$bin" top -j --count 3 > "$tmp/out" 2> "$tmp/err"
rc=$?
rm -f "$R/run"
wait $kpid
[ $rc = 0 ] && [ "$(wc -l < "$tmp/out")" = 6 ]
ok "top -j --count 3: exit 0, a line per socket and interval (exit $rc)" $? "$(cat "$tmp/out" "$tmp/err")"
grep -q "no socket count, so no 'unattributed'" "$tmp/err"
ok "top: without the module the missing socket count is said once" $? "$(cat "$tmp/err")"
last=$(grep '"socket":0' "$tmp/out" | tail -1)
check=$(printf '%s\n' "$last" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
g = {r["group"]: r["bytes"] for r in d["groups"]}
a = g.get("pod:1111aaaa-2222-3333-4444-555566667777", 0)
b = g.get("pod:9999bbbb-2222-3333-4444-555566667777", 0)
c = g.get("cron.service", 0)
rows = sum(g.values())
# the "kernel" ticks about 20 times a second and top may read between
# its writes of one tick: one tick in 20 of error per group
ok = a > 0 and abs(a / b / 3 - 1) < 0.15 and abs(b / c / 2 - 1) < 0.15
ok = ok and rows + d["other_bytes"] == d["groups_bytes"]
ok = ok and d["socket_bytes"] is None if "socket_bytes" in d else ok
print(1 if ok else 0, a, b, c, d["other_bytes"], d["groups_bytes"])
' 2>&1)
[ "${check%% *}" = 1 ]
ok "top: pod A 3x pod B 2x cron.service, rows + other = every control group ($check)" $? "$(cat "$tmp/out")"
! ls -d "$RC"/mon_groups/memdiag-* 2>/dev/null | grep -q .
ok "top: its groups removed at exit, the killed run's swept" $? "$(cat "$tmp/err")"

# nobody reads only: no group made, the threads in 'other'
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
	chmod -R a+rX "$tmp"
	MEMDIAG_TEST_HOST_ROOT=$R setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$bin" top -j --count 1 > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = 0 ] && ! ls -d "$RC"/mon_groups/memdiag-* 2>/dev/null | grep -q . &&
		grep -q '"groups":\[\]' "$tmp/out"
	ok "top as nobody: reads, writes nothing (exit $rc)" $? "$(cat "$tmp/out" "$tmp/err")"
else
	skip "top as nobody" "not root, or no user nobody"
fi

# a killed top leaves its groups; the next one sweeps them
: > "$R/run"
kernel &
kpid=$!
MEMDIAG_TEST_HOST_ROOT=$R "$bin" top -j --interval 1 > /dev/null 2>&1 &
tpid=$!
sleep 1.5
kill -KILL $tpid
wait $tpid 2>/dev/null
left=$(ls -d "$RC"/mon_groups/memdiag-$tpid-* 2>/dev/null | wc -l)
MEMDIAG_TEST_HOST_ROOT=$R "$bin" top -j --count 1 > /dev/null 2> "$tmp/err"
rm -f "$R/run"
wait $kpid
[ "$left" -ge 1 ] && ! ls -d "$RC"/mon_groups/memdiag-$tpid-* 2>/dev/null | grep -q .
ok "top: a killed run's $left groups are swept by the next" $? "$(cat "$tmp/err")"

# stat -- CMD: the command starts in its own group, its bytes are the
# group's, and the group is gone after
: > "$R/run"
kernel &
kpid=$!
MEMDIAG_TEST_HOST_ROOT=$R "$bin" stat -j -- sh -c "echo \$\$ > $tmp/pid; sleep 0.6" \
	2> "$tmp/out"
rc=$?
rm -f "$R/run"
wait $kpid
own=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["own"]
print(sum(s["bytes"] for s in d["sockets"]) if d["source"] == "mbm" else 0)
' "$tmp/out" 2>&1)
[ $rc = 0 ] && [ "${own:-0}" -ge 2097152 ] 2>/dev/null &&
	grep -qx "$(cat "$tmp/pid")" "$R/seen" &&
	! ls -d "$RC"/mon_groups/memdiag-* 2>/dev/null | grep -q .
ok "stat -- CMD: the command's pid in its group before it ran, its own bytes ($own), the group removed" $? "$(cat "$tmp/out" "$tmp/pid" "$R/seen")"

# a group that vanishes mid-run is no error; resctrl unmounted mid-run
# stops top with the reason, exit 7
: > "$R/run"
kernel &
kpid=$!
MEMDIAG_TEST_HOST_ROOT=$R "$bin" top -j --count 4 > "$tmp/out" 2> "$tmp/err" &
tpid=$!
sleep 1.5
flock "$RC" sh -c "rm -rf '$CG/system.slice/cron.service' $RC/mon_groups/memdiag-$tpid-*"
wait $tpid
rc=$?
[ $rc = 0 ] && [ "$(wc -l < "$tmp/out")" = 8 ] &&
	! tail -n 2 "$tmp/out" | grep -q cron.service
ok "top: a group that vanishes mid-run leaves the later rows, no error (exit $rc)" $? "$(cat "$tmp/out" "$tmp/err")"
MEMDIAG_TEST_HOST_ROOT=$R "$bin" top -j --count 4 > "$tmp/out" 2> "$tmp/err" &
tpid=$!
sleep 1.5
flock "$RC" mv "$RC" "$RC.gone"
wait $tpid
rc=$?
mv "$RC.gone" "$RC"
rm -f "$R/run"
wait $kpid
mkdir -p "$CG/system.slice/cron.service"
echo 103 > "$CG/system.slice/cron.service/cgroup.threads"
[ $rc = 7 ] && grep -q "stopped: the groups cannot be sampled any more" "$tmp/err"
ok "top: resctrl unmounted mid-run: stopped with the reason, exit 7 (exit $rc)" $? "$(cat "$tmp/err")"

# validate --groups needs the module beside resctrl: said, nothing left
MEMDIAG_TEST_HOST_ROOT=$R "$bin" validate --groups > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "cannot validate MBM against the memory controllers" "$tmp/err" &&
	! ls -d "$RC"/mon_groups/memdiag-* 2>/dev/null | grep -q .
ok "validate --groups with resctrl but no module: exit 2, said, no group left (exit $rc)" $? "$(cat "$tmp/err")"
MEMDIAG_TEST_HOST_ROOT=$tmp/bare "$bin" validate --groups > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 7 ] && grep -q "cannot validate MBM: resctrl is not mounted" "$tmp/err"
ok "validate --groups without resctrl: exit 7, said (exit $rc)" $? "$(cat "$tmp/err")"

# bad options change nothing
for a in "--by team" "--interval 500ms" "--top 0" "--socket x" "extra"; do
	# shellcheck disable=SC2086
	MEMDIAG_TEST_HOST_ROOT=$R "$bin" top $a > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = 1 ] && grep -q "top --help" "$tmp/err"
	ok "top $a: a usage error (exit $rc)" $? "$(cat "$tmp/err")"
done
tap_end
