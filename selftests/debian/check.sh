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
# MEMDIAG_DEBIAN_KERNELS: the kernels to boot (default: the Debian ones of
# scripts/kernels.sh, newest first, not -rt); MEMDIAG_DEBIAN_TIMEOUT: the
# seconds one kernel's two boots may take (3600).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
out=$top/build/debian-guest
kernels=${MEMDIAG_DEBIAN_KERNELS:-$(scripts/kernels.sh | grep -v -- '-rt-' | sort -rV)}
ver=$(sed -n '1s/^memdiag (\([^)-]*\).*/\1/p' debian/changelog)
failed=0
t() { date +%s; }

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
	mkdir -p "$share"
	cp selftests/debian/guest/*.sh selftests/memdiag/lib.sh "$share/"
	cp "build/$k/memdiag_sim.ko" "$share/memdiag_sim-$k.ko"
	cp -r "$out/debs" "$share/debs"
	echo "$ver" > "$share/version"
	s=$(t)
	selftests/debian/boot.sh "$k" "$share" "${MEMDIAG_DEBIAN_TIMEOUT:-3600}"
	brc=$?
	for step in install service; do
		echo "# $k: $step"
		if [ -f "$share/out/$step.tap" ]; then
			sed 's/^/    /' "$share/out/$step.tap"
		fi
		rc=$(cat "$share/out/$step.rc" 2>/dev/null || echo "none (did not finish)")
		if [ "$rc" != 0 ]; then
			echo "not ok - $k: $step (exit $rc; console: $share/console.log)"
			failed=1
		else
			echo "ok - $k: $step"
		fi
	done
	[ "$brc" = 0 ] || failed=1
	echo "# $k: $(($(t) - s)) s (two boots)"
done
echo "# check-debian: $(($(t) - t0)) s in all"
exit $failed
