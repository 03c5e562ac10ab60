#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh - run by the Debian guest's memdiag-guest-test.service at every
# boot (as /test/boot.sh): the first boot installs the packages
# (install.sh), the second checks what a reboot must bring back and the
# service under systemd, then purges (service.sh). Each writes its TAP
# to /test/out/STEP.tap and its exit status to /test/out/STEP.rc, and
# leaves /test/out/reboot before a reboot (the host's QEMU runs with
# -no-reboot: see selftests/debian/boot.sh). The step to run is kept on
# the guest's disk, outside what the tests list.
set -u
out=/test/out
state=/root/memdiag-guest-step
mkdir -p "$out"
step=$(cat "$state" 2>/dev/null || echo install)
case "$step" in
install)
	echo service > "$state"
	/test/install.sh > "$out/install.tap" 2>&1
	rc=$?
	echo "$rc" > "$out/install.rc"
	sync
	# exit 2: the packages are not installed, nothing to reboot for.
	# The host's QEMU ends at a reboot; the mark says to start it again.
	if [ "$rc" = 2 ]; then
		systemctl poweroff
	else
		touch "$out/reboot"
		sync
		systemctl reboot
	fi
	;;
service)
	echo finished > "$state"
	/test/service.sh > "$out/service.tap" 2>&1
	echo $? > "$out/service.rc"
	sync
	systemctl poweroff
	;;
*)
	systemctl poweroff
	;;
esac
