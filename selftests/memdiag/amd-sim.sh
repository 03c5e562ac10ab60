#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# amd-sim.sh - memdiag on the simulated AMD Zen 4 and Zen 5 (memdiag_sim
# uarch=zen4, zen5), inside a test VM: detection, the capabilities and
# their reasons, the core PMU through AMD's PerfCtl/PerfCtr MSRs (the L1
# miss latency from the Miss Address Buffer within 1 %), a busy counter
# refused with its MSR named, every register put back after a killed
# client and after rmmod, and prefetcher control through 0xC0000108; the
# L3-sampled DRAM latency (each CCX's L3 PMU, summed into the socket)
# within 1 %, a counter someone else enabled left alone, a CCX with too
# few free counters refused, controls back after a killed client, CPU
# hotplug and rmmod; the sim's regs lists each CCX's L3 PMU and each
# socket's UMC registers once, and a comparison of regs before and after
# a session finds every such control as it was. Every CPU of socket 1
# offline mid-session puts its UMC controls back and drops the socket
# from snapshots; back online it is counted again, rates within 2 %.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO; MEMDIAG_AMD_UARCHS (default
# "zen4 zen5").
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

: "${MEMDIAG_KO:?}" "${MEMDIAG_SIM_KO:?}"
ncpus=$(nproc)

declare -A NAME=([zen4]="AMD Zen 4" [zen5]="AMD Zen 5")
declare -A FAMILY=([zen4]=25 [zen5]=26)
# ls_mab_alloc.all_allocations: umask 0x7f on Zen 4, 0x0f on Zen 5
declare -A ALLOC=([zen4]=0x437f41 [zen5]=0x430f41)

CTL=0xc0010200		# PerfCtl0; PerfCtl i at +2i
GLOBAL=0xc0000301	# PerfMonV2 PerfCntrGlobalCtl
PF=0xc0000108		# PrefetchControl
L3=0xc0010230		# L3 PMU control 0 of the CPU's CCX; control i at +2i
L3_5=0xc001023a		# L3 PMU control 5: "someone else's" enabled event
L3_FOREIGN=0x4000ff
# l3_xi_sampled_latency.dram_near: event 0xac, umask 1, EN (22), EnAllSlices
# (46), EnAllCores (47), SliceId 3 (50:48), ThreadMask 3 (57:56)
L3_LAT_NEAR=0x303c000004001ac

trap sim_cleanup EXIT

# what the registers hold before memdiag: an idle event in PerfCtl0 and 1,
# a foreign global-control bit (counter 5), prefetch bit 1 set
amd_preset() {
	local cpu
	for cpu in $(seq 0 $((ncpus - 1))); do
		poke "msr $cpu $CTL 0x76"
		poke "msr $cpu 0xc0010202 0xc0"
		poke "msr $cpu $GLOBAL 0x20"
		poke "msr $cpu $PF 0x2"
		poke "msr $cpu $L3 0x1ac"
		poke "msr $cpu $L3_5 $L3_FOREIGN"
	done
}

# the L3 PMU controls of CPU $1's CCX as amd_preset left them, or why not
l3_ccx_restored() {
	local i v bad=
	[ "$(peek msr "$1" $L3)" = 0x1ac ] || bad="$bad cpu$1:l3ctl0=$(peek msr "$1" $L3)"
	for i in 0xc0010232 0xc0010234 0xc0010236 0xc0010238; do
		v=$(peek msr "$1" $i)
		[ "$v" = 0x0 ] || bad="$bad cpu$1:$i=$v"
	done
	[ "$(peek msr "$1" $L3_5)" = $L3_FOREIGN ] || bad="$bad cpu$1:l3ctl5=$(peek msr "$1" $L3_5)"
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# does a control 1..4 of CPU $1's CCX hold l3_xi_sampled_latency.dram_near?
l3_counting() {
	local i
	for i in 0xc0010230 0xc0010232 0xc0010234 0xc0010236 0xc0010238; do
		[ "$(peek msr "$1" $i)" = $L3_LAT_NEAR ] && return 0
	done
	return 1
}

# KEY of socket 0's snapshots $1 and $2: its change
snap_delta() {
	jq -n --slurpfile a "$1" --slurpfile b "$2" "\$b[0][0].$3 - \$a[0][0].$3"
}

# every CPU's controls back to amd_preset's values
amd_restored() { # NAME
	local cpu i bad=
	for cpu in $(seq 0 $((ncpus - 1))); do
		[ "$(reg msr "$cpu" $CTL)" = 0x76 ] || bad="$bad cpu$cpu:ctl0=$(reg msr "$cpu" $CTL)"
		[ "$(reg msr "$cpu" 0xc0010202)" = 0xc0 ] ||
			bad="$bad cpu$cpu:ctl1=$(reg msr "$cpu" 0xc0010202)"
		for i in 0xc0010204 0xc0010206; do
			case $(reg msr "$cpu" $i) in unset|0x0) ;; *) bad="$bad cpu$cpu:$i=$(reg msr "$cpu" $i)";; esac
		done
		[ "$(reg msr "$cpu" $GLOBAL)" = 0x20 ] || bad="$bad cpu$cpu:global=$(reg msr "$cpu" $GLOBAL)"
		[ "$(reg msr "$cpu" $PF)" = 0x2 ] || bad="$bad cpu$cpu:pf=$(reg msr "$cpu" $PF)"
	done
	for cpu in $(seq 0 $((ncpus - 1))); do
		l3_ccx_restored "$cpu" > /tmp/l3.bad || bad="$bad $(cat /tmp/l3.bad)"
	done
	# no UMC control of either socket is left holding an event
	for cpu in 0 $((ncpus - 1)); do
		for i in $(seq $((0xc0010800)) 2 $((0xc0010800 + 63))); do
			v=$(peek msr "$cpu" "$(printf 0x%x "$i")")
			[ "$v" = 0x0 ] || bad="$bad cpu$cpu:$(printf 0x%x "$i")=$v"
		done
	done
	no_problems "$1" "$bad"
}

# the L3 PMU and UMC controls regs lists (counters move on their own):
# L3 controls 0xc0010230 + 2i (i < 6), UMC controls 0xc0010800 + 2k (k < 32)
amd_uncore_controls() {
	awk '$1 == "msr" && ($3 ~ /^0xc001023[02468a]$/ ||
	     $3 ~ /^0xc00108[0-3][02468ace]$/)' $dbg/regs
}

# each control in /tmp/amd_before.regs has its value again in regs, and
# one first written since (unset: 0) holds 0 (sim-xeon6.sh's comparison,
# by file name: an empty first file must not swallow the second)
amd_uncore_restored() {
	amd_uncore_controls > /tmp/amd_after.regs
	awk 'FILENAME == ARGV[1] { b[$1 " " $2 " " $3] = $4; next }
	     { k = $1 " " $2 " " $3
	       if ((k in b) ? b[k] != $4 : $4 != "0x0") { print "changed: " $0; bad = 1 }
	       delete b[k] }
	     END { for (k in b) { print "gone: " k; bad = 1 }; exit bad }' \
		/tmp/amd_before.regs /tmp/amd_after.regs
}

# the sim's CCXs (a CCX is a core of a socket: the sim's choice)
nccx=$(for c in /sys/devices/system/cpu/cpu[0-9]*/topology; do
	echo "$(cat "$c/physical_package_id"):$(cat "$c/core_id")"
done | sort -u | wc -l)

# the UMC controls of CPU $1's socket holding umc_cas_cmd.rd
umc_counting() {
	local m n=0
	for m in $(seq $((0xc0010800)) 2 $((0xc0010800 + 63))); do
		[ "$(peek msr "$1" "$(printf 0x%x "$m")")" = 0x8000010a ] && n=$((n + 1))
	done
	echo $n
}

# umc_restored CPU NAME: each UMC control of CPU's socket holds what
# /tmp/amd_before.regs listed for it (not listed: 0)
umc_restored() {
	local m r v want bad=
	for m in $(seq $((0xc0010800)) 2 $((0xc0010800 + 63))); do
		r=$(printf 0x%x "$m")
		v=$(peek msr "$1" "$r")
		want=$(awk -v c="$1" -v r="$r" '$2 == c && $3 == r { print $4 }' /tmp/amd_before.regs)
		[ "$v" = "${want:-0x0}" ] || bad="$bad cpu$1:$r=$v(was ${want:-0x0})"
	done
	no_problems "$2" "$bad"
}

# UMC_RATE NAME A.json B.json KEY WANT_GBPS: socket 1's KEY over the time
# between snapshots A and B is WANT within 2 %
umc_rate() {
	local v
	v=$(jq -n -r --slurpfile a "$2" --slurpfile b "$3" "
		(\$a[0][] | select(.socket == 1)) as \$x |
		(\$b[0][] | select(.socket == 1)) as \$y |
		(\$y.$4 - \$x.$4) / (\$y.time_ns - \$x.time_ns)")
	check "$1 within 2% (got $v)" within 2 "$v" "$5"
}

# amd_umc_hotplug UARCH: every CPU of socket 1 offline mid-session puts
# its UMC controls back (as in regs before the session), the socket
# drops out of snapshots; back online it is counted again, its rates
# within 2 % of what the sim is told, its imc_epoch changed; dmesg clean
amd_umc_hotplug() {
	local s1 c1 ea
	if [ "$nsock" -lt 2 ]; then
		skip "$1: UMC hotplug: no second socket"
		return
	fi
	s1=$(jq -r '.sockets[1].cpus[]' /tmp/info.json)
	c1=${s1%%$'\n'*}
	set_rates 1 2000 1000 0 0 0 0
	"$ctl" -j watch --all --interval 200ms > /dev/null 2>&1 &
	W_PID=$!
	sleep 1
	check "$1: socket 1 counts umc_cas_cmd.rd on 8 UMC controls" \
		test "$(umc_counting "$c1")" = 8
	"$ctl" -j snapshot --all > /tmp/umca.json
	ea=$(jq '.[] | select(.socket == 1) | .imc_epoch' /tmp/umca.json)
	for c in $s1; do echo 0 > /sys/devices/system/cpu/cpu"$c"/online; done
	sleep 0.5
	umc_restored "$c1" "$1: all of socket 1 offline: each UMC control of socket 1 as regs listed it before the session"
	check "$1: and none holds an event" test "$(umc_counting "$c1")" = 0
	"$ctl" -j snapshot --all > /tmp/umcb.json
	check "$1: a snapshot while socket 1 is offline has socket 0 only" \
		jq -e '[.[].socket] == [0]' /tmp/umcb.json
	for c in $s1; do echo 1 > /sys/devices/system/cpu/cpu"$c"/online; done
	sleep 0.5
	check "$1: socket 1 back online: 8 UMC controls count again" \
		test "$(umc_counting "$c1")" = 8
	"$ctl" -j snapshot --all > /tmp/umcc.json
	sleep 2
	"$ctl" -j snapshot --all > /tmp/umcd.json
	check "$1: socket 1's imc_epoch changed over the time it was not counted ($ea)" \
		jq -e --argjson e "$ea" '.[] | select(.socket == 1) | .imc_epoch != $e' /tmp/umcc.json
	umc_rate "$1: socket 1 back: reads 2 GB/s" /tmp/umcc.json /tmp/umcd.json read_bytes 2
	umc_rate "$1: socket 1 back: writes 1 GB/s" /tmp/umcc.json /tmp/umcd.json write_bytes 1
	check "$1: no UMC restore or reclaim complaint in the kernel log" \
		sh -c "! dmesg | grep -q 'is back online, its memory channel'"
	kill $W_PID; wait $W_PID 2>/dev/null; W_PID=
	set_rates 1 0 0 0 0 0 0
}

for u in ${MEMDIAG_AMD_UARCHS:-zen4 zen5}; do
	echo "# simulated $u"
	sim_load "$u: " "$u" amd_preset || continue
	# regs lists a shared register once, under the first CPU sharing it
	check "$u: regs lists L3 control 0 as amd_preset left it, once for each of the $nccx CCXs" \
		test "$(awk '$1 == "msr" && $3 == "0xc0010230" && $4 == "0x1ac"' $dbg/regs | wc -l)" = "$nccx"
	amd_uncore_controls > /tmp/amd_before.regs
	expect_rc "$u: Intel's PERFEVTSEL0 (0x186) is not an AMD register" 1 \
		"Invalid argument" peek msr 0 0x186
	expect_rc "$u: PrefetchControl bit 4 is reserved" 1 "Invalid argument" \
		poke msr 0 "$PF" 0x10
	check "$u: info: AuthenticAMD family ${FAMILY[$u]}, ${NAME[$u]}" jqt \
		".vendor == \"AuthenticAMD\" and .family == ${FAMILY[$u]} and .uarch == \"${NAME[$u]}\"" /tmp/info.json
	check "$u: core latency available, core mode msr" jqt \
		'(.capabilities[] | select(.id == "core-latency") | .available) and .core_mode == "msr"' /tmp/info.json
	check "$u: DRAM bandwidth (UMC counters) available" jqt \
		'.capabilities[] | select(.id == "imc-bandwidth") | .available' /tmp/info.json
	check "$u: no offcore counter, with a reason" jqt \
		'.capabilities[] | select(.id == "offcore") | (.available | not) and (.reason | length > 0)' /tmp/info.json
	check "$u: prefetch control available" jqt \
		'.capabilities[] | select(.id == "prefetch-control") | .available' /tmp/info.json
	check "$u: the L3-sampled DRAM latency available" jqt \
		'.capabilities[] | select(.id == "l3-dram-latency") | .available' /tmp/info.json

	# each CCX of socket 0 (two: the sim's CCX is a core) samples 10^6
	# near and 250000 far DRAM requests a second, 300 core clocks each
	l3_rates 0 300 1000000 250000
	for s in $(seq 1 $((nsock - 1))); do l3_rates "$s" 0 0 0; done
	"$ctl" -j watch --socket 0 --interval 1s > /dev/null 2>&1 &
	W_PID=$!
	sleep 1
	"$ctl" -j snapshot --socket 0 > /tmp/l3a.json
	sleep 1
	"$ctl" -j snapshot --socket 0 > /tmp/l3b.json
	lat=$(snap_delta /tmp/l3a.json /tmp/l3b.json l3_sampled_dram_latency_cycles)
	req=$(snap_delta /tmp/l3a.json /tmp/l3b.json l3_sampled_dram_requests)
	dt=$(snap_delta /tmp/l3a.json /tmp/l3b.json time_ns)
	v=$(jq -n "$lat / $req")
	check "$u: L3-sampled DRAM latency 300 core clocks within 1% (got $v)" near "$v" 300
	v=$(jq -n "$req / $dt * 1e9")
	check "$u: sampled DRAM requests of both CCXs, 2.5e6/s within 1% (got $v)" near "$v" 2500000
	check "$u: CPU 0's CCX counts dram_near with every core, thread and slice ($L3_LAT_NEAR)" \
		l3_counting 0
	check "$u: and CPU 1's CCX too" l3_counting 1
	check "$u: the L3 counter someone else enabled is left alone" \
		test "$(peek msr 0 $L3_5)" = $L3_FOREIGN
	# hotplug: the last CPU of a CCX going offline puts its controls back
	echo 0 > /sys/devices/system/cpu/cpu1/online
	check "$u: CPU 1 offline: its CCX's L3 PMU controls are back" l3_ccx_restored 1
	echo 1 > /sys/devices/system/cpu/cpu1/online
	sleep 0.5
	check "$u: CPU 1 online again: its CCX counts again" l3_counting 1
	kill $W_PID; wait $W_PID 2>/dev/null; W_PID=

	sim_busy 6400 3200 200 1000000 500000 0
	w=/tmp/watch.json
	sim_watch "$u: watch --count 3 exits 0" $w --all --interval 500ms --count 3
	check_rate "$u: L1 miss latency (MAB occupancy / allocations) 200 cycles" $w 0 \
		l1_miss_latency_cycles 200
	check "$u: no interval is invalid" jq -s -e '[.[].valid] | all' $w
	check_rate "$u: UMC reads 6.4 GB/s" $w 0 read_gbps 6.4
	check_rate "$u: UMC writes 3.2 GB/s" $w 0 write_gbps 3.2
	# the L3 rates set above: 300 core clocks, at the sim's 2 GHz TSC 150 ns
	check_rate "$u: watch's l3_dram_latency_cycles 300" $w 0 l3_dram_latency_cycles 300
	check_rate "$u: watch's l3_dram_latency_ns 150 (at the TSC's 2 GHz)" $w 0 l3_dram_latency_ns 150
	"$ctl" watch --socket 0 --interval 500ms --count 1 > /tmp/watch.txt 2>&1
	check "$u: watch's text has the l3_lat_ns column" grep -q 'l3_lat_ns' /tmp/watch.txt

	amd_umc_hotplug "$u"

	# saturating UMC counters: put every read counter of socket 0 256
	# counts below bit 47, then cross it; memdiag zeroes each once bit 47
	# is set, and no count is lost
	set_rates 0 0 0 200 1000000 500000 0
	"$ctl" -j watch --socket 0 --interval 1s > /dev/null 2>&1 &
	W_PID=$!
	sleep 1.5
	cpu0=$(jq '.sockets[0].cpus[0]' /tmp/info.json)
	rd=()
	for m in $(seq $((0xc0010800)) 2 $((0xc0010800 + 63))); do
		[ "$(peek msr "$cpu0" "$(printf 0x%x "$m")")" = 0x8000010a ] &&
			rd+=("$(printf 0x%x $((m + 1)))")
	done
	check "$u: memdiag counts umc_cas_cmd.rd on 8 UMC counters (${#rd[@]})" test "${#rd[@]}" = 8
	for m in "${rd[@]}"; do poke "msr $cpu0 $m 0x7fffffffff00"; done
	snap 0 read_bytes > /dev/null
	check_inject "$u: 6000 CAS reads across bit 47 are exactly 384000 bytes" \
		read_bytes cas_rd 6000 384000
	check "$u: memdiag zeroed the counter that crossed bit 47 ($(peek msr "$cpu0" "${rd[0]}"))" \
		test "$(($(peek msr "$cpu0" "${rd[0]}") < 0x800000000000))" = 1
	check_inject "$u: and the next 6000 exactly 384000 bytes more" read_bytes cas_rd 6000 384000
	kill $W_PID; wait $W_PID 2>/dev/null; W_PID=
	"$ctl" -j snapshot --socket 0 > /tmp/snap.json
	check "$u: snapshot has mab_occupancy, mab_allocations, cycles; no l1d_pend_miss" jqt \
		'.[0] | has("mab_occupancy") and has("mab_allocations") and has("cycles") and (has("l1d_pend_miss") | not)' /tmp/snap.json

	# a killed client: its session's registers come back
	"$ctl" -j watch --socket 0 --interval 200ms > /dev/null 2>&1 &
	W_PID=$!
	sleep 1
	check "$u: while counting, PerfCtl holds ls_mab_alloc.all_allocations on some counter" \
		sh -c "awk '\$1 == \"msr\" && \$2 == 1 && \$4 == \"${ALLOC[$u]}\"' $dbg/regs | grep -q ."
	check "$u: while counting, regs lists the UMC controls holding umc_cas_cmd.rd, 8 a socket" \
		test "$(amd_uncore_controls | awk '$4 == "0x8000010a"' | wc -l)" = $((8 * nsock))
	check "$u: while counting, regs lists an L3 control for each of the $nccx CCXs holding dram_near latency" \
		test "$(awk -v v=$L3_LAT_NEAR '$1 == "msr" && $4 == v' $dbg/regs | wc -l)" = "$nccx"
	kill -9 $W_PID; wait $W_PID 2>/dev/null; W_PID=
	sleep 0.5
	amd_restored "$u: after a killed client every PerfCtl, the global control and PrefetchControl are back"
	check "$u: after a killed client regs has every L3 and UMC control as before" \
		amd_uncore_restored

	# a busy counter: refused, its MSR named, nothing written
	poke "msr 1 $CTL 0x430076"
	out=$("$ctl" watch --socket 0 --count 1 2>&1)
	check "$u: a session with PerfCtl0 of CPU 1 enabled is refused, naming MSR 0xc0010200" \
		sh -c "echo \"\$1\" | grep -q 'MSR 0xc0010200'" _ "$out"
	check "$u: the refusal wrote nothing" test "$(reg msr 1 $GLOBAL)" = 0x20
	poke "msr 1 $CTL 0x76"

	# a CCX with two more L3 counters taken by someone else: 3 free of 6
	poke "msr 1 0xc0010232 0x4000fe"
	poke "msr 1 0xc0010234 0x4000fd"
	out=$("$ctl" watch --socket 0 --count 1 2>&1)
	check "$u: a session with 3 free L3 counters on a CCX is refused, saying so" \
		sh -c "echo \"\$1\" | grep -q 'L3 PMU of CCX .* has 3 free counters of 6, 4 needed'" _ "$out"
	check "$u: the refusal left CPU 0's CCX as it was" l3_ccx_restored 0
	poke "msr 1 0xc0010232 0x0"
	poke "msr 1 0xc0010234 0x0"

	# prefetchers through 0xC0000108, then rmmod puts them back
	check "$u: prefetch disable --socket 0 l1-stream exits 0" \
		"$ctl" prefetch disable --socket 0 l1-stream
	cpu0=$(jq '.sockets[0].cpus[0]' /tmp/info.json)
	check "$u: PrefetchControl of CPU $cpu0 has bit 0 set too (0x3)" \
		test "$(peek msr "$cpu0" $PF)" = 0x3
	check "$u: rmmod memdiag" rmmod memdiag
	amd_restored "$u: after rmmod every register is back"
	check "$u: after rmmod regs has every L3 and UMC control as before" \
		amd_uncore_restored
	rmmod memdiag_sim
done
tap_end
