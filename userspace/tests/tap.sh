# SPDX-License-Identifier: GPL-2.0
# tap.sh - sourced by the host test scripts that check memdiagctl MEMDIAGCTL
# ($1): bin (its absolute path), tmp (a directory removed at exit), and
# ok COND NAME [FILE...], a TAP "ok - " or "not ok - " line with the
# FILEs as diagnostics; "[ "$failed" = 0 ]" ends the script.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failed=0
ok() { # cond name [diagnostics file...]
	if [ "$1" = 1 ]; then
		echo "ok - $2"
	else
		failed=$((failed + 1))
		echo "not ok - $2"
		shift 2
		for f; do sed 's/^/#   /' "$f"; done
	fi
}
