#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sim-fault.sh - the counters when the platform fails, through memdiag_sim's
# fault injection (fail_* in /sys/kernel/debug/memdiag_sim/, see
# module/sim/fault.c), on each simulated generation:
#
#  - every PCI config read returning all-ones (the device gone) and every
#    MMIO mapping failing while memdiag loads: it loads, and the IMC
#    capability is unavailable with a reason, nothing programmed;
#  - an MSR write that faults, or does not stick, at each point of a
#    session's start in turn, and an MSR read that faults: each start
#    either fails with a message or works, and afterwards every control
#    register holds what it held before.
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

# sweep KIND: fail the Nth operation of a session start, N = 0, 1, ...
session_sweep() { # uarch kind
	local u=$1 k=$2 n=0 rc h bad= known= fails=0 tried=0
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
			# the session ran: the fault hit its end (known defect)
			known="$known point $n: $(diff /tmp/ctl.before /tmp/ctl.after | grep '^>' | head -2 | tr '\n' ' ');"
			repair
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
	# core.c drops a restore write that fails when a session ends, and
	# the next session then finds the counter "in use by another agent"
	[ -z "$known" ] || skip "$u: $k failing as a session ends: registers put back" \
		"known defect: the failed restore is not kept or retried:$known"
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
	load_fault "$u" pci_read
	[ "$u" != skx ] && load_fault "$u" mmio_map
	session_sweep "$u" msr_write
	session_sweep "$u" msr_nostick
	session_sweep "$u" msr_read
	check "$u: rmmod memdiag" rmmod memdiag
	check "$u: rmmod memdiag_sim" rmmod memdiag_sim
done
tap_end
