#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh - run by the Debian guest's memdiag-guest-test.service at every
# boot (as /test/boot.sh). Five boots:
#   1. the older kernel: install the previous version's packages
#      (install.sh), then this version's over them (upgrade.sh);
#   2. the older kernel with module.sig_enforce=1: the kernel refuses the
#      modules it cannot verify (signing.sh), then the kernel upgrade:
#      the newer kernel's headers installed, DKMS builds for it (kernel.sh);
#   3. the newer kernel on a UEFI machine with Secure Boot (shim, GRUB):
#      DKMS's module refused, its key given to mokutil (enroll.sh); the
#      next start meets shim's MokManager, answered by the host;
#   4. the same, the key enrolled: the modules load (secureboot.sh);
#   5. the newer kernel: what a reboot must bring back, the service under
#      systemd, then purge (service.sh).
# Each step writes its TAP to /test/out/STEP.tap, its exit status to
# /test/out/STEP.rc and the kernel's log and command line after it to
# STEP.dmesg and STEP.cmdline (the host checks the log). Before a reboot it leaves /test/out/reboot, naming
# the kernel to boot next and that boot's extra arguments, after "efi"
# for a boot through the firmware (the host's QEMU runs with -no-reboot
# and is the boot loader: see selftests/debian/boot.sh), and
# /test/out/keep where the disk at rest is worth keeping (everything
# installed and built). The step to run is kept on the guest's disk,
# outside what the tests list.
set -u
out=/test/out
state=/root/memdiag-guest-step
kold=$(sed -n 1p /test/kernels)
knew=$(sed -n 2p /test/kernels)
mkdir -p "$out"
step=$(cat "$state" 2>/dev/null || echo install)

# run STEP: /test/STEP.sh with its TAP and exit status in /test/out
run() {
	"/test/$1.sh" > "$out/$1.tap" 2>&1
	echo $? > "$out/$1.rc"
	dmesg > "$out/$1.dmesg"
	cat /proc/cmdline > "$out/$1.cmdline"
	sync
	return "$(cat "$out/$1.rc")"
}

# reboot_into [efi] KVER [ARGS...]: the host boots KVER (with ARGS) next,
# through the firmware after "efi"
reboot_into() {
	echo "$*" > "$out/reboot"
	sync
	systemctl reboot
}

case "$step" in
install)
	echo signing > "$state"
	# exit 2: the packages are not installed, nothing to go on with
	if ! run install && [ "$(cat "$out/install.rc")" = 2 ]; then
		systemctl poweroff
	elif ! run upgrade && [ "$(cat "$out/upgrade.rc")" = 2 ]; then
		systemctl poweroff
	else
		reboot_into "$kold" module.sig_enforce=1
	fi
	;;
signing)
	echo enroll > "$state"
	run signing
	if ! run kernel && [ "$(cat "$out/kernel.rc")" = 2 ]; then
		systemctl poweroff
	else
		touch "$out/keep"
		reboot_into efi "$knew"
	fi
	;;
enroll)
	echo secureboot > "$state"
	if ! run enroll && [ "$(cat "$out/enroll.rc")" = 2 ]; then
		systemctl poweroff
	else
		reboot_into efi "$knew"
	fi
	;;
secureboot)
	echo service > "$state"
	run secureboot
	reboot_into "$knew"
	;;
service)
	echo finished > "$state"
	run service
	systemctl poweroff
	;;
*)
	systemctl poweroff
	;;
esac
