#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kcsan_instrumented_test.sh - scripts/kcsan-instrumented.sh passes modules
# whose objects gcc compiled with -fsanitize=thread (as Kbuild does for
# KCSAN) and fails, naming the object, one compiled without it or one
# whose code calls no access hook. Fed small objects compiled here.
set -u

check=$(dirname "$0")/../../scripts/kcsan-instrumented.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
tsan=(-O2 -fsanitize=thread --param tsan-instrument-func-entry-exit=0)

# code with memory accesses, a table of data alone, code without accesses
printf 'int g;\nint f(void) { return g++; }\n' > "$tmp/code.c"
printf 'const int t[4] = { 1, 2, 3, 4 };\n' > "$tmp/table.c"
printf 'int h(int x) { return x * 3; }\n' > "$tmp/pure.c"
for f in code table pure; do
	gcc "${tsan[@]}" -c "$tmp/$f.c" -o "$tmp/$f.o" || exit 1
done
gcc -O2 -c "$tmp/code.c" -o "$tmp/plain.o" || exit 1

# expect NAME WANT_STATUS WANT_ERE MEMDIAG_OBJS SIM_OBJS
expect() {
	local name=$1 want=$2 ere=$3 o out got
	n=$((n + 1))
	: > "$tmp/memdiag.mod"
	for o in $4; do echo "$tmp/$o" >> "$tmp/memdiag.mod"; done
	: > "$tmp/memdiag_sim.mod"
	for o in $5; do echo "$tmp/$o" >> "$tmp/memdiag_sim.mod"; done
	out=$("$check" "$tmp" 2>&1)
	got=$?
	if [ "$got" = "$want" ] && printf '%s' "$out" | grep -Eq -- "$ere"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name (status $got, want $want; printed:"
		printf '%s\n' "$out" | sed 's/^/#   /'
		echo "# )"
		failed=$((failed + 1))
	fi
}

echo "1..5"
expect "instrumented code and a data-only table pass" 0 \
	'^ok 2 - memdiag_sim.ko: every object is instrumented by KCSAN \(1 objects\)' \
	"code.o table.o" "code.o"
expect "a data-only object is named as such" 0 \
	'data only \(the constructor alone\): table.o' "code.o table.o" "code.o"
expect "an object compiled without KCSAN fails, named" 1 \
	'not instrumented: plain.o\(not compiled with KCSAN\)' \
	"code.o plain.o" "code.o"
expect "code that calls no access hook fails, named" 1 \
	'not instrumented: pure.o\(code without KCSAN.s access hooks\)' \
	"code.o" "pure.o"
expect "a module with no object list fails" 1 \
	'not ok 1 - memdiag.ko: no object list' "" "code.o"
[ "$failed" = 0 ]
