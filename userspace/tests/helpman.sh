#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# helpman.sh - --help and the man page cannot drift apart (TAP): every
# command of "memdiagctl --help" has its section in memdiagctl(8) and the
# reverse; every long option of "memdiagctl CMD
# --help" is in that command's section and every option the section
# describes (.TP .BR \-\-name) is in CMD's --help; the same for the global
# options and the OPTIONS section; the commands marked as working without
# the module are the same in both; each command's usage lines and its
# man synopsis list the same options with the same arguments.
# usage: helpman.sh MEMDIAGCTL MANPAGE
set -u
bin=$1
man=$2
tmp_help=$(mktemp)
trap 'rm -f "$tmp_help"' EXIT
. "$(dirname "$0")/../../selftests/tap.sh"

# The man page's section .SS NAME (or .SH NAME), up to the next .SS/.SH.
section() { # macro name
	awk -v m="$1" -v n="$2" '
		$1 == m && $2 == n { on = 1; next }
		on && ($1 == ".SS" || $1 == ".SH") { exit }
		on' "$man"
}
# Long options a text names: --name (man: \-\-name), sorted, unique.
opts_help() { grep -oE -- '--[a-z][a-z0-9-]*' | sort -u; }
opts_man() { sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u; }
# The options a man section describes: its .TP items' first lines.
opts_man_items() {
	awk 'prev == ".TP" { print } { prev = $1 }' | opts_man
}

cmds=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
man_cmds=$(awk '/^\.SH COMMANDS/ { on = 1; next } on && /^\.SH/ { exit } on && $1 == ".SS" { print $2 }' "$man")
[ -n "$cmds" ]
ok "--help lists commands" $?
missing=$(comm -23 <(echo "$cmds" | sort) <(echo "$man_cmds" | sort))
[ -z "$missing" ]
ok "every command of --help has a section in the man page" $? "missing: $missing"
missing=$(comm -13 <(echo "$cmds" | sort) <(echo "$man_cmds" | sort))
[ -z "$missing" ]
ok "every command the man page describes is in --help" $? "missing: $missing"

# the commands marked '*' (they work without the module) in --help are
# those the man page lists after "marks them with *" in COMMANDS
h=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && $2 == "*" { print $1 }' | sort)
m=$(awk '/^\.SH COMMANDS/ { on = 1; next } on && $1 == ".SS" { exit }
	on && list && $1 == ".BR" { print $2 } on && $1 == ".BR" && $2 == "*" { list = 1 }' "$man" |
	tr -d ',.' | sort)
[ -n "$h" ] && [ "$h" = "$m" ]
ok "the commands --help marks '*' (no module needed) are those COMMANDS in the man page lists" $? "$(diff <(echo "$h") <(echo "$m"))"

# global options: those under "Options:" in --help
h=$("$bin" --help | awk '/^Options:/ { on = 1; next } on && /^$/ { exit } on' | opts_help)
m=$(section .SH OPTIONS | opts_man_items)
[ "$h" = "$m" ]
ok "the global options of --help are those of OPTIONS in the man page" $? "$(diff <(echo "$h") <(echo "$m"))"

# The "--opt ARG" pairs of a usage text on stdin (help's or the man
# synopsis's, macros stripped), one a line, sorted: an option with the
# word after it when that is its argument ("--size SIZE", "--nt "),
# either side of "|" ("--cpus LIST | --node N"); -j, -p and -h are
# global, and the case of an argument's name is the man page's style.
opt_pairs() {
	tr '[]\n' '   ' | sed -E 's/ *\| */|/g' | tr ' ' '\n' | grep -v '^$' |
	awk '{ t[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			n = split(t[i], a, "|")
			for (j = 1; j <= n; j++) {
				if (a[j] !~ /^--[a-z]/)
					continue
				m = ""
				if (j < n && a[j + 1] !~ /^-/)
					m = a[j + 1]
				else if (j == n && i < NR && t[i + 1] !~ /^-/) {
					m = t[i + 1]
					sub(/\|-.*/, "", m)
				}
				if (m == "memdiagctl")	# a second usage line
					m = ""
				print a[j], tolower(m)
			}
		}
	}' | grep -vE -- '^--(json|pretty|help) ' | sort -u
}
# The man page's synopsis of a command: its section up to the first .PP,
# without the macros.
man_synopsis() { # command
	awk -v n="$1" '$1 == ".SS" && $2 == n { on = 1; next }
		on && ($1 == ".PP" || $1 == ".SS" || $1 == ".SH") { exit } on' "$man" |
		sed -E 's/\\-/-/g; s/^\.[A-Za-z]+ ?//; s/"//g'
}

# -j, -p and -h are global: OPTIONS describes them once for every command
for c in $cmds; do
	# a --help that fails (or prints nothing) must not pass as "no options"
	if ! "$bin" "$c" --help > "$tmp_help" 2>&1 || ! [ -s "$tmp_help" ]; then
		not_ok "$c --help runs and prints its options" "$(cat "$tmp_help")"
		continue
	fi
	h=$(opts_help < "$tmp_help" | grep -vxE -- '--(json|pretty|help)')
	all=$(section .SS "$c" | opts_man)
	items=$(section .SS "$c" | opts_man_items | grep -vxE -- '--(json|pretty|help)')
	missing=$(comm -23 <(echo "$h") <(echo "$all"))
	[ -z "$missing" ]
	ok "$c: every option of its --help is in its man section" $? "missing: $missing"
	missing=$(comm -13 <(echo "$h") <(echo "$items"))
	[ -z "$missing" ]
	ok "$c: every option its man section describes is in its --help" $? "missing: $missing"
	# the usage lines (up to the first empty line) and the synopsis
	h=$(sed '/^$/q' "$tmp_help" | opt_pairs)
	m=$(man_synopsis "$c" | opt_pairs)
	[ "$h" = "$m" ]
	ok "$c: its --help's usage lines and its man synopsis give the same options, with the same arguments" $? "$(diff <(echo "$h") <(echo "$m"))"
done
tap_end
