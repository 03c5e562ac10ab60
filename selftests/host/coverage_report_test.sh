#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# coverage_report_test.sh - scripts/coverage-report.sh (make coverage's
# merge and table) on a user-space stand-in for the module: a file built
# with gcc --coverage in the layout make coverage leaves (notes in
# DIR/src/module/, each boot's counters in DIR/gcda/BOOT/ under the build
# path), run as two "boots". Checks the merged line and branch counts, the
# hw-only split and the warning for a hw-only function that ran.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
obj=$tmp/src/module
mkdir -p "$obj"
. "$top/selftests/tap.sh"
# expect NAME PATTERN FILE: FILE has a line matching the ERE PATTERN
expect() {
	if grep -qE "$2" "$3"; then ok "$1"; else not_ok "$1" "no line matches: $2" "$(cat "$3")"; fi
}

cat > "$obj/platform_hw.c" <<'C'
int hw_pci_read(int x)
{
	if (x > 3)
		return 1;
	return 2;
}

int reached(int x)
{
	if (x > 2)
		return x + 1;
	return 0;
}

int never(int x)
{
	return x * 3;
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 5)
		return hw_pci_read(argc);
	return reached(argc) - 2;
}
C
printf 'module/platform_hw.c\thw_pci_read\tonly on real hardware (test)\n' > "$tmp/hw-only"
(cd "$obj" && gcc --coverage -O0 -c platform_hw.c -o platform_hw.o &&
	gcc --coverage platform_hw.o -o prog) || { echo "Bail out! gcc --coverage failed"; exit 1; }
# boot ARGS...: one run, its counters moved where run.sh --gcov puts them
boot() {
	(cd "$obj" && ./prog "$@")
	mkdir -p "$tmp/gcda/boot$#$obj"
	mv "$obj/platform_hw.gcda" "$tmp/gcda/boot$#$obj/"
}

boot
boot x y
"$top/scripts/coverage-report.sh" "$tmp" "$tmp/hw-only" > "$tmp/out" 2> "$tmp/err"
echo "# exit status $?" >> "$tmp/out"
# 14 lines: hw_pci_read's 4 and never()'s 2 did not run, nor the call of
# hw_pci_read in main(); each of reached()'s two returns ran in one boot
# only, so both count only if the boots were merged
expect "two boots merged: 7 of 14 lines" '^module/platform_hw.c +7/14 +50.0 ' "$tmp/out"
expect "branches merged: 3 of 6 taken" '^module/platform_hw.c +[^ ]+ +[^ ]+ +3/6 +50.0 ' "$tmp/out"
expect "hw_pci_read's 4 lines apart; 7 of the 10 others hit, 70 %" \
	'^module/platform_hw.c +([^ ]+ +){4}4 +7/10 +70.0$' "$tmp/out"
expect "a file under 85 % of its reachable lines is named" \
	'^Under 85 % of the sim-reachable lines: module/platform_hw.c$' "$tmp/out"
if [ -f "$tmp/html/index.html" ]; then
	ok "the HTML report is written"
else
	not_ok "the HTML report is written" "$(cat "$tmp/err")"
fi
# a third boot runs the hw-only function (x > 3: 3 of its 4 lines): the
# list is then wrong
boot a b c d e f
"$top/scripts/coverage-report.sh" "$tmp" "$tmp/hw-only" > "$tmp/out" 2> "$tmp/err"
expect "a hw-only function that ran is reported" \
	'hw_pci_read is on the hw-only list, yet a test ran 3 of its lines' "$tmp/err"
tap_end
