#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh - "make check-debian": the sysadmin's path on a real Debian 12
# system. Builds the packages (dpkg-buildpackage), memdiag_sim.ko for each
# kernel (the simulated platform the checks need numbers from; not in the
# packages), the cached guest image (scripts/debian-guest.sh), then boots
# the guest with each kernel (selftests/debian/boot.sh): guest/install.sh
# on the first boot, guest/service.sh after a reboot. Prints their TAP,
# the time of each part, and exits 1 when any check failed or a boot did
# not finish.
#
# The disk as the first boot left it (packages installed, DKMS's module
# built, loading configured; at rest between the two boots) is kept with
# that boot's listing in build/debian-installed/KVER/ when the install
# passed. "check.sh --from-installed" boots that disk again with the
# current guest scripts and runs the second boot's checks only: minutes
# instead of DKMS under TCG, for developing those checks. It tests the
# packages of the commit that made the disk (printed), not the tree's;
# only the whole run tests the path from the clean image.
#
# MEMDIAG_DEBIAN_KERNELS: the kernels to boot (default: the Debian ones of
# scripts/kernels.sh, newest first, not -rt); MEMDIAG_DEBIAN_TIMEOUT: the
# seconds one kernel's two boots may take (3600).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
out=$top/build/debian-guest
kept=$top/build/debian-installed
kernels=${MEMDIAG_DEBIAN_KERNELS:-$(scripts/kernels.sh | grep -v -- '-rt-' | sort -rV)}
ver=$(sed -n '1s/^memdiag (\([^)-]*\).*/\1/p' debian/changelog)
# the commit the packages are built from, for the kept disk's note
commit=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
[ -z "$(git status --porcelain 2>/dev/null)" ] || commit="$commit (modified)"
failed=0
t() { date +%s; }

# boot_kernel KVER STEPS...: boot with the share $out/KVER, print the TAP
# of each step, set failed on a failed step or an unfinished boot
boot_kernel() {
	local k=$1 s brc step rc
	shift
	s=$(t)
	selftests/debian/boot.sh "$k" "$out/$k" "${MEMDIAG_DEBIAN_TIMEOUT:-3600}"
	brc=$?
	for step in "$@"; do
		echo "# $k: $step"
		if [ -f "$out/$k/out/$step.tap" ]; then
			sed 's/^/    /' "$out/$k/out/$step.tap"
		fi
		rc=$(cat "$out/$k/out/$step.rc" 2>/dev/null || echo "none (did not finish)")
		if [ "$rc" != 0 ]; then
			echo "not ok - $k: $step (exit $rc; console: $out/$k/console.log)"
			failed=1
		else
			echo "ok - $k: $step"
		fi
	done
	[ "$brc" = 0 ] || failed=1
	echo "# $k: $(($(t) - s)) s ($# boot(s))"
}

# share_scripts KVER: the guest's scripts in a fresh share
share_scripts() {
	rm -rf "${out:?}/$1"
	mkdir -p "$out/$1/out"
	cp selftests/debian/guest/*.sh selftests/memdiag/lib.sh "$out/$1/"
}

if [ "${1:-}" = --from-installed ]; then
	for k in $kernels; do
		d=$kept/$k
		if [ ! -f "$d/disk.qcow2" ]; then
			echo "not ok - $k: no kept disk in $d (run make check-debian once)"
			failed=1
			continue
		fi
		echo "# $k: from the disk kept $(cat "$d/made")"
		share_scripts "$k"
		cp "$d/version" "$out/$k/"
		cp "$d"/out/* "$out/$k/out/"
		MEMDIAG_DEBIAN_BASE=$d/disk.qcow2 boot_kernel "$k" service
	done
	exit $failed
fi

rm -rf "$out"
mkdir -p "$out/src" "$out/debs"
t0=$(t)
echo "# building the packages (log $out/dpkg-buildpackage.log)"
tar -cf - --exclude=./build --exclude=./.git --exclude='*.o' --exclude='*.ko' \
	--exclude='*.bin' --exclude=./userspace/memdiagctl . | tar -C "$out/src" -xf -
if ! (cd "$out/src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) \
		> "$out/dpkg-buildpackage.log" 2>&1; then
	tail -n 30 "$out/dpkg-buildpackage.log"
	echo "check-debian: dpkg-buildpackage failed" >&2
	exit 1
fi
mv "$out"/memdiag-dkms_"$ver"_all.deb "$out"/memdiagctl_"$ver"_amd64.deb "$out/debs/"
rm -rf "$out/src"
for k in $kernels; do
	scripts/build-module.sh "$k" >/dev/null || exit 1
done
t1=$(t)
echo "# packages and memdiag_sim.ko: $((t1 - t0)) s"
img=$(scripts/debian-guest.sh) || exit 1
t2=$(t)
echo "# guest image $img: $((t2 - t1)) s ($(sed -n 's/^build_seconds: /built in /p;s/^qcow2_mb: /qcow2 MiB: /p' "$img/manifest" | tr '\n' ' '))"

for k in $kernels; do
	share=$out/$k
	share_scripts "$k"
	cp "build/$k/memdiag_sim.ko" "$share/memdiag_sim-$k.ko"
	cp -r "$out/debs" "$share/debs"
	echo "$ver" > "$share/version"
	rm -rf "${kept:?}/$k"
	mkdir -p "$kept/$k"
	MEMDIAG_DEBIAN_SAVE=$kept/$k/disk.qcow2 boot_kernel "$k" install service
	# kept only when the install passed, with what the second boot
	# compares against
	if [ "$(cat "$share/out/install.rc" 2>/dev/null)" = 0 ] &&
	   [ -f "$kept/$k/disk.qcow2" ]; then
		mkdir -p "$kept/$k/out"
		cp "$share/out/before" "$share/out/accounts.before" "$kept/$k/out/"
		cp "$share/version" "$kept/$k/"
		echo "$(date -u '+%F %H:%M UTC'), memdiag $ver, $commit" \
			> "$kept/$k/made"
	else
		rm -rf "${kept:?}/$k"
	fi
done
echo "# check-debian: $(($(t) - t0)) s in all"
exit $failed
