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
	    "5  any other kernel or netlink error" "6  local error"; do
	t 0 out "$code" --help
done
t 0 out "  info  " help
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

# No memdiag module can be loaded on the build host; where one is, these
# would test the module rather than the message.
if [ -d /sys/module/memdiag ]; then
	for a in info "-j info" "info --json" "-p info"; do
		skip "memdiagctl $a without the module -> exit 2" "memdiag is loaded"
	done
else
	nomod="memdiagctl: info: generic netlink family 'memdiag' not found: is memdiag.ko loaded? load it with 'insmod module/memdiag.ko' (or 'modprobe memdiag')"
	t 2 err "$nomod" info
	t 2 err "$nomod" -j info
	t 2 err "$nomod" info --json
	t 2 err "$nomod" -p info
fi

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
