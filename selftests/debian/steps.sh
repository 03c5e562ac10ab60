# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# steps.sh - sourced by check.sh and mok.sh: what the Debian guest's steps
# left in the share, as TAP.

# report_steps SHARE DIR STEP...: each STEP's TAP from SHARE/out (nested),
# "ok" when it exited 0, and, for a step that finished, whether the
# kernel's log after it passes selftests/vm/dmesg-check.sh (what it found
# in DIR/STEP.bad). Returns 1 when any of them failed.
report_steps() {
	local share=$1 dir=$2 step rc bad=0
	shift 2
	for step in "$@"; do
		echo "# $step"
		if [ -f "$share/out/$step.tap" ]; then
			sed 's/^/    /' "$share/out/$step.tap"
		fi
		rc=$(cat "$share/out/$step.rc" 2>/dev/null || echo "none (did not finish)")
		if [ "$rc" != 0 ]; then
			echo "not ok - $step (exit $rc; console: $share/console.log)"
			bad=1
		else
			echo "ok - $step"
		fi
		# a step that did not finish has no log; one that did must
		[ -f "$share/out/$step.rc" ] || continue
		if [ -f "$share/out/$step.dmesg" ] &&
		   selftests/vm/dmesg-check.sh "$share/out/$step.dmesg" \
				"$(cat "$share/out/$step.cmdline")" > "$dir/$step.bad" 2>&1; then
			echo "ok - the kernel's log after $step is clean"
		else
			echo "not ok - the kernel's log after $step is clean"
			sed 's/^/#   /' "$dir/$step.bad" 2>/dev/null
			bad=1
		fi
	done
	return "$bad"
}
