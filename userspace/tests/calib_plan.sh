#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# calib_plan.sh - calibrate's plan for machines this one is not (TAP),
# through the sysfs test hook MEMDIAG_TEST_SYSFS_CPU and --plan,
# which measures nothing:
#  - 16, 64 and 192 CPUs with a last-level cache of 32 MiB, 300 MiB, 1.5
#    GiB, and AMD-like CCXs (eight 32 MiB caches in one socket): every
#    point sweeps at least 4 x the socket's cache, and 4 x each cache
#    instance its active threads share, before a line comes back; the
#    buffers fit the stated budget;
#  - a budget too small for that (--max-memory) is refused, naming the
#    bytes needed, with nothing on stdout; no cache in sysfs: an assumed
#    size, said.
# usage: calib_plan.sh MEMDIAGCTL
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../selftests/tap.sh"

# fake DIR SOCKETS CPUS_PER_SOCKET LLC CPUS_PER_LLC: cpuN/topology and
# cpuN/cache/index{0,1} (L1d 48K, the LLC); LLC "" lists no cache
fake() {
	local dir=$1 sockets=$2 per=$3 llc=$4 share=$5 s c cpu first
	rm -rf "$dir"
	for ((s = 0; s < sockets; s++)); do
		for ((c = 0; c < per; c++)); do
			cpu=$((s * per + c))
			mkdir -p "$dir/cpu$cpu/topology"
			echo "$s" > "$dir/cpu$cpu/topology/physical_package_id"
			echo 1 > "$dir/cpu$cpu/online"
			[ -z "$llc" ] && continue
			mkdir -p "$dir/cpu$cpu/cache/index0" "$dir/cpu$cpu/cache/index1"
			echo 1 > "$dir/cpu$cpu/cache/index0/level"
			echo 48K > "$dir/cpu$cpu/cache/index0/size"
			echo 3 > "$dir/cpu$cpu/cache/index1/level"
			echo "$llc" > "$dir/cpu$cpu/cache/index1/size"
			first=$((cpu / share * share))
			echo "$first-$((first + share - 1))" \
				> "$dir/cpu$cpu/cache/index1/shared_cpu_list"
		done
	done
}

# check NAME FILE LLC_BYTES_PER_SOCKET: the plan's promises, from its JSON
check() {
	python3 - "$2" "$3" > "$tmp/why" 2>&1 <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))["plan"]
llc = int(sys.argv[2])
bad = []
for s in plan:
    if s["llc_bytes"] != llc:
        bad.append("socket %d: llc_bytes %d, not %d" % (s["socket"], s["llc_bytes"], llc))
    if s["pool_bytes"] + s["chase_bytes"] > s["budget_bytes"]:
        bad.append("socket %d: buffers over the budget" % s["socket"])
    if s["llc_ratio_min"] < 4:
        bad.append("socket %d: llc_ratio_min %.2f" % (s["socket"], s["llc_ratio_min"]))
    ths = set()
    for p in s["points"]:
        ths.add(p["threads"])
        if p["swept_bytes"] < 4 * llc:
            bad.append("socket %d: %d threads delay %d sweep %d < 4 x %d"
                       % (s["socket"], p["threads"], p["delay"], p["swept_bytes"], llc))
        if p["threads"] > s["generators"]:
            bad.append("socket %d: %d threads" % (s["socket"], p["threads"]))
    if 1 not in ths or s["generators"] not in ths:
        bad.append("socket %d: thread counts %s" % (s["socket"], sorted(ths)))
print("\n".join(bad[:8]))
sys.exit(1 if bad else 0)
PY
	ok "$1" $? "$(cat "$tmp/why")"
}

plan() { # DIR ARGS...: calibrate --plan -j on the fake machine
	local dir=$1
	shift
	MEMDIAG_TEST_SYSFS_CPU=$dir "$bin" -j calibrate --plan "$@" \
		> "$tmp/plan.json" 2> "$tmp/err"
}

fake "$tmp/m16" 1 16 300M 16
plan "$tmp/m16" --mix read
check "16 CPUs, 300 MiB LLC: every point sweeps 4 x the LLC" "$tmp/plan.json" $((300 << 20))
plan "$tmp/m16" --quick
check "16 CPUs, 300 MiB LLC, --quick: the same" "$tmp/plan.json" $((300 << 20))
fake "$tmp/m16s" 1 16 32M 16
plan "$tmp/m16s"
check "16 CPUs, 32 MiB LLC" "$tmp/plan.json" $((32 << 20))
fake "$tmp/m64" 1 64 32M 8
plan "$tmp/m64"
check "64 CPUs in eight CCXs of 32 MiB: 4 x each cache the threads share" \
	"$tmp/plan.json" $((256 << 20))
fake "$tmp/m192" 2 96 1536M 96
plan "$tmp/m192" --mix read,1:1
check "192 CPUs, two sockets of 1.5 GiB LLC" "$tmp/plan.json" $((1536 << 20))

# the text plan names what each point sweeps, before anything is pinned
MEMDIAG_TEST_SYSFS_CPU=$tmp/m16 "$bin" calibrate --plan --quick > "$tmp/out" 2>&1
grep -q "swept/point" "$tmp/out" && grep -q "traffic pool 1202 MiB" "$tmp/out"
ok "the text plan states the pool and the bytes swept per point" $? "$(cat "$tmp/out")"

# too little memory: refused with the numbers, nothing printed or stored
MEMDIAG_TEST_SYSFS_CPU=$tmp/m192 "$bin" calibrate --plan --max-memory 4G \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" = 7 ] && [ ! -s "$tmp/out" ] &&
	grep -q "the traffic needs 6[0-9][0-9][0-9] MiB (4 x the socket's 1536 MiB" "$tmp/err" &&
	grep -q -- "--max-memory allows 4096 MiB" "$tmp/err"
ok "a budget under 4 x the LLC is refused (exit 7) with the bytes it needs" $? "$(cat "$tmp/err")"
MEMDIAG_TEST_SYSFS_CPU=$tmp/m192 "$bin" calibrate --max-memory 4G \
	--curve "$tmp/c.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" = 7 ] && [ ! -e "$tmp/c.json" ]
ok "... and a real run stores nothing" $? "$(cat "$tmp/err")"

# no cache in sysfs: 8 MiB per CPU assumed, and said
fake "$tmp/none" 1 16 "" 16
plan "$tmp/none"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["plan"][0]; sys.exit(not (s["llc_assumed"] and s["llc_bytes"] == 16 * 8 << 20 and s["llc_ratio_min"] >= 4))' \
	"$tmp/plan.json"
ok "no cache listed: 8 MiB per CPU assumed, the plan says so" $? "$(cat "$tmp/plan.json")"

# bad values
"$bin" calibrate --plan --max-memory 12Q > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" = 1 ] && grep -q "option '--max-memory': '12Q' is not a size" "$tmp/err"
ok "--max-memory 12Q is refused naming the option" $? "$(cat "$tmp/err")"

tap_end
