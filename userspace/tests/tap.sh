# SPDX-License-Identifier: GPL-2.0
# tap.sh - sourced by the host test scripts that check memdiagctl MEMDIAGCTL
# ($1): bin (its absolute path), tmp (a directory removed at exit), and
# the TAP writer every shell test shares (selftests/tap.sh: ok NAME
# [STATUS [DETAIL...]], not_ok, skip); tap_end ends the script.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../selftests/tap.sh"
