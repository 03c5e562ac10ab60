#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# place.sh - "run --node/--socket/--membind", "run latency --matrix" and
# what --hugepages was granted, on the host (TAP "ok - " lines, no module
# needed). This host may have one NUMA node: a fake sysfs
# (MEMDIAG_TEST_SYSFS_NODE, MEMDIAG_TEST_SYSFS_CPU) gives two nodes and two
# sockets for the option checks and the matrix's shape; memory bound to a
# node the kernel does not have stays on node 0, which is the "landed
# elsewhere" warning. Real remote memory is tested in a 2-node guest
# (selftests/memdiag/numa.sh).
# usage: place.sh MEMDIAGCTL
. "$(dirname "$0")/tap.sh"

rh="see 'memdiagctl run --help'"

# refused RC TEXT ARGS...: exit RC, TEXT on stderr, nothing on stdout
refused() {
	want=$1 text=$2
	shift 2
	"$bin" run "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = "$want" ] && [ ! -s "$tmp/out" ] &&
		grep -qF -- "$text" "$tmp/err"
	ok "run $* -> exit $want (got $rc), \"$text\"" $? "$(cat "$tmp/err" "$tmp/out")"
}

# jq_ok FILTER NAME: the last -j output ($tmp/out) satisfies FILTER
jq_ok() {
	[ -s "$tmp/out" ] && jq -e "$1" "$tmp/out" > /dev/null 2>&1
	ok "$2" $? "$(cat "$tmp/out" "$tmp/err")"
}

# two nodes of one CPU each and a third with memory only; CPUs 0 and 1
# in packages 0 and 1 (this host has at least two CPUs: make check's VMs)
fake=$tmp/node
mkdir -p "$fake/node0" "$fake/node1" "$fake/node2" "$tmp/cpu/cpu0/topology" \
	"$tmp/cpu/cpu1/topology"
echo 0-2 > "$fake/online"
echo 0-1 > "$fake/has_cpu"
echo 0-2 > "$fake/has_memory"
echo 0 > "$fake/node0/cpulist"
echo 1 > "$fake/node1/cpulist"
echo > "$fake/node2/cpulist"
echo 0-1 > "$tmp/cpu/online"
echo 0 > "$tmp/cpu/cpu0/topology/physical_package_id"
echo 1 > "$tmp/cpu/cpu1/topology/physical_package_id"
export MEMDIAG_TEST_SYSFS_NODE="$fake" MEMDIAG_TEST_SYSFS_CPU="$tmp/cpu"

refused 1 "option '--node': node 5 does not exist: this machine's nodes are 0-2: $rh" \
	latency --node 5
refused 1 "option '--node': node 2 has no CPUs (memory only): the nodes with CPUs are 0-1: $rh" \
	latency --node 2
refused 1 "option '--node': 'one' is not a number" latency --node one
refused 1 "option '--socket': socket 2 does not exist: this machine's sockets are 0-1: $rh" \
	read-delay --socket 2
refused 1 "option '--membind': node 7 does not exist: the nodes with memory are 0-2: $rh" \
	latency --membind 7
refused 1 "options '--cpus' and '--node 1' exclude each other: give one: $rh" \
	latency --node 1 --cpus 0
refused 1 "options '--node' and '--socket' exclude each other" \
	latency --node 0 --socket 0
refused 1 "option '--threads': '2' is more than the 1 CPU of --node 1 this process may use (1): $rh" \
	read-delay --node 1 --threads 2
refused 1 "option '--matrix': kernel 'read-delay' has no matrix (only latency has): $rh" \
	read-delay --matrix
refused 1 "options '--matrix' and '--node 0' exclude each other" \
	latency --matrix --node 0
refused 1 "options '--matrix' and '--membind' exclude each other" \
	latency --matrix --membind 0
refused 1 "option '--membind': kernel 'transpose' cannot bind its memory: its matrices are allocated before its threads start: $rh" \
	transpose --membind 0
refused 1 "option '--size': --matrix takes one size" \
	latency --matrix --size 16K,32K
echo 0 > "$fake/has_memory"
refused 1 "option '--membind': node 1 has no memory: the nodes with memory are 0: $rh" \
	latency --membind 1
echo 0-2 > "$fake/has_memory"

# the threads go to the node's or the socket's CPUs
"$bin" -j run latency --node 1 --size 16K --reps 1 > "$tmp/out" 2> "$tmp/err"
jq_ok '.cpus == [1] and .threads == 1' "run latency --node 1 (fake: CPU 1) -> on CPU 1"
"$bin" -j run read-delay --socket 1 --size 64K --reps 1 > "$tmp/out" 2> "$tmp/err"
jq_ok '.cpus == [1]' "run read-delay --socket 1 (fake: CPU 1) -> on CPU 1"
"$bin" -j run loaded-latency --socket 0 --reps 1 > "$tmp/out" 2> "$tmp/err"
grep -q "needs at least 2 threads" "$tmp/err"
ok "run loaded-latency --socket 0 (one CPU) -> its default of every CPU is that socket's one" $? "$(cat "$tmp/err")"

# --membind 1, a node this kernel does not have: the memory stays on node
# 0, and the result says so (move_pages) with a warning
"$bin" -j run latency --membind 1 --size 64K --reps 1 > "$tmp/out" 2> "$tmp/err"
jq_ok '.membind == 1 and .results[0].memory_node == 0 and
	(.warnings | map(select(test("^--membind 1: latency: the memory is on node 0 \\(move_pages\\), not node 1"))) | length == 1)' \
	"run latency --membind 1 (fake node) -> memory_node 0 and the landed-elsewhere warning"

"$bin" -j run stream --membind 1 --size 1M --reps 1 > "$tmp/out" 2> "$tmp/err"
jq_ok '.results[0].memory_node == 0 and
	(.warnings | map(select(test("^--membind 1: stream: the memory is on node 0"))) | length == 1)' \
	"run stream --membind 1 (fake node) -> every kernel's memory checked, warned"

# the matrix: 2 CPU nodes x 3 memory nodes, row-major, every cell positive
"$bin" -j run latency --matrix --size 64K --reps 1 > "$tmp/out" 2> "$tmp/err"
jq_ok '[.results[] | .membind] == [0,1,2,0,1,2] and [.results[] | .cpu_node] == [0,0,0,0,0,0]' \
	"run latency --matrix (fake 2 CPU nodes, 3 memory nodes) -> 6 cells, row-major; cpu_node as measured (this kernel's node 0)"
jq_ok '[.results[] | .ns_per_load > 0 and .threads == 1] | all' \
	"run latency --matrix -> every cell's ns_per_load > 0, one thread"
jq_ok '.cpus == [0,1] and .threads == 1 and ([.results[] | .memory_node] | all(. == 0))' \
	"run latency --matrix -> one thread on the first CPU of each node; memory_node: where the pages are (0: the fake nodes have none)"
"$bin" run latency --matrix --size 64K --reps 1 > "$tmp/out" 2> "$tmp/err"
grep -q '^idle latency, ns per load (rows: CPU node, columns: memory node)' "$tmp/out" &&
	grep -Eq '^ +node +0 +1 +2$' "$tmp/out" &&
	[ "$(grep -Ec '^ +[01]( +[0-9]+\.[0-9]){3}$' "$tmp/out")" = 2 ]
ok "run latency --matrix -> the text matrix, 2 rows x 3 columns" $? "$(cat "$tmp/out")"
"$bin" run latency --matrix --size 64K --reps 1 --csv > "$tmp/out" 2> "$tmp/err"
[ "$(wc -l < "$tmp/out")" = 7 ] && head -1 "$tmp/out" | grep -q ',cpu_node,memory_node,'
ok "run latency --matrix --csv -> a header and 6 rows with cpu_node, memory_node" $? "$(cat "$tmp/out")"

# Ctrl-C during the matrix (the test hook raises SIGINT once 2 cells are
# measured): those 2, valid JSON, exit 130
MEMDIAG_TEST_SIGINT_AFTER=2 "$bin" -j run latency --matrix --size 16K --reps 1 \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
jq_ok '[.results[] | [.membind, .ns_per_load > 0]] == [[0,true],[1,true]]' \
	"run latency --matrix: Ctrl-C after 2 cells -> those 2 cells, valid JSON"
[ $rc = 130 ] && grep -q "interrupted: the results finished before Ctrl-C are printed" "$tmp/err"
ok "run latency --matrix: Ctrl-C -> exit 130 (got $rc), says so" $? "$(cat "$tmp/err")"
MEMDIAG_TEST_SIGINT_AFTER=2 "$bin" run latency --matrix --size 16K --reps 1 \
	> "$tmp/out" 2> "$tmp/err"
grep -Eq '^ +0 +[0-9.]+ +[0-9.]+ +-$' "$tmp/out" && grep -Eq '^ +1 +- +- +-$' "$tmp/out"
ok "run latency --matrix: Ctrl-C -> the text matrix has the 2 cells and '-' for the rest" $? "$(cat "$tmp/out")"
unset MEMDIAG_TEST_SYSFS_NODE MEMDIAG_TEST_SYSFS_CPU

# this host's own nodes: bound memory is where it was bound
"$bin" -j run read-delay --node 0 --membind 0 --size 1M --reps 1 > "$tmp/out" 2> "$tmp/err"
jq_ok '.membind == 0 and .results[0].cpu_node == 0 and .results[0].memory_node == 0 and
	(.warnings | map(select(test("membind"))) | length == 0)' \
	"run read-delay --node 0 --membind 0 -> cpu_node 0, memory_node 0, no warning"
"$bin" run latency --membind 0 --size 16K --reps 1 > "$tmp/out" 2> "$tmp/err"
grep -q ', memory bound to node 0, on node 0,' "$tmp/out"
ok "run latency --membind 0 -> the head says where the memory is" $? "$(cat "$tmp/out")"

# --hugepages: what was granted, and the warning when it was not
"$bin" -j run latency --hugepages --size 16K --reps 1 > "$tmp/out" 2> "$tmp/err"
jq_ok '.hugepages_requested == true and .results[0].hugepage_bytes == 0 and
	(.warnings | map(select(test("^hugepages asked for but not granted: latency 16K: 0% of its memory is in huge pages - each buffer is smaller than one 2M huge page"))) | length == 1)' \
	"run latency --hugepages --size 16K -> not granted, warned with the reason"
"$bin" -j run latency --size 16K --reps 1 > "$tmp/out" 2> "$tmp/err"
jq_ok '.hugepages_requested == false and (.warnings | map(select(test("hugepages"))) | length == 0)' \
	"run latency without --hugepages -> no hugepage warning"
mode=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
"$bin" -j run read-delay --hugepages --size 8M --reps 1 > "$tmp/out" 2> "$tmp/err"
case $mode in
always|madvise)
	jq_ok '.results[0].page_size_bytes == 2097152 and .results[0].hugepage_bytes >= 6291456 and
		(.warnings | map(select(test("hugepages"))) | length == 0)' \
		"run read-delay --hugepages 8M (THP $mode) -> granted: 2M pages, no warning" ;;
*)
	jq_ok '.results[0].hugepage_bytes == 0 and
		(.warnings | map(select(test("transparent hugepages are \"never\" here"))) | length == 1)' \
		"run read-delay --hugepages 8M (THP ${mode:-absent}) -> not granted: warned, THP never" ;;
esac
# stream: its buffers' pages, each row, and the warning once
"$bin" -j run stream --hugepages --size 8M --threads 1 --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
case $mode in
always|madvise)
	jq_ok '(.results | length == 4) and all(.results[]; .page_size_bytes == 2097152 and
		.hugepage_bytes >= 12582912 and .pages_from != null) and
		(.warnings | map(select(test("hugepages"))) | length == 0)' \
		"run stream --hugepages 8M (THP $mode) -> granted: 2M pages on every op's row" ;;
*)
	jq_ok 'all(.results[]; .hugepage_bytes == 0) and
		(.warnings | map(select(test("^hugepages asked for but not granted: stream 8M: "))) | length == 1)' \
		"run stream --hugepages 8M (THP ${mode:-absent}) -> not granted: warned once" ;;
esac
"$bin" -j run stream --hugepages --size 16K --threads 1 --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
jq_ok 'all(.results[]; .hugepage_bytes == 0 and .page_size_bytes > 0) and
	(.warnings | map(select(test("^hugepages asked for but not granted: stream 16K: 0% of its memory is in huge pages"))) | length == 1)' \
	"run stream --hugepages --size 16K -> 4K pages reported, warned once"
# loaded-latency's chase asks for huge pages whatever --hugepages says
# (as calibrate's): its pages on each delay's row, a warning where THP
# cannot give them
"$bin" -j run loaded-latency --threads 2 --delay 0,100 --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
case $mode in
always|madvise)
	jq_ok '(.results | length == 2) and all(.results[]; .page_size_bytes == 2097152 and
		.hugepage_bytes >= 33554432) and
		(.warnings | map(select(test("hugepages"))) | length == 0)' \
		"run loaded-latency (THP $mode) -> the chase in 2M pages on each delay's row" ;;
*)
	jq_ok '(.results | length == 2) and all(.results[]; .hugepage_bytes == 0) and
		(.warnings | map(select(test("^hugepages asked for but not granted: loaded-latency.s chase: "))) | length == 1)' \
		"run loaded-latency (THP ${mode:-absent}) -> the chase not in huge pages: warned once" ;;
esac
# throughput, traffic, stencil and transpose: granted at 8M (four 2M pages
# and more per buffer) where THP is always or madvise; 16K never, warned
# once per run; each row carries its pages
q="--threads 1 --reps 1 --min-time 0"
granted() {	# KERNEL ROWS MIN_HUGE ARGS...: the 8M run
	k=$1 rows=$2 min=$3
	shift 3
	"$bin" -j run "$k" --hugepages --size 8M $q "$@" > "$tmp/out" 2> "$tmp/err"
	case $mode in
	always|madvise)
		jq_ok "(.results | length == $rows) and all(.results[]; .page_size_bytes == 2097152 and
			.hugepage_bytes >= $min and .pages_from != null) and
			(.warnings | map(select(test(\"hugepages\"))) | length == 0)" \
			"run $k --hugepages 8M (THP $mode) -> granted: 2M pages on each of $rows rows" ;;
	*)
		jq_ok "all(.results[]; .hugepage_bytes == 0) and
			(.warnings | map(select(test(\"^hugepages asked for but not granted: $k 8M\"))) | length == 1)" \
			"run $k --hugepages 8M (THP ${mode:-absent}) -> not granted: warned once" ;;
	esac
}
# KERNEL ROWS WHAT ARGS...: the 16K run, one warning naming WHAT
small() {
	k=$1 rows=$2 what=$3
	shift 3
	"$bin" -j run "$k" --hugepages --size 16K $q "$@" > "$tmp/out" 2> "$tmp/err"
	jq_ok "(.results | length == $rows) and all(.results[]; .hugepage_bytes == 0 and .page_size_bytes > 0) and
		(.warnings | map(select(test(\"hugepages\"))) | length == 1) and
		(.warnings | map(select(startswith(\"hugepages asked for but not granted: $what: 0% of its memory is in huge pages - each buffer is smaller than one 2M huge page\"))) | length == 1)" \
		"run $k --hugepages --size 16K $* -> 4K pages on each row, warned once: $what"
}
granted throughput 2 6291456 --mix load,load-nop
small throughput 2 "throughput 16K" --mix load,load-nop
granted traffic 1 6291456
small traffic 1 "traffic 16K"
# jacobi: two grids of 101^3 doubles (8.2M each)
granted stencil 1 12582912 --variant jacobi-threaded --sweeps 2 --model-gbps 10
small stencil 4 "stencil 16K (jacobi-threaded, jacobi-wavefront, gs-threaded, gs-wavefront)" \
	--sweeps 2 --model-gbps 10
# N = 1024: the source and a destination per variant, 8M each
granted transpose 2 12582912 --variant naive,sse
small transpose 2 "transpose 16K (naive, sse)" --variant naive,sse
# N = 368: two matrices of 1058K, more than 2M together, yet neither can
# hold a huge page
"$bin" -j run transpose --hugepages --size 1060K --variant naive $q > "$tmp/out" 2> "$tmp/err"
jq_ok '.warnings | map(select(test("^hugepages asked for but not granted: transpose 1060K \\(naive\\): 0% of its memory is in huge pages - each buffer is smaller than one 2M huge page$"))) | length == 1' \
	"run transpose --hugepages --size 1060K -> the reason is the buffers' size, not their sum"
# "never" as the reason, whatever this host has (a 16K buffer is never granted)
echo "always madvise [never]" > "$tmp/thp"
MEMDIAG_TEST_THP_ENABLED=$tmp/thp "$bin" -j run latency --hugepages --size 16K --reps 1 > "$tmp/out" 2> "$tmp/err"
jq_ok '.warnings | map(select(test("latency 16K: 0% of its memory is in huge pages - transparent hugepages are \"never\" here"))) | length == 1' \
	"run latency --hugepages with THP \"never\" -> the warning names it"

tap_end
