#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# debian-guest.sh - build (once, then reuse) the Debian 12 system that "make
# check-debian" boots: a root filesystem made by mmdebstrap from Debian's
# packages, systemd as init, the Debian kernels the tests use (images,
# initramfs made in the guest by initramfs-tools, headers for DKMS),
# build-essential, dkms, curl, jq, prometheus and the libraries memdiagctl
# links, so that "apt install ./memdiag*.deb" needs nothing from the network.
# Prints the cache directory, which holds root.qcow2 (ext4, no partition
# table, root=/dev/vda), vmlinuz-KVER and initrd.img-KVER of each kernel.
#
# The key of the directory is this script, the package list, the kernels
# and the mirror; a changed input builds a new image beside the old one.
# Needs root (mmdebstrap's root mode keeps the image's owners as they are).
#
# The image's only test hook is memdiag-guest-test.service: when the host
# shares a directory with mount tag "memdiagtest" (virtio-9p) holding
# boot.sh, it runs "/test/boot.sh" once multi-user.target is reached; boot.sh
# decides whether to reboot or power off. Without that share the guest
# boots as a plain Debian system.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${MEMDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memdiag}/debian
mirror=${MEMDIAG_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${MEMDIAG_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
suite=bookworm
# Debian's kernel updates (the host's kernels) come through the security
# suite, the point-release fixes through -updates
sources="deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main"

# the Debian kernels of the host's tests (scripts/kernels.sh), not the -rt ones
kernels=$("$top/scripts/kernels.sh" | grep -v -- '-rt-' | tr '\n' ' ')
[ -n "$kernels" ] || { echo "debian-guest: scripts/kernels.sh names no kernel" >&2; exit 1; }

# What a Debian 12 server with DKMS has, plus what the tests use (curl,
# jq, prometheus, openssl for module signing keys, mokutil to enroll
# DKMS's key, keyutils to list the kernel's keyrings) and memdiagctl's
# run-time libraries (apt then resolves the local .deb files offline).
pkgs="systemd-sysv udev kmod dbus initramfs-tools procps iproute2 less
ca-certificates dkms build-essential openssl curl jq prometheus mokutil
keyutils libjson-c5 libmnl0 libmicrohttpd12"
for k in $kernels; do
	pkgs="$pkgs linux-image-$k linux-headers-$k"
done
pkgs=$(echo $pkgs | tr ' ' ',')

key=$( (cat "$0"; echo "$pkgs $sources") | sha256sum | cut -c1-16)
dir=$cache/$suite-$key
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi
[ "$(id -u)" = 0 ] || { echo "debian-guest: building the image needs root" >&2; exit 1; }
command -v mmdebstrap >/dev/null ||
	{ echo "debian-guest: no mmdebstrap: apt-get install mmdebstrap" >&2; exit 1; }
command -v qemu-img >/dev/null ||
	{ echo "debian-guest: no qemu-img: apt-get install qemu-utils" >&2; exit 1; }

rm -rf "$dir"
mkdir -p "$dir"
root=$dir/rootfs
log=$dir/build.log
start=$(date +%s)
echo "debian-guest: mmdebstrap $suite into $root (log $log)" >&2

# The customize hooks run on the host with the root directory as $1:
# the test hook (a unit, enabled), the 9p share in fstab (nofail: the
# image boots without it), the prometheus service off (the tests start
# their own), root without a password on the serial console.
unit='[Unit]
Description=memdiag guest test: /test/boot.sh from the host share
ConditionPathExists=/test/boot.sh
RequiresMountsFor=/test
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/test/boot.sh
TimeoutStartSec=infinity
StandardOutput=journal+console
StandardError=journal+console
FailureAction=poweroff-force

[Install]
WantedBy=multi-user.target'

# The host's apt cache (sync-in) spares downloading what it already has;
# apt checks each file against the index as for a download.
if ! nice -n 10 mmdebstrap --mode=root --variant=apt --format=directory \
	--include="$pkgs" \
	--setup-hook='mkdir -p "$1"/var/cache/apt/archives' \
	--setup-hook='sync-in /var/cache/apt/archives/ /var/cache/apt/archives/' \
	--customize-hook='echo memdiag-guest > "$1"/etc/hostname' \
	--customize-hook='printf "LABEL=memdiag-root / ext4 rw,errors=remount-ro 0 1\nmemdiagtest /test 9p trans=virtio,version=9p2000.L,msize=262144,nofail 0 0\n" > "$1"/etc/fstab' \
	--customize-hook='mkdir -p "$1"/test' \
	--customize-hook='printf "9p\n9pnet_virtio\n" > "$1"/etc/modules-load.d/memdiag-guest-test.conf' \
	--customize-hook="printf '%s\n' '$unit' > \"\$1\"/etc/systemd/system/memdiag-guest-test.service" \
	--customize-hook='chroot "$1" systemctl enable memdiag-guest-test.service' \
	--customize-hook='chroot "$1" systemctl disable prometheus.service' \
	--customize-hook='chroot "$1" passwd -d root' \
	"$suite" "$root" "$sources" > "$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "debian-guest: mmdebstrap failed" >&2
	exit 1
fi

for k in $kernels; do
	cp "$root/boot/vmlinuz-$k" "$root/boot/initrd.img-$k" "$dir/" || {
		echo "debian-guest: no kernel or initramfs for $k in the image" >&2
		exit 1; }
done

# ext4 straight from the directory (no loop mount): the tree plus 3 GiB
# for DKMS's builds, a second kernel's headers and prometheus's data
used_mb=$(du -sm "$root" | cut -f1)
size_mb=$((used_mb + 3072))
echo "debian-guest: ext4 of ${size_mb} MiB (${used_mb} MiB used)" >&2
rm -f "$dir/root.raw"
truncate -s "${size_mb}M" "$dir/root.raw"
mkfs.ext4 -q -L memdiag-root -d "$root" "$dir/root.raw" >> "$log" 2>&1
qemu-img convert -f raw -O qcow2 "$dir/root.raw" "$dir/root.qcow2"
rm -rf "$dir/root.raw" "$root"
end=$(date +%s)
printf 'packages: %s\nkernels: %s\nbuild_seconds: %s\nused_mb: %s\nqcow2_mb: %s\n' \
	"$pkgs" "$kernels" "$((end - start))" "$used_mb" \
	"$(du -sm "$dir/root.qcow2" | cut -f1)" > "$dir/manifest"
touch "$dir/done"
echo "debian-guest: built in $((end - start)) s" >&2
echo "$dir"
