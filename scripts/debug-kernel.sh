#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# debug-kernel.sh - build (once, then reuse) the 6.12 kernel "make
# check-debug" boots: linux-source-6.12 configured as allnoconfig plus
# selftests/vm/debug.config (KASAN, lockdep, kmemleak, DEBUG_ATOMIC_SLEEP,
# and the guests' drivers built in). Prints the build tree, which holds
# arch/x86/boot/bzImage and is what memdiag.ko is built against. Long
# (tens of minutes on two cores), so it runs niced; the tree is kept in
# build/debug-kernel/ and rebuilt only when the source, the fragment or this
# script change.
#
# "debug-kernel.sh coverage" builds the variant "make coverage" boots:
# the same plus selftests/vm/coverage.config (gcov, KCOV), kept apart in
# build/coverage-kernel/ so that neither build invalidates the other;
# "debug-kernel.sh kcsan" the one "make check-kcsan" boots: KCSAN instead
# of KASAN (selftests/vm/kcsan.config), in build/kcsan-kernel/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
variant=${1:-debug}
case $variant in
debug)
	frags=$top/selftests/vm/debug.config
	out=${MEMDIAG_DEBUG_KERNEL_DIR:-$top/build/debug-kernel} ;;
coverage)
	frags="$top/selftests/vm/debug.config $top/selftests/vm/coverage.config"
	out=${MEMDIAG_COVERAGE_KERNEL_DIR:-$top/build/coverage-kernel} ;;
kcsan)
	frags="$top/selftests/vm/debug.config $top/selftests/vm/kcsan.config"
	out=${MEMDIAG_KCSAN_KERNEL_DIR:-$top/build/kcsan-kernel} ;;
*)
	echo "debug-kernel: unknown variant '$variant' (debug, coverage, kcsan)" >&2
	exit 2 ;;
esac
src=$out/linux-source-6.12
jobs=${MEMDIAG_DEBUG_KERNEL_JOBS:-2}

[ -f "$tarball" ] || { echo "debug-kernel: $tarball not found: apt-get install linux-source-6.12" >&2; exit 1; }
key=$( (ls -l --time-style=+%s "$tarball"; cat $frags "$0") | sha256sum | cut -c1-16)
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$key" ] &&
   [ -f "$src/arch/x86/boot/bzImage" ]; then
	echo "$src"
	exit 0
fi
mkdir -p "$out"
rm -f "$out/stamp"
# KCONFIG_ALLCONFIG reads one file: the fragments in order, a later line
# overriding an earlier one
frag=$out/fragment.config
cat $frags > "$frag"
log=$out/build.log
if [ ! -f "$src/Makefile" ]; then
	echo "debug-kernel: unpacking $tarball into $out" >&2
	rm -rf "$src"
	tar -C "$out" -xJf "$tarball"
fi
echo "debug-kernel: configuring (log $log)" >&2
# allnoconfig reads the fragment as the values to keep (what
# scripts/kconfig/merge_config.sh -n does)
make -C "$src" KCONFIG_ALLCONFIG="$frag" allnoconfig > "$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; echo "debug-kernel: allnoconfig failed" >&2; exit 1; }
# Kconfig drops a value whose dependencies are unmet, silently: say which.
# Each symbol's last line in the fragment is the one that counts (kcsan's
# "# CONFIG_KASAN is not set" after debug's CONFIG_KASAN=y).
missing=$(awk '
	/^CONFIG_[A-Za-z0-9_]+=/ { s = $0; sub(/=.*/, "", s); last[s] = $0 }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { last[$2] = $0 }
	END { for (s in last) print last[s] }' "$frag" | while IFS= read -r l; do
	case $l in
	"# "*) s=${l#\# }; s=${s%% *}
		! grep -q "^$s=" "$src/.config" || echo "$l" ;;
	*) grep -qxF "$l" "$src/.config" || echo "$l" ;;
	esac; done)
if [ -n "$missing" ]; then
	echo "debug-kernel: not set in the final config (unmet dependencies?):" $missing >&2
	exit 1
fi
echo "debug-kernel: building with -j$jobs, niced (log $log)" >&2
if ! nice -n 10 make -C "$src" -j"$jobs" >> "$log" 2>&1; then
	tail -n 40 "$log" >&2
	echo "debug-kernel: kernel build failed" >&2
	exit 1
fi
echo "$key" > "$out/stamp"
echo "$src"
