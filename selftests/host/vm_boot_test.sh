#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm_boot_test.sh - selftests/vm/run.sh boots a guest again when its kernel
# crashed in its own start-up (before init ran the command), once, and
# never when the crash came after init had started: three short boots of
# the newest stock kernel.
set -u

run=$(dirname "$0")/../vm/run.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
again="booting it again"

# boot NAME WANT_STATUS WANT_AGAIN RUN.SH ARGS...: the boot exits with
# WANT_STATUS and says "booting it again" WANT_AGAIN times
boot() {
	local name=$1 want=$2 want_again=$3 got again_n
	shift 3
	n=$((n + 1))
	"$run" --timeout 240 "$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	again_n=$(grep -c "$again" "$tmp/err")
	if [ "$got" = "$want" ] && [ "$again_n" = "$want_again" ]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name (status $got, want $want;" \
			"booted again $again_n times, want $want_again)"
		sed 's/^/# /' "$tmp/err" | tail -n 20
		failed=$((failed + 1))
	fi
}

echo "1..4"
boot "a clean boot runs the command once" 0 0 \
	--smp 1 -- sh -c 'echo ran'
n=2
if [ "$(cat "$tmp/out")" = ran ]; then
	echo "ok 2 - its output came once"
else
	echo "not ok 2 - its output came once (got: $(head -c 200 "$tmp/out"))"
	failed=$((failed + 1))
fi
# without its initramfs' /init the kernel panics before any init ran
boot "a kernel that panics before init is booted once more, then fails" 1 1 \
	--smp 1 --append rdinit=/nonexistent -- true
# the command crashes the kernel itself: that is the test's doing
boot "a crash after init started is not booted again" 1 0 \
	--smp 1 -- sh -c 'echo c > /proc/sysrq-trigger'
[ "$failed" = 0 ]
