#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stat.sh - "memdiagctl stat -- CMD" without the module (TAP "ok - "
# lines): the command runs and its exit status passes through (128 + N
# for a signal, 126/127 when it cannot be run), its stdout stays its own,
# the results go to stderr or -o FILE and say why there are no counts,
# Ctrl-C reaches the command and stat still reports, SIGTERM is passed on,
# and bad options are refused before anything runs.
# usage: stat.sh MEMDIAGCTL
. "$(dirname "$0")/tap.sh"

# st WANT NAME ARGS...: memdiagctl stat ARGS exits WANT
st() {
	want=$1 name=$2
	shift 2
	"$bin" stat "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" = "$want" ]
	ok "stat $name: exit $want (got $rc)" $? "$(cat "$tmp/out" "$tmp/err")"
}

st 0 "-- true" -- true
st 3 "-- sh -c 'exit 3'" -- sh -c 'exit 3'
st 200 "-- sh -c 'exit 200'" -- sh -c 'exit 200'
st 137 "of a command killed by SIGKILL (128 + 9)" -- sh -c 'kill -KILL $$'
grep -q "was killed by signal 9" "$tmp/err"
ok "stat: the text names the signal" $? "$(cat "$tmp/err")"
st 127 "of a command not found" -- "$tmp/no-such-command"
grep -q "cannot run the command: cannot run '$tmp/no-such-command': No such file or directory" "$tmp/err"
ok "stat: a command not found is named with the reason" $? "$(cat "$tmp/err")"
: > "$tmp/notexec"
st 126 "of a file that is not executable" -- "$tmp/notexec"

# the command's stdout is its own; stat's results are on stderr
st 0 "-- echo hello" -- echo hello
[ "$(cat "$tmp/out")" = hello ]
ok "stat -- echo hello: stdout is the command's alone" $? "$(cat "$tmp/out")"
grep -q "^memdiagctl stat: 'echo hello' exited 0 after [0-9.]* s" "$tmp/err"
ok "stat: the result line on stderr" $? "$(cat "$tmp/err")"
grep -q "counts are socket-wide" "$tmp/err"
ok "stat: says the counts are socket-wide" $? "$(cat "$tmp/err")"
grep -q "^counters: unavailable: the memdiag module is not loaded" "$tmp/err"
ok "stat without the module: says why there are no counts" $? "$(cat "$tmp/err")"
# the options after CMD are CMD's, with or without "--"
st 0 "sh -c ... --socket (no --)" sh -c 'echo "$1"' _ --socket
[ "$(cat "$tmp/out")" = --socket ]
ok "stat: options after the command are the command's" $? "$(cat "$tmp/out")"

st 4 "-j -o FILE -- sh -c 'exit 4'" -j -o "$tmp/r.json" -- sh -c 'exit 4'
[ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ]
ok "stat -o FILE: nothing on stdout or stderr" $? "$(cat "$tmp/err")"
jq -e '.command == ["sh", "-c", "exit 4"] and .exit_status == 4 and .signal == null and .elapsed_s >= 0 and .scope == "socket" and .counters == null and (.counters_reason | test("not loaded")) and .start_time_unix_ns > 1600000000000000000' "$tmp/r.json" > /dev/null
ok "stat -j: the result document, counters null with the reason" $? "$(cat "$tmp/r.json")"
st 0 "--csv -- true" --csv -o "$tmp/r.csv" -- true
head -1 "$tmp/r.csv" | grep -q '^exit_status,elapsed_s,meta\.hostname,.*,meta\.argv,socket,valid,interval_ns,read_bytes,write_bytes,read_gbps,write_gbps,offcore_read_bytes,' &&
      sed -n 2p "$tmp/r.csv" | grep -Eq '^0,[0-9.]+,.*,,,,,,,,,$' && [ "$(wc -l < "$tmp/r.csv")" = 2 ]
ok "stat --csv: the header, and one row with the exit status and empty counters" $? "$(cat "$tmp/r.csv")"
# the row carries -j's archive metadata, column for column
"$bin" stat -j -o "$tmp/m.json" -- true 2> /dev/null
python3 -c 'import csv, json, os, sys
rows = list(csv.reader(open(sys.argv[1])))
got = dict(zip(rows[0], rows[1]))
m = json.load(open(sys.argv[2]))["meta"]
for k in ("hostname", "cpu_model", "kernel_release", "machine",
          "memdiag_version", "memdiag_commit"):
    want = "" if m[k] is None else m[k]
    assert got["meta." + k] == want, (k, got["meta." + k], want)
assert got["meta.hostname"] == os.uname().nodename
assert got["meta.argv"].split(";")[1:] == ["stat", "--csv", "-o", sys.argv[1], "--", "true"], got["meta.argv"]
import datetime
datetime.datetime.strptime(got["meta.date"], "%Y-%m-%dT%H:%M:%SZ")
' "$tmp/r.csv" "$tmp/m.json" > "$tmp/py" 2>&1
ok "stat --csv: meta.* columns with -j's host, CPU model, kernel, version, commit, date, argv" $? "$(cat "$tmp/r.csv" "$tmp/py")"
grep -q "note: no counts: the memdiag module is not loaded" "$tmp/err"
ok "stat --csv: the reason on stderr" $? "$(cat "$tmp/err")"

# sig SIGNAL TARGET WANT NAME: stat -- sleep 10 in a group of its own
# (setsid), SIGNAL sent to TARGET (group: the whole group, as Ctrl-C
# does; stat: stat alone); the command must die of it and stat report
# and exit WANT. sh would start a background job with SIGINT ignored:
# stat's child must restore it.
sig() {
	setsid "$bin" stat -o "$tmp/sig.txt" -- sleep 10 > /dev/null 2>&1 &
	pid=$!
	sleep 0.5
	if [ "$2" = group ]; then kill -"$1" "-$pid"; else kill -"$1" "$pid"; fi
	wait $pid
	rc=$?
	[ "$rc" = "$3" ] && grep -q "'sleep 10' was killed by signal $(($3 - 128))" "$tmp/sig.txt"
	ok "$4, exit $3 (got $rc)" $? "$(cat "$tmp/sig.txt")"
}
sig INT group 130 "SIGINT to the group (Ctrl-C): the command dies of it, stat reports"
sig TERM stat 143 "SIGTERM to stat: passed on to the command"

# Bad options: exit 1 naming the option, the command never runs.
bad() { # name text args...
	name=$1 text=$2
	shift 2
	rm -f "$tmp/ran"
	"$bin" stat "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" = 1 ] && [ ! -e "$tmp/ran" ] && grep -qF -- "$text" "$tmp/err"
	ok "stat $name: exit 1 (got $rc), \"$text\", the command did not run" $? "$(cat "$tmp/err")"
}
bad "with no command" "no command given: put it after the options"
bad "--interval 5x" "option '--interval': '5x' is not a duration" --interval 5x -- touch "$tmp/ran"
bad "--interval 0" "option '--interval': '0' is out of range" --interval 0 -- touch "$tmp/ran"
bad "--socket x" "option '--socket'" --socket x -- touch "$tmp/ran"
bad "--csv -j" "options '--csv' and '--json' exclude each other" --csv -j -- touch "$tmp/ran"
bad "--bogus" "unknown option '--bogus'" --bogus -- touch "$tmp/ran"
bad "-o (no file)" "option '-o' needs a value" -o
rm -f "$tmp/ran"
"$bin" stat -o "$tmp/no/dir/x" -- touch "$tmp/ran" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" = 6 ] && [ ! -e "$tmp/ran" ] && grep -q "option '--output': cannot open '$tmp/no/dir/x'" "$tmp/err"
ok "stat -o into a missing directory: exit 6 (got $rc), named, the command did not run" $? "$(cat "$tmp/err")"
"$bin" stat -o /dev/full -- sh -c 'exit 2' > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q "stat: cannot write output: No space left on device" "$tmp/err"
ok "stat -o /dev/full: the failed write is said, the exit status stays the command's (got $rc)" $? "$(cat "$tmp/err")"
"$bin" stat --help > "$tmp/out"
grep -q "^Usage: memdiagctl stat" "$tmp/out" && grep -q "128 + N" "$tmp/out"
ok "stat --help: usage and the exit status" $? "$(cat "$tmp/out")"

# --marker without the module: libmemdiag-marker still reports calls and
# time; two processes' regions add up; a line that is no result is said
demo=$(cd "$(dirname "$0")/../.." && pwd)/examples/marker_demo
"$bin" stat --marker -j -o "$tmp/mk.json" -- "$demo" -n 2 -m 1 -x 0 2> "$tmp/err"
rc=$?
[ $rc = 0 ] && python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = d["regions"]
assert [(x["name"], x["calls"], x["counted_calls"]) for x in r] == [("outer", 2, 0), ("sleep", 2, 0)], r
assert all(x["counters"] is None and "not loaded" in x["counters_reason"] for x in r), r
assert all(0.001 < x["time_s"] < 5 for x in r), r
' "$tmp/mk.json" > "$tmp/py" 2>&1
ok "stat --marker without the module: regions with calls and time, the reason (got $rc)" $? "$(cat "$tmp/mk.json" "$tmp/err" "$tmp/py")"
"$bin" stat --marker -o "$tmp/mk.txt" -- sh -c \
	"'$demo' -n 2 -m 1 -x 0 && '$demo' -n 3 -m 1 -x 0 && echo garbage >> \"\$MEMDIAG_MARKER_FILE\"" 2> "$tmp/err"
rc=$?
[ $rc = 0 ] && grep -q "regions (libmemdiag-marker, 2 processes)" "$tmp/mk.txt" &&
      grep -Eq "^sleep +5 +[0-9.]+$" "$tmp/mk.txt" &&
      grep -q "a line of the regions' file is no result of libmemdiag-marker: 'garbage" "$tmp/err"
ok "stat --marker: two processes' regions add up (5 calls), a bad line is named" $? "$(cat "$tmp/mk.txt" "$tmp/err")"
"$bin" stat --marker -- true 2> "$tmp/err"
grep -q "regions: none: CMD reported no region" "$tmp/err"
ok "stat --marker -- true: says no region was reported and why that may be" $? "$(cat "$tmp/err")"
"$bin" stat --marker --csv -o "$tmp/mk.csv" -- "$demo" -n 1 -m 1 -x 0 2> /dev/null
grep -q '^name,calls,time_s,counted_calls,counters,counters_reason$' "$tmp/mk.csv" &&
      grep -q '^sleep,1,' "$tmp/mk.csv"
ok "stat --marker --csv: the regions' header and rows" $? "$(cat "$tmp/mk.csv")"
[ -z "$(ls "${TMPDIR:-/tmp}" | grep '^memdiag-marker\.')" ]
ok "stat --marker leaves no file behind" $?

tap_end
