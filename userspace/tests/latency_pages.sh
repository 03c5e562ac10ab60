#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# latency_pages.sh - "run latency"'s pages, on the host (TAP "ok - "
# lines, no module needed): with the defaults, a working set past the
# last-level cache is chased over the pages memdiag reports, checked
# against the process's own /proc/PID/smaps_rollup read here while the
# chase runs; --pages 4k rows say 4K and page walks; huge pages asked for
# and refused (THP disabled for the process, nothp.bin) say so and warn.
# usage: latency_pages.sh MEMDIAGCTL NOTHP_BIN
. "$(dirname "$0")/tap.sh"
nothp=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")

# jq_ok FILTER NAME: the last -j output ($tmp/out) satisfies FILTER
jq_ok() {
	jq -e "$1" "$tmp/out" > /dev/null 2>&1
	ok "$2" $? "$(cat "$tmp/out" "$tmp/err")"
}

# CPU 0's last-level cache in bytes, from sysfs (the highest level listed)
llc=0 best=0
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ -r "$d/level" ] && [ -r "$d/size" ] || continue
	l=$(cat "$d/level") s=$(cat "$d/size")
	case $s in
	*K) s=$((${s%K} * 1024)) ;;
	*M) s=$((${s%M} * 1048576)) ;;
	esac
	[ "$l" -ge "$best" ] && best=$l llc=$s
done
if [ "$llc" = 0 ]; then
	skip "run latency's pages at a DRAM size" "sysfs lists no cache for CPU 0: no DRAM size to test"
	exit 0
fi
# a DRAM working set: twice the cache, whole MiB
mib=$((2 * llc / 1048576))
size=$((mib * 1048576))
huge=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null || echo 0)
base=$(getconf PAGESIZE)
mode=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)

# rollup PID: "Rss AnonHugePages" in kB from one read of
# /proc/PID/smaps_rollup, empty when gone. One read, not one per key:
# a buffer unmapped between two reads would pair the Rss of the chase
# with the AnonHugePages of a process that has freed it.
rollup() {
	awk '$1 == "Rss:" { r = $2 } $1 == "AnonHugePages:" { a = $2 }
		END { if (r != "" && a != "") print r, a }' "/proc/$1/smaps_rollup" 2>/dev/null
}

# The defaults at a DRAM size: sample the process's AnonHugePages while
# its whole working set is resident (Rss at least the buffer), to the end
"$bin" -j run latency --size "${mib}M" --reps 1 --min-time 2 > "$tmp/out" 2> "$tmp/err" &
pid=$!
seen=
while kill -0 "$pid" 2> /dev/null; do
	set -- $(rollup "$pid")
	rss=${1:-} anon=${2:-}
	if [ -n "$rss" ] && [ -n "$anon" ] && [ "$rss" -ge $((size / 1024)) ]; then
		seen=$anon
	fi
	sleep 0.1
done
wait "$pid"
if [ -z "$seen" ]; then
	not_ok "run latency --size ${mib}M: its working set seen resident in smaps_rollup" "$(cat "$tmp/err")"
else
	# the page size that maps most of the buffer, as smaps counts it
	if [ $((seen * 1024 * 2)) -gt "$size" ]; then want=$huge; else want=$base; fi
	jq_ok ".results[0].page_size_bytes == $want" \
		"run latency --size ${mib}M (2 x LLC): reports ${want}-byte pages, as smaps shows ($seen kB of huge pages)"
	case $mode in
	always|madvise)
		# the default asks for huge pages: here the kernel gives them
		[ "$want" = "$huge" ]
		ok "run latency --size ${mib}M (THP $mode): huge pages by default, per smaps ($seen kB)" $? "$(cat "$tmp/out")"
		if grep -qw hypervisor /proc/cpuinfo; then
			# a guest's huge pages: the host's page size is unknown
			jq_ok ".pages == \"auto\" and .results[0].requested_page_size_bytes == $huge and
				.results[0].page_walks == null and
				(.warnings | map(select(test(\"^page walks unknown from latency ${mib}M on: huge pages in a virtual machine\"))) | length == 1)" \
				"run latency --size ${mib}M in a VM: pages auto, asked for huge pages, page walks unknown (null), warned once"
		fi
		MEMDIAG_TEST_HIDE_CPU=hypervisor "$bin" -j run latency --size "${mib}M" --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
		jq_ok ".pages == \"auto\" and .results[0].requested_page_size_bytes == $huge and
			.results[0].page_walks == false and
			(.warnings | map(select(test(\"page walks unknown\"))) | length == 0)" \
			"run latency --size ${mib}M without a hypervisor: pages auto, asked for huge pages, no page walks" ;;
	esac
fi

# --pages 4k: 4K pages and page walks at DRAM size, none in a 16K set
"$bin" -j run latency --pages 4k --size "16K,${mib}M" --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
jq_ok ".pages == \"4k\" and .hugepages_requested == false and
	all(.results[]; .page_size_bytes == $base and .requested_page_size_bytes == $base) and
	.results[0].page_walks == false and .results[1].page_walks == true and
	(.warnings | map(select(test(\"hugepages\"))) | length == 0)" \
	"run latency --pages 4k --size 16K,${mib}M: base pages, page walks only at ${mib}M, no warning"
"$bin" run latency --pages 4k --size "${mib}M" --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
grep -Eq "^${mib}M .* 4K +4K +yes +1\$" "$tmp/out" && grep -q ' asked  walks ' "$tmp/out"
ok "run latency --pages 4k (text): the row says 4K pages, 4K asked, walks yes" $? "$(cat "$tmp/out")"
"$bin" run latency --csv --pages 4k --size 16K --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
head -1 "$tmp/out" | grep -q ',pages_from,requested_page_size_bytes,page_walks,' &&
	tail -1 "$tmp/out" | grep -q ",$base,false,"
ok "run latency --csv --pages 4k: requested_page_size_bytes and page_walks columns" $? "$(cat "$tmp/out")"

# --hugepages is --pages huge; --pages huge asks at every size
"$bin" -j run latency --hugepages --size 16K --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
jq_ok ".pages == \"huge\" and .hugepages_requested == true and .results[0].requested_page_size_bytes == $huge" \
	"run latency --hugepages: pages huge, every row asked"

# huge pages asked for, none given (THP disabled for the process): the
# row says what it asked and got, and the warning says page walks
if [ "$huge" -gt 0 ] && "$nothp" true 2> /dev/null; then
	"$nothp" "$bin" -j run latency --size "${mib}M" --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
	jq_ok ".results[0].requested_page_size_bytes == $huge and .results[0].page_size_bytes == $base and
		.results[0].hugepage_bytes == 0 and .results[0].page_walks == true and
		(.warnings | map(select(test(\"^hugepages asked for but not granted: latency ${mib}M: 0% of its memory is in huge pages - this process has transparent hugepages disabled .*; its latency includes page walks\"))) | length == 1)" \
		"run latency --size ${mib}M with THP disabled: asked huge, got base pages, page walks, warned"
	"$nothp" "$bin" run latency --size "${mib}M" --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
	grep -Eq "^${mib}M .* 4K +2M +yes +1\$" "$tmp/out"
	ok "run latency --size ${mib}M with THP disabled (text): 4K pages, 2M asked, walks yes" $? "$(cat "$tmp/out")"
else
	skip "run latency with THP disabled" "huge pages refused: no THP here or no prctl"
fi

tap_end
