#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# output.sh - -o FILE replaces FILE only with a finished output (TAP "ok - "
# lines, no module needed): a run that fails before it printed anything
# leaves an older FILE as it was and no file beside it; a run that prints
# replaces FILE whole.
# usage: output.sh MEMDIAGCTL
. "$(dirname "$0")/tap.sh"

# kept FILE: FILE still says "older" and nothing else is in its directory
kept() {
	[ "$(cat "$1")" = older ] && [ "$(ls "$(dirname "$1")")" = "$(basename "$1")" ]
}

mkdir "$tmp/o"
echo older > "$tmp/o/f"
"$bin" stat -j -o "$tmp/o/f" -- no-such-cmd-memdiag 2> "$tmp/err"
[ $? = 127 ] && kept "$tmp/o/f"
ok "stat -j -o FILE -- a missing command: FILE as it was, no file beside it" $? "$(cat "$tmp/err" "$tmp/o/f")"

# without the module watch fails before its first row (this machine has
# none loaded: the test says so rather than pass for the wrong reason)
if [ -d /sys/module/memdiag ]; then
	skip "watch --csv -o FILE without the module" "the module is loaded"
else
	"$bin" watch --csv -o "$tmp/o/f" 2> "$tmp/err"
	[ $? = 2 ] && kept "$tmp/o/f"
	ok "watch --csv -o FILE without the module: exit 2, FILE as it was" $? "$(cat "$tmp/err" "$tmp/o/f")"
fi

"$bin" stat -j -o "$tmp/o/f" -- true 2> "$tmp/err"
[ $? = 0 ] && [ "$(ls "$tmp/o")" = f ] &&
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/o/f"
ok "stat -j -o FILE -- true: FILE replaced by the JSON document" $? "$(cat "$tmp/err" "$tmp/o/f")"

# a symbolic link (as /dev/stdout is) is written through, not renamed
# over; a FIFO is written in place
echo older > "$tmp/target"
ln -s "$tmp/target" "$tmp/link"
"$bin" stat -j -o "$tmp/link" -- true 2> "$tmp/err"
[ $? = 0 ] && [ -L "$tmp/link" ] && grep -q '"exit_status"' "$tmp/target"
ok "stat -j -o LINK: the link stays, its target has the output" $? "$(cat "$tmp/err")"
mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" > "$tmp/fromfifo" &
"$bin" stat -j -o "$tmp/fifo" -- true 2> "$tmp/err"
rc=$?
wait
[ $rc = 0 ] && [ -p "$tmp/fifo" ] && grep -q '"exit_status"' "$tmp/fromfifo"
ok "stat -j -o FIFO: written into the FIFO" $? "$(cat "$tmp/err")"

"$bin" stat -o "$tmp/no/such/dir/f" -- true 2> "$tmp/err"
[ $? = 6 ] && grep -q "option '--output': cannot open '$tmp/no/such/dir/f'" "$tmp/err" &&
	[ ! -e "$tmp/no" ]
ok "stat -o in a missing directory: names the path, creates nothing" $? "$(cat "$tmp/err")"

tap_end
