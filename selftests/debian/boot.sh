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
# system as the guest left it). MEMDIAG_DEBIAN_SAVE: a path; the disk at
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
	-accel tcg,thread=single -machine q35 -cpu "$cpu" -smp "$smp" -m "$mem"
	-nographic -nodefaults -nic none -no-reboot
	-drive "file=$run/disk.qcow2,if=virtio,format=qcow2"
	-virtfs "local,path=$share,mount_tag=memdiagtest,security_model=none"
	-chardev "file,id=console,path=$share/console.log,append=on"
	-serial chardev:console
)
args=
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
	[ "$rc" = 124 ] || timeout "$left" "$qemu" "${qargs[@]}" \
		-kernel "$img/vmlinuz-$kver" -initrd "$img/initrd.img-$kver" \
		-append "$cmdline $args" </dev/null >"$run/qemu.out" 2>&1 || rc=$?
	echo "boot.sh: boot $n: $kver${args:+ $args}: $(($(date +%s) - s)) s" >&2
	if [ "$rc" = 124 ]; then
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
