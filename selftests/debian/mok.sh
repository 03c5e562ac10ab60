#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mok.sh - make check's Secure Boot step ("secureboot"): the manual path
# of Documentation/fleet.rst, "Secure Boot", on a UEFI machine with
# Secure Boot, in the Debian 12 guest "make check-debian" uses (the image
# of scripts/debian-guest.sh, built once and cached). Here: a throwaway
# key pair made as the page says, memdiag.ko of the guest's newer kernel
# (build/KVER, scripts/build-module.sh) signed with "make sign", and the
# same module unsigned. The guest (selftests/debian/mok-guest.sh) boots
# through Debian's OVMF with Microsoft's keys, shim and GRUB
# (selftests/debian/boot.sh): locked down, it refuses both modules and
# "mokutil --import"s the certificate; at the next start shim's
# MokManager enrolls it (efi-console.py types the password); the third
# boot loads the signed module and still refuses the unsigned one.
# Prints the guest's TAP and whether the kernel's log after each boot
# is clean (selftests/vm/dmesg-check.sh); exit 1 when a check failed or
# the boots did not finish.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
kver=${MEMDIAG_MOK_KERNEL:-$(scripts/kernels.sh | grep -v -- '-rt-' | sort -V | tail -n 1)}
out=$top/build/debian-mok
share=$out/share
rm -rf "$out"
mkdir -p "$share/out"

# the first build fetches from Debian's mirror: once more on a failure
# (a mirror's hiccup), then the step fails
img=$(scripts/debian-guest.sh) || img=$(scripts/debian-guest.sh) || exit 1
if [ ! -f "build/$kver/memdiag.ko" ]; then
	scripts/build-module.sh "$kver" >/dev/null || exit 1
fi
# the page's key pair, throwaway
openssl req -new -x509 -newkey rsa:2048 -nodes -days 2 -outform DER \
	-subj "/CN=memdiag make check MOK $(date +%s)/" \
	-keyout "$out/mok.key" -out "$share/mok.der" 2>"$out/openssl.log" ||
	{ cat "$out/openssl.log"; exit 1; }
cp "build/$kver/memdiag.ko" "$share/memdiag-unsigned.ko"
cp "build/$kver/memdiag.ko" "$share/memdiag-signed.ko"
make -s sign KDIR="/usr/src/linux-headers-$kver" KEY="$out/mok.key" \
	CERT="$share/mok.der" SIGN_MODULE="$share/memdiag-signed.ko" ||
	{ echo "not ok - make sign"; exit 1; }
cp selftests/debian/mok-guest.sh "$share/boot.sh"
cp selftests/memdiag/lib.sh "$share/"
echo "$kver" > "$share/kernel"
openssl rand -hex 6 > "$share/mok-password"

s=$(date +%s)
MEMDIAG_DEBIAN_EFI_FIRST=1 selftests/debian/boot.sh "$kver" "$share" \
	"${MEMDIAG_MOK_TIMEOUT:-1200}" 2>&1 | sed 's/^/# /'
brc=${PIPESTATUS[0]}
failed=0
# shellcheck source=selftests/debian/steps.sh
. selftests/debian/steps.sh
report_steps "$share" "$out" refused enrolled || failed=1
[ "$brc" = 0 ] || failed=1
echo "# image $img; boots: $(($(date +%s) - s)) s"
exit $failed
