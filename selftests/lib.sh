# SPDX-License-Identifier: GPL-2.0
# lib.sh - TAP output helpers for memdiag's shell tests (sourced).

tap_n=0
tap_failed=0

# ok NAME / not_ok NAME [DETAIL...]
ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	shift
	for l in "$@"; do
		printf '%s\n' "$l" | sed 's/^/#   /'
	done
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

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

tap_end() {
	echo "1..$tap_n"
	[ "$tap_failed" = 0 ]
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
