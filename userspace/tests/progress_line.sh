#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# progress_line.sh - the one progress line (cli/progress_line.c) of run
# and calibrate, on the host: drawn on a terminal's standard error even
# when standard output is a file (-j > FILE), never in that file, and
# not drawn at all when standard error is not a terminal. A terminal is
# util-linux script(1)'s pseudo-terminal. TAP "ok - " lines.
# usage: progress_line.sh MEMDIAGCTL
. "$(dirname "$0")/tap.sh"

if ! command -v script > /dev/null 2>&1; then
	skip "the progress line" "no script(1) (util-linux): no terminal to draw on"
	exit 0
fi
esc=$(printf '\033')

# on_tty TYPESCRIPT CMD...: run CMD with a terminal for its standard error
on_tty() {
	t=$1
	shift
	script -qec "$*" "$t" > /dev/null 2>&1
}

# drawn TYPESCRIPT PATTERN: the terminal got a progress line, each one
# erased before it was drawn ("\r ESC [K"), one of them matching PATTERN
drawn() {
	grep -a -o "$(printf '\r')${esc}\[K[^$(printf '\r')]*" "$1" | grep -q "$2"
}

on_tty "$tmp/run.tty" "$bin" run stream --size 4M --reps 2 --min-time 0.2 \
	-j '>' "$tmp/run.json"
drawn "$tmp/run.tty" 'stream: phase [1-4]/4 [a-z]*, repetition'
ok "run stream -j > FILE on a terminal: the progress line is drawn on standard error" $? "$(cat "$tmp/run.tty")"
jq -e '.results | length == 4' "$tmp/run.json" > /dev/null 2>&1 &&
	! grep -q "$esc" "$tmp/run.json"
ok "run stream -j > FILE: the file is the JSON, no progress in it" $? "$(cat "$tmp/run.json")"
"$bin" run stream --size 4M --reps 2 --min-time 0.2 -j > "$tmp/run2.json" 2> "$tmp/run2.err"
! grep -q "$esc" "$tmp/run2.err" && ! grep -q 'repetition' "$tmp/run2.err"
ok "run stream with standard error in a file: no progress line" $? "$(cat "$tmp/run2.err")"

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	skip "calibrate's progress line" "one CPU: calibrate has no generator to show progress of"
	tap_end
	exit
fi
on_tty "$tmp/cal.tty" "$bin" calibrate --quick --mix read --curve "$tmp/c.json" \
	-j '>' "$tmp/cal.json"
# the last bar is kept: a newline right after its 100 %
drawn "$tmp/cal.tty" 'socket 0, prefetch unchanged \[#*\.*\] *[0-9]*%' &&
	grep -a -q "\[#*\] 100%  *[0-9]* s left$(printf '\r')\{0,1\}\$" "$tmp/cal.tty"
ok "calibrate -j > FILE on a terminal: the same progress line, its last bar kept" $? "$(cat "$tmp/cal.tty")"
jq -e '.sockets' "$tmp/cal.json" > /dev/null 2>&1 && ! grep -q "$esc" "$tmp/cal.json"
ok "calibrate -j > FILE: the file is the JSON, no progress in it" $? "$(cat "$tmp/cal.json")"
"$bin" calibrate --quick --mix read --curve "$tmp/c2.json" -j > "$tmp/cal2.json" 2> "$tmp/cal2.err"
! grep -q "$esc" "$tmp/cal2.err" && ! grep -q 's left' "$tmp/cal2.err"
ok "calibrate with standard error in a file: no progress line" $? "$(cat "$tmp/cal2.err")"

tap_end
