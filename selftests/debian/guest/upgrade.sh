#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# upgrade.sh - after install.sh on the first boot: this version's packages
# installed over the previous version's, as an upgrade does. DKMS
# removes the old module and builds and signs the new one for the
# running kernel; the administrator's configuration (the exporter's
# drop-in) is kept; the exporter, enabled and running, is restarted by
# the package and serves as the new version with that configuration.
# TAP; exit 2 when the packages did not install.
set -u
# shellcheck source=selftests/debian/guest/common.sh
. /test/common.sh

pid0=$(main_pid)
since0=$(systemctl show -p ActiveEnterTimestampMonotonic --value "$unit")
cp "$dropin" /root/override.conf.before
apt_install_pair /test/debs "$ver" "$out/apt-upgrade.log" "over $pver"
grep -E '^(Unpacking|Setting up) memdiag' "$out/apt-upgrade.log" | sed 's/^/# /'
check "memdiagctl --version is the new package's, $ver" sh -c \
	"memdiagctl --version | grep -q '^memdiagctl $ver '"
dkms_listing
check "dkms status: memdiag/$ver installed for $kold, no memdiag/$pver left" sh -c \
	"dkms status -m memdiag -v $ver -k $kold | grep ': installed' >/dev/null &&
	 [ -z \"\$(dkms status -m memdiag -v '$pver')\" ] && [ ! -e '/usr/src/memdiag-$pver' ]"
check "modinfo finds DKMS's memdiag.ko for $kold, built for it" sh -c \
	"modinfo -k $kold -n memdiag | grep -q '^/lib/modules/$kold/updates/dkms/memdiag.ko' &&
	 modinfo -k $kold -F vermagic memdiag | grep -q '^$kold '"
check "DKMS signed it with its own key ($(signed_by_dkms "$kold" 2>&1))" \
	signed_by_dkms "$kold"
check "the exporter's configuration is kept: the drop-in unchanged, the unit enabled" sh -c \
	"cmp /root/override.conf.before $dropin &&
	 [ \"\$(systemctl is-enabled $unit)\" = enabled ]"
pid1=$(main_pid)
since1=$(systemctl show -p ActiveEnterTimestampMonotonic --value "$unit")
check "the package restarted the exporter (pid $pid0 -> $pid1, active since $since0 -> $since1 us)" sh -c \
	"[ '$pid1' != 0 ] && [ '$pid1' != '$pid0' ] && [ '$since1' -gt '$since0' ]"
check "it serves as $ver, with the drop-in's --threshold $threshold" \
	wait_for 300 serves_as "$ver"
tap_end
