#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sim-basic.sh - memdiag_sim.ko on its own, for each generation it models,
# checked through its debugfs files only: load-time refusal, the
# poke/peek/regs formats, core counter rates, enable, reserved bits and
# wrap, offcore response matching, CPU hotplug, the UBOX socket mapping,
# IMC injection and rates, icx's MC base registers, spr's discovery
# capability and table, and gnr's sub-channel CAS events. Prints TAP.
#
# Run in a test VM (two sockets):
#   selftests/vm/run.sh --kernel KVER \
#	--env MEMDIAG_SIM_KO=build/KVER/src/module/memdiag_sim.ko \
#	-- selftests/memdiag/sim-basic.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

ko=${MEMDIAG_SIM_KO:?MEMDIAG_SIM_KO must name memdiag_sim.ko}
d=$dbg

cleanup() {
	grep -q '^memdiag_sim ' /proc/modules && rmmod memdiag_sim
	[ -e /sys/devices/system/cpu/cpu1/online ] &&
		echo 1 > /sys/devices/system/cpu/cpu1/online
}
trap cleanup EXIT

# the sim's own choices: uncore bus of each socket
sock_bus=(85 17 6a d0 3b a4 5e f2)
# skx channel functions, by channel
skx_chan=(0a.2 0a.6 0b.2 0c.2 0c.6 0d.2)

within2() { # MEASURED EXPECTED: |m - e| <= 2% of e
	local diff=$(($1 - $2))
	[ $((${diff#-} * 50)) -le "$2" ]
}

# stamped_peek: read the selected register into $sv at time $st (us), the
# midpoint of two clock reads at most 2 ms apart: under load (parallel
# VMs) a read can be delayed by tens of ms, which would skew a rate by
# more than its 2 % tolerance, so such a read is taken again
stamped_peek() {
	local a b l try
	for try in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		a=$EPOCHREALTIME; read -r l < $d/peek; b=$EPOCHREALTIME
		a=${a/./}; b=${b/./}
		[ $((b - a)) -le 2000 ] && break
	done
	sv=${l##* }
	st=$(((a + b) / 2))
}

# Counts of REG per second over ~0.5 s, from two peeks.
rate_of() {
	local sv st v1 t1
	echo "$*" > $d/peek || return 1
	stamped_peek; v1=$sv; t1=$st
	sleep 0.5
	stamped_peek
	echo $(( (sv - v1) * 1000000 / (st - t1) ))
}

# counts NAME WANT REG...: REG counts WANT per second within 2 % (rate_of)
counts() {
	local name=$1 want=$2 r
	shift 2
	r=$(rate_of "$@")
	if within2 "$r" "$want"; then
		ok "$name"
	else
		not_ok "$name" "measured $r/s on $*, want $want/s"
	fi
}

# CPUs of socket 0, and the physical package of each socket in order
pkgs=()
cpus0=()
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -r "$c/topology/physical_package_id" ] || continue
	p=$(cat "$c/topology/physical_package_id")
	[[ " ${pkgs[*]} " == *" $p "* ]] || pkgs+=("$p")
	[ "$p" = "${pkgs[0]}" ] && cpus0+=("${c##*cpu}")
done
echo "# guest: $(uname -r), ${#pkgs[@]} sockets, socket 0 CPUs: ${cpus0[*]}"

# the refusal of a bad uarch= lists the generations from the sim's table:
# each one it names is a name uarch= takes, and models
expect_rc "insmod uarch=bogus is refused" 1 "" insmod "$ko" uarch=bogus
uarchs=$(dmesg | sed -n 's/.*uarch=bogus is not valid: use one of //p' | tail -n 1)
check "the refusal names the generations the sim models" test -n "$uarchs"
for u in $uarchs; do
	check "uarch=$u, as the refusal names it, loads and models $u" sh -c \
		"insmod '$ko' uarch=$u || exit 1
		 v=\$(cat /sys/module/memdiag_sim/parameters/uarch)
		 rmmod memdiag_sim && [ \"\$v\" = $u ]"
done

test_core() { # UARCH
	local u=$1 v v1 r evt rsp

	check "$u: regs is empty after load" test -z "$(cat $d/regs)"
	check "$u: poke then peek an MSR" \
		bash -c "echo 'msr 2 0x1a4 0x2' > $d/poke && echo 'msr 2 0x1a4' > $d/peek && [ \"\$(cat $d/peek)\" = 'msr 2 0x1a4 0x2' ]"
	check "$u: regs lists the poked MSR" grep -qx 'msr 2 0x1a4 0x2' $d/regs
	expect_rc "$u: a malformed poke is refused" 1 "Invalid argument" \
		bash -c "echo 'msr two 0x1a4 0x2' > $d/poke"
	check "$u: the refusal gives the format" sh -c \
		"dmesg | tail -n 5 | grep -q \"poke: cannot parse 'msr two 0x1a4 0x2': expected 'msr CPU ADDR VALUE'\""
	expect_rc "$u: a reserved bit of PERFEVTSEL0 is refused" 1 "Invalid argument" \
		bash -c "echo 'msr 0 0x186 0x10000000000' > $d/poke"
	expect_rc "$u: peek of an unmodelled MSR is refused" 1 "Invalid argument" \
		bash -c "echo 'msr 0 0x10' > $d/peek"
	expect_rc "$u: a rate that overflows is refused" 1 "Invalid argument" \
		bash -c "echo 2 > $d/socket0/l1_miss_per_sec && echo 18446744073709551615 > $d/socket0/load_latency_cycles"

	# L1 misses on PMC0 of CPU 0: OS|USR|EN, event 0xd1 umask 0x08
	echo 1000000 > $d/socket0/l1_miss_per_sec
	poke msr 0 0x186 0x4308d1
	poke msr 0 0x38f 0x1
	counts "$u: PMC0 counts l1_miss_per_sec (1000000/s)" 1000000 msr 0 0xc1
	poke msr 0 0x186 0x0308d1
	v=$(peek msr 0 0xc1); sleep 0.2; v1=$(peek msr 0 0xc1)
	check "$u: PMC0 stops when EN is cleared" test "$v" = "$v1"

	# fixed counter 1: core cycles at 2.0e9/s
	poke msr 0 0x38d 0x30
	poke msr 0 0x38f 0x200000001
	counts "$u: FIXED_CTR1 counts 2.0e9 cycles/s" 2000000000 msr 0 0x30a

	# wrap at 48 bits sets the overflow bit
	poke msr 0 0xc1 0xffffffffff00
	poke msr 0 0x186 0x4308d1
	sleep 0.05
	v=$(peek msr 0 0xc1)
	check "$u: PMC0 wraps to a small value ($v)" test $((v)) -lt $((0x100000000))
	v=$(peek msr 0 0x38e)
	check "$u: the wrap sets GLOBAL_STATUS bit 0 ($v)" test $((v & 1)) = 1
	expect_rc "$u: GLOBAL_STATUS cannot be poked with a reserved bit" 1 "Invalid argument" \
		bash -c "echo 'msr 0 0x38e 0x100' > $d/poke"

	# offcore reads on PMC1, counted only with the local-DRAM response
	case $u in
	skx) evt=0x4301b7; rsp=0x604000491 ;;
	icx) evt=0x4301b7; rsp=0x104000477 ;;
	spr|gnr) evt=0x43012a; rsp=0x104004477 ;;
	esac
	echo 0 > $d/socket0/l1_miss_per_sec
	for c in "${cpus0[@]}"; do
		poke msr "$c" 0x1a6 "$rsp"
		poke msr "$c" 0x187 "$evt"
		poke msr "$c" 0x38f 0x3
		poke msr "$c" 0xc2 0x0
	done
	echo "offcore_rd $((${#cpus0[@]} * 10 + 1))" > $d/socket0/inject
	v=$(peek msr "${cpus0[0]}" 0xc2); v1=$(peek msr "${cpus0[1]}" 0xc2)
	check "$u: inject offcore_rd spreads over socket 0's CPUs ($v, $v1)" \
		test $((v)) = 11 -a $((v1)) = 10
	poke msr "${cpus0[0]}" 0x1a6 0x10491
	echo "offcore_rd 1000" > $d/socket0/inject
	v=$(peek msr "${cpus0[0]}" 0xc2)
	check "$u: another OFFCORE_RSP_0 value counts nothing" test $((v)) = 11
	expect_rc "$u: inject of an unknown event is refused" 1 "Invalid argument" \
		bash -c "echo 'cas_rdd 1' > $d/socket0/inject"
}

test_hotplug() { # UARCH
	local u=$1 v v1 on=/sys/devices/system/cpu/cpu1/online

	if [ ! -w $on ]; then
		skip "$u: an offline CPU does not count" "cpu1 cannot go offline"
		return
	fi
	echo 1000000 > $d/socket0/lfb_hit_per_sec
	poke msr 1 0x188 0x4340d1
	poke msr 1 0x38f 0x4
	echo 0 > $on
	v=$(peek msr 1 0xc3); sleep 0.2; v1=$(peek msr 1 0xc3)
	check "$u: an offline CPU does not count" test "$v" = "$v1"
	echo 1 > $on
	sleep 0.1
	v1=$(peek msr 1 0xc3)
	check "$u: it counts again once online" test $((v1)) -gt $((v))
	echo 0 > $d/socket0/lfb_hit_per_sec
}

test_ubox() { # UARCH
	local u=$1 s node map i found ident=0

	for s in "${!pkgs[@]}"; do
		node=$(peek pci "0000:${sock_bus[s]}:08.0" 0xc0)
		map=$(peek pci "0000:${sock_bus[s]}:08.0" 0xd4)
		found=
		for i in 0 1 2 3 4 5 6 7; do
			if [ $(((map >> (3 * i)) & 7)) = $((node & 7)) ]; then
				found=$i
				break
			fi
		done
		check "$u: socket $s's UBOX (bus 0x${sock_bus[s]}) maps to package ${pkgs[s]}" \
			test "$found" = "${pkgs[s]}"
		[ $((node & 7)) = "${pkgs[s]}" ] && ident=$((ident + 1))
	done
	check "$u: UBOX node ids are not the package ids" test $ident = 0
}

# The channel box registers of socket 0, channel CH.
box_ctl() {
	case $u in
	skx) echo "pci 0000:85:${skx_chan[$1]} 0xd8" ;;
	*) echo "mmio 0:$1 0x40" ;;
	esac
}
box_ctr() {
	case $u in
	skx) echo "pci 0000:85:${skx_chan[$1]} 0xa0" ;;
	*) echo "mmio 0:$1 0x8" ;;
	esac
}

test_imc() { # UARCH
	local u=$1 nch=8 rd frz box0 ch v msg=""

	case $u in
	skx) nch=6; rd=0x400304; frz=0x100; box0="pci 0000:85:0a.2 0xf4" ;;
	icx) rd=0x400f04; frz=0x100; box0="mmio 0:0 0x0" ;;
	spr) rd=0xcf05; frz=0x1; box0="mmio 0:0 0x0" ;;
	esac
	for ((ch = 0; ch < nch; ch++)); do
		poke "$(box_ctl $ch)" $rd
	done
	echo "cas_rd $((nch * 1000))" > $d/socket0/inject
	for ((ch = 0; ch < nch; ch++)); do
		v=$(peek "$(box_ctr $ch)")
		[ $((v)) = 1000 ] || msg="$msg ch$ch=$v"
	done
	no_problems "$u: inject cas_rd $((nch * 1000)) adds 1000 to each channel" "$msg"
	echo "cas_rd $((nch + 2))" > $d/socket0/inject
	check "$u: the remainder goes to the lowest channels" test \
		$(($(peek "$(box_ctr 0)") + $(peek "$(box_ctr 2)"))) = $((1002 + 1001))
	echo "cas_wr 6000" > $d/socket0/inject
	check "$u: cas_wr is not counted as reads" test $(($(peek "$(box_ctr 3)"))) = 1001
	poke "$box0" $frz
	echo "cas_rd $((nch * 1000))" > $d/socket0/inject
	check "$u: a frozen box does not count" test $(($(peek "$(box_ctr 0)"))) = 1002
	check "$u: the other boxes do" test $(($(peek "$(box_ctr 2)"))) = 2001
	poke "$box0" 0x0

	echo 6400 > $d/socket0/read_bw_mbps
	counts "$u: read_bw_mbps 6400 counts 1e8 CAS/s over $nch channels" \
		$((100000000 / nch)) "$(box_ctr 1)"
	echo 0 > $d/socket0/read_bw_mbps
	v=$(peek "$(box_ctr 1)"); sleep 0.1
	check "$u: read_bw_mbps 0 stops counting" test "$(peek "$(box_ctr 1)")" = "$v"
}

test_icx_mc() {
	local base o0 o1
	base=$(peek pci 0000:85:00.1 0xd0)
	o0=$(peek pci 0000:85:00.1 0xd8)
	o1=$(peek pci 0000:85:00.1 0xdc)
	check "icx: the MC function (8086:3451) is at 85:00.1" \
		test "$(peek pci 0000:85:00.1 0x0)" = 0x34518086
	check "icx: its MC bases are distinct and non-zero ($base, $o0, $o1)" \
		test $((base)) != 0 -a "$o0" != "$o1"
	check "icx: socket 1's base differs from socket 0's" \
		test "$(peek pci 0000:17:00.1 0xd0)" != "$base"
	expect_rc "icx: the unpopulated third channel slot has no box 8" 1 "Invalid argument" \
		bash -c "echo 'mmio 0:8 0x0' > $d/peek"
}

# gnr: DDR5 sub-channels. A channel's CAS alternate between its two
# schedulers: SCH0 (event 0x05) and SCH1 (0x06) each count half, SCH0 the
# odd one out, and .ALL (umask 0xff) counts reads and writes.
test_gnr_sch() {
	local ch v0 v1 msg=
	check "gnr: no UBOX (8086:3250) at 08.0 of socket 0's bus" \
		test "$(peek pci 0000:85:08.0 0x0 2>/dev/null)" != 0x32508086
	for ((ch = 0; ch < 8; ch++)); do
		poke "mmio 0:$ch 0x40" 0xcf05
		poke "mmio 0:$ch 0x44" 0xcf06
		poke "mmio 0:$ch 0x48" 0xf005
		poke "mmio 0:$ch 0x4c" 0xff06
	done
	echo "cas_rd 8008" > $d/socket0/inject
	for ((ch = 0; ch < 8; ch++)); do
		v0=$(($(peek "mmio 0:$ch 0x8"))); v1=$(($(peek "mmio 0:$ch 0x10")))
		[ $v0 = 501 ] && [ $v1 = 500 ] || msg="$msg ch$ch=$v0+$v1"
	done
	no_problems "gnr: 1001 CAS reads of a channel are 501 on SCH0.RD and 500 on SCH1.RD" "$msg"
	echo "cas_wr 24" > $d/socket0/inject
	check "gnr: 3 CAS writes of a channel: 2 on SCH0.WR, SCH1.ALL 500 reads + 1 write" \
		test $(($(peek "mmio 0:0 0x18"))) = 2 -a $(($(peek "mmio 0:0 0x20"))) = 501
	for ((ch = 0; ch < 8; ch++)); do
		for v0 in 0x40 0x44 0x48 0x4c; do poke "mmio 0:$ch $v0" 0x0; done
	done
}

test_spr_disc() {
	local f="pci 0000:85:00.1" lo q0 q1 q2 stride units i imc=0 other=0 ids=
	check "spr: the discovery function (8086:09a7) is at 85:00.1" \
		test "$(peek "$f" 0x0)" = 0x9a78086
	check "spr: its first extended capability is DVSEC (0x23), the last" \
		test "$(peek "$f" 0x100)" = 0x10023
	check "spr: the DVSEC is Intel's" test $(($(peek "$f" 0x104) & 0xffff)) = $((0x8086))
	check "spr: the DVSEC is PMON discovery (id 1) in BAR 0" \
		test "$(peek "$f" 0x108)" = 0x1 -a "$(peek "$f" 0x10c)" = 0x0
	lo=$(peek "$f" 0x10)
	check "spr: BAR 0 is a 64-bit memory BAR ($lo)" test $((lo & 0xf)) = 4
	check "spr: the table is above 4 GiB" test $(($(peek "$f" 0x14))) != 0
	q0=$(peek mmio 0:table 0x0)
	stride=$(((q0 >> 8) & 0xff))
	units=$(((q0 >> 16) & 0x3ff))
	check "spr: the global entry has stride 4 and units ($units)" \
		test $stride = 4 -a $units -gt 8
	for ((i = 1; i <= units; i++)); do
		q0=$(peek mmio 0:table "$(printf 0x%x $((i * 32)))")
		q1=$(peek mmio 0:table "$(printf 0x%x $((i * 32 + 8)))")
		q2=$(peek mmio 0:table "$(printf 0x%x $((i * 32 + 16)))")
		if [ $((q2 & 0xffff)) = 6 ]; then
			[ $(((q0 >> 62) & 3)) = 1 ] && [ $(((q0 >> 16) & 0xff)) = 48 ] &&
				[ $((q0 & 0xff)) = 4 ] && [ $((q1)) != 0 ] &&
				imc=$((imc + 1)) ids="$ids $(((q2 >> 16) & 0xffff))"
		else
			other=$((other + 1))
		fi
	done
	check "spr: 8 MMIO IMC units of 4 48-bit counters, box ids 0-7 ($ids)" \
		test $imc = 8 -a "$ids" = " 0 1 2 3 4 5 6 7"
	check "spr: units of other types are listed too ($other)" test $other -gt 0
	expect_rc "spr: the table is refused a misaligned qword" 1 "Invalid argument" \
		bash -c "echo 'mmio 0:table 0x4' > $d/peek"
}

test_regs_format() { # UARCH
	local u=$1 bad
	bad=$(grep -Evx 'msr [0-9]+ 0x[0-9a-f]+ 0x[0-9a-f]+|pci [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] 0x[0-9a-f]+ 0x[0-9a-f]+|mmio [0-9]+:([0-9]+|table) 0x[0-9a-f]+ 0x[0-9a-f]+' $d/regs)
	check "$u: every regs line has the documented format" test -z "$bad"
	# sorted: kind, then cpu/function/box, then offset (numerically)
	check "$u: regs is sorted" bash -c "
		prev=
		while read -r kind where off val; do
			case \$kind in
			msr) key=\$(printf 'b %08d %08x' \$where \$off) ;;
			pci) key=\$(printf 'c %s %08x' \$where \$off) ;;
			mmio) key=\$(printf 'a %s %08x' \$where \$off) ;;
			esac
			[[ -z \$prev || \$prev < \$key ]] || exit 1
			prev=\$key
		done < $d/regs"
	check "$u: regs shows PMC0's current value" grep -qx "msr 0 0xc1 $(peek msr 0 0xc1)" $d/regs
}

for u in skx icx spr gnr; do
	if ! insmod "$ko" uarch=$u; then
		not_ok "insmod memdiag_sim.ko uarch=$u"
		continue
	fi
	ok "insmod memdiag_sim.ko uarch=$u"
	check "$u: one debugfs directory per socket" \
		test "$(find $d -maxdepth 1 -name 'socket*' | wc -l)" = "${#pkgs[@]}"
	test_core $u
	test_hotplug $u
	[ $u = gnr ] || test_ubox $u
	[ $u = gnr ] || test_imc $u
	[ $u = icx ] && test_icx_mc
	[ $u = spr ] && test_spr_disc
	[ $u = gnr ] && test_gnr_sch
	test_regs_format $u
	check "$u: rmmod memdiag_sim" rmmod memdiag_sim
	check "$u: rmmod removes the debugfs directory" test ! -e $d
done

tap_end
