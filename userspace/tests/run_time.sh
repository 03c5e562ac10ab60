#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run_time.sh - how long "run" measures and what Ctrl-C leaves (TAP "ok - "
# lines, no module needed): --min-time repeats a measurement until that
# much was timed and each row says the reps it took; --min-time 0 is
# exactly --reps; --timing whole says so and runs exactly --reps whole
# runs; a Ctrl-C after the first row of stream, loaded-latency,
# stencil and transpose prints that row alone, as valid JSON, exit 130.
# usage: run_time.sh MEMDIAGCTL
. "$(dirname "$0")/tap.sh"

# py SCRIPT FILE...: 1 when the python3 SCRIPT exits 0 (argv: the FILEs)
py() {
	script=$1
	shift
	python3 -c "$script" "$@" > "$tmp/py" 2>&1
}

# a 16K chase is some milliseconds a repetition: 0.3 s takes many
"$bin" run latency --size 16K --reps 1 --min-time 0.3 -j > "$tmp/mt.json" 2> "$tmp/err"
[ $? = 0 ] && py 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["reps"] == 1 and d["min_time_s"] == 0.3, (d["reps"], d["min_time_s"])
r = d["results"][0]
assert r["timed_s"] >= 0.3, r["timed_s"]
assert r["reps"] >= 2, r["reps"]
' "$tmp/mt.json"
ok "run latency --min-time 0.3: the row was timed 0.3 s or more, over the reps it says" $? "$(cat "$tmp/mt.json" "$tmp/err" "$tmp/py")"
"$bin" run latency --size 16K --reps 3 --min-time 0 -j > "$tmp/mt0.json" 2> "$tmp/err"
[ $? = 0 ] && py 'import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
# the count is the property: a time bound would depend on the load
assert r["reps"] == 3 and r["timed_s"] > 0, (r["reps"], r["timed_s"])
' "$tmp/mt0.json"
ok "run latency --min-time 0 --reps 3: exactly 3 reps" $? "$(cat "$tmp/mt0.json" "$tmp/err" "$tmp/py")"
"$bin" run latency --size 16K --reps 2 --min-time 300ms > "$tmp/out" 2> "$tmp/err"
grep -q "at least 2 reps and 0.3 s timed per result (median shown)" "$tmp/out" &&
      grep -Eq "^16K .* [0-9]+$" "$tmp/out"
ok "run latency --min-time 300ms (text): the head says both bounds, the row its reps" $? "$(cat "$tmp/out" "$tmp/err")"
for bad in "x:is not a duration" "3601:is out of range" "-1:is not a duration"; do
	"$bin" run latency --min-time "${bad%%:*}" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = 1 ] && grep -q "option '--min-time': '${bad%%:*}' ${bad#*:}" "$tmp/err" &&
	      [ ! -s "$tmp/out" ]
	ok "run --min-time ${bad%%:*}: a usage error naming the option (exit $rc)" $? "$(cat "$tmp/err")"
done

# --timing whole (kernels/repeat.c): the head names the timing; each
# row has exactly --reps runs; a 64K read-delay sweep takes microseconds,
# so a run of 50 ms is many calls a thread where the default makes one;
# the wait at the run's end barrier is a share with two threads, null
# with one; kernels whose threads share data or time a chase refuse it
"$bin" run read-delay --size 64K --reps 2 --min-time 0.05 --timing whole -j \
	> "$tmp/wh.json" 2> "$tmp/err"
rc=$?
"$bin" run read-delay --size 64K --reps 2 --min-time 0.05 -j \
	> "$tmp/rep.json" 2>> "$tmp/err"
rc=$((rc + $?))
[ $rc = 0 ] && py 'import json, sys
w, d = (json.load(open(f)) for f in sys.argv[1:3])
assert (w["timing"], d["timing"]) == ("whole", "repetition")
r, q = w["results"][0], d["results"][0]
assert r["reps"] == 2 and r["parts_per_rep"] > 1, r
assert q["parts_per_rep"] == 1, q
assert r["thread_wait_fraction"] is None, r
' "$tmp/wh.json" "$tmp/rep.json"
ok "run read-delay --timing whole: named, exactly --reps runs of many calls (the default: one)" $? "$(cat "$tmp/wh.json" "$tmp/err" "$tmp/py")"
if [ "$(nproc)" -ge 2 ]; then
	"$bin" run stream --size 64K --threads 2 --reps 2 --min-time 0.05 \
		--timing whole -j > "$tmp/wh2.json" 2> "$tmp/err"
	[ $? = 0 ] && py 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["timing"] == "whole"
for r in d["results"]:
	assert r["reps"] == 2 and r["verified"], r
	assert 0 <= r["thread_wait_fraction"] < 1, r
' "$tmp/wh2.json"
	ok "run stream --threads 2 --timing whole: every op exactly --reps runs, verified, its end wait a share" $? "$(cat "$tmp/wh2.json" "$tmp/err" "$tmp/py")"
else
	skip "run stream --threads 2 --timing whole" "one CPU"
fi
"$bin" run stream --size 64K --reps 2 --min-time 0 --timing whole \
	> "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q "each a whole run of at least 0 s (median shown), whole timing" "$tmp/out"
ok "run stream --timing whole (text): the head names the timing" $? "$(cat "$tmp/out" "$tmp/err")"
for k in latency loaded-latency stencil transpose; do
	"$bin" run "$k" --timing whole > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = 1 ] && grep -q "option '--timing': kernel '$k' cannot be timed whole" "$tmp/err" &&
	      [ ! -s "$tmp/out" ]
	ok "run $k --timing whole: refused, naming why (exit $rc)" $? "$(cat "$tmp/err")"
done

# sigint KERNEL NAME FIRST ARGS...: a Ctrl-C once the first measurement is
# done (the test hook raises it then): that row alone, valid JSON, 130
sigint() {
	kern=$1 key=$2 first=$3
	shift 3
	MEMDIAG_TEST_SIGINT_AFTER=1 "$bin" run "$kern" --reps 2 --min-time 0 -j "$@" \
		> "$tmp/int.json" 2> "$tmp/err"
	rc=$?
	[ $rc = 130 ] && grep -q "interrupted: the results finished before Ctrl-C are printed" "$tmp/err" &&
	      ! grep -q "$kern failed" "$tmp/err" && py 'import json, sys
d = json.load(open(sys.argv[1]))
rows = [str(r[sys.argv[2]]) for r in d["results"]]
assert rows == [sys.argv[3]], rows
assert d["results"][0]["reps"] == 2
assert d["results"][0]["verified"] in (True, None)
' "$tmp/int.json" "$key" "$first"
	ok "run $kern: Ctrl-C after the first row prints it alone, valid JSON, exit 130 (got $rc)" $? "$(cat "$tmp/int.json" "$tmp/err" "$tmp/py")"
}

sigint stream op copy --size 1M
sigint loaded-latency delay 0 --threads 2 --delay 0,100
sigint stencil variant jacobi-threaded --size 64K --model-gbps 10 \
	--variant jacobi-threaded,gs-threaded
sigint transpose variant naive --size 256K --variant naive,sse

tap_end
