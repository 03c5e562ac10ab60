#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install.sh - first boot of the Debian guest, on the older kernel: install
# the previous version's packages as a sysadmin does ("apt install
# ./memdiag-dkms_*.deb ./memdiagctl_*.deb", offline: every dependency is
# in the image), DKMS builds memdiag.ko for the running kernel, the
# administrator configures loading at boot (Documentation/fleet.rst) and
# the exporter (a drop-in), and "systemctl enable --now" starts it;
# upgrade.sh then installs this version over it. The newer kernel's
# headers are removed first (dpkg -r) and come back later (kernel.sh), as
# a kernel upgrade brings them: DKMS must then build for it by itself.
# TAP; exit 2 when the packages did not install.
set -u
# shellcheck source=selftests/debian/guest/common.sh
. /test/common.sh

listing > "$out/before"
accounts > "$out/accounts.before"
check "booted the older kernel, $kold" test "$kver" = "$kold"

# The image has both kernels' headers; the newer one's go before the
# install. The host gives their .deb back to kernel.sh: it must be the
# version removed here, or the listing after the purge would differ.
hdr=linux-headers-$knew
hver=$(dpkg-query -W -f '${Version}' "$hdr" 2>/dev/null)
debs=(/test/kernel/"${hdr}"_*.deb)
hdeb=${debs[0]}
check "the host's $hdr .deb is the image's version ($hver)" sh -c \
	"[ -n '$hver' ] && [ \"\$(dpkg-deb -f '$hdeb' Version)\" = '$hver' ]"
check "dpkg -r $hdr: no headers for $knew" sh -c \
	"dpkg -r $hdr > $out/dpkg-r-headers.log 2>&1 && [ ! -e /lib/modules/$knew/build ]"

apt_install_pair /test/prev "$pver" "$out/apt-install.log" offline
check "memdiagctl --version is the package's, $pver" sh -c \
	"memdiagctl --version | grep -q '^memdiagctl $pver '"
# Debian's DKMS postinst (/usr/lib/dkms/common.postinst) builds for the
# running kernel and the newest one installed; the newest has no headers
check "dkms status: memdiag/$pver installed for $kold" sh -c \
	"dkms status -m memdiag -v '$pver' -k $kold | grep ': installed' >/dev/null"
check "none for $knew, whose headers are not installed (DKMS says it skipped it)" sh -c \
	"! dkms status -m memdiag -k $knew | grep -q ': installed' &&
	 grep -q 'Module build for kernel $knew was skipped' $out/apt-install.log"
dkms_listing
check "the exporter's unit is installed, not enabled, not started" sh -c \
	"systemctl cat $unit >/dev/null &&
	 [ \"\$(systemctl is-enabled $unit)\" = disabled ] &&
	 ! systemctl is-active -q $unit"

# the administrator: load memdiag at boot (the file fleet.rst names), on
# the simulated platform, whichever kernel boots
echo memdiag > /etc/modules-load.d/memdiag.conf
for k in "$kold" "$knew"; do
	mkdir -p "/usr/lib/modules/$k/extra"
	cp "/test/memdiag_sim-$k.ko" "/usr/lib/modules/$k/extra/memdiag_sim.ko"
	depmod -a "$k"
done
printf '%s\n' 'softdep memdiag pre: memdiag_sim' 'options memdiag_sim uarch=skx' \
	'options memdiag platform=sim' > /etc/modprobe.d/memdiag-sim.conf
check "modprobe memdiag loads DKMS's module on the simulated platform" sh -c \
	"modprobe memdiag && grep -qx sim /sys/module/memdiag/parameters/platform &&
	 grep -q '^memdiag_sim ' /proc/modules"
# and the exporter's configuration, the way the unit's comment says
mkdir -p "$dropin_dir"
printf '%s\n' '[Service]' 'ExecStart=' \
	"ExecStart=/usr/sbin/memdiagctl export --listen 127.0.0.1:9473 --threshold $threshold" \
	> "$dropin"
systemctl daemon-reload
check "systemctl enable --now $unit" systemctl enable --now "$unit"
check "the exporter serves memdiag_up 1, as $pver, with the drop-in's --threshold $threshold" \
	wait_for 300 serves_as "$pver"
tap_end
