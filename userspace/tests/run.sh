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
results=$tmp/results
: > "$results"

# Indent a file as TAP diagnostics.
diag() { # label file
	sed "s/^/#   $1: /" "$2" >> "$results"
}

# t EXIT STREAM TEXT ARGS...: memdiagctl ARGS must exit with exactly EXIT,
# STREAM (out or err) must contain TEXT, and a failure must print nothing
# on stdout (scripts parse it).
t() {
	want=$1 stream=$2 text=$3
	shift 3
	"$bin" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	why=
	[ "$rc" -eq "$want" ] || why="exit $rc, not $want"
	grep -qF -- "$text" "$tmp/$stream" || why="$why; std$stream lacks: $text"
	if [ "$want" -ne 0 ] && [ -s "$tmp/out" ]; then
		why="$why; stdout not empty"
	fi
	name="memdiagctl $* -> exit $want, std$stream has \"$text\""
	if [ -z "$why" ]; then
		echo "ok - $name" >> "$results"
	else
		echo "not ok - $name" >> "$results"
		echo "#   $why" >> "$results"
		diag stdout "$tmp/out"
		diag stderr "$tmp/err"
	fi
}

skip() { # name reason
	echo "ok - $1 # SKIP $2" >> "$results"
}

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
t 0 out "(default 300; see memdiagctl(8))" watch -h
t 0 out "Usage: memdiagctl snapshot [--socket N | --all] [--channels]" snapshot --help
t 0 out "Usage: memdiagctl snapshot" help snapshot
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
t 1 err "memdiagctl: snapshot: unexpected argument '0'" snapshot 0

# run: the micro-kernels (no module needed). Option errors first.
rh="see 'memdiagctl run --help'"
t 0 out "  run  " help
t 0 out "Usage: memdiagctl run KERNEL [--threads N] [--cpus LIST] [--size SIZE]" run --help
t 0 out "Usage: memdiagctl run KERNEL" help run
t 0 out "over exactly the timed part; otherwise the run goes on" run --help
t 1 err "memdiagctl: run: no kernel given: read-delay, stream or latency: $rh" run
t 1 err "memdiagctl: run: unknown kernel 'bogus': use read-delay, stream or latency: $rh" run bogus
t 1 err "memdiagctl: run: option '--size': '12Q' is not a size: use bytes or a number with K, M or G (64K, 1M, 1G): $rh" run stream --size 12Q
t 1 err "memdiagctl: run: option '--size': '1k2' is not a size" run latency --size 1k2
t 1 err "memdiagctl: run: option '--size': '16K,,1M' is not a list of sizes" run latency --size 16K,,1M
t 1 err "memdiagctl: run: option '--size': '100' is out of range: it must be from 4K to 1024G" run stream --size 100
t 1 err "memdiagctl: run: option '--size': kernel 'stream' takes one size (only latency takes a list)" run stream --size 1M,2M
t 1 err "memdiagctl: run: option '--size' needs a value: $rh" run stream --size
ncpu=$(getconf _NPROCESSORS_ONLN)
t 1 err "memdiagctl: run: option '--threads': '$((ncpu + 1))' is more than the $ncpu online CPUs: $rh" run stream --threads $((ncpu + 1))
t 1 err "memdiagctl: run: option '--threads': '0' is out of range: it must be from 1 to 1024" run stream --threads 0
t 1 err "memdiagctl: run: option '--threads': '2' is more than the CPUs --cpus lists (1)" run stream --cpus 0 --threads 2
t 1 err "memdiagctl: run: option '--cpus': 'x' is not a CPU list (like 0-3,8)" run stream --cpus x
t 1 err "memdiagctl: run: option '--cpus': CPU 0 is listed twice" run stream --cpus 0,0
t 1 err "memdiagctl: run: option '--cpus': CPU 100000 is not online or not allowed for this process" run stream --cpus 100000
t 1 err "memdiagctl: run: option '--delay': kernel 'stream' has no delay (only read-delay has): $rh" run stream --delay 5
t 1 err "memdiagctl: run: option '--delay': kernel 'latency' has no delay" run latency --delay 0
t 1 err "memdiagctl: run: option '--delay': 'x' is not a number" run read-delay --delay x
t 1 err "memdiagctl: run: option '--reps': '0' is out of range: it must be from 1 to 1000" run stream --reps 0
t 1 err "memdiagctl: run: unknown option '--bogus': $rh" run stream --bogus
t 1 err "memdiagctl: run: unexpected argument 'extra'" run stream extra

# ok NAME CONDITION-STATUS: one TAP row from the last command's outcome
ok() { # name status [diagnostic file]
	if [ "$2" -eq 0 ]; then
		echo "ok - $1" >> "$results"
	else
		echo "not ok - $1" >> "$results"
		diag stdout "$tmp/out"
		diag stderr "$tmp/err"
	fi
}
# jvals KEY: the numbers (or true/false/null) of "KEY": in $tmp/out, one a line
jvals() {
	grep -oE "\"$1\":[^,}]*" "$tmp/out" | sed 's/^[^:]*://'
}
# gt A B: whether A > B (decimals)
gt() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'
}

"$bin" run stream --size 4M --reps 2 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(jvals verified | sort -u)" = true ] &&
	[ "$(jvals verified | wc -l)" -eq 4 ]
ok "memdiagctl run stream --size 4M --reps 2 -j -> exit 0, four ops verified" $?
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
nomod_run="the memdiag module is not loaded (load it with 'insmod module/memdiag.ko' or 'modprobe memdiag')"
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

"$bin" run latency --size 16K,64M --reps 1 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
small=$(jvals ns_per_load | sed -n 1p)
big=$(jvals ns_per_load | sed -n 2p)
[ "$rc" -eq 0 ] && gt "$small" 0 && gt "$big" "$small"
ok "memdiagctl run latency --size 16K,64M --reps 1 -j: ns_per_load 64M ($big) > 16K ($small)" $?
[ "$(jvals cycles_per_load | wc -l)" -eq 2 ] && [ "$(jvals gbps | sort -u)" = null ]
ok "memdiagctl run latency -j: cycles_per_load per size, gbps null" $?

"$bin" run read-delay --size 64M --threads 1 --reps 1 --delay 0 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
fast=$(jvals gbps)
[ "$rc" -eq 0 ] && gt "$fast" 0
ok "memdiagctl run read-delay --size 64M --threads 1 --reps 1 --delay 0: gbps $fast > 0" $?
"$bin" run read-delay --size 64M --threads 1 --reps 1 --delay 200 -j > "$tmp/out" 2> "$tmp/err"
rc=$?
slow=$(jvals gbps)
[ "$rc" -eq 0 ] && gt "$slow" 0 && gt "$fast" "$slow"
ok "memdiagctl run read-delay --delay 200: gbps $slow < $fast (delay 0)" $?

# text: a table and the truth about the counters; quiet when not a tty
if [ -d /sys/module/memdiag ]; then
	skip "memdiagctl run read-delay without the module: the counters line" "memdiag is loaded"
	skip "memdiagctl run latency -j without the module: counters null, reason" "memdiag is loaded"
else
	t 0 out "counters: unavailable: $nomod_run" run read-delay --size 4M --reps 1
	"$bin" run latency --size 16K,32K --reps 1 -j > "$tmp/out" 2> "$tmp/err"
	[ $? -eq 0 ] && [ ! -s "$tmp/err" ] &&
		[ "$(grep -oF "\"counters\":null,\"counters_reason\":\"$nomod_run\"" "$tmp/out" | wc -l)" -eq 2 ]
	ok "memdiagctl run latency -j without the module: each size's counters null, reason, nothing on stderr" $?
fi
"$bin" run stream --size 1M --reps 1 > "$tmp/out" 2> "$tmp/err"
[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^triad ' "$tmp/out" &&
	grep -qF 'verified: yes' "$tmp/out"
ok "memdiagctl run stream (text, not a tty): table, verified, nothing on stderr" $?

# No memdiag module can be loaded on the build host; where one is, these
# would test the module rather than the message.
nomod="generic netlink family 'memdiag' not found: is memdiag.ko loaded? load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')"
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

# A full disk must not pass for success.
"$bin" --help > /dev/full 2> "$tmp/err"
rc=$?
name="memdiagctl --help >/dev/full -> exit 6, stderr has \"cannot write output\""
if [ "$rc" -eq 6 ] && grep -qF "memdiagctl: cannot write output: No space left on device" "$tmp/err"; then
	echo "ok - $name" >> "$results"
else
	echo "not ok - $name" >> "$results"
	echo "#   exit $rc" >> "$results"
	diag stderr "$tmp/err"
fi

# The unit tests print unnumbered "ok - " lines; a crash must show too.
"$unit" > "$tmp/unit" 2> "$tmp/unit.err"
rc=$?
cat "$tmp/unit" >> "$results"
name="unit tests ran to completion (exit $rc)"
if grep -q '^# done, ' "$tmp/unit" && [ ! -s "$tmp/unit.err" ]; then
	echo "ok - $name" >> "$results"
else
	echo "not ok - $name" >> "$results"
	diag stderr "$tmp/unit.err"
fi

echo "1..$(grep -cE '^(ok|not ok) - ' "$results")"
awk '/^(ok|not ok) - / { n++; sub(/ - /, " " n " - ") } { print }' "$results"
! grep -q '^not ok' "$results"
