#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# prefetch-sim.sh - prefetcher control against the simulated platform,
# inside a test VM with hyperthreads (run it with --smp
# 8,sockets=2,cores=2,threads=2: CPUs 0-1, 2-3, 4-5, 6-7 share a core).
#
# Every CPU starts from a non-zero original value poked into the sim, so
# that "restored" cannot be mistaken for "zeroed"; after each step the
# sim's own register file (regs, which outlives memdiag.ko) is compared
# with what must be there.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO.
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh
. selftests/memdiag/prefetch-lib.sh

pf_guest_check || { tap_end; exit 1; }

check "insmod memdiag_sim uarch=skx" insmod "$simko" uarch=skx
pf_poke_originals
originals "poked originals: siblings share the register (the sim models the scope)"
check "insmod memdiag platform=sim" insmod "$ko" platform=sim

"$ctl" -j info > /tmp/info.json
check "info: prefetch-control available" jqt \
	'.capabilities[] | select(.id == "prefetch-control") | .available' /tmp/info.json
# no write read back yet: "untested", not "yes"
check "info: prefetch-control not verified before any write" jqt \
	'.capabilities[] | select(.id == "prefetch-control") | .verified == false' /tmp/info.json
expect_rc "info (text): prefetch-control untested before any write" 0 \
	'prefetch-control  untested' "$ctl" info

"$ctl" -j prefetch status > /tmp/st.json
check "status -j: the four Intel prefetchers, in bit order" jqt \
	'[.prefetchers[] | .name] == ["l2-stream","l2-adjacent","l1-nextline","l1-ip"] and .msr == 420' /tmp/st.json
check "status -j: one group per core value (4 groups of 2 CPUs), nothing changed" jqt \
	'(.groups | length) == 4 and all(.groups[]; (.cpus | length) == 2 and .changed == false and .original == null)' /tmp/st.json
check "status -j: CPU 2 reads 0x4 (l1-nextline off)" jqt \
	'.cpu_states[] | select(.cpu == 2) | .value == 4 and .disabled == ["l1-nextline"]' /tmp/st.json
expect_rc "status (text): a row per group with on/off columns" 0 \
	'2-3 +0 +1 +0x4 +on +on +off +on  no' "$ctl" prefetch status

# disable all on socket 0 only
expect_rc "disable --socket 0: exit 0, names the CPUs touched" 0 \
	'disabled l2-stream l2-adjacent l1-nextline l1-ip on CPUs 0-3' \
	"$ctl" prefetch disable --socket 0
expect "disable --socket 0: CPUs 0-3 0xf, socket 1 untouched" 0xf 0xf 0xf 0xf 0x2 0x2 0x1 0x1
"$ctl" -j info > /tmp/info.json
check "info: prefetch-control verified once a write was read back" jqt \
	'.capabilities[] | select(.id == "prefetch-control") | .available and .verified' /tmp/info.json
expect_rc "info (text): prefetch-control yes after a verified write" 0 \
	'prefetch-control  yes' "$ctl" info
"$ctl" -j prefetch status --socket 0 > /tmp/st.json
check "status --socket 0: all four off, changed, originals reported" jqt \
	'all(.cpu_states[]; .disabled == ["l2-stream","l2-adjacent","l1-nextline","l1-ip"] and .changed) and
	 ([.cpu_states[] | .original] == [8,8,4,4])' /tmp/st.json

# enable one named prefetcher; only its bit changes
check "enable --socket 0 l1-ip: exit 0" "$ctl" prefetch enable --socket 0 l1-ip
expect "enable l1-ip: only bit 3 cleared on socket 0" 0x7 0x7 0x7 0x7 0x2 0x2 0x1 0x1

# a CPU list is widened to whole cores
"$ctl" -j prefetch disable --cpu 4 l2-stream > /tmp/set.json
check "disable --cpu 4 l2-stream: touched CPUs 4-5 (the core), reported" jqt \
	'[.cpu_states[] | .cpu] == [4,5] and .touched == "4-5"' /tmp/set.json
expect "disable --cpu 4: bit 0 set on CPUs 4 and 5 (siblings), 6-7 untouched" \
	0x7 0x7 0x7 0x7 0x3 0x3 0x1 0x1

# bad input: a clear error, exit 1, nothing changed
expect_rc "unknown prefetcher: exit 1, lists the valid names" 1 \
	"unknown prefetcher 'l3-magic'.*l2-stream l2-adjacent l1-nextline l1-ip" \
	"$ctl" prefetch disable l3-magic
expect_rc "absent CPU in --cpu: exit 1, says so" 1 \
	"option '--cpu': CPU 9 does not exist: this machine's CPUs are 0-7" \
	"$ctl" prefetch disable --cpu 9
expect_rc "not a CPU list: exit 1" 1 "'1-' is not a CPU list" \
	"$ctl" prefetch disable --cpu 1-
expect_rc "absent socket: exit 1" 1 "option '--socket': there is no socket 5" \
	"$ctl" prefetch disable --socket 5
expect_rc "--socket with --cpu: exit 1" 1 "exclude each other" \
	"$ctl" prefetch disable --socket 0 --cpu 1
expect_rc "names with status: exit 1" 1 "takes no prefetcher names" \
	"$ctl" prefetch status l2-stream
expect_rc "unknown action: exit 1" 1 "unknown action 'off'" "$ctl" prefetch off
expect "after the bad requests nothing changed" 0x7 0x7 0x7 0x7 0x3 0x3 0x1 0x1

# privilege: reading as for snapshots, changing needs root even where
# reading is open to everyone
expect_rc "unprivileged status: exit 3 (reading needs CAP_PERFMON)" 3 \
	'CAP_PERFMON' "${nobody[@]}" "$ctl" prefetch status
echo 1 > /sys/module/memdiag/parameters/unprivileged_read
check "unprivileged status with unprivileged_read=1: exit 0" \
	"${nobody[@]}" "$ctl" prefetch status
expect_rc "unprivileged disable: the module's EPERM, exit 3, names the capabilities" 3 \
	'permission denied: changing prefetchers needs CAP_SYS_ADMIN and CAP_SYS_RAWIO' \
	"${nobody[@]}" "$ctl" prefetch disable
expect_rc "unprivileged restore: exit 3" 3 'CAP_SYS_ADMIN and CAP_SYS_RAWIO' \
	"${nobody[@]}" "$ctl" prefetch restore
echo 0 > /sys/module/memdiag/parameters/unprivileged_read
expect "after the refused requests nothing changed" 0x7 0x7 0x7 0x7 0x3 0x3 0x1 0x1

# snapshots carry the state; watch shows it
"$ctl" -j watch --all --interval 200ms --count 2 > /tmp/w.json 2>/dev/null
check "watch -j: socket 0 shows 3 prefetchers off everywhere, changed" jq -s -e \
	'[.[] | select(.socket == 0)] | last | .prefetch_disabled == ["l2-stream","l2-adjacent","l1-nextline"] and .prefetch_changed == true and .prefetch_mixed == []' /tmp/w.json
check "watch -j: socket 1: l2-stream off everywhere, l2-adjacent on one core of two" jq -s -e \
	'[.[] | select(.socket == 1)] | last | .prefetch_disabled == ["l2-stream"] and .prefetch_mixed == ["l2-adjacent"] and .prefetch_changed == true' /tmp/w.json

# hotplug: a core whose CPUs all go offline gets its original back; the
# setting returns with the CPU
echo 0 > /sys/devices/system/cpu/cpu3/online
expect "cpu3 offline, sibling cpu2 online: the core keeps the setting" \
	0x7 0x7 0x7 0x7 0x3 0x3 0x1 0x1
echo 0 > /sys/devices/system/cpu/cpu2/online
expect "cpu2 and cpu3 offline: their core has its original back" \
	0x7 0x7 0x4 0x4 0x3 0x3 0x1 0x1
echo 1 > /sys/devices/system/cpu/cpu3/online
expect "cpu3 online again: the setting of socket 0 is reapplied" \
	0x7 0x7 0x7 0x7 0x3 0x3 0x1 0x1
check "kernel log: cpu3's reapply is logged" sh -c \
	"dmesg | grep -q 'prefetch: CPU 3 came online: MSR 0x1a4 0x4 -> 0x7'"
echo 1 > /sys/devices/system/cpu/cpu2/online
expect "cpu2 online again: still the setting" 0x7 0x7 0x7 0x7 0x3 0x3 0x1 0x1
# a core restored while one of its CPUs is offline stays restored
echo 0 > /sys/devices/system/cpu/cpu3/online
check "restore --cpu 2 while cpu3 is offline: exit 0" "$ctl" prefetch restore --cpu 2
expect "restore --cpu 2: the core of CPUs 2-3 has its original" \
	0x7 0x7 0x4 0x4 0x3 0x3 0x1 0x1
echo 1 > /sys/devices/system/cpu/cpu3/online
expect "cpu3 online after its core was restored: not set again" \
	0x7 0x7 0x4 0x4 0x3 0x3 0x1 0x1

# restore of one socket, then a new change, then rmmod
check "restore --socket 1: exit 0" "$ctl" prefetch restore --socket 1
expect "restore --socket 1: socket 1 back to its originals, socket 0 kept" \
	0x7 0x7 0x4 0x4 0x2 0x2 0x1 0x1
check "restore: exit 0" "$ctl" prefetch restore
originals "restore: every CPU back to its original"
"$ctl" -j prefetch status > /tmp/st.json
check "status after restore: nothing changed, no originals held" jqt \
	'all(.cpu_states[]; .changed == false and .original == null)' /tmp/st.json

check "disable all CPUs: exit 0" "$ctl" prefetch disable
expect "disable all: every CPU 0xf" 0xf 0xf 0xf 0xf 0xf 0xf 0xf 0xf
check "kernel log: the change is logged with its process and CPUs" sh -c \
	"dmesg | grep -q 'prefetch: disabled by memdiagctl (pid [0-9]*): CPUs 2-3: MSR 0x1a4 0x4 -> 0xf'"
check "rmmod memdiag" rmmod memdiag
originals "after rmmod the sim holds every original again"

# reserved bits fault: the sim refuses them like a #GP, and memdiag
# never sets them (it read-modify-writes only its bits)
poke msr 0 0x1a4 0x10 2>/dev/null
check "the sim refuses a reserved bit (bit 4) of 0x1a4" test "$(pf_reg 0)" = 0x8

check "rmmod memdiag_sim" rmmod memdiag_sim
tap_end
