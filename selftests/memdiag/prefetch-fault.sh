#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# prefetch-fault.sh - prefetcher control when things go wrong, against the
# simulated platform's fault injection (memdiag_sim's fail_* switches), in
# the 8-CPU guest prefetch-sim.sh uses (2 sockets x 2 cores x 2 threads).
#
# Every step ends by comparing the sim's register file with what must be
# there, and each injected fault is checked to have fired (fail_*_hit), so
# no step can pass without the path it names having run.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO; PF_RACE_ROUNDS (rmmod racing
# CPU hotplug, default 6).
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh
. selftests/memdiag/prefetch-lib.sh

rounds=${PF_RACE_ROUNDS:-6}

# cpu0_kept WHEN: status shows CPUs 0-1, and only they, keeping their
# original 0x8, marked restore failed
cpu0_kept() {
	"$ctl" -j prefetch status > /tmp/st.json
	check "$1: status -j: only CPUs 0-1 keep an original (0x8), restore_failed" jqt \
		'[.cpu_states[] | select(.original != null) | [.cpu, .original, .restore_failed]] == [[0,8,true],[1,8,true]]' /tmp/st.json
	expect_rc "$1: status (text): 'restore failed' on the row of CPUs 0-1" 0 \
		'0-1 .*yes \(found 0x8\), restore failed' "$ctl" prefetch status
}

pf_guest_check || { tap_end; exit 1; }
check "insmod memdiag_sim uarch=skx" insmod "$simko" uarch=skx
pf_poke_originals
check "insmod memdiag platform=sim" insmod "$ko" platform=sim

# --- a CPU list longer than the machine, or naming an offline CPU
expect_rc "--cpu 0-1100 on 8 CPUs: exit 1 before any request, names CPU 8" 1 \
	"option '--cpu': CPU 8 does not exist: this machine's CPUs are 0-7" \
	"$ctl" prefetch disable --cpu 0-1100
echo 0 > /sys/devices/system/cpu/cpu7/online
expect_rc "--cpu 0-7 with CPU 7 offline: the module's exit 1, names CPU 7" 1 \
	"option '--cpu': CPU 7 is not online" "$ctl" prefetch disable --cpu 0-7
echo 1 > /sys/devices/system/cpu/cpu7/online
originals "the refused lists changed nothing"

# --- a write that does not stick, or faults, part-way: all undone
fault msr_addr 0x1a4
fault msr_nostick 1 2		# the third core's write is dropped
expect_rc "disable, 3rd core's write dropped: exit 5, says so, nothing changed" 5 \
	"the change failed: MSR 0x1a4 on CPU 4 did not stick: wrote 0xf, read back 0x2.*; nothing was changed" \
	"$ctl" prefetch disable
hit msr_nostick 1
originals "after the dropped write: every original (two cores rolled back)"

fault msr_write 1 1		# the second core's write faults
expect_rc "disable, 2nd core's write faults: exit 5, nothing changed" 5 \
	"writing MSR 0x1a4 on CPU 2 faulted; nothing was changed" \
	"$ctl" prefetch disable
hit msr_write 1
originals "after the faulting write: every original"

fault msr_read 1 0
expect_rc "a faulting MSR read: exit 5, names the CPU" 5 \
	"reading MSR 0x1a4 on CPU 0 faulted" "$ctl" prefetch disable
hit msr_read 1
originals "after the faulting read: every original"

# --- a rollback that fails is recorded, shown and retried
fault msr_nostick 1 2		# core 3 (CPU 4) fails ...
fault msr_write 1 3		# ... and putting core 1 (CPU 0) back faults
expect_rc "rollback of CPU 0 fails: exit 5, the message says so" 5 \
	"rolling CPU 0 back to 0x8 failed too: kept for restore and rmmod" \
	"$ctl" prefetch disable
hit msr_write 1
expect "the core whose rollback failed keeps the new value, the rest rolled back" \
	0xf 0xf 0x4 0x4 0x2 0x2 0x1 0x1
cpu0_kept "after the failed rollback"
check "kernel log: the failed rollback is logged" sh -c \
	"dmesg | grep -q 'prefetch: rolling back CPU 0 to 0x8 failed'"
check "restore: exit 0" "$ctl" prefetch restore
originals "restore after a failed rollback: every original"

# --- a restore whose write fails keeps the original and is retried
check "disable: exit 0" "$ctl" prefetch disable
fault msr_write 1 0
expect_rc "restore with CPU 0's write faulting: exit 5, names CPU 0, says it retries" 5 \
	"the restore failed: CPU 0 could not be restored to 0x8.*retries on the next restore and at rmmod" \
	"$ctl" prefetch restore
hit msr_write 1
expect "the failed core stays changed, every other core restored" \
	0xf 0xf 0x4 0x4 0x2 0x2 0x1 0x1
cpu0_kept "after the failed restore"
check "a second restore: exit 0" "$ctl" prefetch restore
originals "the second restore retried CPU 0: every original"

# --- rmmod retries a failed restore
check "disable: exit 0" "$ctl" prefetch disable
fault msr_write 1 0
"$ctl" prefetch restore > /dev/null 2>&1
hit msr_write 1
check "rmmod memdiag after a failed restore" rmmod memdiag
originals "rmmod retried the failed restore: every original"

# --- a core whose last CPU goes offline with a failing write
core2_offline_fails() { # load, disable, take CPUs 3 then 2 offline, 2 failing
	check "insmod memdiag platform=sim" insmod "$ko" platform=sim
	check "disable: exit 0" "$ctl" prefetch disable
	echo 0 > /sys/devices/system/cpu/cpu3/online
	fault msr_write 1 0
	echo 0 > /sys/devices/system/cpu/cpu2/online
	hit msr_write 1
}
core2_offline_fails
check "kernel log: the failed restore at offline is logged" sh -c \
	"dmesg | grep -q 'prefetch: CPU 2 going offline: restoring MSR 0x1a4 to 0x4 failed'"
check "rmmod memdiag with that core offline" rmmod memdiag
check "kernel log: rmmod names the offline core it could not restore" sh -c \
	"dmesg | grep -q 'prefetch: unloading with CPU 2 (offline) not restored: MSR 0x1a4 was 0x4'"
expect "the offline core kept 0xf (unreachable), every other core restored" \
	0x8 0x8 0xf 0xf 0x2 0x2 0x1 0x1
echo 1 > /sys/devices/system/cpu/cpu2/online
echo 1 > /sys/devices/system/cpu/cpu3/online
pf_poke_originals

# --- the same core comes back while memdiag is loaded: restored then
core2_offline_fails
check "restore while CPUs 2-3 are offline: exit 0 (the online cores)" \
	"$ctl" prefetch restore
echo 1 > /sys/devices/system/cpu/cpu2/online
check "kernel log: the core coming back is restored at last" sh -c \
	"dmesg | grep -q 'prefetch: CPU 2 came online: MSR 0x1a4 0xf -> 0x4, restored at last'"
echo 1 > /sys/devices/system/cpu/cpu3/online
originals "the core that came back got its original"

# --- allocation failures, at every fault point of disable and restore:
# each either fails with a clear message and changes nothing, or is done
# whole (a lost log line is not a failure)
pf_alloc_sweep() { # action before-state after-state
	local n=0 rc h want bad=
	while [ $n -lt 40 ]; do
		fault alloc 1 $n
		"$ctl" prefetch "$1" > /tmp/out 2>&1 && rc=0 || rc=$?
		h=$(cat $dbg/fail_alloc_hit)
		fault alloc 0 0
		[ "$h" = 0 ] && break		# past the last fault point
		if [ $rc = 0 ]; then
			want=$3
		else
			want=$2
			grep -q 'out of memory\|Cannot allocate memory' /tmp/out ||
				bad="$bad point $n: exit $rc without saying why: $(cat /tmp/out);"
		fi
		[ "$(pf_values)" = "$want" ] ||
			bad="$bad point $n: exit $rc, registers $(pf_values) (want $want);"
		# back to the state before
		"$ctl" prefetch restore > /dev/null 2>&1
		[ "$1" = restore ] && "$ctl" prefetch disable > /dev/null 2>&1
		n=$((n + 1))
	done
	if [ -z "$bad" ] && [ $n -gt 0 ] && [ $n -lt 40 ]; then
		ok "allocation failures in '$1': $n fault points, each a clear error or done whole"
	else
		not_ok "allocation failures in '$1' ($n points)" "$bad"
	fi
}
all_off="0xf 0xf 0xf 0xf 0xf 0xf 0xf 0xf"
pf_alloc_sweep disable "${orig[*]}" "$all_off"
check "disable before the restore sweep" "$ctl" prefetch disable
pf_alloc_sweep restore "$all_off" "${orig[*]}"
check "restore: exit 0" "$ctl" prefetch restore
originals "after the allocation sweeps: every original"
check "rmmod memdiag" rmmod memdiag

# --- rmmod racing CPU hotplug: no core may stay changed
race_bad=
for r in $(seq 1 "$rounds"); do
	insmod "$ko" platform=sim || { race_bad="$race_bad insmod $r;"; break; }
	"$ctl" prefetch disable > /dev/null || race_bad="$race_bad disable $r;"
	( for i in 1 2 3 4 5 6; do
		echo 0 > /sys/devices/system/cpu/cpu3/online
		echo 0 > /sys/devices/system/cpu/cpu2/online
		echo 1 > /sys/devices/system/cpu/cpu2/online
		echo 1 > /sys/devices/system/cpu/cpu3/online
	  done ) 2>/dev/null &
	sleep 0.$((r % 4))
	rmmod memdiag || race_bad="$race_bad rmmod $r;"
	wait
	[ "$(pf_values)" = "${orig[*]}" ] ||
		race_bad="$race_bad round $r left $(pf_values);"
done
if [ -z "$race_bad" ]; then
	ok "rmmod racing CPU hotplug ($rounds rounds): every core back to its original"
else
	not_ok "rmmod racing CPU hotplug" "$race_bad"
fi

fault msr_addr 0
check "rmmod memdiag_sim" rmmod memdiag_sim
tap_end
