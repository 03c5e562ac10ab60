#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# calib.sh - calibrate and probe on this machine's real memory, counter-free
# (TAP "ok - " lines): properties, never this machine's numbers.
#  - calibrate --quick: each curve's bandwidth rises with intensity before
#    its peak, the latency at the highest load is above the idle latency,
#    --show prints the stored curves;
#  - probe: higher latency and stress while read-delay loads the memory
#    from another CPU than while that load is stopped (SIGSTOP/SIGCONT,
#    alternating three times so drift on a shared host cancels out);
#  - bad options are refused, naming the option, storing nothing.
# usage: calib.sh MEMDIAGCTL
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
load=
cleanup() {
	[ -n "$load" ] && kill -CONT "$load" 2>/dev/null && kill "$load" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

failed=0
ok() { # cond name [diagnostics file]
	if [ "$1" = 1 ]; then
		echo "ok - $2"
	else
		failed=$((failed + 1))
		echo "not ok - $2"
		[ -n "${3:-}" ] && sed 's/^/#   /' "$3"
	fi
}

# t EXIT TEXT ARGS...: exit status and a stderr substring, nothing on stdout
t() {
	want=$1 text=$2
	shift 2
	"$bin" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	r=0
	[ "$rc" = "$want" ] && grep -qF -- "$text" "$tmp/err" && [ ! -s "$tmp/out" ] && r=1
	[ -e "$tmp/bad.json" ] && r=0
	ok $r "memdiagctl $* -> exit $want, \"$text\"" "$tmp/err"
}

cpus=$(nproc)
if [ "$cpus" -lt 2 ]; then
	echo "ok - calibrate and probe on real memory # SKIP one CPU: nothing to load the memory from"
	exit 0
fi

# -- bad options: refused before anything runs or is stored
bad="--curve $tmp/bad.json"
t 1 "option '--mix': unknown 'write'" calibrate --mix read,write $bad
t 1 "option '--mix': 'read' given twice" calibrate --mix read,read $bad
t 1 "option '--mix': ',' is not a comma list" calibrate --mix , $bad
t 1 "option '--reps': '2' is out of range" calibrate --reps 2 $bad
t 1 "option '--socket': no socket 4096 here" calibrate --socket 4096 $bad
t 1 "option '--prefetch': unknown 'sideways'" calibrate --prefetch sideways $bad
t 1 "option '--show' only takes --socket and --curve" calibrate --show --quick $bad
t 1 "unexpected argument 'now'" calibrate now $bad
t 1 "option '--interval'" probe --interval 0 $bad
t 1 "option '--count'" probe --count 0 $bad
t 1 "option '--cpu'" probe --cpu 99999 $bad
t 1 "option '--socket': no socket 4096 here" probe --socket 4096 -c 1 $bad
t 6 "cannot show the curves: $tmp/none.json" calibrate --show --curve "$tmp/none.json"

# One generator thread raises this VM's latency by a few percent at most,
# and only when it gets its CPU: while other processes keep the CPUs busy
# (tasks waiting for a CPU over a quarter of the time the measurement
# took, by the kernel's pressure stall information; the load average
# where there is none), it is starved and the property checks below
# would test the neighbours: they are skipped then, with the reason.
busy() { # avg10|avg60
	if [ -r /proc/pressure/cpu ]; then
		awk -v w="$1" '/^some/ { for (i = 2; i <= NF; i++) if (split($i, kv, "=") == 2 && kv[1] == w && kv[2] > 25)
			printf "host busy: tasks waited for a CPU %s%% of the last %s s", kv[2], substr(w, 4) }' /proc/pressure/cpu
	else
		awk -v n="$cpus" '$1 > n { printf "host busy: load average %s on %d CPUs", $1, n }' /proc/loadavg
	fi
}

# -- calibrate --quick, counter-free
c=$tmp/curve.json
start=$(date +%s)
"$bin" -j calibrate --quick --curve "$c" > "$tmp/cal.json" 2> "$tmp/cal.err"
rc=$?
took=$(( $(date +%s) - start ))
echo "# calibrate --quick took $took s"
# the window that covers the calibration
cal_busy=$(busy avg60)
ok "$([ $rc = 0 ] && [ -s "$c" ] && echo 1)" "calibrate --quick exits 0 and stores the file" "$tmp/cal.err"
# its estimate within 2x of the time it took (3 s of slack for the
# seconds' rounding and the checks after the points)
est=$(sed -n 's/.*calibrate: about \([0-9]*\) s in all.*/\1/p' "$tmp/cal.err")
echo "# calibrate --quick estimated ${est:-?} s, took $took s"
ok "$([ -n "$est" ] && [ "$took" -le $((2 * est + 3)) ] &&
	[ $((2 * took + 3)) -ge "$est" ] && echo 1)" \
	"calibrate --quick: its time estimate ($est s) within 2x of the time it took ($took s)" \
	"$tmp/cal.err"
ok "$(jq -e '.bandwidth_source == "kernel" and (.sockets | length) >= 1' "$c" > /dev/null && echo 1)" \
	"without the module the file says bandwidth_source kernel" "$c"
if [ -n "$cal_busy" ]; then
	echo "ok - each curve's bandwidth rises with intensity up to its peak # SKIP $cal_busy"
	echo "ok - latency at the highest load is above the idle latency # SKIP $cal_busy"
else
	ok "$(jq -e 'all(.sockets[].curves[]; .points as $p | .peak_index as $k |
		$p[0].bandwidth_gbps < $p[1].bandwidth_gbps and
		$p[1].bandwidth_gbps < $p[2].bandwidth_gbps and $k >= 2 and
		all($p[0:$k][]; .bandwidth_gbps < $p[$k].bandwidth_gbps))' \
		"$c" > /dev/null && echo 1)" \
		"each curve's bandwidth rises with intensity up to its peak" "$c"
	ok "$(jq -e '[.sockets[] | .idle_latency_ns <
		([.curves[].points[-1].latency_ns] | add / length)] | all' \
		"$c" > /dev/null && echo 1)" \
		"latency at the highest load is above the idle latency (mean over the mixes)" "$c"
fi
"$bin" calibrate --show --curve "$c" > "$tmp/show" 2>&1
ok "$([ "$(grep -c 'sustainable peak' "$tmp/show")" -ge 3 ] && grep -q '^2:1 ' "$tmp/show" && echo 1)" \
	"calibrate --show prints each mix with its sustainable peak" "$tmp/show"
"$bin" -j calibrate --show --curve "$c" > "$tmp/show.json" 2>&1
ok "$(jq -e '.sockets[0].curves | length == 3' "$tmp/show.json" > /dev/null && echo 1)" \
	"calibrate --show -j gives the three curves" "$tmp/show.json"

# -- probe: read-delay on another CPU than the probe's, stopped and resumed
chase=$(jq '.sockets[0].chase_cpu' "$c")
other=$(jq -r '.sockets[0].cpus' "$c" | tr ',-' '\n\n' | grep -vx "$chase" | head -n1)
llc_k=$(sed 's/K$//' /sys/devices/system/cpu/cpu"$other"/cache/index3/size 2>/dev/null || echo 65536)
size=$(( llc_k * 3 ))K
"$bin" run read-delay --cpus "$other" --size "$size" --reps 1000 > /dev/null 2>&1 &
load=$!
# touched its memory (resident) before it counts as running
want=$(( llc_k * 3 * 9 / 10 ))
while kill -0 "$load" 2> /dev/null; do
	r=$(awk -v p="$(getconf PAGESIZE)" '{ print int($2 * p / 1024) }' /proc/$load/statm)
	[ "$r" -ge "$want" ] && break
	sleep 0.2
done
kill -STOP "$load"
for i in 1 2 3; do
	"$bin" -j probe --curve "$c" -i 50ms -c 20 >> "$tmp/idle.json"
	kill -CONT "$load"
	sleep 0.2
	"$bin" -j probe --curve "$c" -i 50ms -c 20 >> "$tmp/load.json"
	kill -STOP "$load"
done
kill -CONT "$load"
kill "$load"
wait "$load" 2> /dev/null
load=
med() { jq -s '[.[].latency_ns] | sort | .[length / 2 | floor]' "$1"; }
avg() { jq -s '[.[].stress] | add / length' "$1"; }
{ echo "idle: median $(med "$tmp/idle.json") ns, mean stress $(avg "$tmp/idle.json")"
  echo "load: median $(med "$tmp/load.json") ns, mean stress $(avg "$tmp/load.json")"; } > "$tmp/probe"
sed 's/^/# /' "$tmp/probe"
probe_busy=$(busy avg10)
if [ -n "$probe_busy" ]; then
	echo "ok - probe: higher latency and stress under a read-delay load # SKIP $probe_busy"
else
	ok "$(jq -n --argjson i "$(med "$tmp/idle.json")" --argjson l "$(med "$tmp/load.json")" \
		'$l > $i' | grep -qx true && echo 1)" \
		"probe: median latency higher under a read-delay load than without" "$tmp/probe"
	ok "$(jq -n --argjson i "$(avg "$tmp/idle.json")" --argjson l "$(avg "$tmp/load.json")" \
		'$l > $i' | grep -qx true && echo 1)" \
		"probe: mean stress higher under a read-delay load than without" "$tmp/probe"
fi
# -- plot: the curves with the probe's samples and a watch recording
if command -v gnuplot > /dev/null; then
	(cd "$tmp" && "$bin" plot --curve "$c" --samples idle.json -o p > plot.out 2>&1)
	ok "$([ -s "$tmp/p-curves.png" ] && [ -s "$tmp/p-timeline.png" ] &&
		grep -q 'sustainable peak' "$tmp/p-curves.svg" &&
		grep -q '1:1, prefetch unchanged' "$tmp/p-curves.svg" &&
		grep -q 'latency' "$tmp/p-timeline.svg" && echo 1)" \
		"plot draws the curves, their peaks and the probe's samples in SVG and PNG" "$tmp/plot.out"
	printf '%s\n' '{"socket":0,"time_ns":1000000000,"total_gbps":1.5,"load_miss_real_latency_ns":160}' \
		'{"socket":1,"time_ns":1000000000,"total_gbps":9,"load_miss_real_latency_ns":900}' \
		'{"socket":0,"time_ns":2000000000,"total_gbps":2.5,"load_miss_real_latency_ns":170}' > "$tmp/watch.json"
	(cd "$tmp" && "$bin" plot --curve "$c" --samples watch.json -o w --format svg > plot.out 2>&1)
	ok "$([ -s "$tmp/w-timeline.svg" ] && [ ! -e "$tmp/w-curves.png" ] &&
		grep -c '^w-' "$tmp/plot.out" | grep -qx 2 && echo 1)" \
		"plot reads a watch -j recording (its socket only), --format svg" "$tmp/plot.out"
	echo '{"socket": 0, "time_ns": ' > "$tmp/broken.json"
	t 6 "not a JSON object" plot --curve "$c" --samples "$tmp/broken.json" -o "$tmp/b"
	t 1 "option '--format'" plot --curve "$c" --format gif
else
	echo "ok - plot # SKIP gnuplot is not installed (scripts/deps.sh installs gnuplot-nox)"
fi

# a sample's cost can be inflated by a busy host: its median is the cost
ok "$(jq -s -e 'all(.[]; .counter_free and .cost_cpu_percent > 0) and
	([.[].cost_cpu_percent] | sort | .[length / 2 | floor]) < 5' \
	"$tmp/idle.json" > /dev/null && echo 1)" \
	"probe: every sample is labelled counter-free and carries its own cost" "$tmp/idle.json"
[ "$failed" = 0 ]
