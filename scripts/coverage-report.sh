#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# coverage-report.sh DIR [HW_ONLY] - merge the gcov counters "make coverage" copied
# out of each guest (DIR/gcda/BOOT/, under the objects' build paths) with
# lcov, against the notes (.gcno) gcc left beside the objects in
# DIR/src/module/. An initial (zero) capture of the notes comes first, so a
# file whose code never ran still shows, at 0 %. Writes DIR/module.info
# (module/ only, branches included), the per-file table
# (scripts/coverage-table.py, with the hw-only list HW_ONLY, by default
# selftests/memdiag/coverage-hw-only) to stdout and DIR/table.rst, and the
# HTML report to DIR/html/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(cd "$1" && pwd)
hw_only=${2:-$top/selftests/memdiag/coverage-hw-only}
objs=$dir/src/module
lc="--quiet --rc lcov_branch_coverage=1"
[ -d "$objs" ] || { echo "coverage-report: no objects in $objs (make coverage builds them)" >&2; exit 1; }
ls "$objs"/*.gcno > /dev/null 2>&1 ||
	{ echo "coverage-report: no .gcno in $objs: not built with GCOV_PROFILE=y" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Debian's lcov 1.16 has geninfo say "Subroutine ... redefined" for each
# capture, harmlessly, and warn of notes without functions (the tables of
# uarch_table.c, prefetch_table.c, modpost's memdiag.mod.c): only those are
# dropped from its errors
quiet() {
	"$@" 2> "$work/err" && rc=0 || rc=$?
	grep -v -e '^Subroutine .* redefined at ' -e '\.gcno:no functions found$' \
		-e 'GCOV did not produce any data for .*\.gcno$' "$work/err" >&2 || true
	return "$rc"
}

# shellcheck disable=SC2086 # $lc is a list of options
quiet lcov $lc --capture --initial --directory "$objs" --output-file "$work/base.info"
adds="-a $work/base.info"
n=0
for boot in "$dir"/gcda/*/; do
	[ -d "$boot$objs" ] || { echo "coverage-report: no counters of memdiag in $boot" >&2; continue; }
	# gcov wants each .gcda beside its .gcno: a copy of the notes per boot
	b=$work/boot$n
	mkdir -p "$b"
	(cd "$objs" && find . -name '*.gcno' | cpio -pdm --quiet "$b")
	(cd "$boot$objs" && find . -name '*.gcda' | cpio -pdm --quiet "$b")
	# shellcheck disable=SC2086
	quiet lcov $lc --capture --directory "$b" --output-file "$work/boot$n.info"
	adds="$adds -a $work/boot$n.info"
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "coverage-report: no boot left counters in $dir/gcda/" >&2; exit 1; }
# shellcheck disable=SC2086
lcov $lc $adds --output-file "$work/all.info"
# shellcheck disable=SC2086
lcov $lc --extract "$work/all.info" "$objs/*" --output-file "$work/ext.info"
# modpost's generated memdiag.mod.c is Kbuild's, not memdiag's code
# shellcheck disable=SC2086
lcov $lc --remove "$work/ext.info" '*.mod.c' --output-file "$dir/module.info"
# shellcheck disable=SC2086
genhtml $lc --branch-coverage --prefix "$dir/src" --title "memdiag module/ ($n boots)" \
	--output-directory "$dir/html" "$dir/module.info"
"$top/scripts/coverage-table.py" --boots "$n" --hw-only "$hw_only" \
	--prefix "$dir/src/" "$dir/module.info" | tee "$dir/table.rst"
echo "coverage-report: $dir/html/index.html, $dir/table.rst"
