#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# numa.sh - "memdiagctl run" placement in a guest with two NUMA nodes (one
# CPU and half the memory each; vmtests: VM_NUMA=2): --membind 1 puts the
# memory on node 1 (move_pages says so), --node 1 the threads on node 1's
# CPU, latency --matrix measures the 2 x 2 cells with the memory where each
# cell bound it, sized from the guest's sysfs last-level cache, and a bad
# node is refused. Under TCG a remote load costs what a local one does:
# these are properties of the placement, not latencies. Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

nodes=$(cat /sys/devices/system/node/online 2>/dev/null)
if [ "$nodes" != 0-1 ]; then
	not_ok "the guest has nodes 0-1" "online: '$nodes' (run.sh --numa 2?)"
	tap_end
	exit 1
fi
ok "the guest has nodes 0-1 (CPUs $(cat /sys/devices/system/node/node0/cpulist) and $(cat /sys/devices/system/node/node1/cpulist))"

# 4M: a few ms of chase per repetition under TCG, and more than one page
# for move_pages to be asked about
out=/tmp/mb.json
"$ctl" -j run latency --cpus 0 --membind 1 --size 4M --reps 1 > $out 2> /tmp/mb.err
check "run latency --cpus 0 --membind 1: memory_node 1 (move_pages), cpu_node 0, no membind warning" jqt \
	'.membind == 1 and .results[0].cpu_node == 0 and .results[0].memory_node == 1 and
	 .mem_nodes == [1] and (.warnings | map(select(test("membind"))) | length == 0)' $out
"$ctl" -j run read-delay --node 1 --membind 0 --size 4M --reps 1 > $out 2> /tmp/mb.err
check "run read-delay --node 1 --membind 0: on node 1's CPU, memory_node 0" jqt \
	".cpus == [$(cat /sys/devices/system/node/node1/cpulist)] and .results[0].cpu_node == 1 and
	 .results[0].memory_node == 0" $out
"$ctl" -j run latency --node 1 --size 4M --reps 1 > $out 2> /tmp/mb.err
check "run latency --node 1: cpu_node 1, the memory local (node 1) by default" jqt \
	'.results[0].cpu_node == 1 and .results[0].memory_node == 1 and .membind == null' $out

expect_rc "run latency --node 2: refused, the nodes named, exit 1" 1 \
	"option '--node': node 2 does not exist: this machine's nodes are 0-1" \
	"$ctl" run latency --node 2
expect_rc "run latency --membind 2: refused, exit 1" 1 \
	"option '--membind': node 2 does not exist: the nodes with memory are 0-1" \
	"$ctl" run latency --membind 2

# the matrix at 4M: 2 x 2, each cell's memory where it was bound
"$ctl" -j run latency --matrix --size 4M --reps 1 > $out 2> /tmp/mx.err
check "run latency --matrix -j: cells 0->0, 0->1, 1->0, 1->1, ns_per_load > 0, memory_node = membind" jqt \
	'[.results[] | [.cpu_node, .membind]] == [[0,0],[0,1],[1,0],[1,1]] and
	 ([.results[] | .ns_per_load > 0 and .memory_node == .membind] | all)' $out
"$ctl" run latency --matrix --size 4M --reps 1 > /tmp/mx.txt 2> /tmp/mx.err
check "run latency --matrix: the 2 x 2 text matrix, every entry positive" \
	awk '/^idle latency/ { m = 1; next }
	     m && $1 == "node" { h = ($2 == 0 && $3 == 1); next }
	     m && NF == 3 && $1 ~ /^[01]$/ && $2 > 0 && $3 > 0 { rows++ }
	     END { exit !(h && rows == 2) }' /tmp/mx.txt

# without --size: four times the last-level cache sysfs gives CPU 0
llc=0
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
	l=$(cat "$d/level")
	s=$(cat "$d/size")
	case $s in
	*K) s=$((${s%K} * 1024)) ;;
	*M) s=$((${s%M} * 1048576)) ;;
	esac
	[ "$l" -ge "${best:-0}" ] && best=$l && llc=$s
done
"$ctl" -j run latency --matrix --reps 1 > $out 2> /tmp/mx.err
check "run latency --matrix without --size: each cell 4 x the ${llc}-byte LLC" jqt \
	"[.results[] | .size_bytes == 4 * $llc] | (length == 4 and all)" $out

tap_end
