#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hw-status.sh [CPUINFO] - what the memdiag module supports, read from its
# own table (module/uarch_table.c), and whether this processor (or the one
# CPUINFO describes, default /proc/cpuinfo) is in it: two lines,
#   supported: Intel Xeon Haswell-EP, ...; AMD Zen 4, Zen 5
#   this processor: NAME (VENDOR family F model M stepping S): STATUS
# so that what "make run" says cannot drift from what the module does.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
table=$top/module/uarch_table.c
cpuinfo=${1:-/proc/cpuinfo}

# one row per table entry: vendor family model_min model_max step_min
# step_max name (family and models in decimal)
rows() {
	awk '
	function num(s,   v, i) {
		gsub(/[ \t]/, "", s)
		if (s !~ /^0x/)
			return s + 0
		v = 0
		for (i = 3; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		return v
	}
	/^[ \t]*\{ INTEL(_GP)?\("/ {
		n = $0; sub(/.*INTEL(_GP)?\("/, "", n); name = n; sub(/".*/, "", name)
		sub(/^[^"]*", */, "", n); split(n, a, ",")
		printf "GenuineIntel 6 %d %d %d %d %s\n", num(a[1]), num(a[1]), num(a[2]), num(a[3]), name
	}
	/ZEN[45]\(0x/ {
		line = $0
		while (match(line, /ZEN[45]\(0x[0-9a-f]+, *0x[0-9a-f]+\)/)) {
			m = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
			gen = substr(m, 4, 1); sub(/^ZEN[45]\(/, "", m); sub(/\)$/, "", m)
			split(m, a, ",")
			printf "AuthenticAMD %d %d %d 0 15 Zen %s\n", gen == 4 ? 25 : 26, num(a[1]), num(a[2]), gen
		}
	}' "$table"
}

intel=$(rows | awk '$1 == "GenuineIntel" { $1 = $2 = $3 = $4 = $5 = $6 = ""; sub(/^ +/, ""); print }' |
	awk '!seen[$0]++' | paste -sd, - | sed 's/,/, /g')
amd=$(rows | awk '$1 == "AuthenticAMD" { print $7, $8 }' | awk '!seen[$0]++' |
	paste -sd, - | sed 's/,/, /g')
echo "supported: Intel Xeon $intel; AMD $amd"

vendor=$(awk -F': ' '/^vendor_id/ { print $2; exit }' "$cpuinfo")
family=$(awk -F': ' '/^cpu family/ { print $2; exit }' "$cpuinfo")
model=$(awk -F': ' '/^model[ \t]*:/ { print $2; exit }' "$cpuinfo")
stepping=$(awk -F': ' '/^stepping/ { print $2; exit }' "$cpuinfo")
mname=$(awk -F': ' '/^model name/ { print $2; exit }' "$cpuinfo")
id=$(printf '%s family 0x%x model 0x%x stepping %s' "$vendor" "${family:-0}" "${model:-0}" "${stepping:-0}")
match=$(rows | awk -v v="$vendor" -v f="${family:-0}" -v m="${model:-0}" -v s="${stepping:-0}" '
	$1 == v && $2 == f && m >= $3 && m <= $4 && s >= $5 && s <= $6 {
		$1 = $2 = $3 = $4 = $5 = $6 = ""; sub(/^ +/, ""); print; exit }')
if [ -n "$match" ]; then
	echo "this processor: $mname ($id): $match, supported by the module on bare metal"
else
	echo "this processor: $mname ($id): not in the module's table, so unsupported even on bare metal (only the counter-free commands work on it)"
fi
