#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# probe-accuracy.sh - how far memdiagctl probe's counter-free estimate is
# from the truth on this machine (Documentation/calibrate.rst, "How
# accurate the probe is"): memdiag's traffic generator loads socket 0 from
# every CPU but the probe's chase CPU at a ladder of delays (its own byte
# count is the truth: it moved what it read), probe samples meanwhile,
# and one table gives, per load level, the injected GB/s, the probe's
# estimate (median, p10, p90), the error, the utilization both imply and
# the labels the samples got.
#
# usage: probe-accuracy.sh [--curve FILE] [--delays LIST] [--samples N]
#                          [--interval SEC] [--json FILE]
#   --curve FILE   the curve to place the samples on (default: a fresh
#                  'calibrate --quick' into a temporary file)
#   --delays LIST  the generator's NOP delays, "none" for no load
#                  (default none,20000,2000,500,100,20,0)
#   --samples N    probe samples per level (default 10)
#   --interval S   between samples (default 0.2)
#   --json FILE    also write every level as JSON (to FILE.tmp, renamed)
#   MEMDIAGCTL: the memdiagctl command (words split; default
#   userspace/memdiagctl)
# Exit: 0 measured, 1 a run failed, 2 usage or a missing tool.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
read -r -a md <<< "${MEMDIAGCTL:-$top/userspace/memdiagctl}"
curve= delays=none,20000,2000,500,100,20,0 samples=10 interval=0.2 json=
while [ $# -gt 0 ]; do
	case $1 in
	--curve) curve=${2:?--curve needs a file}; shift 2 ;;
	--delays) delays=${2:?--delays needs a list}; shift 2 ;;
	--samples) samples=${2:?}; shift 2 ;;
	--interval) interval=${2:?}; shift 2 ;;
	--json) json=${2:?}; shift 2 ;;
	-h | --help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "probe-accuracy: unknown argument '$1' (--help)" >&2; exit 2 ;;
	esac
done
case $samples in '' | *[!0-9]* | 0) echo "probe-accuracy: --samples needs a number of 1 or more" >&2; exit 2 ;; esac
for t in jq python3; do
	command -v "$t" > /dev/null ||
		{ echo "probe-accuracy: needs $t (apt-get install $t)" >&2; exit 2; }
done
tmp=$(mktemp -d)
gen=
cleanup() {
	[ -n "$gen" ] && kill "$gen" 2> /dev/null && wait "$gen" 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$curve" ]; then
	curve=$tmp/curve.json
	echo "probe-accuracy: no --curve: calibrate --quick into a temporary file" >&2
	"${md[@]}" calibrate --quick --curve "$curve" > /dev/null ||
		{ echo "probe-accuracy: calibrate failed" >&2; exit 1; }
fi
"${md[@]}" -j calibrate --show --curve "$curve" > "$tmp/show.json" ||
	{ echo "probe-accuracy: cannot read the curve $curve" >&2; exit 1; }
chase=$(jq -r '.sockets[0].chase_cpu' "$tmp/show.json")
cpus=$(jq -r '.sockets[0].cpus' "$tmp/show.json")
peak=$(jq -r '[.sockets[0].curves[] | select(.read_fraction == 1)][0].peak_gbps' "$tmp/show.json")
# the generator CPUs: the curve's CPUs but the chase's, as calibrate had
others=$(python3 - "$cpus" "$chase" <<'PY'
import sys
cpus = []
for part in sys.argv[1].split(","):
    a, _, b = part.partition("-")
    cpus += range(int(a), int(b or a) + 1)
print(",".join(str(c) for c in cpus if c != int(sys.argv[2])))
PY
)
pool=$("${md[@]}" -j calibrate --plan --mix read | jq '.plan[0].pool_bytes')
[ -n "$others" ] || { echo "probe-accuracy: socket 0 has one CPU: nothing can load it" >&2; exit 2; }
# how long the probe samples, and the generator with a second each side
dur=$(python3 -c "print($samples * $interval)")
gen_sec=$(python3 -c "print(round($samples * $interval + 2, 1))")

: > "$tmp/levels.jsonl"
for d in ${delays//,/ }; do
	if [ "$d" != none ]; then
		"${md[@]}" -j run traffic --cpus "$others" --delay "$d" --mix read \
			--size "$pool" --reps 3 --min-time "$gen_sec" \
			> "$tmp/gen.json" 2> "$tmp/gen.err" &
		gen=$!
		sleep 1		# past its first touch: it is sweeping
	fi
	"${md[@]}" -j probe --cpu "$chase" --count "$samples" \
		--interval "$interval" --curve "$curve" > "$tmp/probe.jsonl" 2> "$tmp/probe.err" ||
		{ echo "probe-accuracy: probe failed: $(cat "$tmp/probe.err")" >&2; exit 1; }
	injected=0
	if [ "$d" != none ]; then
		wait "$gen" || { echo "probe-accuracy: the generator failed: $(cat "$tmp/gen.err")" >&2; gen=; exit 1; }
		gen=
		injected=$(jq '.results[0].gbps' "$tmp/gen.json")
	fi
	jq -c --arg d "$d" --argjson inj "$injected" -s \
		'{delay: $d, injected_gbps: $inj, samples: .}' "$tmp/probe.jsonl" >> "$tmp/levels.jsonl"
done

python3 - "$tmp/levels.jsonl" "$peak" "$dur" "${json:+$json.tmp}" <<'PY'
import json, statistics, sys
levels = [json.loads(l) for l in open(sys.argv[1])]
peak = float(sys.argv[2])

def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, max(0, -(-p * len(v) // 100) - 1))]

out, rel = [], []
print("probe accuracy: socket 0, read curve peak %.2f GB/s, %s s of samples per level"
      % (peak, sys.argv[3]))
print("%-6s %9s %9s %8s %8s %9s %7s %8s %8s  %s" % (
    "delay", "injected", "est_med", "est_p10", "est_p90", "error", "rel",
    "util_inj", "util_est", "labels"))
for lv in levels:
    s = [x for x in lv["samples"] if x.get("estimated_bandwidth_gbps") is not None]
    est = [x["estimated_bandwidth_gbps"] for x in s]
    lab = {}
    for x in lv["samples"]:
        lab[x.get("label") or "none"] = lab.get(x.get("label") or "none", 0) + 1
    inj = lv["injected_gbps"]
    row = {"delay": lv["delay"], "injected_gbps": inj, "samples": len(lv["samples"]),
           "labels": lab, "utilization_injected": inj / peak if peak else None}
    if est:
        med = statistics.median(est)
        row.update(estimated_gbps_median=med, estimated_gbps_p10=pct(est, 10),
                   estimated_gbps_p90=pct(est, 90), error_gbps=med - inj,
                   utilization_estimated=statistics.median(x["utilization"] for x in s))
        if inj > 0:
            row["error_relative"] = (med - inj) / inj
            rel.append(abs(row["error_relative"]))
    out.append(row)
    f = lambda k, fmt: (fmt % row[k]) if row.get(k) is not None else "-"
    print("%-6s %9.2f %9s %8s %8s %9s %7s %8.2f %8s  %s" % (
        lv["delay"], inj, f("estimated_gbps_median", "%.2f"),
        f("estimated_gbps_p10", "%.2f"), f("estimated_gbps_p90", "%.2f"),
        f("error_gbps", "%+.2f"), f("error_relative", "%+.2f"),
        row["utilization_injected"] or 0, f("utilization_estimated", "%.2f"),
        " ".join("%s:%d" % kv for kv in sorted(lab.items()))))
idle = [r for r in out if r["delay"] == "none"]
# "unknown" is the probe declining to label, not a wrong label
summary = {"median_abs_relative_error": statistics.median(rel) if rel else None,
           "idle_mislabelled": sum(v for k, v in idle[0]["labels"].items()
                                   if k not in ("idle", "unknown"))
           if idle else None,
           "idle_unknown": idle[0]["labels"].get("unknown", 0) if idle else None,
           "idle_samples": idle[0]["samples"] if idle else None}
print("median |relative error| over the loaded levels: %s; with no load, %s of %s samples labelled other than idle, %s unknown"
      % ("%.2f" % summary["median_abs_relative_error"] if rel else "-",
         summary["idle_mislabelled"], summary["idle_samples"],
         summary["idle_unknown"]))
if sys.argv[4]:
    json.dump({"peak_gbps": peak, "levels": out, "summary": summary},
              open(sys.argv[4], "w"), indent=1)
PY
rc=$?
[ "$rc" = 0 ] && [ -n "$json" ] && mv "$json.tmp" "$json"
exit "$rc"
