#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kcsan-instrumented.sh DIR - check, before any KCSAN boot, that
# memdiag.ko and memdiag_sim.ko as built in DIR (build/kcsan/src/module
# of scripts/build-module.sh) are instrumented by KCSAN, object by object.
# Without it a clean "make check-kcsan" could not be told apart from a
# build that KCSAN does not see (a "KCSAN_SANITIZE := n" in module/Kbuild,
# or the flags lost on the way). Prints TAP, one line per module, and
# names every object that fails.
#
# An object is instrumented when it was compiled with the sanitizer (gcc
# then adds a constructor that calls __tsan_init) and, if it has any code
# besides that constructor, calls KCSAN's access hooks
# (__tsan_read8, __tsan_volatile_write4, ...). An object of data alone
# (a table) has only the constructor: it passes, and is named as such.
# The objects are those Kbuild linked into each module (its .mod file).
set -eu
[ $# = 1 ] || { echo "usage: kcsan-instrumented.sh BUILD_DIR/module" >&2; exit 2; }
# the .mod lists name objects by absolute path: shown relative to DIR
dir=$(cd "$1" && pwd) || exit 2
nm=${NM:-nm}
n=0
failed=0
for mod in memdiag memdiag_sim; do
	n=$((n + 1))
	list=$dir/$mod.mod
	if [ ! -s "$list" ]; then
		echo "not ok $n - $mod.ko: no object list $list (not built?)"
		failed=1
		continue
	fi
	bad=
	data=
	objs=0
	while read -r o; do
		objs=$((objs + 1))
		name=${o#"$dir"/}
		syms=$($nm "$o") || { bad="$bad $name(nm failed)"; continue; }
		if ! printf '%s\n' "$syms" | grep -q ' U __tsan_init$'; then
			bad="$bad $name(not compiled with KCSAN)"
		elif printf '%s\n' "$syms" |
			grep -E ' U __tsan_(volatile_|unaligned_)?(read|write)|U __tsan_atomic' > /dev/null; then
			:
		elif printf '%s\n' "$syms" | grep -E ' [Tt] ' |
			grep -v ' _sub_I_' > /dev/null; then
			bad="$bad $name(code without KCSAN's access hooks)"
		else
			data="$data $name"
		fi
	done < "$list"
	if [ -n "$bad" ]; then
		echo "not ok $n - $mod.ko: every object is instrumented by KCSAN"
		echo "#   not instrumented:$bad"
		failed=1
	else
		echo "ok $n - $mod.ko: every object is instrumented by KCSAN ($objs objects)"
	fi
	[ -z "$data" ] || echo "#   data only (the constructor alone):$data"
done
echo "1..$n"
exit $failed
