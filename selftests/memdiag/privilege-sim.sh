#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# privilege-sim.sh - the privilege matrix of Documentation/memdiag.rst,
# cell by cell, on the simulated platform inside a test VM: the table is
# read from the document (between the privilege-matrix markers) and
# genl_matrix sends every request under each identity of its columns.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO.
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh

ko=${MEMDIAG_KO:?}
simko=${MEMDIAG_SIM_KO:?}
doc=Documentation/memdiag.rst
bin=$PWD/selftests/memdiag/genl_matrix
param=/sys/module/memdiag/parameters/unprivileged_read

# The table as "column request outcome" lines: a list-table row starts
# with "* -", each further cell with "-"; the first row names the columns.
awk '/^\.\. privilege-matrix-begin/ { on = 1 } /^\.\. privilege-matrix-end/ { on = 0 }
	on && /^   \* - / { row++; c = 0; req = substr($0, 8); gsub(/`|joining /, "", req); next }
	on && /^     - / { c++; v = substr($0, 8)
		if (row == 1) col[c] = v; else print col[c] "\t" req "\t" v }' "$doc" > /tmp/matrix.want
ncells=$(wc -l < /tmp/matrix.want)
# its rows: each request of the spec and joining each group, as counted
# by the generated selftests/memdiag/spec_ops.h; its columns: run_as's
rows=$(awk '$1 == "#define" && $2 == "SPEC_MATRIX_ROWS" { print $3 }' \
	selftests/memdiag/spec_ops.h)
check "the matrix in $doc has 6 identities x ${rows:-?} requests ($ncells cells)" \
	test "$ncells" = "$((6 * ${rows:-0}))" -a "${rows:-0}" -gt 0

# run_as COLUMN COMMAND...: COMMAND as the identity a column names
run_as() {
	local who=$1
	shift
	case $who in
	root) "$@" ;;
	"CAP_PERFMON only")
		"${nobody[@]}" --inh-caps=+perfmon --ambient-caps=+perfmon "$@" ;;
	nobody) "${nobody[@]}" "$@" ;;
	"nobody, unprivileged_read=Y")
		echo Y > $param && "${nobody[@]}" "$@"; echo N > $param ;;
	# unshare(1) cannot: the VM's command runs in a chroot (genl_matrix.c)
	"root in a new user namespace") "$1" userns "${@:2}" ;;
	"root in another network namespace") unshare --net "$@" ;;
	*) echo "privilege-sim: no identity for column '$who'" >&2; return 1 ;;
	esac
}

if ! insmod "$simko" uarch=skx || ! insmod "$ko" platform=sim; then
	not_ok "insmod memdiag_sim uarch=skx, memdiag platform=sim"
	tap_end
	exit 1
fi

# a session of root's, so that snapshots and the group have samples
"$bin" hold 200 > /tmp/hold.out &
hold=$!
sleep 1
other=$(cat /tmp/hold.out)
group=$(genl ctrl get name memdiag | awk '/name: monitor/ { sub(/ID-/, "", $2); print $2 }')
group=$((group))
check "a root session runs (id $other), the monitor group has an id ($group)" \
	test -n "$other" -a -n "$group"

# (a pipe: the loop's subshell numbers on from tap_n; counted below)
cut -f1 /tmp/matrix.want | awk '!seen[$0]++' | while IFS= read -r who; do
	run_as "$who" "$bin" probe "$group" "$other" > /tmp/matrix.got 2>/tmp/matrix.err
	while IFS=$'\t' read -r col req want; do
		[ "$col" = "$who" ] || continue
		got=$(awk -v r="$req" '$1 == r { print $2 }' /tmp/matrix.got)
		if [ "$got" = "$want" ]; then
			ok "$who: $req: $want"
		else
			not_ok "$who: $req: want $want, got ${got:-nothing}" "$(cat /tmp/matrix.err)"
		fi
	done < /tmp/matrix.want
done > /tmp/matrix.tap
cat /tmp/matrix.tap
tap_n=$((tap_n + $(grep -cE '^(not )?ok ' /tmp/matrix.tap)))
tap_failed=$((tap_failed + $(grep -cE '^not ok ' /tmp/matrix.tap)))

# memdiagctl snapshot under unprivileged_read: served by root's session,
# refused naming CAP_PERFMON once no session runs
echo Y > $param
expect_rc "nobody, unprivileged_read=Y: snapshot during root's session: exit 0" 0 \
	'"read_bytes"' "${nobody[@]}" "$ctl" -j snapshot --socket 0
kill "$hold"
wait "$hold" 2>/dev/null
expect_rc "nobody, unprivileged_read=Y: snapshot without a session: exit 3, names CAP_PERFMON" 3 \
	"session-start needs CAP_PERFMON" "${nobody[@]}" "$ctl" snapshot --socket 0
echo N > $param
check "rmmod memdiag" rmmod memdiag
check "rmmod memdiag_sim" rmmod memdiag_sim
tap_end
