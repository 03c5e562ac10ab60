#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run_archive.sh - what a saved result of "run" and "stat" carries, and
# Ctrl-C during "run" (TAP "ok - " lines, no module needed): -j has the
# archive metadata (meta: host, CPU model, kernel, memdiag version and
# commit, date, the exact argv); --csv is one header row and one row per
# -j result with the same values; Ctrl-C prints the rows finished, as
# valid JSON, and exits 130.
# usage: run_archive.sh MEMDIAGCTL
. "$(dirname "$0")/tap.sh"

# py SCRIPT FILE...: 1 when the python3 SCRIPT exits 0 (argv: the FILEs)
py() {
	script=$1
	shift
	python3 -c "$script" "$@" > "$tmp/py" 2>&1
}

# the metadata of run -j: every key, the values this machine has
"$bin" run latency --size 16K,32K --reps 2 --min-time 0 -j > "$tmp/run.json" 2> "$tmp/err"
[ $? = 0 ]
ok "run -j: exit 0" $? "$(cat "$tmp/err")"
py 'import json, os, sys
m = json.load(open(sys.argv[1]))["meta"]
want = {"hostname": os.uname().nodename, "kernel_release": os.uname().release,
        "machine": os.uname().machine,
        "argv": [sys.argv[2], "run", "latency", "--size", "16K,32K",
                 "--reps", "2", "--min-time", "0", "-j"]}
for k, v in want.items():
    assert m[k] == v, (k, m[k], v)
for k in ("memdiag_version", "memdiag_commit", "date", "cpu_model"):
    assert k in m, k
assert m["memdiag_version"] and m["memdiag_commit"]
assert json.load(open(sys.argv[1]))["interrupted"] is False
import datetime
datetime.datetime.strptime(m["date"], "%Y-%m-%dT%H:%M:%SZ")
model = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
         if l.startswith("model name")]
assert m["cpu_model"] == (model[0] if model else None), m["cpu_model"]
' "$tmp/run.json" "$bin"
ok "run -j: meta has host, CPU model, kernel, version, commit, date, argv" $? "$(cat "$tmp/run.json" "$tmp/py")"

# --csv: the same values as -j, one header row, a row per result
"$bin" run latency --size 16K,32K --reps 2 --min-time 0 --csv > "$tmp/run.csv" 2> "$tmp/err"
[ $? = 0 ]
ok "run --csv: exit 0" $? "$(cat "$tmp/err")"
py 'import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
head, body = rows[0], rows[1:]
assert len(head) == len(set(head)), "a column twice"
assert len(body) == len(doc["results"]) == 2, len(body)
def flat(v, key, out):
    if isinstance(v, dict):
        for k, m in v.items():
            flat(m, key + "." + k if key else k, out)
    elif isinstance(v, list) and any(isinstance(m, (dict, list)) for m in v):
        for i, m in enumerate(v):
            flat(m, "%s.%d" % (key, i), out)
    else:
        out[key] = v
# a head key a result has too keeps its own column, "head." and the key
shadowed = {k for r in doc["results"] for k in r}
for row, res in zip(body, doc["results"]):
    want = {}
    flat({("head." + k if k in shadowed else k): v for k, v in doc.items()
          if k != "results"}, "", want)
    flat(res, "", want)
    assert set(head) == set(want), set(head) ^ set(want)
    got = dict(zip(head, row))
    for k in ("kernel", "size_bytes", "threads", "reps", "meta.hostname",
              "counters_reason", "head.reps", "head.kernel"):
        w = want[k]
        w = "" if w is None else str(w)
        assert got[k] == w, (k, got[k], w)
    assert float(got["ns_per_load"]) > 0
assert [r[head.index("size_bytes")] for r in body] == ["16384", "32768"]
' "$tmp/run.csv" "$tmp/run.json"
ok "run --csv: a header, one row per -j result, -j's columns and values (head.reps beside reps)" $? "$(cat "$tmp/run.csv" "$tmp/py")"
"$bin" run latency --csv -j > "$tmp/out" 2> "$tmp/err"
[ $? = 1 ] && grep -q "options '--csv' and '--json' exclude each other" "$tmp/err" && [ ! -s "$tmp/out" ]
ok "run --csv -j: a usage error, nothing on stdout" $? "$(cat "$tmp/err")"

# stat -j carries the same metadata
"$bin" stat -j -- true 2> "$tmp/stat.json"
py 'import json, sys
m = json.load(open(sys.argv[1]))["meta"]
assert m["argv"][1:] == ["stat", "-j", "--", "true"], m["argv"]
assert m["hostname"] and m["memdiag_commit"] and m["date"]
' "$tmp/stat.json"
ok "stat -j: meta with the exact argv" $? "$(cat "$tmp/stat.json" "$tmp/py")"

# interrupt AFTER OUT ARGS...: run ARGS in the background, SIGINT after
# AFTER seconds; rc is its exit status (SIGKILL, 137, when it still runs
# 30 s later: Ctrl-C was not heard)
interrupt() {
	after=$1 out=$2
	shift 2
	"$bin" run "$@" > "$out" 2> "$tmp/err" &
	pid=$!
	sleep "$after"
	kill -INT "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 60 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		echo "still running 30 s after SIGINT" >> "$tmp/err"
	fi
	wait "$pid"
	rc=$?
}

# Ctrl-C after the first size: that row, valid JSON, exit 130, at once.
# 16K takes under a second on a quiet machine (7 s at load 9 on 2 CPUs);
# 64M's 100 repetitions 20 s or more.
interrupt 10 "$tmp/int.json" latency --size 16K,64M --reps 100 --min-time 0 -j
[ $rc = 130 ]
ok "run: Ctrl-C exits 130 (got $rc)" $? "$(cat "$tmp/err")"
py 'import json, sys
d = json.load(open(sys.argv[1]))
assert [r["size_bytes"] for r in d["results"]] == [16384], d["results"]
assert d["results"][0]["ns_per_load"] > 0
assert d["interrupted"] is True, d["interrupted"]
assert any(w.startswith("interrupted: ") for w in d["warnings"]), d["warnings"]
' "$tmp/int.json"
ok "run: Ctrl-C prints the size finished, valid JSON, \"interrupted\": true and the warning" $? "$(cat "$tmp/int.json" "$tmp/py")"
grep -q "interrupted: the results finished before Ctrl-C are printed" "$tmp/err"
ok "run: Ctrl-C says what was printed" $? "$(cat "$tmp/err")"

# --csv cut short (the test hook: SIGINT after the first size): each row
# says so in its "interrupted" column
MEMDIAG_TEST_SIGINT_AFTER=1 "$bin" run latency --size 16K,32K --reps 2 \
	--min-time 0 --csv > "$tmp/int.csv" 2> "$tmp/err"
rc=$?
[ $rc = 130 ] && py 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert len(rows) == 2, rows
assert dict(zip(rows[0], rows[1]))["interrupted"] == "true", rows
' "$tmp/int.csv"
ok "run --csv: Ctrl-C after a size: its row has interrupted true (got $rc)" $? "$(cat "$tmp/int.csv" "$tmp/err" "$tmp/py")"
py 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert all(dict(zip(rows[0], r))["interrupted"] == "false" for r in rows[1:])
' "$tmp/run.csv"
ok "run --csv: a whole run's rows have interrupted false" $? "$(cat "$tmp/run.csv" "$tmp/py")"

# a kernel of one measurement (about 2 minutes): the head and no
# results, still JSON
interrupt 2 "$tmp/int1.json" read-delay --size 256M --reps 1000 -j
[ $rc = 130 ] && py 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["results"] == [] and d["kernel"] == "read-delay"
assert d["interrupted"] is True
' "$tmp/int1.json"
ok "run read-delay: Ctrl-C: valid JSON without results, exit 130 (got $rc)" $? "$(cat "$tmp/int1.json" "$tmp/err" "$tmp/py")"

tap_end
