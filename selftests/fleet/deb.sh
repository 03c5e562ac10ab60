#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deb.sh - the Debian source package: dpkg-buildpackage builds the source
# package and memdiag-dkms, memdiagctl, libmemdiag-marker0 and
# libmemdiag-marker-dev, lintian has no tag of any level on them (each
# one fixed or overridden with its reason), installing them builds and
# installs memdiag.ko with DKMS for the 6.1 and 6.12 kernels (signed by
# the key DKMS is configured with: a throwaway one here), memdiagctl
# --version answers, the marker library's files are where pkg-config
# finds them and the sample -dev ships builds against them and runs, and
# purging all leaves no file behind. Installs on
# this system: root only, and skipped when a memdiag package is already
# installed (it is not ours to remove). TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/memdiag/lib.sh"

ver=$(sed -n '1s/^memdiag (\([^)-]*\).*/\1/p' "$top/debian/changelog")
check "one version: debian/changelog, dkms.conf and userspace/Makefile" sh -c "
	grep -qx 'PACKAGE_VERSION=\"$ver\"' '$top/dkms.conf' &&
	grep -qx 'VERSION ?= $ver' '$top/userspace/Makefile'"

if [ "$(id -u)" != 0 ]; then
	skip "build, install, DKMS, purge" "needs root (installs packages)"
	tap_end
	exit
fi
pkgs="memdiag-dkms memdiagctl libmemdiag-marker0 libmemdiag-marker-dev"
# shellcheck disable=SC2086 # one word per package
if dpkg-query -W -f='${Status}\n' $pkgs 2>/dev/null | grep -q 'ok installed'; then
	skip "build, install, DKMS, purge" "a memdiag package is installed already"
	tap_end
	exit
fi

tmp=$(mktemp -d)
made_confd=
conf=/etc/dkms/framework.conf.d/memdiag-selftest.conf
cleanup() {
	# shellcheck disable=SC2086
	dpkg-query -W $pkgs >/dev/null 2>&1 &&
		apt-get -o DPkg::Lock::Timeout=900 purge -y -qq $pkgs >/dev/null 2>&1
	rm -f "$conf"
	[ -n "$made_confd" ] && rmdir /etc/dkms/framework.conf.d 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# the places the packages write to (not all of /etc or /var: other
# programs may install things meanwhile)
places="/usr/src /usr/sbin /usr/share/man/man8 /usr/share/bash-completion
/usr/share/doc /lib/modules /lib/systemd/system /etc/systemd /etc/modprobe.d
/etc/modules-load.d /etc/dkms /var/lib/dkms"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
listing() {
	# shellcheck disable=SC2086
	{ find $places 2>/dev/null | grep -v '^/etc/dkms/framework.conf.d'
	  ls -d /usr/include/memdiag* /usr/lib/"$multiarch"/libmemdiag* \
		/usr/lib/"$multiarch"/pkgconfig/memdiag* 2>/dev/null; } | sort
}
listing > "$tmp/before"

# build from a copy of the tree (dpkg-buildpackage writes to ..): the
# files git tracks or would (not what .gitignore names: the selftests' and
# the bench's binaries, a device bundle), so that the source package is
# the source, as lintian checks
mkdir "$tmp/src"
if git -C "$top" rev-parse --git-dir > /dev/null 2>&1; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' _ |
		tar --null -T - -cf -) | tar -C "$tmp/src" -xf -
else
	(cd "$top" && tar -cf - --exclude=./build --exclude=./.git --exclude='*.o' \
		--exclude='*.ko' --exclude='*.bin' --exclude=./userspace/memdiagctl .) |
		tar -C "$tmp/src" -xf -
fi
if (cd "$tmp/src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc) \
		> "$tmp/build.log" 2>&1; then
	ok "dpkg-buildpackage builds the source package and the four packages"
else
	not_ok "dpkg-buildpackage builds the source package and the four packages" "$(tail -30 "$tmp/build.log")"
	tap_end
	exit
fi
dkms_deb=$tmp/memdiag-dkms_${ver}_all.deb
ctl_deb=$tmp/memdiagctl_${ver}_amd64.deb
lib_deb=$tmp/libmemdiag-marker0_${ver}_amd64.deb
dev_deb=$tmp/libmemdiag-marker-dev_${ver}_amd64.deb
check "the four .deb files are there" \
	test -f "$dkms_deb" -a -f "$ctl_deb" -a -f "$lib_deb" -a -f "$dev_deb"
# every level: errors, warnings, info (-I), pedantic and experimental (-E);
# an overridden tag (debian/*lintian-overrides, each with its reason) is
# not shown; lintian's own failure (exit status) is a tag too
lint=$(lintian -I -E --pedantic "$tmp"/memdiag_"${ver}"_amd64.changes 2>&1 ||
	echo "lintian exited $?")
lint=$(printf '%s\n' "$lint" | grep -v 'running with root privileges')
no_problems "lintian -I -E --pedantic on the source and the four packages: no tag" "$lint"

# a throwaway key for DKMS to sign with, as a user configures one
openssl req -new -x509 -newkey rsa:2048 -nodes -days 1 -outform DER \
	-subj "/CN=memdiag dkms test key $$/" -keyout "$tmp/mok.key" \
	-out "$tmp/mok.der" >/dev/null 2>&1
[ -d /etc/dkms/framework.conf.d ] || made_confd=1
mkdir -p /etc/dkms/framework.conf.d
printf 'mok_signing_key=%s\nmok_certificate=%s\n' "$tmp/mok.key" "$tmp/mok.der" > "$conf"

if apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends \
		"$ctl_deb" "$dkms_deb" "$lib_deb" "$dev_deb" > "$tmp/install.log" 2>&1; then
	ok "apt installs the four packages (DKMS builds in postinst)"
else
	not_ok "apt installs the four packages (DKMS builds in postinst)" "$(tail -30 "$tmp/install.log")"
fi
check "memdiagctl --version is the package's" sh -c \
	"/usr/sbin/memdiagctl --version | grep -q '^memdiagctl $ver (memdiag protocol [0-9]*)$'"
for k in $(ls /lib/modules | grep -E '^6\.(1|12)\.[0-9].*-amd64$' | grep -v rt); do
	check "dkms status: memdiag/$ver installed for $k" sh -c \
		"dkms status -m memdiag -v $ver -k $k | grep -q ': installed'"
	# (compressed as the kernel's own modules are: .ko.xz on 6.12)
	check "modprobe finds DKMS's memdiag.ko for $k (depmod ran)" sh -c \
		"modinfo -k $k -n memdiag | grep -q '^/lib/modules/$k/updates/dkms/memdiag.ko'"
	check "it is built for $k" sh -c "modinfo -k $k -F vermagic memdiag | grep -q '^$k '"
	check "it is signed with the key DKMS was given" sh -c \
		"modinfo -k $k -F signer memdiag | grep -qx 'memdiag dkms test key $$'"
done

# the marker library: the shared one alone in the runtime package, the
# rest in -dev, found by pkg-config as a user builds (Documentation/marker.rst)
lib=/usr/lib/$multiarch
# pkg_files PACKAGE: the files (not directories, not /usr/share/doc) it installed
pkg_files() {
	dpkg -L "$1" | while IFS= read -r f; do [ -d "$f" ] || echo "$f"; done |
		grep -v '^/usr/share/doc/' | sort
}
check "libmemdiag-marker0 holds $lib/libmemdiag-marker.so.0 alone" \
	test "$(pkg_files libmemdiag-marker0)" = "$lib/libmemdiag-marker.so.0"
check "libmemdiag-marker-dev holds the header, the .so link, the .a and the .pc" \
	test "$(pkg_files libmemdiag-marker-dev)" = "/usr/include/memdiag_marker.h
$lib/libmemdiag-marker.a
$lib/libmemdiag-marker.so
$lib/pkgconfig/memdiag-marker.pc"
check "the .so link names the shared library" \
	test "$(readlink "$lib/libmemdiag-marker.so")" = libmemdiag-marker.so.0
check "pkg-config memdiag-marker --static resolves (libmnl, json-c)" \
	pkg-config --exists --static --print-errors memdiag-marker
ex=/usr/share/doc/libmemdiag-marker-dev/examples/marker_demo.c
check "the sample, as -dev ships it, builds with pkg-config's flags and runs on the packaged .so" sh -c \
	"cc '$ex' \$(pkg-config --cflags --libs memdiag-marker) -o '$tmp/demo' &&
	 ldd '$tmp/demo' | grep -Eq '=> (/usr)?/lib/$multiarch/libmemdiag-marker.so.0 ' &&
	 MEMDIAG_MARKER_FILE='$tmp/m.json' '$tmp/demo' -n 1 -m 1 -x 0 2>/dev/null &&
	 grep -q '\"name\":\"sleep\",\"calls\":1,' '$tmp/m.json'"

# shellcheck disable=SC2086
check "apt purges the four" apt-get -o DPkg::Lock::Timeout=900 purge -y -qq $pkgs
listing > "$tmp/after"
left=$(comm -13 "$tmp/before" "$tmp/after")
if [ -z "$left" ]; then
	ok "nothing is left behind"
else
	not_ok "nothing is left behind" "$left"
fi

tap_end
