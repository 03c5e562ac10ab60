#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scale-check.sh - memdiag's counter-free numbers against measurements that
# memdiag did not make, on whatever machine it runs on, as one table with
# PASS/FAIL per property (Documentation/calibrate.rst, "True at every
# scale"). Socket 0; every DRAM working set is 4 x its last-level cache
# or more, from sysfs through 'calibrate --plan'.
#
#   P1 calibrate's read peak       vs likwid-bench load, all socket-0 CPUs
#   P2 calibrate's 1-thread point  vs a plain read of as many streams
#      (scripts/bench-read.c, 4 a thread); likwid-bench load beside it
#   P3 run latency, defaults       vs calibrate's idle latency
#   P4 run loaded-latency          vs calibrate at the same load (its GB/s)
#   P5 the curve's own judgement   (calibrate's quality: reliable)
#   P6 STREAM copy, triad at half and all CPUs vs likwid-bench, same threads
#   plus, reported: run latency --pages 4k and a plain huge-page chase,
#   and the probe's error table (scripts/probe-accuracy.sh) when present.
#
# usage: scale-check.sh [--out DIR] [--quick] [--skip LIST]
#   MEMDIAGCTL, LIKWID_BENCH, CHASE, READ: the commands (words split; e.g.
#   MEMDIAGCTL=".bundle/x memdiagctl"); defaults: userspace/memdiagctl,
#   likwid-bench, build/bench/chase, build/bench/read.
# Exit: 0 every property passed, 1 one failed, 2 usage or a missing tool.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
read -r -a md <<< "${MEMDIAGCTL:-$top/userspace/memdiagctl}"
read -r -a lw <<< "${LIKWID_BENCH:-likwid-bench}"
read -r -a chase <<< "${CHASE:-$top/build/bench/chase}"
read -r -a plainread <<< "${READ:-$top/build/bench/read}"
out=
quick=
skip=

usage() {
	sed -n '3,23p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-2}"
}
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--quick) quick=--quick; shift ;;
	--skip) skip=${2:?--skip needs a list: P3,P6}; shift 2 ;;
	-h | --help) usage 0 ;;
	*) echo "scale-check: unknown argument '$1' (--help)" >&2; exit 2 ;;
	esac
done
for t in jq python3 timeout; do
	command -v "$t" > /dev/null ||
		{ echo "scale-check: needs $t (apt-get install $t)" >&2; exit 2; }
done
"${md[@]}" --help > /dev/null 2>&1 ||
	{ echo "scale-check: cannot run memdiagctl (${md[*]}): make -C userspace, or set MEMDIAGCTL" >&2; exit 2; }
"${lw[@]}" -a > /dev/null 2>&1 ||
	{ echo "scale-check: cannot run likwid-bench (${lw[*]}): apt-get install likwid, or set LIKWID_BENCH" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d /tmp/scale-check.XXXXXX)
mkdir -p "$out"
log=$out/log
: > "$log"
skipped() { case ",$skip," in *",$1,"*) return 0 ;; esac; return 1; }
say() { echo "scale-check: $*" | tee -a "$log" >&2; }
# step SECONDS NAME CMD...: run with a timeout, stdout to $out/NAME
step() {
	local sec=$1 name=$2
	shift 2
	say "$name: $*"
	timeout "$sec" "$@" > "$out/$name" 2>> "$log"
}
. "$top/scripts/scale-curve.sh"
f2() { if [ -n "$1" ]; then printf %.2f "$1"; else echo -; fi; }
median() { python3 -c 'import statistics,sys; v=[float(x) for x in sys.argv[1:] if x]; print("%.4f" % statistics.median(v) if v else "")' "$@"; }

# ---- the machine
model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
grep -qw avx512f /proc/cpuinfo && isa=avx512 || isa=avx
"${md[@]}" -j calibrate --plan --mix read > "$out/plan.json" 2>> "$log" ||
	{ say "calibrate --plan failed"; exit 1; }
ncpu=$(jq '.plan[0].generators + 1' "$out/plan.json")
llc=$(jq '.plan[0].llc_bytes' "$out/plan.json")
pool=$(jq '.plan[0].pool_bytes' "$out/plan.json")
poolm=$((pool >> 20))
say "$model; socket 0: $ncpu CPUs, LLC $((llc >> 20)) MiB, DRAM sets ${poolm} MiB; likwid-bench *_$isa"

# likwid-bench KERNEL THREADS MIB ITERATIONS: MByte/s of one run, in GB/s
lwrun() {
	timeout 120 "${lw[@]}" -t "$1" -W "S0:${3}MB:$2" -i "$4" 2>> "$log" |
		awk '/^MByte\/s:/ { printf "%.4f\n", $2 / 1000 }'
}
rows=()
failed=0
# row NAME MEMDIAG PEER LIMIT [ratio|ns]: one line of the table
row() {
	local name=$1 m=$2 p=$3 lim=$4 v
	if [ -z "$m" ] || [ -z "$p" ]; then
		rows+=("$(printf '%-44s %10s %10s %7s %6s  %s' "$name" "${m:--}" "${p:--}" - "$lim" "FAIL (no value)")")
		failed=$((failed + 1))
		return
	fi
	v=$(python3 -c "m,p,l=$m,$p,$lim; r=m/p; print('%.3f %s' % (r, 'PASS' if abs(r-1) <= l else 'FAIL'))")
	[ "${v#* }" = PASS ] || failed=$((failed + 1))
	rows+=("$(printf '%-44s %10.2f %10.2f %7s %6s  %s' "$name" "$m" "$p" "${v% *}" "±$lim" "${v#* }")")
}
info() { rows+=("$(printf '%-44s %10s %10s %7s %6s  %s' "$1" "$2" "$3" "${4:--}" - INFO)"); }

# ---- calibrate (P1, P2, P5)
step 400 calibrate.txt "${md[@]}" calibrate $quick --curve "$out/curve.json" ||
	say "calibrate failed (see $log)"
"${md[@]}" -j calibrate --show --curve "$out/curve.json" > "$out/curve-show.json" 2>> "$log"
cj=$out/curve-show.json
rd='.sockets[0].curves | map(select(.read_fraction == 1))[0]'
peak=$(jq -r "$rd.peak_gbps // empty" "$cj" 2>/dev/null)
one=$(jq -r "[$rd.points[] | select(.threads == 1 and .delay == 0)][0].bandwidth_gbps // empty" "$cj" 2>/dev/null)
idle=$(jq -r '.sockets[0].idle_latency_ns // empty' "$cj" 2>/dev/null)
gen=$((ncpu - 1))

# likwid-bench load over the same DRAM sets, about a second each (at
# some 15 GB/s a thread, up to 8 threads' worth)
iters() { # THREADS
	local t=$1
	[ "$t" -gt 8 ] && t=8
	echo $(((15000 * t + poolm - 1) / poolm))
}
a=() b=() g=()
for k in 1 2 3; do
	a+=("$(lwrun "load_$isa" "$ncpu" "$poolm" "$(iters "$ncpu")")")
	[ "$gen" -gt 1 ] && g+=("$(lwrun "load_$isa" "$gen" "$poolm" "$(iters "$gen")")")
	b+=("$(lwrun "load_$isa" 1 "$poolm" "$(iters 1)")")
done
lw_all=$(median "${a[@]}")
lw_one=$(median "${b[@]}")
lw_gen=$lw_one
[ "$gen" -gt 1 ] && lw_gen=$(median "${g[@]}")
say "likwid load $ncpu threads: ${a[*]}; $gen: ${g[*]:-as 1}; 1 thread: ${b[*]}"
# the peak's own CPUs (one chases), and the whole socket as the issue asks
row "P1 calibrate read peak / load ${gen}T (its CPUs)" "$peak" "$lw_gen" 0.10
row "P1 calibrate read peak / load ${ncpu}T (all)" "$peak" "$lw_all" 0.10
# P2: calibrate's generator walks four streams, likwid's load one; one
# stream's misses do not fill a core's DRAM pipe on every CPU (the 2-vCPU
# Zen 3: 12 against 18 GB/s), so the reference reads as many streams
cpu0=$(jq -r '.plan[0].cpus | split(",")[0] | split("-")[0]' "$out/plan.json" 2>/dev/null)
c=()
for k in 1 2 3; do
	c+=("$(timeout 60 "${plainread[@]}" --streams 4 --cpus "${cpu0:-0}" "$pool" 2>> "$log" | jq -r 'select(.verified) | .gbps')")
done
rd_one=$(median "${c[@]}")
say "plain 4-stream read, 1 thread: ${c[*]}"
row "P2 calibrate 1-thread point / read 4 streams" "$one" "$rd_one" 0.10
info "   / likwid-bench load_$isa 1T (1 stream)" "$(f2 "$one")" \
	"$(f2 "$lw_one")" \
	"$(python3 -c "print('%.3f' % ($one / $lw_one))" 2> /dev/null || echo -)"
q=$(jq -r '.sockets[0].quality | if . == null then "not judged" elif .reliable then "reliable" else "flaws: " + ([.flaws[].flaw] | join(",")) end' "$cj" 2>/dev/null)
res=PASS
[ "$q" = reliable ] || { res=FAIL; failed=$((failed + 1)); }
rows+=("$(printf '%-44s %10s %10s %7s %6s  %s' "P5 calibrate's own judgement" - - - - "$res ($q)")")
info "   its check: read on ${gen} CPUs / on 1 (GB/s)" \
	"$(jq -r '.sockets[0].check.read_gbps // "-"' "$cj")" \
	"$(jq -r '.sockets[0].check.read_one_gbps // "-"' "$cj")"

# ---- latency defaults (P3)
if ! skipped P3; then
	step 120 latency.json "${md[@]}" -j run latency --size "$pool"
	lat=$(jq -r '.results[0].ns_per_load // empty' "$out/latency.json" 2>/dev/null)
	pg=$(jq -r '.results[0].page_size_bytes // empty' "$out/latency.json" 2>/dev/null)
	row "P3 run latency ${poolm}M defaults (page ${pg:-?}) / idle" "$lat" "$idle" 0.10
	if "${md[@]}" run --help 2>&1 | grep -q -- '--pages'; then
		step 120 latency4k.json "${md[@]}" -j run latency --size "$pool" --pages 4k
		info "   run latency --pages 4k (page walks in it)" \
			"$(jq -r '.results[0].ns_per_load // "-"' "$out/latency4k.json" 2>/dev/null)" "$idle"
	fi
	if "${chase[@]}" --help > /dev/null 2>&1 || [ -x "${chase[0]}" ]; then
		step 120 chase.txt "${chase[@]}" --hugepages --cpu 0 --reps 5 "${poolm}M"
		info "   plain chase ${poolm}M, huge pages (ns)" \
			"$(jq -rs '.[-1].ns_per_load // "-"' "$out/chase.txt" 2> /dev/null)" "$idle"
	fi
fi

# ---- loaded latency against calibrate at the same load (P4)
if ! skipped P4; then
	step 300 loaded.json "${md[@]}" -j run loaded-latency --delay 0,200,1000,20000
	for d in 20000 1000 200 0; do
		ll=$(jq -r ".results[] | select(.delay == $d) | .ns_per_load" "$out/loaded.json" 2>/dev/null | head -n1)
		gb=$(jq -r ".results[] | select(.delay == $d) | .traffic_gbps" "$out/loaded.json" 2>/dev/null | head -n1)
		cl=$([ -n "$gb" ] && curve_at "$cj" "$gen" "$idle" "$gb")
		if [ -n "$gb" ] && [ -z "$cl" ] && [ -n "$peak" ] &&
			python3 -c "import sys; sys.exit(not $gb > $peak)" 2> /dev/null; then
			# the run drew more than the curve's peak: no point to compare
			same=$(jq -r "[$rd.points[] | select(.threads == $gen and .delay == $d)][0].latency_ns // empty" "$cj" 2>/dev/null)
			info "P4 delay $d: $(f2 "$gb") GB/s, past the peak $(f2 "$peak")" \
				"$(f2 "$ll")" "$(f2 "$same")" "same delay"
			continue
		fi
		row "P4 loaded-latency / calibrate at $(f2 "$gb") GB/s (delay $d)" "$ll" "$cl" 0.10
	done
fi

# ---- STREAM copy and triad at half and all of socket 0's CPUs (P6):
# memdiag's --size is each array, likwid-bench's -W all streams together
md_stream() { # THREADS ARRAY_MIB OP: memdiag stream's GB/s of OP
	timeout 120 "${md[@]}" -j run stream --threads "$1" --size "${2}M" 2>> "$log" |
		jq -r ".results[] | select(.op == \"$3\") | .gbps"
}
if ! skipped P6; then
	arr=$(((2 * llc) >> 20))
	for t in $(printf '%s\n' $(((ncpu + 1) / 2)) "$ncpu" | sort -un); do
		for op in copy:2 triad:3; do
			name=${op%:*} streams=${op#*:}
			lk=$name
			[ "$name" = triad ] && lk=stream
			m=() p=()
			# a first pair untimed (a fresh VM backs memory lazily),
			# then five, the side that goes first alternating
			for k in 0 1 2 3 4 5; do
				if [ $((k % 2)) = 0 ]; then
					mv=$(md_stream "$t" "$arr" "$name")
					pv=$(lwrun "${lk}_$isa" "$t" $((streams * arr)) "$(iters "$t")")
				else
					pv=$(lwrun "${lk}_$isa" "$t" $((streams * arr)) "$(iters "$t")")
					mv=$(md_stream "$t" "$arr" "$name")
				fi
				[ "$k" = 0 ] && continue
				m+=("$mv")
				p+=("$pv")
			done
			say "stream $name ${t}T: memdiag ${m[*]}; likwid ${p[*]}"
			mm=$(median "${m[@]}")
			pm=$(median "${p[@]}")
			res=FAIL
			python3 -c "import sys; sys.exit(0 if $mm >= $pm else 1)" 2> /dev/null && res=PASS
			[ "$res" = PASS ] || failed=$((failed + 1))
			rows+=("$(printf '%-44s %10s %10s %7s %6s  %s' "P6 stream $name ${t}T (memdiag >= likwid)" \
				"$mm" "$pm" "$(python3 -c "print('%.3f' % ($mm / $pm))" 2> /dev/null || echo -)" ">=1" "$res")")
		done
	done
fi

# ---- the probe's error table, when the script is there
if ! skipped P7 && [ -x "$top/scripts/probe-accuracy.sh" ]; then
	say "probe accuracy"
	MEMDIAGCTL="${md[*]}" timeout 300 "$top/scripts/probe-accuracy.sh" \
		--curve "$out/curve.json" --json "$out/probe.json" \
		> "$out/probe.txt" 2>> "$log" || say "probe-accuracy failed (see $log)"
fi

{
	echo "scale-check on $model: socket 0, $ncpu CPUs, LLC $((llc >> 20)) MiB, DRAM sets ${poolm} MiB ($(date -u +%Y-%m-%dT%H:%MZ))"
	printf '%-44s %10s %10s %7s %6s  %s\n' property memdiag independent ratio limit result
	printf '%s\n' "${rows[@]}"
	[ -s "$out/probe.txt" ] && { echo; cat "$out/probe.txt"; }
	echo
	echo "$failed failed; everything measured is in $out"
} | tee "$out/table.txt"
[ "$failed" = 0 ]
