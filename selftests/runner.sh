#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# runner.sh COLLECTION "TEST..." - run the tests of one selftest directory
# (the current one) as the kernel's kselftest/runner.sh does: KTAP, each
# test's own output as "# " lines, one "ok N selftests: COLLECTION: TEST"
# per test, the timeout from ./settings (default 45 s, the kernel's).
set -u
collection=$1
read -ra tests <<< "$2"
timeout=45
[ -f settings ] && timeout=$(sed -n 's/^timeout=//p' settings)
echo "TAP version 13"
echo "1..${#tests[@]}"
n=0
failed=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	echo "# selftests: $collection: $t"
	timeout "$timeout" "./$t" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	case $rc in
	0) echo "ok $n selftests: $collection: $t" ;;
	4) echo "ok $n selftests: $collection: $t # SKIP" ;;
	124) echo "not ok $n selftests: $collection: $t # TIMEOUT $timeout seconds"; failed=1 ;;
	*) echo "not ok $n selftests: $collection: $t # exit=$rc"; failed=1 ;;
	esac
done
exit $failed
