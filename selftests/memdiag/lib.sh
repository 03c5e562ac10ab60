# SPDX-License-Identifier: GPL-2.0
# lib.sh - the one home of the helpers memdiag's shell selftests share
# (sourced from the repository's top directory): checks over the TAP of
# ../tap.sh, the simulated platform's debugfs (poke, peek, reg,
# set_rates), loading it (sim_load, sim_start), and what watch reports
# of the rates it was told (sim_busy, sim_watch, check_rate) or of
# injected counts (check_inject).

ctl=userspace/memdiagctl
dbg=/sys/kernel/debug/memdiag_sim
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# TAP: ok NAME [STATUS [DETAIL...]], not_ok NAME [DETAIL...], skip NAME
# REASON and tap_end, from the one library of every shell test
. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"

# check NAME COMMAND... : ok if COMMAND succeeds, its output shown if not
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		not_ok "$name" "command: $*" "$out"
	fi
}

# no_problems NAME PROBLEMS: ok NAME when PROBLEMS (what a check found
# wrong, as text) is empty, not ok with them otherwise
no_problems() {
	if [ -z "$2" ]; then ok "$1"; else not_ok "$1" "$2"; fi
}

# wait_for TENTHS COMMAND...: run COMMAND every 0.1 s until it succeeds,
# TENTHS times at most; fails when it never did
wait_for() {
	local n=$1 i
	shift
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# expect_rc NAME RC PATTERN COMMAND...: COMMAND exits with RC and its
# stderr+stdout matches the extended regex PATTERN
expect_rc() {
	local name=$1 want=$2 pat=$3 out rc
	shift 3
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ "$rc" = "$want" ] && printf '%s' "$out" | grep -Eq -- "$pat"; then
		ok "$name"
	else
		not_ok "$name" "command: $*" "exit $rc (want $want), want output matching: $pat" "$out"
	fi
}

# subtest NAME COMMAND...: COMMAND prints TAP of its own (a kselftest
# program); its lines are nested as a KTAP subtest (indented, numbered by
# the program, never renumbered) and its exit status is one more test.
subtest() {
	local name=$1 rc
	shift
	echo "# $name"
	"$@" 2>&1 | sed 's/^/    /'
	rc=${PIPESTATUS[0]}
	if [ "$rc" = 0 ]; then ok "$name"; else not_ok "$name" "exit status $rc"; fi
}

# jqt [OPTIONS] FILTER FILE: FILTER is true of FILE. jq -e alone (1.6)
# exits 0 on an empty file, which would let a command that printed
# nothing pass.
jqt() {
	local f=${*: -1}
	if [ ! -s "$f" ]; then
		echo "jqt: $f is empty or missing"
		return 1
	fi
	jq -e "$@"
}

# jqv FILE FILTER: the filter's value (raw)
jqv() { jq -r "$2" "$1" 2>/dev/null; }

# within PCT VALUE WANT: |VALUE - WANT| <= PCT % of WANT
within() {
	awk -v p="$1" -v v="$2" -v w="$3" 'BEGIN { d = v - w; if (d < 0) d = -d;
		exit !(v != "null" && v != "" && d <= p / 100 * w) }'
}
# near VALUE WANT: within 1 %
near() { within 1 "$1" "$2"; }
# check_value NAME PCT FILE FILTER WANT: the jq FILTER's value in FILE is
# WANT within PCT % (the name gets " within PCT% (got VALUE)")
check_value() {
	local v
	v=$(jqv "$3" "$4")
	check "$1 within $2% (got $v)" within "$2" "$v" "$5"
}

# l3_rates SOCKET LATENCY NEAR/S FAR/S: every CCX of SOCKET's L3 (DRAM)
# requests per second and the core clocks each takes
l3_rates() {
	echo "$2" > "$dbg/socket$1/l3_dram_latency_cycles"
	echo "$3" > "$dbg/socket$1/l3_dram_near_per_sec"
	echo "$4" > "$dbg/socket$1/l3_dram_far_per_sec"
}

# The simulated platform (memdiag_sim.ko), see "memdiag_sim" in
# Documentation/memdiag.rst for the formats.
# poke KIND WHERE ADDR VALUE: set a register
poke() { echo "$*" > $dbg/poke; }
# peek KIND WHERE ADDR: print the register's value
peek() {
	local l
	echo "$*" > $dbg/peek && read -r l < $dbg/peek && echo "${l##* }"
}
# reg KIND WHERE ADDR: the value regs lists, or "unset" (never written)
reg() {
	awk -v k="$1" -v w="$2" -v a="$3" '$1 == k && $2 == w && $3 == a { print $4; f = 1 }
		END { if (!f) print "unset" }' $dbg/regs
}
# set_rates SOCKET RD_MBPS WR_MBPS LATENCY L1M/S LFB/S OCR_MBPS
set_rates() {
	local d=$dbg/socket$1
	echo "$2" > $d/read_bw_mbps
	echo "$3" > $d/write_bw_mbps
	echo "$4" > $d/load_latency_cycles
	echo "$5" > $d/l1_miss_per_sec
	echo "$6" > $d/lfb_hit_per_sec
	echo "$7" > $d/offcore_read_mbps
}
# sim_preset: values that are not what memdiag writes, so that "restored"
# cannot be mistaken for "zeroed": an idle event in each event select
# memdiag uses, a global control bit and an offcore value on every CPU
sim_preset() {
	local cpu
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		poke "msr $cpu 0x186 0x3c"
		poke "msr $cpu 0x187 0x2e"
		poke "msr $cpu 0x38f 0x8"
		poke "msr $cpu 0x1a6 0x10001"
	done
}
# sim_controls: the control registers in regs (counters move on their own)
sim_controls() {
	awk '($1 == "msr" && $3 ~ /^0x(18[6-9a-d]|38d|38f|1a4|1a6|1a7)$/) ||
	     ($1 != "msr" && $3 ~ /^0x(f4|d8|dc|e0|e4|f0|0|40|44|48|4c|54)$/)' $dbg/regs
}
# snap SOCKET KEY: that key of a one-off snapshot
snap() {
	"$ctl" -j snapshot --socket "$1" | jq -r ".[0][\"$2\"]"
}
# sim_load PREFIX UARCH PRESET: insmod memdiag_sim uarch=UARCH, run the
# command PRESET (what the registers hold before memdiag: sim_preset, or
# ":"), insmod memdiag platform=sim; get-info goes to /tmp/info.json and
# nsock, cps (socket 0's CPUs) are set from it. Test names start with
# PREFIX. Returns 1 (one "not ok") when the simulator does not load.
sim_load() {
	local p=$1 u=$2
	if ! insmod "${MEMDIAG_SIM_KO:?}" uarch="$u"; then
		not_ok "${p}insmod memdiag_sim uarch=$u"
		return 1
	fi
	$3
	check "${p}insmod memdiag platform=sim" insmod "${MEMDIAG_KO:?}" platform=sim
	"$ctl" -j info > /tmp/info.json 2>&1
	nsock=$(jq .nr_sockets /tmp/info.json)
	cps=$(jq '.sockets[0].cpus | length' /tmp/info.json)
}
# sim_cleanup: the EXIT trap of a script that runs watch in the background
# ($W_PID) on the sim: the watch stopped, memdiag and the sim unloaded
sim_cleanup() {
	[ -n "${W_PID:-}" ] && kill "$W_PID" 2>/dev/null
	grep -q '^memdiag ' /proc/modules && rmmod memdiag
	grep -q '^memdiag_sim ' /proc/modules && rmmod memdiag_sim
}

# sim_start: sim_load of uarch $MEMDIAG_SIM_UARCH (default skx) from
# $MEMDIAG_SIM_KO and $MEMDIAG_KO, registers as the simulator starts them.
# Exits the script (TAP ended) when the simulator does not load.
sim_start() {
	local u=${MEMDIAG_SIM_UARCH:-skx}
	sim_load "" "$u" : || { tap_end; exit 1; }
	echo "# simulated $u, $nsock sockets"
}

# The rates the sim is told and what watch reports of them.
# sim_busy RD_MBPS WR_MBPS LATENCY L1M/S LFB/S OCR_MBPS: socket 0 at these
# rates (set_rates), every other of the nsock sockets idle
sim_busy() {
	local s
	set_rates 0 "$@"
	for ((s = 1; s < nsock; s++)); do set_rates "$s" 0 0 0 0 0 0; done
}
# sim_watch NAME FILE WATCH_ARGS...: memdiagctl -j watch WATCH_ARGS into
# FILE (stderr into FILE.err); ok if it exits 0 having printed intervals
sim_watch() {
	local name=$1 f=$2 rc
	shift 2
	"$ctl" -j watch "$@" > "$f" 2> "$f.err" && rc=0 || rc=$?
	if [ "$rc" = 0 ] && [ -s "$f" ]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc, $(wc -l < "$f") lines" "$(cat "$f.err")"
	fi
}
# last_of FILE SOCKET KEY: KEY in SOCKET's last interval of watch -j's FILE
last_of() { jq -s -r "[.[] | select(.socket == $2)] | last | .$3" "$1"; }
# check_rate NAME FILE SOCKET KEY WANT: KEY in SOCKET's last interval is
# WANT within 1 % (the name gets what was read)
check_rate() {
	local v
	v=$(last_of "$2" "$3" "$4")
	check "$1 within 1% (got $v)" near "$v" "$5"
}
# check_inject NAME KEY EVENT COUNT WANT: COUNT EVENTs injected into socket
# 0 (socket0/inject) grow its snapshot's KEY by exactly WANT
check_inject() {
	local a b
	a=$(snap 0 "$2")
	echo "$3 $4" > $dbg/socket0/inject
	b=$(snap 0 "$2")
	check "$1 ($a -> $b)" test "$((b - a))" = "$5"
}

# fuzz_preset: sim_preset, and prefetcher originals that are not what
# memdiag writes (restored is then not zeroed): the registers fuzz.sh and
# kcov-fuzz.sh start the fuzzer and the corpus replay from
fuzz_preset() {
	local cpu
	sim_preset
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		poke msr "$cpu" 0x1a4 "$(((cpu / 2) % 4 + 1))"
	done
}
