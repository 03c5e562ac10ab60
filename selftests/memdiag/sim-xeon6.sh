#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sim-xeon6.sh - the core side of Intel Xeon 6 on the simulated platform,
# inside a test VM: memdiag_sim uarch=gnr (Granite Rapids, Redwood Cove
# P-cores) counts both latency metrics and offcore reads as on Sapphire
# Rapids; uarch=srf (Sierra Forest, Crestmont E-cores) has no
# L1D_PEND_MISS.PENDING and no offcore event for all local DRAM reads, so
# get-info says both capabilities are unavailable and why, and watch,
# left with nothing to measure, says so with the reasons.
# Every register memdiag wrote is as before once it is unloaded. Both
# count DRAM reads and writes in IMC boxes found through discovery tables
# without a UBOX, per DDR5 sub-channel (sim.sh runs its full IMC checks on
# gnr). Prints TAP.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO.
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

ko=${MEMDIAG_KO:?}
declare -A UARCH=([gnr]="Granite Rapids" [srf]="Sierra Forest")

# unavailable ID REGEX: that capability is unavailable, its reason matching
unavailable() {
	jqt ".capabilities[] | select(.id == \"$1\") | .available == false and (.reason | test(\"$2\"))" \
		/tmp/info.json
}

# restored: each control in /tmp/before.regs has its value again in
# /tmp/after.regs, and one first written since (unset: 0) holds 0
restored() {
	# FILENAME, not NR == FNR: an empty "before" would make the "after"
	# file the one read into b[], and every line of it "gone"
	awk 'FILENAME == ARGV[1] { b[$1 " " $2 " " $3] = $4; next }
	     { k = $1 " " $2 " " $3
	       if ((k in b) ? b[k] != $4 : $4 != "0x0") { print "changed: " $0; bad = 1 }
	       delete b[k] }
	     END { for (k in b) { print "gone: " k; bad = 1 }; exit bad }' \
		/tmp/before.regs /tmp/after.regs
}

# dram_rates UARCH: the last interval's DRAM rates are the sim's 10.0 and
# 4.0 GB/s within 1 %: a channel's bytes are both sub-channels'
dram_rates() {
	check_rate "$1: socket 0 DRAM read 10.0 GB/s" /tmp/watch.json 0 read_gbps 10.0
	check_rate "$1: socket 0 DRAM write 4.0 GB/s" /tmp/watch.json 0 write_gbps 4.0
}

# preset_saved: sim_preset, and the controls as memdiag finds them
preset_saved() {
	sim_preset
	sim_controls > /tmp/before.regs
}

# no_numa: without NUMA information the discovery tables go to sockets in
# the order found (the kernel's fallback): every box is still counted
no_numa() {
	local v
	rmmod memdiag
	echo 0 > "$dbg/fail_pci_node_hit"
	echo 4294967295 > "$dbg/fail_pci_node"
	check "gnr: without NUMA information memdiag loads" insmod "$ko" platform=sim
	echo 0 > "$dbg/fail_pci_node"
	check "gnr: ... and asked the platform for both tables' locality" \
		test "$(cat "$dbg/fail_pci_node_hit")" = "$nsock"
	"$ctl" -j watch --all --interval 500ms --count 2 > /tmp/watch.json 2>/tmp/watch.err
	v=$(jq -s -r --argjson n "$nsock" '[.[-$n:][] | .read_gbps] | add' /tmp/watch.json)
	check "gnr: ... and the sockets' reads add up to 10.0 GB/s within 1% (got $v)" near "$v" 10.0
}

for u in gnr srf; do
	echo "# simulated $u"
	sim_load "$u: " "$u" preset_saved || continue
	check "$u: info names ${UARCH[$u]} on platform sim" jqt \
		".platform == \"sim\" and .uarch == \"${UARCH[$u]}\"" /tmp/info.json
	check "$u: imc-bandwidth available" jqt \
		'.capabilities[] | select(.id == "imc-bandwidth") | .available' /tmp/info.json
	sim_busy 10000 4000 200 1000000 500000 3000

	if [ $u = gnr ]; then
		check "gnr: core-latency and offcore available" jqt \
			'[.capabilities[] | select(.id == "core-latency" or .id == "offcore") | .available] == [true, true]' \
			/tmp/info.json
		w=/tmp/watch.json
		sim_watch "gnr: watch measures DRAM, offcore and latency" $w --socket 0 --interval 500ms --count 2
		dram_rates gnr
		check_rate "gnr: offcore reads $cps x 3.0 GB/s" $w 0 offcore_read_gbps "$((cps * 3))"
		check_rate "gnr: load miss real latency 200 cycles" $w 0 load_miss_real_latency_cycles 200
		check_rate "gnr: L1 miss latency 300 cycles" $w 0 l1_miss_latency_cycles 300
	else
		check "srf: core-latency unavailable: no L1D_PEND_MISS.PENDING" \
			unavailable core-latency "Crestmont E-cores have no L1D_PEND_MISS.PENDING"
		check "srf: offcore unavailable: no event for all local DRAM reads" \
			unavailable offcore "no offcore event for all reads from local DRAM"
		"$ctl" info > /tmp/info.txt 2>&1
		check "srf: info's text gives the latency reason" \
			grep -q 'Crestmont E-cores have no L1D_PEND_MISS.PENDING' /tmp/info.txt
		# DRAM bandwidth is what is left to measure
		sim_watch "srf: watch measures DRAM bandwidth without latency" /tmp/watch.json \
			--socket 0 --interval 500ms --count 2
		dram_rates srf
	fi
	[ $u = gnr ] && no_numa
	check "$u: rmmod memdiag" rmmod memdiag
	sim_controls > /tmp/after.regs
	check "$u: every control register is as before the module" restored
	check "$u: rmmod memdiag_sim" rmmod memdiag_sim
done

tap_end
