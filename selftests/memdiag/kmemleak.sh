#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kmemleak.sh - on a kernel with kmemleak (make check-debug), run first and
# last in a guest: the first run forgets what the boot left unreferenced,
# the last scans and fails on any object that became unreferenced while
# the tests ran (memdiag's allocations included, whose traces lose their
# symbol names once the module is gone). Prints TAP; without kmemleak, one
# skip.
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

k=/sys/kernel/debug/kmemleak
state=/tmp/kmemleak.started
if [ ! -w $k ]; then
	skip "no leaked memory" "this kernel has no kmemleak"
elif [ ! -e $state ]; then
	# objects allocated at boot and never freed are reported on the
	# first scans: clear them all so that only later ones count
	echo scan > $k && echo clear > $k && touch $state
	check "kmemleak: the boot's unreferenced objects cleared" test -e $state
else
	# kmemleak reports an object only once it has stayed unreferenced
	# over two scans, some seconds apart
	echo scan > $k
	sleep 6
	echo scan > $k
	n=$(grep -c '^unreferenced object' $k)
	if [ "$n" = 0 ]; then
		ok "kmemleak: no object leaked while the tests ran"
	else
		not_ok "kmemleak: no object leaked while the tests ran" \
			"$n unreferenced object(s); the first:" "$(head -n 40 $k)"
	fi
fi
tap_end
