#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dmesg_check_test.sh - selftests/vm/dmesg-check.sh flags kernel problems in
# a guest's dmesg, and nothing else: fed synthetic dmesg files.
set -u

check=$(dirname "$0")/../vm/dmesg-check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cl='console=ttyS0 memdiag_vm.run=/root/.cache/memdiag/vm/run.MBUG98 quiet'
n=0 failed=0

# expect NAME WANT_STATUS WANT_LINES DMESG_TEXT [ALLOW...]
expect() {
	local name=$1 want=$2 lines=$3 text=$4 got out
	shift 4
	n=$((n + 1))
	printf '%s\n' "$text" > "$tmp/dmesg"
	out=$("$check" "$tmp/dmesg" "$cl" "$@" 2>/dev/null)
	got=$?
	if [ "$got" = "$want" ] && [ "$(printf '%s' "$out" | grep -c .)" = "$lines" ]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name (status $got, want $want; printed: $out)"
		failed=$((failed + 1))
	fi
}

echo "1..10"
expect "a clean boot passes" 0 0 \
	"[    0.000000] Linux version 6.12
[    1.000000] memdiag: loaded"
expect "the kernel's echo of the command line is not a problem" 0 0 \
	"[    0.000000] Command line: $cl
[    0.000000] Kernel command line: $cl"
expect "a WARNING is caught" 1 1 \
	"[    2.000000] WARNING: CPU: 1 PID: 90 at module/pmu.c:12 pmu_start+0x10
[    2.000001] memdiag: loaded"
expect "a BUG and its Call Trace are caught" 1 2 \
	"[    3.000000] BUG: sleeping function called from invalid context
[    3.000001] Call Trace:"
expect "a problem on the command line's own line is still caught" 1 1 \
	"[    0.000000] Command line: $cl Oops"
expect "bugs.c's mitigation advisories are not problems" 0 0 \
	"[    0.100000] RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable
[    0.100001] Speculative Return Stack Overflow: WARNING: kernel not compiled"
expect "an --allow-dmesg pattern exempts its lines only" 1 1 \
	"[    4.000000] WARNING: expected by the test
[    4.000001] INFO: task hung" 'expected by the test'
n=$((n + 1))
printf '%s\n' "[    5.000000] WARNING: allowed twice" "[    5.000001] WARNING: allowed twice" \
	"[    5.000002] WARNING: other" > "$tmp/dmesg"
err=$("$check" "$tmp/dmesg" "$cl" 'allowed twice' 'never there' 2>&1 >/dev/null)
if [ "$err" = "dmesg-check.sh: 2 line(s) allowed by: allowed twice" ]; then
	echo "ok $n - what each rule exempted is said on stderr, a rule that exempted nothing is not"
else
	echo "not ok $n - what each rule exempted is said on stderr (said: $err)"
	failed=$((failed + 1))
fi
# The KCSAN rules of scripts/test.sh (Documentation/races.rst): the
# kernel's and the device's own races pass, in the form the boots
# reported them; a report that also names memdiag's code, or a function
# the rule does not name, fails. The canary's rule, for its own boot, is
# left out.
rules=()
while IFS= read -r r; do
	rules+=("$r")
done < <(sed -n "s/.*--allow-dmesg '\(BUG: KCSAN: [^']*\)').*/\1/p" \
	"$(dirname "$0")/../../scripts/test.sh" | grep -v mdsim_canary)
expect "scripts/test.sh's KCSAN rules (${#rules[@]}) let the kernel's races of races.rst pass" 0 0 \
	"[  100.0] BUG: KCSAN: data-race in process_one_work+0x1e9/0xb10
[  100.1] BUG: KCSAN: data-race in vring_interrupt+0xc3/0xf0
[  100.2] BUG: KCSAN: data-race in memchr_inv+0x5f/0x130
[  100.3] BUG: KCSAN: data-race in poll_schedule_timeout.constprop.0 / pollwake
[  100.4] BUG: KCSAN: data-race in pollwake / poll_schedule_timeout
[  100.5] BUG: KCSAN: data-race in virtqueue_get_buf_ctx+0x246/0x530
[  100.6] BUG: KCSAN: data-race in lru_add / wp_page_copy
[  100.7] BUG: KCSAN: data-race in wp_page_copy / lru_add" "${rules[@]}"
expect "... and fail each report that names memdiag or another function" 1 7 \
	"[  101.0] BUG: KCSAN: data-race in process_one_work / sampler_fn [memdiag]
[  101.1] BUG: KCSAN: data-race in poll_schedule_timeout.constprop.0 / mdsim_canary_rmw [memdiag_sim]
[  101.2] BUG: KCSAN: data-race in pollwake / sampler_fn [memdiag]
[  101.3] BUG: KCSAN: data-race in virtqueue_get_buf_ctx / memdiag_genl_publish [memdiag]
[  101.4] BUG: KCSAN: data-race in vring_interrupt / virtqueue_add_split
[  101.5] BUG: KCSAN: data-race in lru_add / sampler_fn [memdiag]
[  101.6] BUG: KCSAN: data-race in wp_page_copy / folio_add_lru" "${rules[@]}"
"$check" 2>/dev/null
[ $? = 2 ] || { echo "not ok - misuse is not status 2"; failed=$((failed + 1)); }
[ "$failed" = 0 ]
