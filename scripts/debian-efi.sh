#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# debian-efi.sh - fetch (once, then reuse) the signed boot chain of a
# Debian 12 system with Secure Boot, for "make check-debian"'s EFI boots:
# shim (shimx64.efi, signed by Microsoft's UEFI CA 2011, with Debian's CA
# built in), its MokManager (mmx64.efi) and GRUB (grubx64.efi), both
# signed by Debian, from the packages shim-signed,
# shim-helpers-amd64-signed and grub-efi-amd64-signed as apt offers them.
# Prints the cache directory; its "versions" file names the packages.
#
# The key of the directory is this script and the three versions; with
# no package index (offline) the newest directory already fetched is used.
set -eu
cache=${MEMDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memdiag}/debian
pkgs="shim-signed shim-helpers-amd64-signed grub-efi-amd64-signed"

versions=
for p in $pkgs; do
	v=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	[ -n "$v" ] && [ "$v" != "(none)" ] || { versions=; break; }
	versions="$versions$p=$v
"
done
if [ -z "$versions" ]; then
	dir=$(ls -dt "$cache"/efi-* 2>/dev/null | head -n 1)
	[ -n "$dir" ] && [ -f "$dir/done" ] || {
		echo "debian-efi: apt knows no $pkgs: apt-get update (Debian 12's main)" >&2
		exit 1; }
	echo "$dir"
	exit 0
fi
key=$( (cat "$0"; printf '%s' "$versions") | sha256sum | cut -c1-16)
dir=$cache/efi-$key
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi
rm -rf "$dir"
mkdir -p "$dir/debs"
# shellcheck disable=SC2046 # one word per package=version
if ! (cd "$dir/debs" && apt-get download -q $(printf '%s' "$versions")) \
		> "$dir/download.log" 2>&1; then
	cat "$dir/download.log" >&2
	echo "debian-efi: could not download $pkgs" >&2
	exit 1
fi
for d in "$dir"/debs/*.deb; do
	dpkg-deb -x "$d" "$dir/root"
done
for f in usr/lib/shim/shimx64.efi.signed usr/lib/shim/mmx64.efi.signed \
		usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed; do
	[ -f "$dir/root/$f" ] ||
		{ echo "debian-efi: the packages have no /$f" >&2; exit 1; }
	b=${f##*/}
	cp "$dir/root/$f" "$dir/${b%.signed}"
done
rm -rf "$dir/root" "$dir/debs"
printf '%s' "$versions" > "$dir/versions"
touch "$dir/done"
echo "$dir"
