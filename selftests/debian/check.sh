#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh - "make check-debian": the sysadmin's path on a real Debian 12
# system. Builds the packages of this tree and of the previous version
# (dpkg-buildpackage), memdiag_sim.ko for each kernel (the simulated
# platform the checks need numbers from; not in the packages) and an
# unsigned memdiag.ko, fetches the newer kernel's headers package, takes
# the cached guest image (scripts/debian-guest.sh), then boots the guest
# (selftests/debian/boot.sh) five times: the older kernel (install the
# previous version, guest/install.sh, and upgrade to this one,
# guest/upgrade.sh), the older kernel with module.sig_enforce=1
# (guest/signing.sh, then the kernel upgrade, guest/kernel.sh), the newer
# kernel through UEFI with Secure Boot, shim and GRUB, twice, with shim's
# MokManager between (guest/enroll.sh: DKMS's key given to mokutil;
# guest/secureboot.sh: enrolled, the modules load), the newer kernel
# (guest/service.sh). Prints their TAP, the time of each boot and part,
# and exits 1 when any check failed or a boot did not finish.
#
# The disk as the second boot left it (packages installed, DKMS's module
# built for both kernels, loading configured; at rest before the last
# boot) is kept with the first boot's listing in build/debian-installed/
# when the installs and the kernel upgrade passed. "check.sh
# --from-installed" boots that disk again with the current guest scripts
# and runs the last three boots' checks only (the first of them on a
# fresh firmware, so the key is enrolled again): minutes instead of DKMS under
# TCG, for developing those checks. It tests the packages of the commit
# that made the disk (printed), not the tree's; only the whole run tests
# the path from the clean image.
#
# MEMDIAG_DEBIAN_KERNELS: the two kernels, older then newer (default: the
# Debian ones of scripts/kernels.sh, not -rt); MEMDIAG_DEBIAN_TIMEOUT: the
# seconds the three boots may take together (7200); MEMDIAG_DEBIAN_PREV:
# the commit of the previous version (default: the one before the last
# change to debian/ or dkms.conf).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
mode=${1:-}
out=$top/build/debian-guest
share=$out/guest
kept=$top/build/debian-installed
kernels=${MEMDIAG_DEBIAN_KERNELS:-$(scripts/kernels.sh | grep -v -- '-rt-' | sort -V)}
# shellcheck disable=SC2086 # one word per kernel
set -- $kernels
[ $# = 2 ] || { echo "check-debian: two kernels, older then newer: $kernels" >&2; exit 1; }
kold=$1
knew=$2
ver=$(sed -n '1s/^memdiag (\([^)-]*\).*/\1/p' debian/changelog)
# the commit the packages are built from, for the kept disk's note
commit=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
[ -z "$(git status --porcelain 2>/dev/null)" ] || commit="$commit (modified)"
failed=0
t() { date +%s; }

# shellcheck source=selftests/debian/steps.sh
. selftests/debian/steps.sh

# boot_steps KVER STEPS...: boot KVER (the guest picks the later boots'
# kernels) with the share, print the TAP of each step, set failed on a
# failed step or an unfinished boot
boot_steps() {
	local k=$1 s brc
	shift
	s=$(t)
	selftests/debian/boot.sh "$k" "$share" "${MEMDIAG_DEBIAN_TIMEOUT:-7200}" 2>&1 |
		sed 's/^/# /'
	brc=${PIPESTATUS[0]}
	report_steps "$share" "$out" "$@" || failed=1
	[ "$brc" = 0 ] || failed=1
	echo "# boots: $(($(t) - s)) s"
}

# share_scripts: the guest's scripts and the two kernels in a fresh share
share_scripts() {
	rm -rf "${share:?}"
	mkdir -p "$share/out"
	cp selftests/debian/guest/*.sh selftests/memdiag/lib.sh "$share/"
	printf '%s\n' "$kold" "$knew" > "$share/kernels"
	# what the administrator gives mokutil and types at MokManager
	openssl rand -hex 6 > "$share/mok-password"
}

if [ "$mode" = --from-installed ]; then
	if [ ! -f "$kept/disk.qcow2" ] || ! cmp -s "$kept/kernels" <(printf '%s\n' "$kold" "$knew"); then
		echo "not ok - no kept disk for $kold then $knew in $kept (run make check-debian once)"
		exit 1
	fi
	echo "# from the disk kept $(cat "$kept/made")"
	share_scripts
	cp "$kept/version" "$kept/prev-version" "$share/"
	cp "$kept"/out/* "$share/out/"
	MEMDIAG_DEBIAN_BASE=$kept/disk.qcow2 MEMDIAG_DEBIAN_EFI_FIRST=1 \
		boot_steps "$knew" enroll secureboot service
	exit $failed
fi

# build_debs SRC DEST VERSION: dpkg-buildpackage in the source tree SRC
# (removed after), the two packages of VERSION moved to DEST
build_debs() {
	local log=$out/dpkg-buildpackage-$3.log
	echo "# building the $3 packages (log $log)"
	if ! (cd "$1" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) \
			> "$log" 2>&1; then
		tail -n 30 "$log"
		echo "check-debian: dpkg-buildpackage failed" >&2
		exit 1
	fi
	mkdir -p "$2"
	mv "$out/memdiag-dkms_$3_all.deb" "$out/memdiagctl_$3_amd64.deb" "$2/"
	rm -rf "$1"
}

rm -rf "$out"
mkdir -p "$out/src"
t0=$(t)
tar -cf - --exclude=./build --exclude=./.git --exclude='*.o' --exclude='*.ko' \
	--exclude='*.bin' --exclude=./userspace/memdiagctl . | tar -C "$out/src" -xf -
build_debs "$out/src" "$out/debs" "$ver"

# The version upgraded from: the packages as they were before the last
# change to their packaging (MEMDIAG_DEBIAN_PREV: another commit), as
# version VER~prev.COMMIT, which sorts before VER. Its new changelog
# entry sets the package's version; dkms.conf must say the same.
prev=${MEMDIAG_DEBIAN_PREV:-$(git log -n 1 --format=%H -- debian dkms.conf)^}
prev=$(git rev-parse --short "$prev") || exit 1
pver=$ver~prev.$prev
mkdir -p "$out/prev-src"
git archive "$prev" | tar -C "$out/prev-src" -xf - || exit 1
maint=$(sed -n 's/^ -- \(.*>\)  .*/\1/p' debian/changelog | head -n 1)
(
	cd "$out/prev-src" &&
	sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$pver\"/" dkms.conf &&
	{ printf 'memdiag (%s) unstable; urgency=medium\n\n' "$pver"
	  printf '  * The packages of commit %s, for make check-debian to upgrade from.\n\n' "$prev"
	  printf ' -- %s  %s\n\n' "$maint" "$(date -R)"
	  cat debian/changelog; } > changelog.new &&
	mv changelog.new debian/changelog
) || exit 1
build_debs "$out/prev-src" "$out/prev" "$pver"
for k in $kold $knew; do
	scripts/build-module.sh "$k" >/dev/null || exit 1
done
# The newer kernel's headers as a kernel upgrade brings them: the .deb of
# the version this host has (apt's cache, else downloaded); the guest
# checks it is the image's
hdr=linux-headers-$knew
hver=$(dpkg-query -W -f '${Version}' "$hdr" 2>/dev/null)
mkdir -p "$out/kernel"
if [ -n "$hver" ] && [ -f "/var/cache/apt/archives/${hdr}_${hver}_amd64.deb" ]; then
	cp "/var/cache/apt/archives/${hdr}_${hver}_amd64.deb" "$out/kernel/"
elif ! (cd "$out/kernel" && apt-get download -q "$hdr${hver:+=$hver}") \
		> "$out/kernel/download.log" 2>&1; then
	cat "$out/kernel/download.log"
	echo "check-debian: no $hdr .deb" >&2
	exit 1
fi
t1=$(t)
echo "# packages ($ver, $pver), memdiag_sim.ko, $hdr: $((t1 - t0)) s"
img=$(scripts/debian-guest.sh) || exit 1
t2=$(t)
echo "# guest image $img: $((t2 - t1)) s ($(sed -n 's/^build_seconds: \(.*\)/built in \1 s,/p;s/^qcow2_mb: /qcow2 MiB: /p' "$img/manifest" | tr '\n' ' ' | sed 's/ $//'))"

share_scripts
for k in $kold $knew; do
	cp "build/$k/memdiag_sim.ko" "$share/memdiag_sim-$k.ko"
done
cp "build/$kold/memdiag.ko" "$share/memdiag-unsigned-$kold.ko"
cp -r "$out/debs" "$out/prev" "$out/kernel" "$share/"
echo "$ver" > "$share/version"
echo "$pver" > "$share/prev-version"
rm -rf "${kept:?}"
mkdir -p "$kept"
MEMDIAG_DEBIAN_SAVE=$kept/disk.qcow2 boot_steps "$kold" install upgrade signing kernel enroll secureboot service
# kept only when the installs and the kernel upgrade passed, with what
# the last boot compares against
if [ "$(cat "$share/out/install.rc" 2>/dev/null)" = 0 ] &&
   [ "$(cat "$share/out/upgrade.rc" 2>/dev/null)" = 0 ] &&
   [ "$(cat "$share/out/kernel.rc" 2>/dev/null)" = 0 ] &&
   [ -f "$kept/disk.qcow2" ]; then
	mkdir -p "$kept/out"
	cp "$share/out/before" "$share/out/accounts.before" "$kept/out/"
	cp "$share/version" "$share/prev-version" "$share/kernels" "$kept/"
	echo "$(date -u '+%F %H:%M UTC'), memdiag $ver, $commit" > "$kept/made"
else
	rm -rf "${kept:?}"
fi
echo "# check-debian: $(($(t) - t0)) s in all"
exit $failed
