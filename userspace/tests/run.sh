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
