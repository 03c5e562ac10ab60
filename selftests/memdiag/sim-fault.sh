#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sim-fault.sh - the counters when the platform fails, through memdiag_sim's
# fault injection (fail_* in /sys/kernel/debug/memdiag_sim/, see
# module/sim/fault.c), on each simulated generation:
#
#  - memdiag's first allocation at load failing: insmod fails, the next
#    one works;
#  - every PCI config read returning all-ones (the device gone) and every
#    MMIO mapping failing while memdiag loads: it loads, and the IMC
#    capability is unavailable with a reason, nothing programmed;
#  - an MSR write that faults, or does not stick, at each point of a
#    session's start in turn, and an MSR read that faults: each start
#    either fails with a message or works, and afterwards every control
#    register holds what it held before; where the fault hits the
#    restore as the session ends, get-info counts the CPU, and the next
#    session (not refused) or rmmod puts every register back.
#
# Each injected fault is checked to have fired.
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO; MEMDIAG_SIM_UARCHS (default
# "skx icx spr"); FAULT_STEP (sweep every Nth point, default 5; make
# stress: 1) and FAULT_POINTS (the most points swept, default 80).
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh
. selftests/memdiag/prefetch-lib.sh	# fault

max=${FAULT_POINTS:-80}
step=${FAULT_STEP:-5}

# a register written back to 0 is as if never written
controls() { sim_controls | awk '$4 != "0x0"'; }

# imc_unavailable NAME [KNOWN]: info says the IMC counters are unavailable,
# and why; KNOWN names a defect not fixed yet, reported as a skip
imc_unavailable() {
	"$ctl" -j info > /tmp/info.json 2>&1
	if jqt '[.capabilities[] | select(.id | test("imc"))] |
		length > 0 and all(.available == false and (.reason | length) > 0)' \
		/tmp/info.json > /dev/null; then
		ok "$1"
	elif [ -n "${2:-}" ]; then
		skip "$1" "known defect: $2"
	else
		not_ok "$1" "$(jq -c '.capabilities' /tmp/info.json 2>&1 | head -c 600)"
	fi
}

# load with KIND failing always: memdiag loads, IMC unavailable, nothing set
load_fault() { # uarch kind [known defect]
	local u=$1 k=$2 known=${3:-}
	fault "$k" 4294967295 0
	check "$u: insmod memdiag with every $k failing" insmod "$ko" platform=sim
	echo 0 > "$dbg/fail_$k"
	check "$u: the $k fault fired while memdiag loaded" \
		test "$(cat $dbg/fail_${k}_hit)" -gt 0
	imc_unavailable "$u: $k failing at load: IMC counters unavailable, with the reason" "$known"
	check "$u: $k failing at load: no IMC register programmed" sh -c \
		"! awk '\$1 != \"msr\" && \$3 ~ /^0x(d8|dc|e0|e4|f4|40|44|48|4c|54)\$/ && \$4 != \"0x0\"' $dbg/regs | grep -q ."
	check "$u: rmmod memdiag" rmmod memdiag
}

# load_alloc_fault UARCH: memdiag's first allocation fault point at load
# (the prefetcher state memdiag_prefetch_init allocates) failing makes
# insmod fail with ENOMEM, through the error path of memdiag_init, which
# takes down what was set up before it: the next insmod works
load_alloc_fault() {
	local u=$1
	fault alloc 1 0
	expect_rc "$u: insmod memdiag with its first allocation failing is refused" \
		1 "Cannot allocate memory" insmod "$ko" platform=sim
	echo 0 > "$dbg/fail_alloc"
	check "$u: ... the alloc fault fired once" test "$(cat "$dbg/fail_alloc_hit")" = 1
	check "$u: ... memdiag is not loaded" sh -c "! lsmod | grep -q '^memdiag '"
	check "$u: ... then insmod memdiag works" insmod "$ko" platform=sim
	check "$u: ... and rmmod memdiag" rmmod memdiag
}

# failed_restore_cnt: get-info's count of CPUs not put back ("" if absent)
failed_restore_cnt() {
	"$ctl" -j info 2>/dev/null | jq -r '.core_restore_failed_cpus // ""'
}

# after_failed_restore POINT HOW: the session ran but its restore failed
# (registers differ): get-info must count it, and HOW ("session": the next
# session, which must not be refused; "rmmod": unloading) must put every
# register back. Sets $why and fails otherwise.
after_failed_restore() {
	local n=$1 how=$2 cnt
	cnt=$(failed_restore_cnt)
	if [ "${cnt:-0}" -le 0 ]; then
		why="point $n: registers differ, get-info reports core_restore_failed_cpus '${cnt}';"
		return 1
	fi
	if [ "$how" = rmmod ]; then
		if ! rmmod memdiag; then
			why="point $n: rmmod failed;"
			return 1
		fi
	elif ! "$ctl" watch --all --interval 100ms --count 1 > /tmp/out2 2>&1; then
		why="point $n: the next session was refused: $(head -c 300 /tmp/out2);"
		return 1
	fi
	controls > /tmp/ctl.after
	if ! cmp -s /tmp/ctl.before /tmp/ctl.after; then
		why="point $n: after $how still: $(diff /tmp/ctl.before /tmp/ctl.after | grep '^[<>]' | head -2 | tr '\n' ' ');"
		return 1
	fi
	[ "$how" = rmmod ] && ! insmod "$ko" platform=sim && { why="point $n: insmod failed;"; return 1; }
	cnt=$(failed_restore_cnt)
	[ "$cnt" = 0 ] || { why="point $n: after $how get-info still reports $cnt;"; return 1; }
}

# sweep KIND: fail the Nth operation of a session start, N = 0, 1, ...
session_sweep() { # uarch kind
	local u=$1 k=$2 n=0 rc h bad= ends=0 by_rmmod=0 endbad= fails=0 tried=0 why how
	# a fresh memdiag: what one sweep taught it cannot hide the next
	lsmod | grep -q '^memdiag ' && rmmod memdiag
	insmod "$ko" platform=sim || { not_ok "$u: insmod memdiag for $k"; return; }
	controls > /tmp/ctl.before
	while [ $n -lt "$max" ]; do
		fault "$k" 1 $n
		"$ctl" watch --all --interval 100ms --count 1 > /tmp/out 2>&1 && rc=0 || rc=$?
		h=$(cat $dbg/fail_${k}_hit)
		fault "$k" 0 0
		if [ "$h" = 0 ]; then			# past the last point
			[ $n = 0 ] && bad="no $k at all: exit $rc: $(head -c 300 /tmp/out)"
			break
		fi
		tried=$((tried + 1))
		if [ $rc != 0 ]; then
			fails=$((fails + 1))
			grep -q "memdiagctl: watch: " /tmp/out ||
				bad="$bad point $n: exit $rc without a message;"
		fi
		controls > /tmp/ctl.after
		if cmp -s /tmp/ctl.before /tmp/ctl.after; then
			:
		elif [ $rc = 0 ]; then
			# the session ran: the fault hit its restore; the first
			# such point is put back by rmmod, the others by a session
			ends=$((ends + 1))
			how=session
			[ $ends = 1 ] && how=rmmod
			if after_failed_restore $n $how; then
				[ $how = rmmod ] && by_rmmod=1
			else
				endbad="$endbad $why"
				lsmod | grep -q '^memdiag ' || insmod "$ko" platform=sim
				repair
			fi
		else
			bad="$bad point $n (exit $rc): $(diff /tmp/ctl.before /tmp/ctl.after | grep '^[<>]' | head -4 | tr '\n' ' ');"
			repair
		fi
		n=$((n + step))
	done
	if [ -z "$bad" ] && [ $n -gt 0 ]; then
		ok "$u: $k failing at $tried points of a session, every ${step}th of $n ($fails refused): registers as before"
	else
		not_ok "$u: $k failing at each point of a session ($n points)" "$bad"
	fi
	# a write fault or a dropped write must hit some restore, else this
	# check could not fail
	if [ -n "$endbad" ]; then
		not_ok "$u: $k failing as a session ends ($ends points)" "$endbad"
	elif [ $ends -gt 0 ]; then
		ok "$u: $k failing as a session ends ($ends points): counted by get-info, put back by rmmod ($by_rmmod) and the next session ($((ends - by_rmmod)))"
	elif [ "$k" != msr_read ]; then
		not_ok "$u: $k failing as a session ends" "no point of the sweep hit a session's restore"
	fi
}

# sticky_leftover UARCH: from the middle of a session on, writes to the
# fixed counter control (0x38d) are dropped, so the restore as the session
# ends fails and memdiag's value stays. get-info must count it; the next
# session must take memdiag's own leftover over (not refuse it as another
# agent's) and keep the originals first saved, so that rmmod, once writes
# stick again, puts every register back.
sticky_leftover() {
	local u=$1 pid i=0
	lsmod | grep -q '^memdiag ' && rmmod memdiag
	insmod "$ko" platform=sim || { not_ok "$u: insmod memdiag for the leftover"; return; }
	controls > /tmp/ctl.before
	"$ctl" watch --all --interval 200ms --count 8 > /tmp/out 2>&1 &
	pid=$!
	while [ "$(peek msr 0 0x38d)" = 0x0 ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo 0x38d > $dbg/fail_msr_addr
	fault msr_nostick 4294967295 0
	wait $pid
	check "$u: a session whose FIXED_CTR_CTRL stops taking writes midway ends" \
		test $? = 0 -a $i -lt 300
	check "$u: ... its restore fails: get-info counts the CPUs" \
		test "$(failed_restore_cnt)" -gt 0
	check "$u: ... the next session takes memdiag's own leftover over" \
		"$ctl" watch --all --interval 100ms --count 1
	fault msr_nostick 0 0
	echo 0 > $dbg/fail_msr_addr
	check "$u: ... once writes stick, rmmod memdiag" rmmod memdiag
	controls > /tmp/ctl.after
	check "$u: ... and every register holds what it held before the first session" \
		cmp /tmp/ctl.before /tmp/ctl.after || diff /tmp/ctl.before /tmp/ctl.after | head -8 | sed 's/^/#   /'
	insmod "$ko" platform=sim
}

# repair: put every control register back to /tmp/ctl.before (0 if absent)
repair() {
	local kind where addr val old
	diff /tmp/ctl.before /tmp/ctl.after | sed -n 's/^> //p' |
	while read -r kind where addr val; do
		old=$(awk -v k="$kind" -v w="$where" -v a="$addr" \
			'$1 == k && $2 == w && $3 == a { print $4 }' /tmp/ctl.before)
		poke "$kind $where $addr ${old:-0x0}"
	done
	diff /tmp/ctl.before /tmp/ctl.after | sed -n 's/^< //p' |
	while read -r kind where addr val; do
		poke "$kind $where $addr $val"
	done
}

for u in ${MEMDIAG_SIM_UARCHS:-skx icx spr}; do
	echo "# simulated $u"
	check "$u: insmod memdiag_sim uarch=$u" insmod "$simko" uarch=$u || continue
	load_alloc_fault "$u"
	load_fault "$u" pci_read
	[ "$u" != skx ] && load_fault "$u" mmio_map
	session_sweep "$u" msr_write
	session_sweep "$u" msr_nostick
	session_sweep "$u" msr_read
	sticky_leftover "$u"
	check "$u: rmmod memdiag" rmmod memdiag
	check "$u: rmmod memdiag_sim" rmmod memdiag_sim
done
tap_end
