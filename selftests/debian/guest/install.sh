#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install.sh - first boot of the Debian guest: install the packages as a
# sysadmin does ("apt install ./memdiag-dkms_*.deb ./memdiagctl_*.deb",
# offline: every dependency is in the image), DKMS builds memdiag.ko for
# every kernel with headers, the administrator configures loading at boot
# (Documentation/fleet.rst), and "systemctl enable --now" starts the
# exporter. TAP; exit 2 when the packages did not install.
set -u
# shellcheck source=selftests/debian/guest/common.sh
. /test/common.sh

listing > "$out/before"
accounts > "$out/accounts.before"
rm -rf /root/debs && mkdir /root/debs && cp /test/debs/*.deb /root/debs/
cd /root/debs || exit 2
t0=$(date +%s)
if apt-get install -y --no-install-recommends -o Acquire::Languages=none \
		./memdiag-dkms_"$ver"_all.deb ./memdiagctl_"$ver"_amd64.deb \
		> "$out/apt-install.log" 2>&1; then
	ok "apt installs ./memdiag-dkms_${ver}_all.deb ./memdiagctl_${ver}_amd64.deb offline ($(( $(date +%s) - t0 )) s)"
else
	not_ok "apt installs ./memdiag-dkms_${ver}_all.deb ./memdiagctl_${ver}_amd64.deb offline" \
		"$(tail -n 30 "$out/apt-install.log")"
	tap_end
	exit 2
fi
check "memdiagctl --version is the package's" sh -c \
	"memdiagctl --version | grep -q '^memdiagctl $ver '"
# Debian's DKMS postinst (/usr/lib/dkms/common.postinst) builds, on a
# first install, for the running kernel and the newest one installed;
# the others get theirs with "dkms autoinstall -k KVER" or their next
# kernel package update
newest=$(find /usr/lib/modules -mindepth 1 -maxdepth 1 -printf '%f\n' | grep -v -- -rt- | sort -V | tail -n 1)
for k in $(printf '%s\n' "$kver" "$newest" | sort -u); do
	check "dkms status: memdiag/$ver installed for $k" sh -c \
		"dkms status -m memdiag -v $ver -k $k | grep ': installed' >/dev/null"
	check "modinfo finds DKMS's memdiag.ko for $k, built for it" sh -c \
		"modinfo -k $k -n memdiag | grep -q '^/lib/modules/$k/updates/dkms/memdiag.ko' &&
		 modinfo -k $k -F vermagic memdiag | grep -q '^$k '"
done
dkms status -m memdiag | sed 's/^/# /'
check "the exporter's unit is installed, not enabled, not started" sh -c \
	"systemctl cat $unit >/dev/null &&
	 [ \"\$(systemctl is-enabled $unit)\" = disabled ] &&
	 ! systemctl is-active -q $unit"

# the administrator: load memdiag at boot (the file fleet.rst names), on
# the simulated platform
echo memdiag > /etc/modules-load.d/memdiag.conf
mkdir -p "/usr/lib/modules/$kver/extra"
cp "/test/memdiag_sim-$kver.ko" "/usr/lib/modules/$kver/extra/memdiag_sim.ko"
depmod -a "$kver"
printf '%s\n' 'softdep memdiag pre: memdiag_sim' 'options memdiag_sim uarch=skx' \
	'options memdiag platform=sim' > /etc/modprobe.d/memdiag-sim.conf
check "modprobe memdiag loads DKMS's module on the simulated platform" sh -c \
	"modprobe memdiag && grep -qx sim /sys/module/memdiag/parameters/platform &&
	 grep -q '^memdiag_sim ' /proc/modules"
check "systemctl enable --now $unit" systemctl enable --now "$unit"
check "the exporter serves memdiag_up 1" wait_for 300 sh -c \
	"curl -sf --max-time 5 http://127.0.0.1:9473/metrics | grep -qx 'memdiag_up 1'"
tap_end
