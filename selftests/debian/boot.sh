#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh KVER SHARE [TIMEOUT] - boot the Debian 12 guest of
# scripts/debian-guest.sh with Debian's kernel KVER under QEMU TCG (no KVM)
# until it powers off, with the host directory SHARE as its /test
# (virtio-9p, read-write). The image's memdiag-guest-test.service runs
# SHARE/boot.sh once systemd reaches multi-user.target; the guest may
# reboot (each boot runs it again) and powers off at the end. The guest's
# disk is a throwaway qcow2 overlay on the cached image, so every run
# starts from the same system. The serial console of every boot is kept
# in SHARE/console.log.
#
# A reboot ends QEMU (-no-reboot) and this script starts it again on the
# same disk: the guest's boot.sh leaves SHARE/out/reboot before it asks
# systemd to reboot, so a QEMU that ends without it (a power-off, a panic)
# ends the run. The mark's first word is the kernel to boot next (the
# image has no boot loader: the host is it), the rest kernel arguments
# for that boot only (module.sig_enforce=1). The guest leaves
# SHARE/out/keep too when the disk at rest is the one to keep
# (MEMDIAG_DEBIAN_SAVE).
#
# A mark whose first word is "efi" (then the kernel and its arguments)
# asks for an EFI boot with Secure Boot on, as a Debian 12 system boots
# on a UEFI machine: Debian's OVMF with Microsoft's keys enrolled
# (OVMF_CODE_4M.secboot.fd, SMM on, and a copy of OVMF_VARS_4M.ms.fd that
# lasts as long as this run, so that a Machine Owner Key enrolled at one
# boot is there at the next), an ESP made here with Debian's signed shim,
# MokManager and GRUB (scripts/debian-efi.sh) and the kernel, as
# grub-install and update-grub lay it out. Its console goes through
# selftests/debian/efi-console.py, which answers MokManager when shim
# starts it for a key "mokutil --import" left pending, with the password
# in SHARE/mok-password; MokManager's reset ends QEMU, and the same EFI
# boot starts again.
#
# Exit: 0 when the guest powered off by itself, 124 on TIMEOUT (seconds,
# default 1800, all boots together), 1 on a QEMU error. What the guest
# found is in SHARE (its TAP): this script does not judge it. Each boot's
# kernel, arguments and time go to stderr.
#
# Environment: MEMDIAG_VM_QEMU, MEMDIAG_DEBIAN_SMP (1: TCG is one thread
# anyway and the host's CPUs are shared), MEMDIAG_DEBIAN_MEM (MiB, 2048),
# MEMDIAG_DEBIAN_CPU (Skylake-Server-v1, the CPU the simulated platform
# is), MEMDIAG_DEBIAN_APPEND (more kernel arguments, every boot).
# MEMDIAG_DEBIAN_BASE: the qcow2 the overlay is made on (default the
# cached image's root.qcow2; a disk kept by MEMDIAG_DEBIAN_SAVE boots the
# system as the guest left it). MEMDIAG_DEBIAN_EFI_FIRST: non-empty, the
# first boot is an EFI boot too. MEMDIAG_DEBIAN_OVMF: the directory of
# Debian's OVMF files (/usr/share/OVMF). MEMDIAG_DEBIAN_SAVE: a path; the disk at
# the guest's keep mark is moved there (an overlay on the base, which
# must stay where it is) and the later boots run on an overlay of it.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$1
share=$(cd "$2" && pwd)
timeout=${3:-1800}
qemu=${MEMDIAG_VM_QEMU:-qemu-system-x86_64}
smp=${MEMDIAG_DEBIAN_SMP:-1}
mem=${MEMDIAG_DEBIAN_MEM:-2048}
cpu=${MEMDIAG_DEBIAN_CPU:-Skylake-Server-v1}

img=$("$top/scripts/debian-guest.sh")
[ -f "$img/vmlinuz-$kver" ] || { echo "boot.sh: the image has no kernel $kver" >&2; exit 1; }
[ -x "$share/boot.sh" ] || { echo "boot.sh: no executable $share/boot.sh" >&2; exit 1; }

base=${MEMDIAG_DEBIAN_BASE:-$img/root.qcow2}
save=${MEMDIAG_DEBIAN_SAVE:-}
[ -f "$base" ] || { echo "boot.sh: no disk $base" >&2; exit 1; }
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
qemu-img create -q -f qcow2 -b "$(realpath "$base")" -F qcow2 "$run/disk.qcow2"

# ro: systemd-fsck checks the root and systemd-remount-fs makes it rw,
# as on an installed system. The console at ttyS0 is the only output.
cmdline="root=LABEL=memdiag-root ro console=ttyS0 panic=-1 ${MEMDIAG_DEBIAN_APPEND:-}"
# shellcheck disable=SC2054 # the commas belong to QEMU's option syntax
qargs=(
	-accel tcg,thread=single -cpu "$cpu" -smp "$smp" -m "$mem"
	-nographic -nodefaults -nic none -no-reboot
	-drive "file=$run/disk.qcow2,if=virtio,format=qcow2"
	-virtfs "local,path=$share,mount_tag=memdiagtest,security_model=none"
)
ovmf=${MEMDIAG_DEBIAN_OVMF:-/usr/share/OVMF}
# efi_boot KVER ARGS...: the ESP for KVER in $run/esp.img, then QEMU
# with the firmware and the console through efi-console.py; its status
# (100: MokManager enrolled a key and reset the machine)
efi_boot() {
	local k=$1 chain
	shift
	chain=$("$top/scripts/debian-efi.sh") || return 1
	[ -f "$run/vars.fd" ] || cp "$ovmf/OVMF_VARS_4M.ms.fd" "$run/vars.fd"
	rm -f "$run/esp.img"
	mkfs.vfat -C -n MEMDIAGESP "$run/esp.img" $((96 * 1024)) >/dev/null || return 1
	# the ESP's root is GRUB's; shim at the removable-media path finds
	# grubx64.efi and mmx64.efi beside it
	printf 'set timeout=0\nlinux /vmlinuz-%s %s\ninitrd /initrd.img-%s\nboot\n' \
		"$k" "$cmdline $*" "$k" > "$run/grub.cfg"
	mmd -i "$run/esp.img" ::/EFI ::/EFI/BOOT ::/EFI/debian &&
	mcopy -i "$run/esp.img" "$chain/shimx64.efi" ::/EFI/BOOT/BOOTX64.EFI &&
	mcopy -i "$run/esp.img" "$chain/mmx64.efi" "$chain/grubx64.efi" \
		"$run/grub.cfg" ::/EFI/BOOT/ &&
	mcopy -i "$run/esp.img" "$run/grub.cfg" ::/EFI/debian/ &&
	mcopy -i "$run/esp.img" "$img/vmlinuz-$k" "$img/initrd.img-$k" :: || return 1
	timeout "$left" "$top/selftests/debian/efi-console.py" "$share/console.log" \
		"$(cat "$share/mok-password" 2>/dev/null || echo none)" -- \
		"$qemu" "${qargs[@]}" -machine q35,smm=on \
		-global driver=cfi.pflash01,property=secure,value=on \
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf/OVMF_CODE_4M.secboot.fd" \
		-drive "if=pflash,format=raw,unit=1,file=$run/vars.fd" \
		-drive "file=$run/esp.img,if=none,format=raw,id=esp" \
		-device virtio-blk-pci,drive=esp,bootindex=0 \
		-chardev stdio,id=console,signal=off -serial chardev:console \
		</dev/null 2>"$run/qemu.out"
}

args=
efi=${MEMDIAG_DEBIAN_EFI_FIRST:+1}
by=$(($(date +%s) + timeout))
rm -f "$share/out/reboot" "$share/out/keep" "$share/console.log"
n=1
while :; do
	[ -f "$img/vmlinuz-$kver" ] ||
		{ echo "boot.sh: the image has no kernel $kver" >&2; exit 1; }
	left=$((by - $(date +%s)))
	s=$(date +%s)
	rc=0
	[ "$left" -gt 0 ] || rc=124
	if [ "$rc" = 124 ]; then
		:
	elif [ -n "$efi" ]; then
		# shellcheck disable=SC2086 # the arguments, one word each
		efi_boot "$kver" $args || rc=$?
	else
		timeout "$left" "$qemu" "${qargs[@]}" -machine q35 \
			-chardev "file,id=console,path=$share/console.log,append=on" \
			-serial chardev:console \
			-kernel "$img/vmlinuz-$kver" -initrd "$img/initrd.img-$kver" \
			-append "$cmdline $args" </dev/null >"$run/qemu.out" 2>&1 || rc=$?
	fi
	echo "boot.sh: boot $n: $kver${args:+ $args}${efi:+ (EFI, Secure Boot)}: $(($(date +%s) - s)) s" >&2
	# what efi-console.py did at MokManager
	[ -z "$efi" ] || grep '^efi-console:' "$run/qemu.out" >&2 || :
	if [ "$rc" = 100 ]; then
		# MokManager enrolled the key and reset: the firmware boots again
		n=$((n + 1))
		continue
	elif [ "$rc" = 124 ]; then
		echo "boot.sh: $kver: no power-off within $timeout s; console tail:" >&2
		tail -n 40 "$share/console.log" >&2
		exit 124
	elif [ "$rc" != 0 ]; then
		echo "boot.sh: $kver: QEMU exited with $rc:" >&2
		cat "$run/qemu.out" >&2
		exit 1
	fi
	[ -e "$share/out/reboot" ] || exit 0
	read -r next args < "$share/out/reboot" || :
	efi=
	if [ "$next" = efi ]; then
		efi=1
		read -r next args <<< "$args"
	fi
	kver=${next:-$kver}
	rm -f "$share/out/reboot"
	if [ -e "$share/out/keep" ] && [ -n "$save" ]; then
		mv "$run/disk.qcow2" "$save"
		qemu-img create -q -f qcow2 -b "$(realpath "$save")" -F qcow2 \
			"$run/disk.qcow2"
		save=
	fi
	rm -f "$share/out/keep"
	n=$((n + 1))
done
