#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# plot.sh - what plot's pictures say and what reading a curve file says
# (TAP "ok - " lines, no module, no calibration: a canned curve whose
# fingerprint is the simulated machine's, so stale here):
#  - a bad --curve FILE (garbage, missing, truncated) is an error naming
#    it, for probe, watch, snapshot and export as for plot and calibrate
#    --show, before the module is looked for (snapshot, export); a
#    missing default curve says where it looked, once
#  - calibrate --curve in a missing directory fails before measuring and
#    makes no directory
#  - a stale curve is named by calibrate --show and plot, and in the title
#  - the curves are drawn in bandwidth order; probe samples are labelled
#    as estimates; records without the numbers are counted; gnuplot warns
#    of nothing
# usage: plot.sh MEMDIAGCTL TOPDIR
. "$(dirname "$0")/tap.sh"
top=$2

# a canned curve with a bent-back point after the peak
python3 - "$top/selftests/fleet/sim-curve.json" "$tmp/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["sockets"][0]["curves"][0]
last = dict(c["points"][-1])
f = 35.0 / last["bandwidth_gbps"]
last["bandwidth_gbps"] = 35.0
last["read_gbps"] *= f
last["write_gbps"] = 35.0 - last["read_gbps"]
last["latency_ns"] = last["latency_ns"] * 1.5
for k in ("latency_p50_ns", "latency_p90_ns", "latency_p99_ns"):
    if last.get(k):
        last[k] = last[k] * 1.5
c["points"].append(last)
d["fingerprint"]["cpu_vendor"] = "NoSuchVendor"	# another machine's
json.dump(d, open(sys.argv[2], "w"))
PY
echo garbage > "$tmp/bad.json"
head -c 300 "$tmp/c.json" > "$tmp/cut.json"

# -- a bad explicit file: an error with its path, whichever command reads
# it; snapshot and export say it before the module (absent here: exit 2),
# export before it listens or waits (a timeout: it ran on)
for cmd in "probe -c 1" "plot" "calibrate --show" "watch --count 1" \
	"snapshot" "export --textfile $tmp" "export --probe --textfile $tmp"; do
	for f in bad:GARBAGE none:MISSING cut:TRUNCATED; do
		timeout -s TERM 10 "$bin" $cmd --curve "$tmp/${f%%:*}.json" \
			> "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc = 6 ] && grep -qF "$tmp/${f%%:*}.json: " "$tmp/err" &&
			! grep -q "module is not loaded\|serving\|waiting" "$tmp/err"
		ok "${cmd%% --textfile*} --curve ${f#*:}: exit 6 naming the file (got $rc)" $? "$(cat "$tmp/err")"
	done
done

# -- no default curve: where it looked, said once
XDG_STATE_HOME=$tmp/state HOME=$tmp/home "$bin" calibrate --show > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ -e /var/lib/memdiag/curve.json ]; then
	skip "calibrate --show without a curve" "/var/lib/memdiag/curve.json exists"
else
	[ $rc = 6 ] && grep -q "no curve in .*/var/lib/memdiag/curve.json" "$tmp/err" &&
		[ "$(grep -o 'curve' "$tmp/err" | wc -l)" -le 3 ] &&
		! grep -q "no curve: no curve\|no stored curve: no curve" "$tmp/err"
	ok "calibrate --show without a curve: says where it looked, once" $? "$(cat "$tmp/err")"
fi

# -- calibrate --curve in a missing directory: refused at once, no folder
"$bin" calibrate --quick --curve "$tmp/typo/dir/c.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 6 ] && [ ! -e "$tmp/typo" ] && grep -q "$tmp/typo/dir" "$tmp/err" &&
	! grep -q "about .* s in all" "$tmp/err"
ok "calibrate --curve MISSING/DIR/FILE: exit 6 before measuring, no directory made (got $rc)" $? "$(cat "$tmp/err")"

# -- stale: named by --show and by plot
"$bin" calibrate --show --curve "$tmp/c.json" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q "$tmp/c.json: curve is stale" "$tmp/err"
ok "calibrate --show of another machine's curve names it stale" $? "$(cat "$tmp/err")"

if ! command -v gnuplot > /dev/null; then
	skip "plot" "gnuplot is not installed (scripts/deps.sh installs gnuplot-nox)"
	tap_end
	exit
fi

# probe records: four with an estimate of 0 (an all-zero series), one
# with none (no curve), one of another socket
python3 - > "$tmp/probe.json" <<'PY'
import json
for i in range(4):
    print(json.dumps({"socket": 0, "time_s": i * 0.5, "latency_ns": 170,
                      "estimated_bandwidth_gbps": 0}))
print(json.dumps({"socket": 0, "time_s": 2.5, "latency_ns": 171,
                  "estimated_bandwidth_gbps": None}))
print(json.dumps({"socket": 1, "time_s": 3, "latency_ns": 171,
                  "estimated_bandwidth_gbps": 1}))
PY
"$bin" plot --curve "$tmp/c.json" --samples "$tmp/probe.json" \
	--format svg -o "$tmp/p" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 0 ] && [ -s "$tmp/p-curves.svg" ] && [ -s "$tmp/p-timeline.svg" ]
ok "plot --samples: exit 0, both pictures (got $rc)" $? "$(cat "$tmp/err")"
[ $rc = 0 ] && ! grep -qi "warning" "$tmp/err"
ok "plot: no gnuplot warning (an all-zero series has a range of its own)" $? "$(cat "$tmp/err")"
grep -q "curve is stale" "$tmp/err" && grep -q "STALE" "$tmp/p-curves.svg"
ok "plot of a stale curve: a note, and STALE in the picture's title" $? "$(cat "$tmp/err")"
grep -q "1 of 5 records of socket 0 skipped" "$tmp/err"
ok "plot: the records without the numbers are counted and said" $? "$(cat "$tmp/err")"
grep -q "estimated bandwidth" "$tmp/p-timeline.svg" &&
	grep -q "bandwidth estimated" "$tmp/p-curves.svg" &&
	! grep -q ">bandwidth (GB/s)<" "$tmp/p-timeline.svg"
ok "plot: probe samples are labelled as estimates" $? "$(cat "$tmp/p-timeline.svg")"
grep -q "error bars" "$tmp/p-curves.svg"
ok "plot: the curves' picture says what its error bars are" $?
# the first curve (the one with the bent-back point): every line segment
# of its group goes rightwards (error bars are vertical), so the line runs
# in bandwidth order, not in the order of measurement
python3 - "$tmp/p-curves.svg" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
g = svg.split('id="gnuplot_plot_1"', 1)[1].split('id="gnuplot_plot_2"', 1)[0]
segs = 0
for d in re.findall(r"d='([^']*)'", g):
    prev = None
    for cmd, x, y in re.findall(r"([ML])\s*([-\d.]+),([-\d.]+)", d):
        x = float(x)
        if cmd == "L":
            assert x >= prev - 0.01, (prev, x)
            segs += 1
        prev = x
assert segs >= 4, segs
PY
ok "plot: a curve's line is drawn in bandwidth order" $?

tap_end
