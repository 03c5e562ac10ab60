# SPDX-License-Identifier: GPL-2.0
# tap.sh - the one TAP writer of memdiag's shell tests, sourced by the
# guest tests' selftests/memdiag/lib.sh, the command-line tests of
# userspace/tests/ and the host tests of selftests/host/ (POSIX sh, so
# that dash runs it too):
#
#   ok NAME [STATUS [DETAIL...]]
#	"ok N - NAME" when STATUS (an exit status) is 0 or not given;
#	otherwise "not ok N - NAME" with each DETAIL's lines under it as
#	diagnostics, then what the script's own tap_on_fail prints, if it
#	defines one. A check is a command, then "ok NAME $?".
#   not_ok NAME [DETAIL...]	ok NAME 1 DETAIL...
#   skip NAME REASON		"ok N - NAME # SKIP REASON"
#   tap_end			the plan, "1..N"; fails if a test failed
#
# The lines go to stdout, or are appended to the file $tap_out when a
# script sets it (to print them after its plan).

tap_n=0
tap_failed=0

# _tap_line LINE: one line where the results go
_tap_line() {
	if [ -n "${tap_out:-}" ]; then
		printf '%s\n' "$1" >> "$tap_out"
	else
		printf '%s\n' "$1"
	fi
}

ok() {
	_tap_name=$1
	_tap_status=${2:-0}
	tap_n=$((tap_n + 1))
	if [ "$_tap_status" = 0 ]; then
		_tap_line "ok $tap_n - $_tap_name"
		return 0
	fi
	tap_failed=$((tap_failed + 1))
	_tap_line "not ok $tap_n - $_tap_name"
	shift
	shift
	for _tap_detail in "$@"; do
		[ -n "$_tap_detail" ] || continue
		_tap_line "$(printf '%s\n' "$_tap_detail" | sed 's/^/#   /')"
	done
	if command -v tap_on_fail > /dev/null 2>&1; then
		tap_on_fail
	fi
	return 0
}

not_ok() {
	_tap_name=$1
	shift
	ok "$_tap_name" 1 "$@"
}

skip() {
	tap_n=$((tap_n + 1))
	_tap_line "ok $tap_n - $1 # SKIP $2"
}

tap_end() {
	_tap_line "1..$tap_n"
	[ "$tap_failed" = 0 ]
}
