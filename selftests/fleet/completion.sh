#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# completion.sh [MEMDIAGCTL] - the bash completion against the C tables:
# every command of memdiagctl.c's command table, every long option of every
# getopt table under userspace/, every kernel of run's kernel table and every
# prefetcher name of module/prefetch_table.c must be offered where it
# belongs, and nothing else. TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/memdiag/lib.sh"
prog=$(realpath "${1:-$top/userspace/memdiagctl}")
[ -x "$prog" ] || { echo "completion: no $prog (make -C userspace)" >&2; exit 1; }
comp=/usr/share/bash-completion/bash_completion
[ -r "$comp" ] || { echo "completion: $comp missing (apt install bash-completion)" >&2; exit 1; }

. "$comp"
. "$top/dist/bash-completion/memdiagctl"

# complete WORD...: what TAB offers after these words (the last is the
# word being completed), one per line, sorted
complete_words() {
	COMP_WORDS=("$prog" "$@")
	COMP_CWORD=$#
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_memdiagctl
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort -u
}

# same NAME WANT GOT: sets equal (sorted lists)
same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "missing: $(comm -23 <(echo "$2") <(echo "$3") | tr '\n' ' ')" \
			"extra: $(comm -13 <(echo "$2") <(echo "$3") | tr '\n' ' ')"
	fi
}

src=$top/userspace
# the command table: { "name", cmd_fn, usage_fn, ... }
cmds=$(grep -ohE '^[[:space:]]*\{ "[a-z][a-z0-9-]*", cmd_[a-z_]+,' "$src/memdiagctl.c" |
	sed 's/.*{ "\([^"]*\)".*/\1/' | sort -u)
[ -n "$cmds" ] || { echo "completion: no command table in memdiagctl.c" >&2; exit 1; }
same "commands are the command table" "$cmds" "$(complete_words '')"
same "commands after a global option" "$cmds" "$(complete_words -j '')"

# every long option of every getopt table in userspace/ (the global one
# included; run's options are rows of options.c's run_copts[] and
# run_kopts[], { .name = "x", ...}, the options every command takes rows
# of opts.c's common[]), as --name
longopts=$(find "$src" -name '*.c' -exec awk '
	/struct (option|run_opt|common_opt) [a-z_]*\[\] = \{/ { on = 1; next }
	on && /^[ \t]*\};/ { on = 0 }
	on && match($0, /\{ (\.name = )?"[a-z][a-z0-9-]*"/) {
		w = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", w)
		print "--" substr(w, 1, length(w) - 1) }' {} + | sort -u)
offered=$(for c in $cmds; do complete_words "$c" --; done; complete_words --)
offered=$(echo "$offered" | sort -u)
same "every getopt long option is offered, and only those" "$longopts" "$offered"
for c in $cmds; do
	[ "$c" = help ] && continue
	got=$(complete_words "$c" --)
	for o in --help; do
		if echo "$got" | grep -qx -- "$o"; then
			ok "$c offers $o"
		else
			not_ok "$c offers $o" "got: $(echo $got)"
		fi
	done
done

kernels=$(find "$src" -name '*.c' -exec awk '
	/^const struct run_kernel run_[a-z_]+ = \{/ { on = 1; next }
	on && /^\};/ { on = 0 }
	on && match($0, /\.name = "[^"]*"/) { print substr($0, RSTART + 9, RLENGTH - 10) }' {} + | sort -u)
[ -n "$kernels" ] || not_ok "run's kernel table found"
same "run KERNEL: the kernel table" "$kernels" "$(complete_words run '')"
same "run KERNEL after an option" "$kernels" "$(complete_words run --reps 3 '')"
same "run KERNEL --: only options" "" "$(complete_words run stream '' | grep -v '^--')"

pf=$( (grep -ohE '\{ [0-9]+, "[a-z0-9-]+"' "$top/module/prefetch_table.c" |
	sed 's/.*"\(.*\)"/\1/'; echo all) | sort -u)
same "prefetch disable: every prefetcher of the module's table, and all" \
	"$pf" "$(complete_words prefetch disable '')"
same "prefetch --socket 0 enable: the same" "$pf" \
	"$(complete_words prefetch --socket 0 enable '')"
same "prefetch: its subcommands" "$(printf '%s\n' disable enable restore status)" \
	"$(complete_words prefetch '')"
same "help COMMAND: the commands" "$cmds" "$(complete_words help '')"
same "run --barrier: the choices" "$(printf 'spin\ntree\n')" \
	"$(complete_words run --barrier '')"
same "stat CMD: the commands on PATH" "$(compgen -c -- bas | sort -u)" \
	"$(complete_words stat bas)"
same "stat -- CMD ARGS: CMD's own completion" "$(compgen -c -- bas | sort -u)" \
	"$(complete_words stat --socket 0 -- bas)"
same "stat --socket N: no guess" "" "$(complete_words stat --socket '')"
same "watch --socket N: no guess" "" "$(complete_words watch --socket '')"
same "watch -s N: no guess" "" "$(complete_words watch -s '')"

tap_end
