#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ynl-gen.sh - generate (or, with --check, verify) the files made from the
# YNL spec, using the kernel's own ynl-gen-c.py from linux-source-6.12, and
# the selftests' table of operations (scripts/spec-ops.py).
#
# ynl-gen-c.py finds its JSON schema two directories above the spec and the
# "kernel root" by walking up to a MAINTAINERS file, so it runs on a copy of
# the spec laid out the way the kernel tree lays it out.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=${LINUX_SRC:-$("$top/scripts/linux-src.sh")}
ynl=$ksrc/tools/net/ynl/ynl-gen-c.py
check=0
[ "${1:-}" = --check ] && check=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Documentation/netlink/specs"
: > "$tmp/MAINTAINERS"
cp "$ksrc/Documentation/netlink/genetlink-legacy.yaml" "$tmp/Documentation/netlink/"
cp "$top/Documentation/netlink/specs/memdiag.yaml" "$tmp/Documentation/netlink/specs/"
spec=$tmp/Documentation/netlink/specs/memdiag.yaml

put() { # generated file: the tree's file, or with --check compared to it
	if [ $check = 1 ]; then
		if ! cmp -s "$1" "$top/$2"; then
			echo "ynl-gen: $2 is stale: run 'make regen' and commit the result" >&2
			diff -u "$top/$2" "$1" >&2 || true
			exit 1
		fi
	else
		cp "$1" "$top/$2"
	fi
}
gen() { # mode kind output
	# the generator derives #include names from the output file name
	out=$tmp/$(basename "$3")
	/usr/bin/python3 "$ynl" --mode "$1" "--$2" --spec "$spec" -o "$out"
	put "$out" "$3"
}
gen uapi header include/uapi/linux/memdiag.h
gen kernel header module/genl_gen.h
gen kernel source module/genl_gen.c
/usr/bin/python3 "$top/scripts/spec-ops.py" "$spec" "$tmp/spec_ops.h"
put "$tmp/spec_ops.h" selftests/memdiag/spec_ops.h
[ $check = 1 ] && echo "ynl-gen: generated files match the spec"
exit 0
