#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-module.sh KVER - build memdiag.ko for one Debian kernel with W=1
# into build/KVER/, failing on any compiler warning.
# build-module.sh KDIR NAME [VAR=VALUE...] - the same against a kernel
# build tree (the debug or coverage kernel of scripts/debug-kernel.sh), into
# build/NAME/, with the Kbuild variables given (make coverage passes
# GCOV_PROFILE=y; the objects, and gcc's .gcno notes, stay in build/NAME/src).
#
# Kbuild builds an external module inside its source tree, and its "clean"
# deletes every *.ko below it, so each kernel gets its own copy of the
# sources in build/KVER/src.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
kver=$1
kdir=/usr/src/linux-headers-$kver
if [ $# -ge 2 ]; then
	kdir=$1
	kver=$2
	shift 2
else
	shift
fi
[ -d "$kdir" ] || { echo "build-module: no headers in $kdir" >&2; exit 1; }
out=$top/build/$kver
mkdir -p "$out"
log=$out/build.log

src=$out/src
rm -rf "$src"
mkdir -p "$src"
# sources only: objects of an in-tree build may be for another kernel
(cd "$top" && find Kbuild module include -name Kbuild -o -name '*.[ch]') |
	(cd "$top" && tar -cf - -T -) | tar -C "$src" -xf -
if ! make -j"$(nproc)" -C "$kdir" M="$src" W=1 "$@" modules > "$log" 2>&1; then
	cat "$log" >&2
	echo "build-module: $kver: build failed" >&2
	exit 1
fi
if grep -E "warning:|error:" "$log" >&2; then
	echo "build-module: $kver: the build printed warnings" >&2
	exit 1
fi
for m in "$src"/module/*.ko; do
	cp "$m" "$out/"
	echo "build-module: $out/$(basename "$m")"
done
