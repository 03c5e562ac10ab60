#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel.sh - the kernel upgrade, after signing.sh on the same boot: the
# newer kernel's headers, removed before the install, are installed from
# their .deb (offline), and their postinst's DKMS hook
# (/etc/kernel/header_postinst.d/dkms) builds, signs and installs
# memdiag.ko for that kernel by itself: "dkms status" shows both kernels.
# The next boot is on the newer kernel (service.sh checks it loads the
# module at boot). TAP; exit 2 when the headers did not install.
set -u
# shellcheck source=selftests/debian/guest/common.sh
. /test/common.sh

hdr=linux-headers-$knew
debs=(/test/kernel/"${hdr}"_*.deb)
deb=${debs[0]}
rm -rf /root/kernel && mkdir /root/kernel && cp "$deb" /root/kernel/
cd /root/kernel || exit 2
t0=$(date +%s)
if apt-get install -y --no-install-recommends -o Acquire::Languages=none \
		"./$(basename "$deb")" > "$out/apt-headers.log" 2>&1; then
	ok "apt installs ./$(basename "$deb") offline ($(( $(date +%s) - t0 )) s)"
else
	not_ok "apt installs ./$(basename "$deb") offline" \
		"$(tail -n 30 "$out/apt-headers.log")"
	tap_end
	exit 2
fi
check "its postinst ran DKMS for $knew" \
	grep -q "dkms: running auto installation service for kernel $knew" "$out/apt-headers.log"
dkms_listing
for k in "$kold" "$knew"; do
	check "dkms status: memdiag/$ver installed for $k" sh -c \
		"dkms status -m memdiag -v $ver -k $k | grep ': installed' >/dev/null"
done
check "modinfo finds DKMS's memdiag.ko for $knew, built for it" sh -c \
	"modinfo -k $knew -n memdiag | grep -q '^/lib/modules/$knew/updates/dkms/memdiag.ko' &&
	 modinfo -k $knew -F vermagic memdiag | grep -q '^$knew '"
check "DKMS signed it with its own key ($(signed_by_dkms "$knew" 2>&1))" \
	signed_by_dkms "$knew"
tap_end
