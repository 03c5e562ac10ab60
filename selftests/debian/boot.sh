#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh KVER SHARE [TIMEOUT] - boot the Debian 12 guest of
# scripts/debian-guest.sh with Debian's kernel KVER under QEMU TCG (no KVM)
# until it powers off, with the host directory SHARE as its /test
# (virtio-9p, read-write). The image's memdiag-guest-test.service runs
# SHARE/boot.sh once systemd reaches multi-user.target; the guest may
# reboot (each boot runs it again) and powers off at the end. The guest's
# disk is a throwaway qcow2 overlay on the cached image, so every run
# starts from the same system. The serial console is kept in
# SHARE/console.log.
#
# Exit: 0 when the guest powered off by itself, 124 on TIMEOUT (seconds,
# default 1800), 1 on a QEMU error. What the guest found is in SHARE (its
# TAP): this script does not judge it.
#
# Environment: MEMDIAG_VM_QEMU, MEMDIAG_DEBIAN_SMP (1: TCG is one thread
# anyway and the host's CPUs are shared), MEMDIAG_DEBIAN_MEM (MiB, 2048),
# MEMDIAG_DEBIAN_CPU (Skylake-Server-v1, the CPU the simulated platform
# is), MEMDIAG_DEBIAN_APPEND (more kernel arguments).
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

run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
qemu-img create -q -f qcow2 -b "$img/root.qcow2" -F qcow2 "$run/disk.qcow2"

# ro: systemd-fsck checks the root and systemd-remount-fs makes it rw,
# as on an installed system. The console at ttyS0 is the only output.
cmdline="root=LABEL=memdiag-root ro console=ttyS0 panic=-1 ${MEMDIAG_DEBIAN_APPEND:-}"
# shellcheck disable=SC2054 # the commas belong to QEMU's option syntax
qargs=(
	-accel tcg,thread=single -machine q35 -cpu "$cpu" -smp "$smp" -m "$mem"
	-nographic -nodefaults -nic none
	-kernel "$img/vmlinuz-$kver" -initrd "$img/initrd.img-$kver"
	-append "$cmdline"
	-drive "file=$run/disk.qcow2,if=virtio,format=qcow2"
	-virtfs "local,path=$share,mount_tag=memdiagtest,security_model=none"
	-serial "file:$share/console.log"
)
rc=0
timeout "$timeout" "$qemu" "${qargs[@]}" </dev/null >"$run/qemu.out" 2>&1 || rc=$?
if [ "$rc" = 124 ]; then
	echo "boot.sh: $kver: no power-off within $timeout s; console tail:" >&2
	tail -n 40 "$share/console.log" >&2
	exit 124
elif [ "$rc" != 0 ]; then
	echo "boot.sh: $kver: QEMU exited with $rc:" >&2
	cat "$run/qemu.out" >&2
	exit 1
fi
exit 0
