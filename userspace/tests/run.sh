#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run.sh - memdiagctl's module-free tests as one TAP stream: the command
# line (exact exit codes, message substrings) and the unit tests.
#
# usage: run.sh MEMDIAGCTL UNIT_BIN
set -u
bin=$1
unit=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the TAP lines (selftests/tap.sh) are kept in $results, to print after
# the plan; a failed check shows what memdiagctl printed
results=$tmp/results
: > "$results"
. "$(dirname "$0")/../../selftests/tap.sh"
tap_out=$results
tap_on_fail() {
	diag stdout "$tmp/out"
	diag stderr "$tmp/err"
}

# fake_host DIR [nomodule] [no-proc-modules] [disabled] [hypervisor]
# [no-headers]: a stand-in for "/" as host_reach.c reads it
# (MEMDIAG_TEST_HOST_ROOT). Without words: a bare-metal host that can
# load and build the module.
fake_host() {
	d=$1
	shift
	mkdir -p "$d/proc/sys/kernel" "$d/lib/modules/$(uname -r)/build"
	echo "ro quiet" > "$d/proc/cmdline"
	: > "$d/proc/modules"
	echo 0 > "$d/proc/sys/kernel/modules_disabled"
	echo "flags		: fpu sse2 avx2" > "$d/proc/cpuinfo"
	for w in "$@"; do
		case $w in
		nomodule) echo "ro quiet nomodule -- init arg" > "$d/proc/cmdline" ;;
		no-proc-modules) rm "$d/proc/modules" ;;
		disabled) echo 1 > "$d/proc/sys/kernel/modules_disabled" ;;
		hypervisor) echo "flags		: fpu sse2 avx2 hypervisor" > "$d/proc/cpuinfo" ;;
		no-headers) rmdir "$d/lib/modules/$(uname -r)/build" ;;
		esac
	done
}
# The messages below are a module-capable host's unless a test says
# otherwise: what this host can do is tested on its own (host_reach.c).
fake_host "$tmp/host"
MEMDIAG_TEST_HOST_ROOT=$tmp/host
export MEMDIAG_TEST_HOST_ROOT

# Indent a file as TAP diagnostics.
diag() { # label file
	sed "s/^/#   $1: /" "$2" >> "$results"
}

# t EXIT STREAM TEXT ARGS...: memdiagctl ARGS must exit with exactly EXIT,
# within $t_timeout seconds where that is set,
# STREAM (out or err) must contain TEXT, and a failure must print nothing
# on stdout (scripts parse it).
t() {
	want=$1 stream=$2 text=$3
	shift 3
	# shellcheck disable=SC2086 # empty, or "timeout N"
	${t_timeout:+timeout $t_timeout} "$bin" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	why=
	[ "$rc" -eq "$want" ] || why="exit $rc, not $want"
	grep -qF -- "$text" "$tmp/$stream" || why="$why; std$stream lacks: $text"
	if [ "$want" -ne 0 ] && [ -s "$tmp/out" ]; then
		why="$why; stdout not empty"
	fi
	name="memdiagctl $* -> exit $want, std$stream has \"$text\""
	if [ -z "$why" ]; then
		ok "$name"
	else
		not_ok "$name" "${why#; }"
	fi
}

t_timeout=
usage_hint="see 'memdiagctl --help'"
t 1 err "memdiagctl: no command given: $usage_hint"
t 1 err "memdiagctl: no command given" --json
t 0 out "Usage: memdiagctl [OPTIONS] COMMAND" --help
t 0 out "Usage: memdiagctl [OPTIONS] COMMAND" -h
for code in "0  success" "1  usage error" "2  the memdiag module is not loaded" \
	    "3  permission denied" "4  protocol version mismatch" \
	    "5  any other kernel or netlink error" "6  local error" \
	    "7  nothing to measure"; do
	t 0 out "$code" --help
done
t 0 out "  info  " help
# the commands that work without the module are marked, the others not
for c in stat export run calibrate probe plot; do
	t 0 out "$(printf '  %-14s* ' "$c")" --help
done
for c in info watch snapshot prefetch validate; do
	t 0 out "$(printf '  %-14s  ' "$c")" --help
done
t 0 out "'*' still work, on counter-free measurements" --help
t 0 out "  watch  " help
t 0 out "  snapshot  " help
t 0 out "memdiagctl 0" --version
t 0 out "(memdiag protocol 1)" -V
t 1 err "memdiagctl: bogus: unknown command: see 'memdiagctl help'" bogus
t 1 err "memdiagctl: unknown option '--bogus': $usage_hint" --bogus info
t 1 err "memdiagctl: unknown option '-x': $usage_hint" -x info
t 1 err "memdiagctl: unknown option '-x'" -jx info
t 1 err "memdiagctl: option '--json=1' takes no value" --json=1 info
t 1 err "memdiagctl: info: unknown option '--bogus': see 'memdiagctl info --help'" info --bogus
t 1 err "memdiagctl: info: unknown option '-z'" info -z
t 1 err "memdiagctl: info: unexpected argument 'extra'" info extra
t 0 out "Usage: memdiagctl info [-j|--json] [-p|--pretty]" help info
t 0 out "Usage: memdiagctl info [-j|--json] [-p|--pretty]" info --help
t 0 out "Usage: memdiagctl info" info -h
t 0 out "Usage: memdiagctl help [COMMAND]" help --help
t 1 err "memdiagctl: bogus: unknown command" help bogus
t 1 err "memdiagctl: help: unexpected argument 'b'" help info b

# watch and snapshot: help, and option errors naming the option
t 0 out "Usage: memdiagctl watch [--socket N | --all] [--interval DUR] [--count K]" watch --help
t 0 out "Usage: memdiagctl watch" help watch
t 0 out "      --curve FILE        the curve file" watch -h
t 0 out "Usage: memdiagctl snapshot [--socket N | --all] [--channels]" snapshot --help
t 0 out "Usage: memdiagctl snapshot" help snapshot
t 1 err "memdiagctl: snapshot: option '--window': '5x' is not a duration" snapshot --window 5x
t 1 err "memdiagctl: watch: option '--curve' needs a value" watch --curve
t 0 out "Usage: memdiagctl validate [--size SIZE] [--reps N]" validate --help
t 0 out "was judged, 8 otherwise" help validate
t 1 err "memdiagctl: validate: option '--reps': '0' is out of range" validate --reps 0
t 1 err "memdiagctl: validate: unexpected argument 'x'" validate x
wh="see 'memdiagctl watch --help'"
dur="is not a duration: use seconds (2, 1.5) or a number with s or ms (1.5s, 500ms)"
rng="is out of range: the interval must be from 1ms to 60s"
t 1 err "memdiagctl: watch: option '--interval': '5x' $dur: $wh" watch --interval 5x
t 1 err "memdiagctl: watch: option '--interval': '1.5.2s' $dur" watch --interval 1.5.2s
t 1 err "memdiagctl: watch: option '--interval': '-1' $dur" watch --interval=-1
t 1 err "memdiagctl: watch: option '--interval': '' $dur" watch --interval ""
t 1 err "memdiagctl: watch: option '--interval': '0' $rng" watch --interval 0
t 1 err "memdiagctl: watch: option '--interval': '0.5ms' $rng" watch -i 0.5ms
t 1 err "memdiagctl: watch: option '--interval': '61s' $rng" watch --interval 61s
t 1 err "memdiagctl: watch: option '--interval': '60001ms' $rng" watch --interval 60001ms
t 1 err "memdiagctl: watch: option '--interval': '1.5ms' is not a whole number of milliseconds" watch --interval 1.5ms
t 1 err "memdiagctl: watch: option '--interval' needs a value: $wh" watch --interval
t 1 err "memdiagctl: watch: option '-i' needs a value" watch -i
t 1 err "memdiagctl: watch: option '--socket' needs a value: $wh" watch --socket
t 1 err "memdiagctl: watch: option '--socket': 'x' is not a number: $wh" watch --socket x
t 1 err "memdiagctl: watch: option '--socket': '--all' is not a number" watch --socket --all
t 1 err "memdiagctl: watch: option '--socket': '-1' is not a number" watch -s -1
t 1 err "memdiagctl: watch: option '--socket': '4294967296' is out of range: it must be from 0 to 4294967295" watch --socket 4294967296
t 1 err "memdiagctl: watch: options '--socket' and '--all' exclude each other: $wh" watch --socket 0 --all
t 1 err "memdiagctl: watch: options '--socket' and '--all' exclude each other" watch --all -s 1
t 1 err "memdiagctl: watch: option '--count': '0' is out of range: it must be at least 1: $wh" watch --count 0
t 1 err "memdiagctl: watch: option '--count': 'ten' is not a number" watch -c ten
t 1 err "memdiagctl: watch: option '--threshold': 'x' is not a number of cycles" watch --threshold x
t 1 err "memdiagctl: watch: option '--threshold': '0' is out of range: it must be more than 0" watch -t 0
t 1 err "memdiagctl: watch: unknown option '--bogus': $wh" watch --bogus
t 1 err "memdiagctl: watch: unknown option '-x': $wh" watch -x
t 1 err "memdiagctl: watch: option '--all=1' takes no value" watch --all=1
t 1 err "memdiagctl: watch: unexpected argument 'extra'" watch extra
sh="see 'memdiagctl snapshot --help'"
t 1 err "memdiagctl: snapshot: option '--socket' needs a value: $sh" snapshot --socket
t 1 err "memdiagctl: snapshot: option '--socket': 'one' is not a number: $sh" snapshot --socket one
t 1 err "memdiagctl: snapshot: options '--socket' and '--all' exclude each other: $sh" snapshot --socket 0 --all
t 1 err "memdiagctl: snapshot: unknown option '--interval': $sh" snapshot --interval 1s
t 1 err "memdiagctl: snapshot: option '--channels=yes' takes no value" snapshot --channels=yes
ph="see 'memdiagctl prefetch --help'"
t 0 out "  prefetch  " help
t 0 out "Usage: memdiagctl prefetch status  [--socket N | --cpu LIST]" prefetch --help
t 0 out "a request covers whole" prefetch --help
t 1 err "memdiagctl: prefetch: no action given: status, disable, enable or restore: $ph" prefetch
t 1 err "memdiagctl: prefetch: unknown action 'off': use status, disable, enable or restore: $ph" prefetch off
t 1 err "memdiagctl: prefetch: option '--cpu': 'x' is not a CPU list (like 0-3,8): $ph" prefetch disable --cpu x
t 1 err "memdiagctl: prefetch: option '--cpu': '3-1' is not a CPU list" prefetch disable --cpu 3-1
t 1 err "memdiagctl: prefetch: option '--cpu': CPU 2 is listed twice" prefetch disable --cpu 0-3,2
t 1 err "memdiagctl: prefetch: option '--cpu': '1,' is not a CPU list" prefetch disable --cpu 1,
# more CPUs than the machine can have: refused before any request is built
last=$(sed 's/.*[,-]//' /sys/devices/system/cpu/possible)
t 1 err "memdiagctl: prefetch: option '--cpu': CPU $((last + 1)) does not exist: this machine's CPUs are 0-$last: $ph" prefetch status --cpu 0-1100
t 1 err "option '--cpu': CPU 65535 does not exist" prefetch disable --cpu 65535,0-3
t 1 err "memdiagctl: prefetch: option '--socket': 'one' is not a number" prefetch status --socket one
t 1 err "memdiagctl: prefetch: options '--socket' and '--cpu' exclude each other" prefetch disable --socket 0 --cpu 1
t 1 err "memdiagctl: prefetch: 'status' takes no prefetcher names (it covers them all): unexpected 'l2-stream'" prefetch status l2-stream
t 1 err "memdiagctl: prefetch: 'restore' takes no prefetcher names" prefetch restore all
t 1 err "memdiagctl: prefetch: unknown option '--all': $ph" prefetch status --all
t 1 err "memdiagctl: snapshot: unexpected argument '0'" snapshot 0

# run: the micro-kernels (no module needed). Option errors first.
rh="see 'memdiagctl run --help'"
t 0 out "  run  " help
t 0 out "Usage: memdiagctl run KERNEL [--threads N]" run --help
t 0 out "[--cpus LIST | --node N | --socket N]" run --help
t 0 out "Usage: memdiagctl run KERNEL" help run
t 0 out "over exactly the timed part; otherwise the run goes on" run --help
t 1 err "memdiagctl: run: no kernel given: read-delay, stream, latency, loaded-latency, stencil, throughput, transpose or traffic: $rh" run
t 1 err "memdiagctl: run: unknown kernel 'bogus': use read-delay, stream, latency, loaded-latency, stencil, throughput, transpose or traffic: $rh" run bogus
t 0 out "Usage: memdiagctl run KERNEL" run stream --help
t 0 out "Usage: memdiagctl run KERNEL" run transpose --help
t 1 err "memdiagctl: run: unknown kernel 'bogus': use read-delay, stream, latency, loaded-latency, stencil, throughput, transpose or traffic: $rh" run bogus --help
# the top-level --help lists every kernel of the table (the error's list)
for k in $("$bin" run bogus 2>&1 | sed -n "s/.*use \(.*\): see.*/\1/p" | sed 's/,\| or / /g'); do
	t 0 out "$k" --help
done
t 0 out "run a memory micro-kernel, one of:" --help
t 1 err "memdiagctl: run: option '--size': '12Q' is not a size: use bytes or a number with K, M or G (64K, 1.5G; KB, KiB, MB, MiB, GB, GiB alike: all binary): $rh" run stream --size 12Q
t 1 err "memdiagctl: run: option '--size': '4.3K' is not a whole number of bytes" run latency --size 4.3K
t 1 err "memdiagctl: run: option '--size': '64mb' is not a size" run latency --size 64mb
t 1 err "memdiagctl: run: option '--size': '1.' is not a size" run latency --size 1.
t 1 err "memdiagctl: run: option '--size': '1.5K' is out of range" run latency --size 1.5K
# A kernel whose buffers exceed MemAvailable is refused at once, with the
# numbers, never OOM-killed (1024G is more than this test's machines have)
for k in latency stream read-delay loaded-latency stencil traffic; do
	n=1 what="$k failed: thread "
	# its pool is allocated before the threads start
	[ $k = loaded-latency ] && n=2 what="$k failed: the buffers need"
	t 6 err "memdiagctl: run: $what" run $k --size 1024G --threads $n --reps 1 --min-time 0
	t 6 err "MiB but MemAvailable is" run $k --size 1024G --threads $n --reps 1 --min-time 0
done
# the suffixes people type, all binary (likwid-bench's and MLC's MB)
for sz in 65536:64K 65536:64kB 65536:64KiB 65536:64KB 1572864:1.5M 1572864:1.5MiB 1572864:1.5MB 4608:4.5K; do
	"$bin" -j run latency --size "${sz#*:}" --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
	grep -q "\"size_bytes\":${sz%%:*}," "$tmp/out"
	ok "run latency --size ${sz#*:} -> size_bytes ${sz%%:*}" $?
done
t 1 err "memdiagctl: run: option '--size': '1k2' is not a size" run latency --size 1k2
t 1 err "memdiagctl: run: option '--size': '16K,,1M' is not a list of sizes" run latency --size 16K,,1M
t 1 err "memdiagctl: run: option '--size': '100' is out of range: it must be from 4K to 1024G" run stream --size 100
t 1 err "memdiagctl: run: option '--size': kernel 'stream' takes one size (only latency or throughput take a list)" run stream --size 1M,2M
t 1 err "memdiagctl: run: option '--size' needs a value: $rh" run stream --size
ncpu=$(getconf _NPROCESSORS_ONLN)
t 1 err "memdiagctl: run: option '--threads': '$((ncpu + 1))' is more than the $ncpu online CPUs: $rh" run stream --threads $((ncpu + 1))
t 1 err "memdiagctl: run: option '--threads': '0' is out of range: it must be from 1 to 1024" run stream --threads 0
t 1 err "memdiagctl: run: option '--threads': '2' is more than the CPUs --cpus lists (1)" run stream --cpus 0 --threads 2
t 1 err "memdiagctl: run: option '--cpus': 'x' is not a CPU list (like 0-3,8)" run stream --cpus x
t 1 err "memdiagctl: run: option '--cpus': CPU 0 is listed twice" run stream --cpus 0,0
t 1 err "memdiagctl: run: option '--cpus': CPU 100000 is not online or not allowed for this process" run stream --cpus 100000
t 1 err "memdiagctl: run: option '--delay': kernel 'stream' has no delay (only read-delay, loaded-latency or traffic have): $rh" run stream --delay 5
t 1 err "memdiagctl: run: option '--delay': kernel 'latency' has no delay" run latency --delay 0
t 1 err "memdiagctl: run: option '--delay': 'x' is not a number" run read-delay --delay x
t 1 err "memdiagctl: run: option '--delay': kernel 'read-delay' takes one delay (only loaded-latency takes a list): $rh" run read-delay --delay 0,5
t 1 err "memdiagctl: run: option '--delay': '0,,5' is not a list of delays" run loaded-latency --delay 0,,5
t 1 err "memdiagctl: run: option '--delay': '0,' is not a list of delays" run loaded-latency --delay 0,
t 1 err "memdiagctl: run: option '--delay': '-1' is not a number" run loaded-latency --delay 0,-1
t 1 err "memdiagctl: run: option '--delay': '1000000001' is out of range: it must be from 0 to 1000000000" run loaded-latency --delay 1000000001
t 1 err "memdiagctl: run: option '--size': kernel 'loaded-latency' takes one size" run loaded-latency --size 4K,8K
t 1 err "memdiagctl: run: option '--threads': kernel 'loaded-latency' needs at least 2 threads (one chases pointers, the others load the memory), e.g. --threads 2: $rh" run loaded-latency --threads 1 --size 4K
t 1 err "memdiagctl: run: option '--threads': kernel 'loaded-latency' needs at least 2 threads" run loaded-latency --cpus 0 --size 4K
t 1 err "memdiagctl: run: option '--reps': '0' is out of range: it must be from 1 to 1000" run stream --reps 0
t 1 err "memdiagctl: run: option '--nt': kernel 'latency' has no non-temporal stores (only stream has): $rh" run latency --nt
t 1 err "memdiagctl: run: option '--nt': kernel 'read-delay' has no non-temporal stores" run read-delay --nt
t 1 err "memdiagctl: run: option '--nt': kernel 'throughput' has no non-temporal stores" run throughput --nt
t 1 err "memdiagctl: run: option '--nt=1' takes no value" run stream --nt=1
# stencil's options, and the other kernels refusing them
t 1 err "memdiagctl: run: option '--sweeps': '0' is out of range: it must be from 1 to 100000: $rh" run stencil --sweeps 0
t 1 err "memdiagctl: run: option '--sweeps': 'x' is not a number" run stencil --sweeps x
t 1 err "memdiagctl: run: option '--sweeps' needs a value: $rh" run stencil --sweeps
t 1 err "memdiagctl: run: option '--variant': 'jacobi' is not a stencil variant: use jacobi-threaded, jacobi-wavefront, gs-threaded or gs-wavefront (or a comma list of them): $rh" run stencil --variant jacobi
t 1 err "memdiagctl: run: option '--variant': 'gs-threaded,' is not a comma list of stencil variant names: use jacobi-threaded," run stencil --variant gs-threaded,
t 1 err "memdiagctl: run: option '--variant': ',gs-threaded' is not a comma list of stencil variant names" run stencil --variant ,gs-threaded
t 1 err "memdiagctl: run: option '--variant': '' is not a comma list of stencil variant names" run stencil --variant ''
t 1 err "memdiagctl: run: option '--variant': stencil variant 'gs-threaded' is listed twice: $rh" run stencil --variant gs-threaded,jacobi-threaded,gs-threaded
# --variant is checked against the names of the kernel it is given to
t 1 err "memdiagctl: run: option '--variant': 'naive' is not a stencil variant: use jacobi-threaded, jacobi-wavefront, gs-threaded or gs-wavefront" run stencil --variant naive
t 1 err "memdiagctl: run: option '--variant': 'gs-threaded' is not a transpose variant: use naive, sse, sse-prefetch, avx or avx-prefetch" run transpose --variant naive,gs-threaded
t 1 err "memdiagctl: run: option '--barrier': 'mcs' is not a barrier: use spin or tree: $rh" run stencil --barrier mcs
t 1 err "memdiagctl: run: option '--groups': '0' is out of range: it must be from 1 to 1024" run stencil --groups 0
t 1 err "memdiagctl: run: option '--groups': 1 threads do not make 2 groups of equal size: use a divisor of --threads: $rh" run stencil --groups 2 --threads 1
t 1 err "memdiagctl: run: option '--model-gbps': '0' is out of range: it must be more than 0 and at most 1000000" run stencil --model-gbps 0
t 1 err "memdiagctl: run: option '--model-gbps': '1e3' is not a number of GB/s (like 25 or 12.5): $rh" run stencil --model-gbps 1e3
t 1 err "memdiagctl: run: option '--model-gbps': '-5' is not a number of GB/s" run stencil --model-gbps=-5
t 1 err "memdiagctl: run: option '--size': kernel 'stencil' takes one size" run stencil --size 64K,1M
t 1 err "memdiagctl: run: option '--delay': kernel 'stencil' has no delay" run stencil --delay 1
t 1 err "memdiagctl: run: option '--sweeps': kernel 'stream' does not take it (only stencil does): $rh" run stream --sweeps 2
t 1 err "memdiagctl: run: option '--variant': kernel 'latency' has no variants (only stencil or transpose have): $rh" run latency --variant gs-threaded
t 1 err "memdiagctl: run: option '--barrier': kernel 'read-delay' does not take it" run read-delay --barrier tree
t 1 err "memdiagctl: run: option '--groups': kernel 'loaded-latency' does not take it" run loaded-latency --groups 1
t 1 err "memdiagctl: run: option '--model-gbps': kernel 'stream' does not take it" run stream --model-gbps 20
t 1 err "memdiagctl: run: unknown option '--bogus': $rh" run stream --bogus
t 1 err "memdiagctl: run: unexpected argument 'extra'" run stream extra
# throughput and transpose options
t 0 out "  throughput  x86-membench-style load loops in assembly" run --help
t 0 out "  transpose   N x N double matrix transpose" run --help
t 1 err "memdiagctl: run: option '--width': 'avx3' is not a width: use sse, avx or avx512: $rh" run throughput --width avx3
t 0 out '"width":"avx"' run throughput --width avx2 --size 16K --mix load --reps 1 --min-time 0 -j
# --pages: the accepted forms, only latency's, and not against --hugepages
t 1 err "memdiagctl: run: option '--pages': '2m' is not a page choice: use auto, 4k or huge: $rh" run latency --pages 2m
t 1 err "memdiagctl: run: option '--pages': '' is not a page choice: use auto, 4k or huge" run latency --pages ''
t 1 err "memdiagctl: run: option '--pages' needs a value: $rh" run latency --pages
t 1 err "memdiagctl: run: option '--pages': kernel 'stream' does not take it (only latency does): $rh" run stream --pages 4k
t 1 err "memdiagctl: run: options '--hugepages' and '--pages 4k' exclude each other: --hugepages is --pages huge: $rh" run latency --hugepages --pages 4k
t 1 err "memdiagctl: run: options '--hugepages' and '--pages auto' exclude each other" run latency --pages auto -H --matrix
t 0 out '"pages":"huge"' run latency --hugepages --pages huge --size 16K --reps 1 --min-time 0 -j
# run latency reports the pages the kernel gave, not the ones asked for:
# a 16K working set cannot hold a 2M page; a 4M one, aligned, holds two
t 0 out '"page_size_bytes":4096,"hugepage_bytes":0,"pages_from":' run latency --hugepages --size 16K --reps 1 --min-time 0 -j
if grep -qv '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null &&
   [ "$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null)" = 2097152 ]; then
	t 0 out '"page_size_bytes":2097152,"hugepage_bytes":4194304,' run latency --hugepages --size 4M --reps 1 --min-time 0 -j
	t 0 out 'cycles/load    pages' run latency --hugepages --size 4M --reps 1 --min-time 0
else
	skip "run latency: 4M with --hugepages gets 2M pages" "no 2M transparent hugepages here"
fi
t 1 err "memdiagctl: run: option '--width': 'sse,avx' is not a width: use sse, avx or avx512: $rh" run throughput --width sse,avx
t 1 err "memdiagctl: run: option '--width' needs a value: $rh" run throughput --width
t 1 err "memdiagctl: run: option '--mix': 'fma' is not a mix: use load, load-fadd or load-nop (or a comma list of them): $rh" run throughput --mix fma
t 1 err "memdiagctl: run: option '--mix': mix 'load' is listed twice" run throughput --mix load,load-nop,load
t 1 err "memdiagctl: run: option '--mix': 'load,' is not a comma list of mix names: use load, load-fadd or load-nop" run throughput --mix load,
t 1 err "memdiagctl: run: option '--size': '5000' is not a multiple of 1K (throughput loads whole 1K blocks): $rh" run throughput --size 16K,5000
t 1 err "memdiagctl: run: option '--width': kernel 'stream' has no width (only throughput has): $rh" run stream --width sse
t 1 err "memdiagctl: run: option '--mix': kernel 'transpose' has no mix (only loaded-latency, throughput or traffic have)" run transpose --mix load
t 1 err "memdiagctl: run: option '--variant': 'avx512' is not a transpose variant: use naive, sse, sse-prefetch, avx or avx-prefetch (or a comma list of them): $rh" run transpose --variant avx512
t 1 err "memdiagctl: run: option '--variant': transpose variant 'sse' is listed twice" run transpose --variant sse,naive,sse
t 1 err "memdiagctl: run: option '--distance': 'far' is not a number: $rh" run transpose --distance far
t 1 err "memdiagctl: run: option '--distance': '-1' is not a number" run transpose --distance=-1
t 1 err "memdiagctl: run: option '--distance': '1025' is out of range: it must be from 0 to 1024" run transpose --distance 1025
t 1 err "memdiagctl: run: option '--variant': kernel 'throughput' has no variants (only stencil or transpose have): $rh" run throughput --variant naive
t 1 err "memdiagctl: run: option '--variant': kernel 'loaded-latency' has no variants" run loaded-latency --variant gs-threaded
t 1 err "memdiagctl: run: option '--distance': kernel 'throughput' has no prefetch distance (only transpose has)" run throughput --distance 8
t 1 err "memdiagctl: run: option '--distance': kernel 'stencil' has no prefetch distance (only transpose has)" run stencil --distance 8
t 1 err "memdiagctl: run: option '--sweeps': kernel 'transpose' does not take it (only stencil does)" run transpose --sweeps 2
t 1 err "memdiagctl: run: option '--size': kernel 'transpose' takes one size (only latency or throughput take a list)" run transpose --size 1M,2M
# which kernels take an option comes from their option tables alone
t 1 err "memdiagctl: run: option '--barrier': kernel 'transpose' does not take it (only stencil does)" run transpose --barrier spin
t 1 err "memdiagctl: run: option '--nt': kernel 'stencil' has no non-temporal stores (only stream has)" run stencil --nt
t 1 err "memdiagctl: run: option '--delay': kernel 'transpose' has no delay (only read-delay, loaded-latency or traffic have)" run transpose --delay 1
# no buffers the first touch could not get (sizes from this machine's
# memory; ulimit -v turns a missing check into a failed mmap, not the OOM
# killer)
memk=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
# two threads where there are two CPUs: each thread has its own buffers
thr=2
[ "$ncpu" -ge 2 ] || thr=1
(
	ulimit -v 4194304
	t 1 err "memdiagctl: run: option '--size': ${memk}K x 1 thread needs more than 3/4 of this machine's memory: give smaller sizes: $rh" run throughput --size 16K,${memk}K
	t 1 err "memdiagctl: run: option '--size': $((memk / thr + 1))K x $thr thread" run throughput --size $((memk / thr + 1))K --threads $thr
	t 1 err "memdiagctl: run: option '--size': three $((memk / 2))K matrices need more than 3/4 of this machine's memory: give a smaller size: $rh" run transpose --size $((memk / 2))K
)
# what the CPU lacks, simulated with the test hook MEMDIAG_TEST_HIDE_CPU
MEMDIAG_TEST_HIDE_CPU=avx512f
export MEMDIAG_TEST_HIDE_CPU
t 1 err "memdiagctl: run: option '--width': avx512 needs avx512f, which this CPU lacks: use sse" run throughput --width avx512
MEMDIAG_TEST_HIDE_CPU=avx,avx512f
t 1 err "memdiagctl: run: option '--width': avx needs avx, which this CPU lacks: use sse: $rh" run throughput --width avx --size 16K
MEMDIAG_TEST_HIDE_CPU=avx
t 1 err "memdiagctl: run: option '--variant': avx-prefetch needs avx, which this CPU lacks: use naive, sse or sse-prefetch: $rh" run transpose --variant naive,avx-prefetch
unset MEMDIAG_TEST_HIDE_CPU

# jvals KEY: the numbers (or true/false/null) of "KEY": in $tmp/out, one a line
jvals() {
	grep -oE "\"$1\":[^,}]*" "$tmp/out" | sed 's/^[^:]*://'
}
# gt A B: whether A > B (decimals)
gt() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'
}

# a "DRAM" size within the last-level cache is warned about, on stderr
# and in -j's "warnings"; sysfs faked with the hook MEMDIAG_TEST_SYSFS_CPU
fake_llc() { # size: a cpu0 whose only cache is an L3 of that size
	rm -rf "$tmp/sys"
	mkdir -p "$tmp/sys/cpu0/cache/index0"
	echo 3 > "$tmp/sys/cpu0/cache/index0/level"
	echo "$1" > "$tmp/sys/cpu0/cache/index0/size"
}
fake_llc 32768K
MEMDIAG_TEST_SYSFS_CPU=$tmp/sys "$bin" -j run read-delay --size 1M --reps 1 --min-time 0 \
	> "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && grep -qF "memdiagctl: run: warning: in cache: the read-delay array, 1M in all, within this machine's 32M last-level cache, so this is no DRAM number - use a size well above it" "$tmp/err" &&
	grep -qF '"warnings":["in cache: the read-delay array' "$tmp/out"
ok "memdiagctl run read-delay --size 1M in a 32M LLC -> warned, in -j too" $?
fake_llc 512K
MEMDIAG_TEST_SYSFS_CPU=$tmp/sys "$bin" -j run read-delay --size 1M --reps 1 --min-time 0 \
	> "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && ! grep -q "in cache" "$tmp/err" && grep -qF '"statistic":"median"' "$tmp/out" &&
	{ [ -d /sys/module/memdiag ] || grep -qF '"platform":null' "$tmp/out"; }
ok "memdiagctl run read-delay --size 1M above a 512K LLC -> no in-cache warning; statistic median" $?
MEMDIAG_TEST_SYSFS_CPU=$tmp/sys "$bin" run latency --size 16K,256K --reps 1 --min-time 0 \
	> "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && grep -qF "in cache: the largest latency size, 256K in all" "$tmp/err" &&
	grep -qF "(median shown)" "$tmp/out"
ok "memdiagctl run latency --size 16K,256K in a 512K LLC -> warned about the largest size" $?

"$bin" run stream --size 4M --reps 2 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(jvals verified | sort -u)" = true ] &&
	[ "$(jvals verified | wc -l)" -eq 4 ]
ok "memdiagctl run stream --size 4M --reps 2 --min-time 0 -j -> exit 0, four ops verified" $?
st=0
for v in $(jvals gbps); do gt "$v" 0 || st=1; done
[ "$(jvals gbps | wc -l)" -eq 4 ] || st=1
ok "memdiagctl run stream -j: gbps > 0 for copy, scale, add, triad" $st
st=0
for i in 1 2 3 4; do
	gt "$(jvals traffic_gbps | sed -n ${i}p)" "$(jvals gbps | sed -n ${i}p)" || st=1
done
ok "memdiagctl run stream -j: traffic_gbps > gbps (write-allocate)" $st
# Without the module (the build host), every result says why it has no
# counters; where it is loaded the guest tests check the counters instead.
nomod_run="the memdiag module is not loaded: generic netlink family 'memdiag' not found: load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')"
if [ -d /sys/module/memdiag ]; then
	skip "memdiagctl run stream -j without the module: counters null, reason" "memdiag is loaded"
else
	[ "$(grep -oF "\"counters\":null,\"counters_reason\":\"$nomod_run\"" "$tmp/out" | wc -l)" -eq 4 ]
	ok "memdiagctl run stream -j without the module: each op's counters null, reason 'not loaded'" $?
fi
grep -qF '"size_bytes":4194304' "$tmp/out" && grep -qF '"reps":2' "$tmp/out" &&
	grep -qF '"threads":1' "$tmp/out" && grep -qF '"kernel":"stream"' "$tmp/out" &&
	grep -qF '"cov":' "$tmp/out"
ok "memdiagctl run stream -j: kernel, threads, size_bytes, reps, cov" $?

# stream --nt: the destination is not read first, so traffic is what is named
"$bin" run stream --size 4M --reps 2 --min-time 0 --nt -j > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(jvals verified | sort -u)" = true ] &&
	[ "$(jvals nt | sort -u)" = true ] &&
	[ "$(jvals gbps)" = "$(jvals traffic_gbps)" ]
ok "memdiagctl run stream --nt -j: verified, \"nt\":true, traffic_gbps = gbps" $?
# Every instance of the loops (MEMDIAG_STREAM_ISA, a test hook), normal and
# streaming stores, on 2 threads and a size that leaves a scalar tail.
for isa in c sse2 avx avx512; do
	case $isa in
	avx) grep -qw avx /proc/cpuinfo || { skip "stream $isa" "no AVX"; continue; } ;;
	avx512) grep -qw avx512f /proc/cpuinfo || { skip "stream $isa" "no AVX-512"; continue; } ;;
	esac
	for nt in "" --nt; do
		[ "$isa$nt" = c--nt ] && continue
		MEMDIAG_STREAM_ISA=$isa "$bin" run stream --size 200008 --threads 2 \
			--reps 2 $nt -j > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ "$rc" -eq 0 ] && [ "$(jvals verified | sort -u)" = true ] &&
			[ "$(jvals verified | wc -l)" -eq 4 ] &&
			[ "$(jvals isa)" = "\"$isa\"" ]
		ok "MEMDIAG_STREAM_ISA=$isa memdiagctl run stream --size 200008 --threads 2${nt:+ $nt}: $isa code, verified" $?
	done
done
MEMDIAG_STREAM_ISA=c "$bin" run stream --size 64K --reps 1 --min-time 0 --nt > "$tmp/out" 2> "$tmp/err"
[ $? -eq 6 ] && [ ! -s "$tmp/out" ] &&
	grep -qF "stream failed: non-temporal stores need the SIMD code (x86-64)" "$tmp/err"
ok "MEMDIAG_STREAM_ISA=c memdiagctl run stream --nt -> exit 6, no streaming stores in C" $?
# an instance the CPU cannot run is refused, naming the feature missing
MEMDIAG_TEST_HIDE_CPU=avx512f MEMDIAG_STREAM_ISA=avx512 "$bin" run stream --size 64K --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -qF "bad MEMDIAG_STREAM_ISA: this CPU lacks avx512f, which the avx512 code needs: it runs c, sse2" "$tmp/err"
ok "MEMDIAG_STREAM_ISA=avx512 without avx512f (MEMDIAG_TEST_HIDE_CPU): exit 1, names the feature" $?
MEMDIAG_TEST_HIDE_CPU=avx512f "$bin" run stream --size 64K --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
grep -q "^64K per array, avx code\|^64K per array, sse2 code" "$tmp/out"
ok "memdiagctl run stream without avx512f (MEMDIAG_TEST_HIDE_CPU): picks narrower loops" $?
MEMDIAG_STREAM_ISA=mmx "$bin" run stream --size 64K --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -qF "bad MEMDIAG_STREAM_ISA: 'mmx' is not c, sse2, avx or avx512" "$tmp/err"
ok "MEMDIAG_STREAM_ISA=mmx memdiagctl run stream -> exit 1, names the choices" $?

"$bin" run latency --size 16K,64M --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
small=$(jvals ns_per_load | sed -n 1p)
big=$(jvals ns_per_load | sed -n 2p)
[ "$rc" -eq 0 ] && gt "$small" 0 && gt "$big" "$small"
ok "memdiagctl run latency --size 16K,64M --reps 1 --min-time 0 -j: ns_per_load 64M ($big) > 16K ($small)" $?
[ "$(jvals cycles_per_load | wc -l)" -eq 2 ] && [ "$(jvals gbps | sort -u)" = null ]
ok "memdiagctl run latency -j: cycles_per_load per size, gbps null" $?

"$bin" run read-delay --size 64M --threads 1 --reps 1 --min-time 0 --delay 0 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
fast=$(jvals gbps)
[ "$rc" -eq 0 ] && gt "$fast" 0
ok "memdiagctl run read-delay --size 64M --threads 1 --reps 1 --min-time 0 --delay 0: gbps $fast > 0" $?
"$bin" run read-delay --size 64M --threads 1 --reps 1 --min-time 0 --delay 200 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
slow=$(jvals gbps)
[ "$rc" -eq 0 ] && gt "$slow" 0 && gt "$fast" "$slow"
ok "memdiagctl run read-delay --delay 200: gbps $slow < $fast (delay 0)" $?

# loaded-latency: one row per delay in the order given, the load falling
# as the delay grows (a factor of hundreds between 0 and 5000 NOPs, far
# beyond any noise); its pool is calibrate's, at least 4 x the last-level
# cache; the latency itself is too noisy here to assert more than that it
# was measured, with its percentiles in order (tests/loaded_latency.sh
# compares it with calibrate's)
if [ "$ncpu" -ge 2 ]; then
	"$bin" run loaded-latency --threads 2 --reps 1 --min-time 0 --delay 0,5000 -j > "$tmp/out" 2> "$tmp/err"
	rc=$?
	g0=$(jvals gbps | sed -n 1p)
	g1=$(jvals gbps | sed -n 2p)
	[ "$rc" -eq 0 ] && [ "$(jvals delay | tr '\n' ' ')" = "0 5000 " ] &&
		gt "$g1" 0 && gt "$g0" "$g1"
	ok "memdiagctl run loaded-latency --delay 0,5000 -j: rows for 0 and 5000, gbps $g0 > $g1 > 0" $?
	st=0
	for v in $(jvals ns_per_load) $(jvals cycles_per_load); do
		gt "$v" 0 || st=1
	done
	for i in 1 2; do
		gt "$(jvals traffic_gbps | sed -n ${i}p)" "$(jvals gbps | sed -n ${i}p)" || st=1
	done
	[ "$(jvals ns_per_load | wc -l)" -eq 2 ] && [ "$(jvals verified | sort -u)" = null ] &&
		jq -e '.pool_bytes as $pool | .mix == "read" and
			$pool >= 4 * .llc_bytes and .llc_bytes > 0 and
			all(.results[]; .kernel == "loaded-latency" and .threads == 2 and
			    .size_bytes == $pool and .reps == 1 and
			    .ns_per_load_p50 == .ns_per_load and
			    .ns_per_load_p50 <= .ns_per_load_p90 and
			    .ns_per_load_p90 <= .ns_per_load_p99)' \
			"$tmp/out" > /dev/null || st=1
	ok "memdiagctl run loaded-latency -j: ns and cycles per load > 0, traffic_gbps > gbps, pool >= 4 x LLC, p50 <= p90 <= p99" $st
	"$bin" run loaded-latency --threads 2 --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
	[ $? -eq 0 ] && [ "$(jvals delay | tr '\n' ' ')" = "0 20 50 100 200 500 1000 2000 5000 20000 " ]
	ok "memdiagctl run loaded-latency: default delays 0 to 20000" $?
	"$bin" run loaded-latency --reps 1 --min-time 0 --delay 7 --mix 1:1 > "$tmp/out" 2> "$tmp/err"
	[ $? -eq 0 ] && grep -q '^ *7 ' "$tmp/out" &&
		grep -qF "threads on CPU" "$tmp/out" && grep -qF "1:1 traffic from" "$tmp/out" &&
		grep -qE "over 64M in (2M|4K) pages .* every line flushed" "$tmp/out"
	ok "memdiagctl run loaded-latency --mix 1:1 (text): threads default to every CPU, the chase's pages and flush said, a row for delay 7" $?
	t 1 err "memdiagctl: run: option '--size': 4K is under the " run loaded-latency --threads 2 --size 4K
else
	skip "memdiagctl run loaded-latency" "needs 2 CPUs"
fi

# stencil: every variant bitwise equal to the serial sweeps, with either
# barrier, one wavefront group of all threads or a group per thread, and
# an odd number of sweeps (a short last pass). --model-gbps 12 makes the
# model's MLUP/s exactly 12000 / B/LUP, and B/LUP is the paper's code
# balance: 24 (Jacobi, two grids), 16 (in place), and for 5 sweeps in
# passes of 2: Jacobi (16 + 16 + 24) / 5 = 11.2, Gauss-Seidel 48 / 5 = 9.6.
stencil_check() { # name expected-traffic-B/LUP-list args...
	name=$1 want=$2
	shift 2
	"$bin" run stencil --size 64K --reps 2 --min-time 0 --sweeps 5 --model-gbps 12 -j "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(jvals verified | tr '\n' ' ')" = "true true true true " ] &&
		[ "$(jvals mismatches | sort -u)" = 0 ] &&
		[ "$(jvals variant | tr '\n' ' ')" = '"jacobi-threaded" "jacobi-wavefront" "gs-threaded" "gs-wavefront" ' ]
	ok "memdiagctl run stencil $name: four variants verified bitwise" $?
	st=0
	[ "$(jvals traffic_bytes_per_lup | tr '\n' ' ')" = "$want" ] || st=1
	for i in 1 2 3 4; do
		b=$(jvals traffic_bytes_per_lup | sed -n ${i}p)
		mo=$(jvals model_mlups | sed -n ${i}p)
		ml=$(jvals mlups | sed -n ${i}p)
		tg=$(jvals traffic_gbps | sed -n ${i}p)
		gt "$ml" 0 || st=1
		awk -v b="$b" -v mo="$mo" -v ml="$ml" -v tg="$tg" 'BEGIN {
			d1 = mo - 12000 / b; d2 = tg - ml * b / 1000
			exit !(d1 < 0.01 && d1 > -0.01 && d2 < 0.01 && d2 > -0.01) }' || st=1
	done
	grep -qF '"n":20,"sweeps":5' "$tmp/out" && grep -qF '"model_gbps":12' "$tmp/out" || st=1
	ok "memdiagctl run stencil $name: B/LUP $want, model = 12000 / B/LUP, GB/s = MLUP/s x B/LUP" $st
}
stencil_check "--threads 1" "24 24 16 16 " --threads 1
if [ "$ncpu" -ge 2 ]; then
	stencil_check "--threads 2 --barrier spin" "24 11.2 16 9.6 " --threads 2 --barrier spin
	stencil_check "--threads 2 --barrier tree" "24 11.2 16 9.6 " --threads 2 --barrier tree
	stencil_check "--threads 2 --groups 2 --barrier spin" "24 24 16 16 " --threads 2 --groups 2
	stencil_check "--threads 2 --groups 2 --barrier tree" "24 24 16 16 " --threads 2 --groups 2 --barrier tree
	grep -qF '"barrier":"tree","groups":2,"group_size":1' "$tmp/out"
	ok "memdiagctl run stencil --groups 2 --barrier tree: the head says so" $?
else
	skip "memdiagctl run stencil with 2 threads" "needs 2 CPUs"
fi
"$bin" run stencil --size 32K --reps 1 --min-time 0 --variant gs-wavefront,jacobi-threaded > "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && grep -Eq '^jacobi-threaded .* yes +([0-9]+[KMG]( [0-9]+%)?|\?) +1$' "$tmp/out" &&
	grep -Eq '^gs-wavefront .* yes +([0-9]+[KMG]( [0-9]+%)?|\?) +1$' "$tmp/out" &&
	[ "$(grep -c -- '-threaded \|-wavefront ' "$tmp/out")" -eq 2 ] &&
	grep -qF 'grid 16^3 doubles' "$tmp/out" && grep -qF 'model: ' "$tmp/out" &&
	grep -qF '(STREAM triad' "$tmp/out"
ok "memdiagctl run stencil --variant gs-wavefront,jacobi-threaded (text): two rows verified, the triad model" $?

# NUMA: each thread reports its CPU's node as sysfs has it, and the first
# page of its memory is there (placed with mbind, first touched by it)
jarr() { # KEY: the members of the array "KEY":[...] in $tmp/out, one a line
	grep -oE "\"$1\":\[[^]]*\]" "$tmp/out" | head -n 1 |
		sed 's/^[^[]*\[//; s/\]$//' | tr ',' '\n'
}
nt=2
[ "$ncpu" -ge 2 ] || nt=1
"$bin" run stream --size 1M --reps 1 --min-time 0 --threads $nt -j > "$tmp/out" 2> "$tmp/err"
rc=$?
want=
for c in $(jarr cpus); do
	n=$(ls -d /sys/devices/system/cpu/cpu"$c"/node* 2>/dev/null | head -n 1)
	want="$want ${n##*node}"
done
got=$(jarr nodes | tr '\n' ' ')
mem=$(jarr mem_nodes | tr '\n' ' ')
name="memdiagctl run stream --threads $nt -j: nodes and mem_nodes are the CPUs' sysfs nodes"
if [ -z "$(echo $want)" ]; then
	skip "$name" "no NUMA nodes in sysfs (kernel without CONFIG_NUMA)"
else
	[ "$rc" -eq 0 ] && [ "$(jarr cpus | wc -l)" -eq $nt ] &&
		[ "$(echo $want)" = "$(echo $got)" ] &&
		[ "$(echo $want)" = "$(echo $mem)" ]
	ok "$name ($(echo $want))" $?
fi

# throughput: the widest width by default, L1 faster than memory
if grep -qw avx512f /proc/cpuinfo; then widest=avx512
elif grep -qw avx /proc/cpuinfo; then widest=avx
else widest=sse
fi
"$bin" run throughput --size 16K,64M --mix load --reps 3 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
l1=$(jvals gbps | sed -n 1p)
mem=$(jvals gbps | sed -n 2p)
[ "$rc" -eq 0 ] && gt "$mem" 0 && gt "$l1" "$mem"
ok "memdiagctl run throughput --size 16K,64M --mix load -j: gbps 16K ($l1) > 64M ($mem) > 0" $?
[ "$(jvals width | sort -u)" = "\"$widest\"" ] && [ "$(jvals mix | sort -u)" = '"load"' ]
ok "memdiagctl run throughput -j: default width $widest (the widest in /proc/cpuinfo), mix load" $?
[ "$(jvals traffic_gbps)" = "$(jvals gbps)" ] && [ "$(jvals verified | sort -u)" = null ] &&
	[ "$(jvals size_bytes | paste -sd,)" = 16384,67108864 ] &&
	[ "$(jvals passes | paste -sd,)" = 32768,8 ] &&
	grep -qF '"kernel":"throughput","threads":1,' "$tmp/out" &&
	grep -qF '"reps":3,' "$tmp/out" && [ "$(jvals cov | wc -l)" -eq 2 ]
ok "memdiagctl run throughput -j: traffic_gbps = gbps, verified null, size_bytes, passes, reps, cov" $?
ghz=$(jvals tsc_ghz)
st=0
for i in 1 2; do
	# bytes per TSC cycle per thread: gbps / tsc_ghz / threads (1)
	awk -v g="$(jvals gbps | sed -n ${i}p)" -v b="$(jvals bytes_per_cycle | sed -n ${i}p)" \
	    -v f="$ghz" 'BEGIN { d = b - g / f; exit !(f > 0 && b > 0 && d < 0.01 && d > -0.01) }' || st=1
done
ok "memdiagctl run throughput -j: bytes_per_cycle = gbps / tsc_ghz ($ghz)" $st
for w in sse avx avx512; do
	feature=$w
	[ $w = sse ] && feature=sse2
	[ $w = avx512 ] && feature=avx512f
	if ! grep -qw $feature /proc/cpuinfo; then
		skip "memdiagctl run throughput --width $w --threads $thr" "no $feature"
		continue
	fi
	"$bin" run throughput --width $w --size 16K,256K --threads $thr --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
	rc=$?
	st=0
	for v in $(jvals gbps); do gt "$v" 0 || st=1; done
	[ "$rc" -eq 0 ] && [ $st -eq 0 ] && [ "$(jvals gbps | wc -l)" -eq 6 ] &&
		[ "$(jvals mix | paste -sd,)" = '"load","load-fadd","load-nop","load","load-fadd","load-nop"' ] &&
		[ "$(jvals width | sort -u)" = "\"$w\"" ] && [ "$(jvals width_bits)" -gt 0 ] &&
		[ "$(jvals threads | sort -u)" = $thr ]
	ok "memdiagctl run throughput --width $w --size 16K,256K --threads $thr: three mixes, each gbps > 0" $?
done
MEMDIAG_TEST_HIDE_CPU=avx,avx512f "$bin" run throughput --size 16K --mix load-nop,load-fadd --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && [ "$(jvals width | sort -u)" = '"sse"' ] && [ "$(jvals width_bits)" = 128 ] &&
	[ "$(jvals mix | paste -sd,)" = '"load-fadd","load-nop"' ]
ok "memdiagctl run throughput with avx and avx512f hidden (MEMDIAG_TEST_HIDE_CPU): width sse" $?
"$bin" run throughput --size 16K --mix load --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^16K  *load  ' "$tmp/out" &&
	grep -qF "traffic = GB/s" "$tmp/out"
ok "memdiagctl run throughput (text): a 16K load row, nothing on stderr" $?

# transpose: every variant equals naive, naive equals the definition
all_variants='"naive","sse","sse-prefetch","avx","avx-prefetch"'
grep -qw avx /proc/cpuinfo || all_variants='"naive","sse","sse-prefetch"'
"$bin" run transpose --size 1M --threads $thr --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(jvals variant | paste -sd,)" = "$all_variants" ] &&
	[ "$(jvals verified | sort -u)" = true ] && [ "$(jvals mismatches | sort -u)" = 0 ]
ok "memdiagctl run transpose --size 1M --threads $thr -j: $all_variants verified" $?
# 1M holds 362 x 362 doubles; N is a multiple of 8
[ "$(jvals n | sort -u)" = 360 ] && [ "$(jvals size_bytes | sort -u)" = 1036800 ] &&
	grep -qF '"variant":"sse","n":360,"distance":null,' "$tmp/out" &&
	grep -qF '"variant":"sse-prefetch","n":360,"distance":8,' "$tmp/out" &&
	grep -qF '"kernel":"transpose","threads":'"$thr"',' "$tmp/out"
ok "memdiagctl run transpose -j: n 360, size_bytes N*N*8, distance 8 for the prefetching variants" $?
st=0
n=$(jvals gbps | wc -l)
for i in $(seq "$n"); do
	g=$(jvals gbps | sed -n ${i}p)
	tr=$(jvals traffic_gbps | sed -n ${i}p)
	# both values are printed to 4 decimals: allow that rounding
	# (0.00005 each, the gbps one times 1.5) beyond the 0.1 %
	gt "$g" 0 && awk -v g="$g" -v t="$tr" 'BEGIN { d = t - 1.5 * g; e = 0.001 * t + 0.000125; exit !(d <= e && d >= -e) }' || st=1
done
ok "memdiagctl run transpose -j: gbps > 0, traffic_gbps = 1.5 gbps (write-allocate)" $st
for args in "--size 4K --distance 0" "--size 100K --distance 3 --threads $thr" "--size 64K --distance 1024"; do
	# shellcheck disable=SC2086 # $args is several arguments
	"$bin" run transpose $args --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
	[ $? -eq 0 ] && [ "$(jvals verified | sort -u)" = true ] &&
		[ "$(jvals verified | wc -l)" -eq "$(echo "$all_variants" | tr , '\n' | wc -l)" ]
	ok "memdiagctl run transpose $args: every variant verified" $?
done
MEMDIAG_TEST_HIDE_CPU=avx "$bin" run transpose --size 64K --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && [ "$(jvals variant | paste -sd,)" = '"naive","sse","sse-prefetch"' ]
ok "memdiagctl run transpose with avx hidden (MEMDIAG_TEST_HIDE_CPU): naive, sse, sse-prefetch" $?
# the check must catch one flipped bit (MEMDIAG_TEST_CORRUPT, a test hook)
MEMDIAG_TEST_CORRUPT=sse-prefetch "$bin" run transpose --size 64K --threads $thr --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
[ $? -eq 6 ] && grep -qF '"variant":"sse-prefetch",' "$tmp/out" &&
	[ "$(jvals verified | paste -sd,)" = "$(echo "$all_variants" | sed 's/"sse-prefetch"/false/; s/"[a-z-]*"/true/g')" ] &&
	[ "$(jvals mismatches | sort -u | paste -sd,)" = 0,1 ] &&
	grep -qF "memdiagctl: run: transpose results failed validation: sse-prefetch: see the output" "$tmp/err"
ok "memdiagctl run transpose, one bit of sse-prefetch flipped: it alone not verified, exit 6" $?
MEMDIAG_TEST_CORRUPT=naive "$bin" run transpose --size 64K --variant naive --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
[ $? -eq 6 ] && [ "$(jvals verified)" = false ] && [ "$(jvals mismatches)" = 1 ]
ok "memdiagctl run transpose --variant naive, one bit flipped: not verified against the definition, exit 6" $?
"$bin" run transpose --size 64K --variant sse-prefetch,naive --reps 1 --min-time 0 > "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^naive ' "$tmp/out" &&
	grep -q '^sse-prefetch ' "$tmp/out" && ! grep -q '^avx' "$tmp/out" &&
	grep -qF 'verified: yes' "$tmp/out" && grep -qF 'N = 88 ' "$tmp/out"
ok "memdiagctl run transpose --variant sse-prefetch,naive (text): two rows, N = 88, verified" $?

# text: a table and the truth about the counters; quiet when not a tty
if [ -d /sys/module/memdiag ]; then
	skip "memdiagctl run read-delay without the module: the counters line" "memdiag is loaded"
	skip "memdiagctl run latency -j without the module: counters null, reason" "memdiag is loaded"
	skip "memdiagctl run throughput and transpose without the module: counters null, reason" "memdiag is loaded"
else
	t 0 out "counters: unavailable: $nomod_run" run read-delay --size 4M --reps 1 --min-time 0
	# an LLC below the sizes: no in-cache warning either
	fake_llc 16K
	MEMDIAG_TEST_SYSFS_CPU=$tmp/sys "$bin" run latency --size 16K,32K --reps 1 --min-time 0 -j \
		> "$tmp/out" 2> "$tmp/err"
	[ $? -eq 0 ] && [ ! -s "$tmp/err" ] &&
		[ "$(grep -oF "\"counters\":null,\"counters_reason\":\"$nomod_run\"" "$tmp/out" | wc -l)" -eq 2 ]
	ok "memdiagctl run latency -j without the module: each size's counters null, reason, nothing on stderr" $?
	# a slot per size and mix, and per transpose variant: each result its own
	"$bin" run throughput --size 16K,32K --mix load,load-nop --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
	[ $? -eq 0 ] && [ ! -s "$tmp/err" ] &&
		[ "$(grep -oF "\"counters\":null,\"counters_reason\":\"$nomod_run\"" "$tmp/out" | wc -l)" -eq 4 ]
	ok "memdiagctl run throughput -j without the module: each size and mix's counters null, reason" $?
	"$bin" run transpose --size 64K --variant naive,sse --reps 1 --min-time 0 -j > "$tmp/out" 2> "$tmp/err"
	[ $? -eq 0 ] && [ ! -s "$tmp/err" ] &&
		[ "$(grep -oF "\"mismatches\":0,\"counters\":null,\"counters_reason\":\"$nomod_run\"" "$tmp/out" | wc -l)" -eq 2 ]
	ok "memdiagctl run transpose -j without the module: each variant's counters null, reason" $?
	t 0 out "counters: unavailable: $nomod_run" run throughput --size 16K --mix load --reps 1 --min-time 0
	t 0 out "counters: unavailable: $nomod_run" run transpose --size 64K --variant sse --reps 1 --min-time 0
fi
fake_llc 16K
MEMDIAG_TEST_SYSFS_CPU=$tmp/sys "$bin" run stream --size 1M --reps 1 --min-time 0 \
	> "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^triad ' "$tmp/out" &&
	grep -qF 'verified: yes' "$tmp/out"
ok "memdiagctl run stream (text, not a tty): table, verified, nothing on stderr" $?

# No memdiag module can be loaded on the build host; where one is, these
# would test the module rather than the message.
nomod="the memdiag module is not loaded: generic netlink family 'memdiag' not found: load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')"
for a in info "-j info" "info --json" "-p info" watch "-j watch --interval 100ms --count 50" \
	 "watch --socket 0" snapshot "snapshot --socket 0 --channels" "-j snapshot"; do
	if [ -d /sys/module/memdiag ]; then
		skip "memdiagctl $a without the module -> exit 2" "memdiag is loaded"
		continue
	fi
	cmd=info
	case "$a" in *watch*) cmd=watch ;; *snapshot*) cmd=snapshot ;; esac
	# shellcheck disable=SC2086 # $a is several arguments
	t 2 err "memdiagctl: $cmd: $nomod" $a
done

# A host that cannot load the module says so, and what works without it,
# instead of asking for insmod; one that can is told how (host_reach.c).
if [ ! -d /sys/module/memdiag ]; then
	cant="memdiagctl: info: the memdiag module is not loaded and cannot be"
	# the commands the help marks '*', with the option it says one
	# needs ("'stat' with --marker"), as the messages must list them
	"$bin" --help | tr '\n' ' ' | grep -o "'[a-z]*' with --[a-z-]*" |
		tr -d "'" | sed 's/ with / /' > "$tmp/with"
	free=$("$bin" --help |
		awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && $2 == "*" { print $1 }' |
		while read -r c; do grep -m1 "^$c " "$tmp/with" || echo "$c"; done |
		paste -sd, - | sed 's/,/, /g')
	free="$free work without them"
	fake_host "$tmp/h1" nomodule no-proc-modules hypervisor no-headers
	MEMDIAG_TEST_HOST_ROOT=$tmp/h1
	t 2 err "$cant: this kernel was booted with 'nomodule', so the counters are out of reach on this host; $free (a virtual machine, whose hypervisor hides the uncore counters anyway; no kernel headers here to build the module)" info
	t 2 err "memdiagctl: watch: the memdiag module is not loaded and cannot be: this kernel was booted with 'nomodule'" watch
	t 2 err "memdiagctl: snapshot: the memdiag module is not loaded and cannot be" snapshot
	fake_host "$tmp/h2" no-proc-modules
	MEMDIAG_TEST_HOST_ROOT=$tmp/h2
	t 2 err "$cant: this kernel cannot load modules (no /proc/modules), so the counters are out of reach on this host; $free" info
	fake_host "$tmp/h3" disabled
	MEMDIAG_TEST_HOST_ROOT=$tmp/h3
	t 2 err "$cant: module loading is switched off (kernel.modules_disabled=1)" info
	fake_host "$tmp/h4" hypervisor no-headers
	MEMDIAG_TEST_HOST_ROOT=$tmp/h4
	t 2 err "memdiagctl: info: hint: no kernel headers for $(uname -r) to build it; in a virtual machine the hypervisor may hide the counters: $free" info
	t 2 err "$nomod" info
	fake_host "$tmp/h5" hypervisor
	MEMDIAG_TEST_HOST_ROOT=$tmp/h5
	t 2 err "memdiagctl: info: hint: in a virtual machine the hypervisor may hide the counters: $free" info
	# the module's absence comes first: a curve could not help without it
	MEMDIAG_TEST_HOST_ROOT=$tmp/host
	for c in watch; do
		mkdir -p "$tmp/nocurve"
		XDG_STATE_HOME=$tmp/nocurve timeout 10 "$bin" $c --interval 100ms \
			> "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ "$rc" -eq 2 ] && head -n 1 "$tmp/err" | grep -qF "memdiagctl: $c: the memdiag module is not loaded" &&
			! grep -q "no verdict" "$tmp/err"
		st=$?
		ok "memdiagctl $c without the module or a curve: exit 2, the module named first, no curve note" $st
	done
	# export where the module can be loaded waits for it: that it is
	# missing comes before any word on the curve (which cannot help
	# without it); the curve is named once the module is read
	XDG_STATE_HOME=$tmp/nocurve timeout -s TERM 2 "$bin" export \
		--interval 100ms --textfile "$tmp/nocurve" > "$tmp/out" 2> "$tmp/err"
	grep -m 1 "memdiagctl: export: note:" "$tmp/err" |
		grep -qF "memdiagctl: export: note: waiting for the memdiag module" &&
		! grep -q "no verdict" "$tmp/err"
	st=$?
	ok "memdiagctl export waiting for the module: says so first, no curve note before the module is read" $st
	# export on a host that can never load the module: exit 2 at once,
	# naming --probe, rather than serving memdiag_up 0 forever
	MEMDIAG_TEST_HOST_ROOT=$tmp/h1
	XDG_STATE_HOME=$tmp/nocurve timeout 10 "$bin" export --interval 100ms \
		> "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && head -n 1 "$tmp/err" | grep -qF "memdiagctl: export: the memdiag module is not loaded and cannot be" &&
		grep -qF "memdiagctl: export: hint: serve the counter-free probe's estimates instead: memdiagctl export --probe" "$tmp/err" &&
		! grep -q "no verdict" "$tmp/err"
	ok "memdiagctl export where modules cannot load: exit 2 at once, the module first, --probe named" $?
	MEMDIAG_TEST_HOST_ROOT=$tmp/host
	# validate without the module: exit 2 at once, no STREAM, no FAIL rows
	start=$(date +%s)
	t 2 err "memdiagctl: validate: the memdiag module is not loaded" validate
	[ $(($(date +%s) - start)) -le 2 ] && ! grep -q FAIL "$tmp/err"
	ok "memdiagctl validate without the module: within 2 s, no FAIL" $?
	# this host itself
	unset MEMDIAG_TEST_HOST_ROOT
	if [ ! -e /proc/modules ] || grep -qw nomodule /proc/cmdline; then
		t 2 err "$cant" info
	else
		t 2 err "memdiagctl: info: $nomod" info
	fi
	MEMDIAG_TEST_HOST_ROOT=$tmp/host
	export MEMDIAG_TEST_HOST_ROOT
else
	skip "memdiagctl info on a host that cannot load modules" "memdiag is loaded"
fi

# export: bad options name the option and change nothing
t 0 out "Usage: memdiagctl export [--listen ADDR:PORT]" export --help
t 1 err "memdiagctl: export: option '--listen': 'localhost:9473': " export --listen localhost:9473
t 1 err "memdiagctl: export: option '--listen': '9473' is not ADDR:PORT" export --listen 9473
# a port out of range is memdiag's error, before any address is used
# (timeout: an exporter that took it would serve until killed)
t_timeout=5
t 1 err "memdiagctl: export: option '--listen': port '99999' is out of range: it must be from 1 to 65535" export --listen 127.0.0.1:99999
t 1 err "memdiagctl: export: option '--listen': port '0' is out of range" export --listen :0
t 1 err "memdiagctl: export: option '--listen': port '65536' is out of range" export --listen "[::1]:65536"
t 1 err "memdiagctl: export: option '--listen': port 'http' is not a number" export --listen :http
t_timeout=
t 1 err "memdiagctl: export: option '--textfile': '$tmp/none' is not a directory this user can write to" export --textfile "$tmp/none"
t 1 err "memdiagctl: export: option '--interval':" export --interval 0
t 1 err "memdiagctl: export: unexpected argument 'now'" export now

# export --probe: the counter-free probe's latency, and the bandwidth it
# implies on a curve (selftests/fleet/sim-curve.json: idle at 90 ns; 10, 30,
# 40 GB/s at 100, 150, 300 ns) recomputed here by linear interpolation
t 1 err "memdiagctl: export: option '--interval': 10 ms is below the 50ms --probe needs" export --probe --interval 10ms
t 1 err "memdiagctl: export: option '--threshold': needs the module's latency counters, not --probe" export --probe --threshold 300
mkdir -p "$tmp/probe-tf"
sim_curve=$(dirname "$0")/../../selftests/fleet/sim-curve.json
"$bin" export --probe --textfile "$tmp/probe-tf" --interval 100ms \
	--curve "$sim_curve" > "$tmp/out" 2> "$tmp/err" &
xpid=$!
sleep 2
kill -INT $xpid
wait $xpid
rc=$?
prom=$tmp/probe-tf/memdiag.prom
pv() { awk -v m="$1" '$1 == m { print $2 }' "$prom"; }
lat=$(pv 'memdiag_probe_latency_seconds{socket="0"}')
bw=$(pv 'memdiag_estimated_dram_bandwidth_bytes_per_second{socket="0"}')
age=$(pv 'memdiag_estimate_curve_age_seconds{socket="0"}')
now=$(date +%s)
created=$(date -d 2026-11-23T23:40:00Z +%s)
[ "$rc" -eq 0 ] && [ "$(pv memdiag_probe_mode)" = 1 ] &&
	! grep -q '^memdiag_up' "$prom" &&
	awk -v l="$lat" -v b="$bw" -v a="$age" -v now="$now" -v c="$created" 'BEGIN {
		ns = l * 1e9
		if (ns <= 90) want = 0
		else if (ns <= 100) want = (ns - 90) / 10 * 10e9
		else if (ns <= 150) want = 10e9 + (ns - 100) / 50 * 20e9
		else if (ns <= 300) want = 30e9 + (ns - 150) / 150 * 10e9
		else want = 40e9
		exit !(ns > 0 && (b - want) ^ 2 <= (0.001 * want) ^ 2 &&
		       a >= now - c - 10 && a <= now - c + 1)
	}' &&
	grep -q '^memdiag_estimated_verdict{socket="0",verdict="unknown"} [01]$' "$prom"
ok "memdiagctl export --probe: memdiag_probe_mode 1, no memdiag_up; the estimate is the curve's bandwidth at the latency ($lat s -> $bw B/s), the curve's age ($age s)" $?

# make run's closing text: the module's processors and this one's status,
# from the module's own table (scripts/hw-status.sh)
hws=$(dirname "$0")/../../scripts/hw-status.sh
fake_cpu() { # file vendor family model stepping name
	printf 'vendor_id\t: %s\ncpu family\t: %s\nmodel\t\t: %s\nmodel name\t: %s\nstepping\t: %s\n' \
		"$2" "$3" "$4" "$6" "$5" > "$1"
}
fake_cpu "$tmp/zen1" AuthenticAMD 23 1 2 "AMD EPYC 7601"
fake_cpu "$tmp/zen2" AuthenticAMD 23 49 0 "AMD EPYC 7702"
fake_cpu "$tmp/zen3" AuthenticAMD 25 1 1 "AMD EPYC 7B13"
fake_cpu "$tmp/zen4" AuthenticAMD 25 17 1 "AMD EPYC 9654"
fake_cpu "$tmp/zen5" AuthenticAMD 26 2 0 "AMD EPYC 9755"
fake_cpu "$tmp/skx" GenuineIntel 6 85 4 "Intel Xeon Gold 6148"
fake_cpu "$tmp/clx" GenuineIntel 6 85 7 "Intel Xeon Gold 6248"
"$hws" "$tmp/zen1" > "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && grep -qxF "supported: Intel Xeon Haswell-EP, Broadwell-EP, Skylake-SP, Cascade Lake-SP, Ice Lake-SP, Sapphire Rapids, Emerald Rapids, Granite Rapids, Granite Rapids-D, Sierra Forest; AMD Zen 2, Zen 3, Zen 4, Zen 5" "$tmp/out" &&
	grep -qxF "this processor: AMD EPYC 7601 (AuthenticAMD family 0x17 model 0x1 stepping 2): not in the module's table, so unsupported even on bare metal (only the counter-free commands work on it)" "$tmp/out"
ok "hw-status.sh: the module's table read whole (Zen 2 to 5 too); a Zen 1 (a row the table marks unsupported) unsupported even on bare metal" $?
st=0
for c in "zen2:AMD Zen 2" "zen3:AMD Zen 3" "zen4:AMD Zen 4" "zen5:AMD Zen 5" "skx:Skylake-SP" "clx:Cascade Lake-SP"; do
	"$hws" "$tmp/${c%%:*}" | grep -q "^this processor: .*): ${c#*:}, supported by the module on bare metal$" || st=1
done
ok "hw-status.sh: Zen 2 to 5, Skylake-SP and Cascade Lake-SP (by stepping) named as supported" $st

# make run says what it will do before doing it (MEMDIAG_RUN_DRY=1: only
# that), by what the (fake) host can do
runsh=$(dirname "$0")/../../scripts/run.sh
dry() { # root [MEMDIAG_SIM] -- ARGS: run.sh's announcement into $tmp/err
	r=$1 sim=$2
	shift 3
	MEMDIAG_TEST_HOST_ROOT=$r MEMDIAG_SIM=$sim MEMDIAG_RUN_DRY=1 \
		"$runsh" "$@" > "$tmp/out" 2> "$tmp/err"
}
fake_host "$tmp/r0"
fake_host "$tmp/r1" nomodule no-proc-modules
fake_host "$tmp/r2" no-proc-modules
fake_host "$tmp/r3" disabled
fake_host "$tmp/r4" no-headers
first="run: first: the Debian packages scripts/deps.sh names that are missing (apt-get, as root), then build memdiagctl"
dry "$tmp/r0" "" -- watch --count 2
[ $? -eq 0 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" -eq 2 ] &&
	head -n 1 "$tmp/err" | grep -qxF "$first" &&
	grep -qxF "run: then: build module/memdiag.ko for $(uname -r), load it with insmod (stays loaded) and run memdiagctl watch --count 2" "$tmp/err"
ok "make run (MEMDIAG_RUN_DRY=1) where the module can load: the packages, the build, insmod and the command, then exit 0" $?
dry "$tmp/r1" "" --
head -n 1 "$tmp/err" | grep -qxF "$first" &&
	grep -qxF "run: then: no module (this host cannot load modules: the kernel was booted with 'nomodule'): the counter-free view on this machine, calibrating once with 'memdiagctl calibrate --quick' (a minute or two) if no curve is stored" "$tmp/err"
ok "make run on a 'nomodule' host, no ARGS: the counter-free view and its calibration announced" $?
dry "$tmp/r2" "" -- info
grep -qxF "run: then: no module here (this host cannot load modules: the kernel has no /proc/modules): boot a QEMU/TCG guest with Debian's newest kernel and run memdiagctl info there" "$tmp/err"
ok "make run ARGS=info without /proc/modules: the guest it will boot announced" $?
dry "$tmp/r3" "" -- info
grep -qF "run: then: no module here (this host cannot load modules: kernel.modules_disabled is 1): boot a QEMU/TCG guest" "$tmp/err"
ok "make run with modules_disabled: says so, and the guest" $?
dry "$tmp/r4" "" -- info
grep -qF "run: then: no module here (there are no headers for the running kernel $(uname -r)): boot a QEMU/TCG guest" "$tmp/err"
ok "make run without kernel headers: says so, and the guest" $?
dry "$tmp/r0" skx -- watch
grep -qxF "run: then: boot a QEMU/TCG guest with Debian's newest kernel here and the simulated platform (MEMDIAG_SIM=skx)" "$tmp/err"
ok "make run MEMDIAG_SIM=skx: the simulated platform's guest announced" $?

# the counter-free view's closing text (counter-free.sh): the module's
# processors and this one's status from hw-status.sh, in 74 columns
plan=$(dirname "$0")/../../scripts/run-plan.sh
bash -c '. "$1"; run_closing "$("$2" "$3")"' sh "$plan" "$hws" "$tmp/zen1" > "$tmp/out"
tr '\n' ' ' < "$tmp/out" | grep -qF "On supported hardware (Intel Xeon Haswell-EP, Broadwell-EP, Skylake-SP, Cascade Lake-SP, Ice Lake-SP, Sapphire Rapids, Emerald Rapids, Granite Rapids, Granite Rapids-D, Sierra Forest; AMD Zen 2, Zen 3, Zen 4, Zen 5) with memdiag.ko loaded" &&
	tr '\n' ' ' < "$tmp/out" | grep -qF "This processor, AMD EPYC 7601 (AuthenticAMD family 0x17 model 0x1 stepping 2): not in the module's table, so unsupported even on bare metal (only the counter-free commands work on it)" &&
	awk 'length > 74 { exit 1 }' "$tmp/out"
ok "make run's closing text on a Zen 1: every supported processor (Zen 2 to 5 too) and this one unsupported even on bare metal, in 74 columns" $?

# A full disk must not pass for success.
"$bin" --help > /dev/full 2> "$tmp/err"
rc=$?
[ "$rc" -eq 6 ] && grep -qF "memdiagctl: cannot write output: No space left on device" "$tmp/err"
ok "memdiagctl --help >/dev/full -> exit 6, stderr has \"cannot write output\"" $? "exit $rc"

# The unit tests are a kselftest harness binary: its numbered results
# become "ok - unit NAME" lines here (numbered below with the others), its
# own TAP header and plan are dropped; a crash of the runner must show.
"$unit" > "$tmp/unit" 2> "$tmp/unit.err"
rc=$?
sed -E -e '/^TAP version /d' -e '/^1\.\.[0-9]+$/d' \
	-e 's/^(ok|not ok) [0-9]+ /\1 - unit /' "$tmp/unit" >> "$results"
grep -q '^# Totals: ' "$tmp/unit" && [ ! -s "$tmp/unit.err" ]
ok "unit tests ran to completion (exit $rc)" $? "$(cat "$tmp/unit.err")"

# the plan first, then every line numbered in order (ok's numbers
# skipped the unit tests' lines)
echo "1..$(grep -cE '^(ok|not ok)( [0-9]+)? - ' "$results")"
awk '/^(ok|not ok)( [0-9]+)? - / { n++; sub(/( [0-9]+)? - /, " " n " - ") } { print }' "$results"
! grep -q '^not ok' "$results"
