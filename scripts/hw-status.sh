#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hw-status.sh [CPUINFO] - what the memdiag module supports, read from its
# own table (module/uarch_table.c), and whether this processor (or the one
# CPUINFO describes, default /proc/cpuinfo) is in it: two lines,
#   supported: Intel Xeon Haswell-EP, ...; AMD Zen 2, Zen 3, Zen 4, Zen 5
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
	# an AMD row macro: its name and family from its definition (the
	# AMD()/AMD_PMU() line after "#define ZENn...(m0, m1)"); a macro with
	# .unsupported (Zen 1) is no such definition and never matches
	/^#define ZEN[0-9]+(_DF)?\(m0, m1\)/ {
		macro = $2; sub(/\(.*/, "", macro); next
	}
	macro != "" && /AMD(_PMU)?\("/ {
		n = $0; sub(/.*AMD(_PMU)?\("/, "", n); name = n; sub(/".*/, "", name)
		sub(/^[^"]*", */, "", n); split(n, a, ",")
		amd_name[macro] = name; amd_family[macro] = num(a[1]); macro = ""
		next
	}
	!/^#define/ {
		line = $0
		while (match(line, /ZEN[0-9]+(_DF)?\(0x[0-9a-f]+, *0x[0-9a-f]+\)/)) {
			m = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
			k = m; sub(/\(.*/, "", k)
			if (!(k in amd_name))
				continue
			sub(/^[A-Z0-9_]+\(/, "", m); sub(/\)$/, "", m)
			split(m, a, ",")
			printf "AuthenticAMD %d %d %d 0 15 %s\n", amd_family[k], num(a[1]), num(a[2]), amd_name[k]
		}
	}' "$table"
}

intel=$(rows | awk '$1 == "GenuineIntel" { $1 = $2 = $3 = $4 = $5 = $6 = ""; sub(/^ +/, ""); print }' |
	awk '!seen[$0]++' | paste -sd, - | sed 's/,/, /g')
amd=$(rows | awk '$1 == "AuthenticAMD" { print $8, $9 }' | sort -uV |
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
