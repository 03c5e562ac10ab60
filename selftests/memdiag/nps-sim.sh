#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nps-sim.sh - per-node DRAM sums on the simulated Zen 3 (memdiag_sim
# uarch=zen3 nps=N), in a guest whose sockets are split into NUMA nodes
# of equal memory (vmtests: VM_NUMA), as NPS2/NPS4 split an EPYC. N is
# the guest's nodes per socket (sysfs). The sim's channel i carries
# (i + 1) / 36 of its socket's traffic, so a channel summed into the
# wrong node shows. Checked: info's channel -> node table against sysfs
# (each socket's nodes in address order, N runs of 8 / N channels);
# reading the DRAM address maps leaves every register regs lists as it
# was; each node's rdwr_bytes over a 2 s window, while the channels take
# turns on the four counters, within 2 % of what the sim was told for
# its channels, and the nodes summing to the socket total; a fixed
# channel set: the node whose channels it holds measured, the others
# null; maps that do not split into the guest's nodes (nps=N/2) and a
# mode the decoder does not handle (df_map_mode=6): no per-node sums,
# with the reason, in info and in every snapshot. Prints TAP.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO.
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

: "${MEMDIAG_KO:?}" "${MEMDIAG_SIM_KO:?}"
# socket 0: 3600 + 1800 MB/s; socket 1 (if any): 720 MB/s of reads
declare -A GBPS=([0]=5.4 [1]=0.72)

trap sim_cleanup EXIT

# "PACKAGE NODE" for each node of each package's CPUs, from sysfs
sysfs_nodes() {
	local c n
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		for n in "$c"/node[0-9]*; do
			echo "$(cat "$c/topology/physical_package_id") ${n##*node}"
		done
	done | sort -u -n -k1,1 -k2,2
}
nps=$(sysfs_nodes | awk '$1 == 0' | wc -l)
per=$((8 / nps))

# the table info must give: [[node, mask], ...] per package, as JSON
want_table() {
	sysfs_nodes | awk -v per="$per" '
		{ k = n[$1]++; m = 0
		  for (c = k * per; c < (k + 1) * per; c++) m += 2 ^ c
		  t[$1] = t[$1] (k ? "," : "") "[" $2 "," m "]" }
		END { for (p in t) print p, "[" t[p] "]" }' | sort -n
}

# nps_load ARGS...: memdiag_sim uarch=zen3 ARGS, memdiag on it, info
nps_load() {
	insmod "$MEMDIAG_SIM_KO" uarch=zen3 "$@" &&
		cat $dbg/regs > /tmp/nps_regs_before &&
		insmod "$MEMDIAG_KO" platform=sim &&
		"$ctl" -j info > /tmp/info.json
}

nps_unload() {
	[ -n "${W_PID:-}" ] && kill "$W_PID" 2>/dev/null && wait "$W_PID" 2>/dev/null
	W_PID=
	rmmod memdiag
	rmmod memdiag_sim
}

# two snapshots 2 s apart while a watch turns the channels every 100 ms
# (with WATCH_ARGS): /tmp/npsa.json, /tmp/npsb.json
nps_window() {
	"$ctl" -j watch --all --interval 100ms "$@" > /dev/null 2>/tmp/npsw.err &
	W_PID=$!
	sleep 0.5
	"$ctl" -j snapshot --all > /tmp/npsa.json 2>/dev/null
	sleep 2
	"$ctl" -j snapshot --all > /tmp/npsb.json 2>/dev/null
}

# node_rates SOCKET: "# socket S node N: G GB/s (want W)" for the log
node_rates() {
	jq -n -r --slurpfile a /tmp/npsa.json --slurpfile b /tmp/npsb.json \
		--argjson s "$1" --argjson want "${GBPS[$1]}" '
		($a[0][] | select(.socket == $s)) as $x |
		($b[0][] | select(.socket == $s)) as $y |
		$y.df_nodes[]? | . as $n |
		($x.df_nodes[] | select(.id == $n.id)) as $p |
		"# socket \($s) node \($n.id): \(($n.rdwr_bytes - $p.rdwr_bytes) /
		 ($y.time_ns - $x.time_ns) * 1e4 | round / 1e4) GB/s (sim: \(
		 [range(8) | select(($n.channels_mask / pow(2; .) | floor) % 2 == 1) |
		  $want * (. + 1) / 36] | add * 1e4 | round / 1e4))"' 2>/dev/null
}

# node_check NAME SOCKET: each node's rate between the two snapshots is
# its channels' share of the socket's GBPS within 2 %, and the nodes'
# bytes sum to the socket's (within 0.1 %)
node_check() {
	local bad
	bad=$(jq -n -r --slurpfile a /tmp/npsa.json --slurpfile b /tmp/npsb.json \
		--argjson s "$2" --argjson want "${GBPS[$2]}" '
		($a[0][] | select(.socket == $s)) as $x |
		($b[0][] | select(.socket == $s)) as $y |
		($y.time_ns - $x.time_ns) as $dt |
		if ($y.df_nodes | length) == 0 then "no df_nodes" else
		([$y.df_nodes[] | . as $n |
		  ($x.df_nodes[] | select(.id == $n.id)) as $p |
		  ($n.rdwr_bytes - $p.rdwr_bytes)] | add) as $sum |
		($y.rdwr_bytes - $x.rdwr_bytes) as $tot |
		(if (($sum - $tot) | fabs) > 0.001 * $tot then
		  "nodes sum to \($sum) bytes, the socket \($tot)" else empty end),
		($y.df_nodes[] | . as $n |
		 ($x.df_nodes[] | select(.id == $n.id)) as $p |
		 (($n.rdwr_bytes - $p.rdwr_bytes) / $dt) as $g |
		 ([range(8) | select(($n.channels_mask / pow(2; .) | floor) % 2 == 1) |
		   $want * (. + 1) / 36] | add) as $w |
		 select((($g - $w) | fabs) > 0.02 * $w) |
		 "node \($n.id): \($g) GB/s, want \($w)") end' 2>&1) ||
		bad="no socket $2 in both snapshots: $bad"
	no_problems "$1" "$bad"
}

# no_nodes NAME REASON: info and both snapshots say REASON, no df_nodes
no_nodes() {
	check "$1: info says why for every socket" jqt \
		"all(.sockets[]; (.df_nodes_reason | test(\"$2\")) and (has(\"df_nodes\") | not))" /tmp/info.json
	check "$1: every snapshot says why, without df_nodes" jqt \
		"all(.[]; (.df_nodes_reason | test(\"$2\")) and (has(\"df_nodes\") | not))" /tmp/npsb.json
}

echo "# guest: $nps NUMA nodes per socket, $per channels a node"
if [ "$nps" != 2 ] && [ "$nps" != 4 ]; then
	not_ok "the guest splits socket 0 into 2 or 4 NUMA nodes ($nps)"
	tap_end
	exit 1
fi

if nps_load nps="$nps"; then
	ok "zen3 nps=$nps: memdiag_sim and memdiag load"
else
	not_ok "zen3 nps=$nps: memdiag_sim and memdiag load"
	tap_end
	exit 1
fi
nsock=$(jq .nr_sockets /tmp/info.json)
got=$(jq -r '.sockets[] | "\(.package_id) \([.df_nodes[]? | [.id, .channels_mask]] | tojson)"' /tmp/info.json)
want=$(want_table)
check "info's channel -> node table is sysfs's nodes in order ($got)" \
	test "$got" = "$want"
check "info (text) names node and channels" sh -c \
	"\"$ctl\" info | grep -Eq '^    numa node [0-9]+  dram channels 0-$((per - 1))\$'"
check "reading the DRAM address maps changed no register regs lists" \
	sh -c "cat $dbg/regs | cmp -s - /tmp/nps_regs_before"

set_rates 0 3600 1800 0 0 0 0
[ "$nsock" -gt 1 ] && set_rates 1 720 0 0 0 0 0
nps_window
for ((s = 0; s < nsock; s++)); do
	node_rates "$s"
	node_check "socket $s: each node's rate within 2 % of its channels' share, across the rotation" "$s"
done
check "snapshot (text) has a df-node row per node" sh -c \
	"\"$ctl\" snapshot --all | grep -c '^df-node [0-9]* rdwr-bytes' | grep -qx $((nps * nsock))"
kill "$W_PID"; wait "$W_PID" 2>/dev/null; W_PID=

# a fixed set: node 0's channels measured, every other node null
set=$(seq -s, 0 $((per - 1)))
nps_window --df-channels "$set"
check "--df-channels $set: socket 0's first node has rdwr_bytes, the others null" jqt \
	'.[] | select(.socket == 0) | (.df_nodes[0].rdwr_bytes != null) and
	 all(.df_nodes[1:][]; .rdwr_bytes == null)' /tmp/npsb.json
nps_unload

# maps over two of the guest's nodes each: refused, with the reason
if nps_load nps=$((nps / 2)); then
	nps_window
	no_nodes "nps=$((nps / 2)) in a guest of $nps nodes a socket" "in more than one NUMA node"
	nps_unload
else
	not_ok "zen3 nps=$((nps / 2)): memdiag_sim and memdiag load"
fi
# the 6-channel mode the decoder does not handle
if nps_load nps="$nps" df_map_mode=6; then
	nps_window
	no_nodes "df_map_mode=6" "interleave mode 0x6 is not decoded"
	nps_unload
else
	not_ok "zen3 df_map_mode=6: memdiag_sim and memdiag load"
fi
tap_end
