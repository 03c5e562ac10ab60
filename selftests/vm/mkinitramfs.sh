#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh - build (once, then reuse from the cache) the tiny initramfs
# that boots a Debian kernel under QEMU and chroots into the host's / over 9p.
#
# Usage: mkinitramfs.sh KVER [OUT]
# Prints the path of the cached image; with OUT, also copies it there.
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
kver=${1:?usage: mkinitramfs.sh KVER [OUT]}
out=${2:-}
cache=${MEMDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memdiag}/vm
busybox=${MEMDIAG_VM_BUSYBOX:-/bin/busybox}
# Only what is needed to reach the 9p root; everything else the guest needs
# (including memdiag.ko) is insmod'ed from the shared host tree. Empty for a
# kernel with them built in (KVER then only names the image).
modules=${MEMDIAG_VM_MODULES-virtio_pci 9pnet_virtio 9p}

die() { echo "mkinitramfs: $*" >&2; exit 1; }

[ -z "$modules" ] || [ -d "/lib/modules/$kver" ] || die "/lib/modules/$kver not found"
# A dynamically linked busybox would die in the initramfs with no libc.
if command -v file >/dev/null &&
	! file -L "$busybox" | grep -q 'statically linked'; then
	die "$busybox is not a static busybox (apt-get install busybox-static)"
fi

# Resolve the load order with modprobe itself so that dependencies that move
# between kernel versions (fscache, netfs, virtio_pci_*_dev) are followed
# without a hard-coded list.  Builtins are skipped, duplicates dropped, and
# module options from the host's modprobe.d are deliberately ignored.
modpaths=
for m in $modules; do
	deps=$(modprobe -S "$kver" --show-depends "$m") ||
		die "modprobe cannot resolve $m for $kver"
	for p in $(printf '%s\n' "$deps" | awk '$1 == "insmod" { print $2 }'); do
		case " $modpaths " in
		*" $p "*) ;;
		*) modpaths="$modpaths $p" ;;
		esac
	done
done

# The key covers everything that ends up in the image: the harness scripts,
# busybox and the exact module files, so a kernel update or an edit to init
# produces a new image while repeated runs reuse the old one.
key=$({
	echo "$kver"
	cat "$here/mkinitramfs.sh" "$here/init" "$busybox"
	for p in $modpaths; do echo "$p"; cat "$p"; done
} | sha256sum | cut -c1-16)
img=$cache/initramfs-$kver-$key.cpio.gz

if [ ! -s "$img" ]; then
	mkdir -p "$cache"
	stage=$(mktemp -d "$cache/stage.XXXXXX")
	trap 'rm -rf "$stage"' EXIT
	mkdir -p "$stage/bin" "$stage/dev" "$stage/proc" "$stage/sys" \
		"$stage/host" "$stage/modules" "$stage/memdiag-run" "$stage/keep"
	cp "$busybox" "$stage/bin/busybox"
	for a in $("$busybox" --list); do
		[ "$a" = busybox ] || ln -s busybox "$stage/bin/$a"
	done
	# The kernel opens /dev/console before /init runs; without the node the
	# early init output is lost.  Creating it needs root, so it is optional.
	mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true

	# Busybox insmod cannot read compressed modules, and 6.1's kernel cannot
	# decompress them either, so they are stored as plain .ko files.
	: > "$stage/modules/order"
	for p in $modpaths; do
		name=$(basename "$p")
		case "$p" in
		*.ko.xz) name=${name%.xz}; xz -dc "$p" > "$stage/modules/$name" ;;
		*.ko.zst) name=${name%.zst}; zstd -qdc "$p" > "$stage/modules/$name" ;;
		*.ko.gz) name=${name%.gz}; gzip -dc "$p" > "$stage/modules/$name" ;;
		*) cp "$p" "$stage/modules/$name" ;;
		esac
		echo "$name" >> "$stage/modules/order"
	done
	cp "$here/init" "$stage/init"
	chmod 755 "$stage/init"

	(cd "$stage" && find . | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0) | gzip -1 > "$img.tmp.$$"
	mv "$img.tmp.$$" "$img"
	# Images for older inputs are rarely used again; the age limit spares
	# those of another checkout that may be booting right now.
	find "$cache" -maxdepth 1 -name "initramfs-$kver-*.cpio.gz" \
		! -name "${img##*/}" -mtime +1 -delete
fi

if [ -n "$out" ]; then
	cp "$img" "$out"
fi
echo "$img"
