#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install.sh KVER - "make install" into a DESTDIR installs exactly the files
# it should (module, memdiagctl, man page, completion, systemd unit, the
# opt-in modules-load.d file), "make uninstall" removes exactly those, a
# module built for another kernel is refused, the unit passes
# systemd-analyze verify, and "make sign" signs with a throwaway key that
# modinfo then names as the signer. Needs build/KVER/memdiag.ko
# (scripts/build-module.sh KVER). TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/memdiag/lib.sh"
kver=${1:?usage: install.sh KVER}
ko=$top/build/$kver/memdiag.ko
[ -f "$ko" ] || { echo "install: no $ko (scripts/build-module.sh $kver)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"
mk() { make -s --no-print-directory "$@" KVER="$kver" MODULE_KO="$ko"; }

files() { (cd "$1" && find . ! -type d | sed 's|^\./|/|' | sort); }

# same NAME WANT GOT
same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "want:" "$2" "got:" "$3"
	fi
}

d=$tmp/root
want="/etc/modules-load.d/memdiag.conf
/lib/modules/$kver/updates/memdiag.ko
/usr/include/memdiag_marker.h
/usr/lib/libmemdiag-marker.a
/usr/lib/libmemdiag-marker.so
/usr/lib/libmemdiag-marker.so.0
/usr/lib/pkgconfig/memdiag-marker.pc
/usr/lib/systemd/system/memdiag-exporter.service
/usr/sbin/memdiagctl
/usr/share/bash-completion/completions/memdiagctl
/usr/share/man/man8/memdiagctl.8"
check "make install DESTDIR PREFIX=/usr AUTOLOAD=1" \
	mk install DESTDIR="$d" PREFIX=/usr AUTOLOAD=1
same "it installs exactly the eleven files" "$want" "$(files "$d")"
check "the module is the one built for $kver" cmp "$ko" "$d/lib/modules/$kver/updates/memdiag.ko"
unit=$d/usr/lib/systemd/system/memdiag-exporter.service
check "the unit runs the installed memdiagctl export" \
	grep -qx 'ExecStart=/usr/sbin/memdiagctl export --listen 127.0.0.1:9473' "$unit"
check "the unit sets NoNewPrivileges and a bounded capability set" sh -c \
	"grep -qx NoNewPrivileges=yes '$unit' && grep -qx 'CapabilityBoundingSet=CAP_PERFMON CAP_SYS_ADMIN' '$unit'"
if command -v systemd-analyze >/dev/null; then
	# verify resolves ExecStart on the running system: point it at the staged one
	sed "s|/usr/sbin/memdiagctl|$d/usr/sbin/memdiagctl|" "$unit" > "$tmp/memdiag-exporter.service"
	check "systemd-analyze verify accepts the unit" \
		systemd-analyze verify --man=no "$tmp/memdiag-exporter.service"
else
	skip "systemd-analyze verify accepts the unit" "no systemd-analyze"
fi
# the marker library as a user builds against it: pkg-config, the shared one
pc() { PKG_CONFIG_SYSROOT_DIR="$d" PKG_CONFIG_PATH="$d/usr/lib/pkgconfig" \
	pkg-config "$@" memdiag-marker; }
pc_cflags=$(pc --cflags) pc_libs=$(pc --libs)
check "pkg-config finds memdiag-marker: -I, -L, -lmemdiag-marker" sh -c \
	"echo ' $pc_cflags ' | grep -q -- ' -I$d/usr/include ' &&
	 echo ' $pc_libs ' | grep -q -- ' -L$d/usr/lib -lmemdiag-marker '"
check "the sample builds with pkg-config's flags and runs on the installed .so" sh -c \
	"cc examples/marker_demo.c $pc_cflags $pc_libs -o '$tmp/demo' &&
	 LD_LIBRARY_PATH='$d/usr/lib' ldd '$tmp/demo' | grep -q '$d/usr/lib/libmemdiag-marker.so.0' &&
	 LD_LIBRARY_PATH='$d/usr/lib' MEMDIAG_MARKER_FILE='$tmp/m.json' '$tmp/demo' -n 1 -m 1 -x 0 2>/dev/null &&
	 grep -q '\"name\":\"sleep\",\"calls\":1,' '$tmp/m.json'"
check "make uninstall DESTDIR PREFIX=/usr" mk uninstall DESTDIR="$d" PREFIX=/usr
same "it removes every file it installed" "" "$(files "$d")"

d=$tmp/local
check "make install DESTDIR (PREFIX /usr/local, no AUTOLOAD)" mk install DESTDIR="$d"
same "/usr/local, and no modules-load.d file unless asked" \
	"$(echo "$want" | sed '/modules-load/d; s|^/usr/|/usr/local/|')" "$(files "$d")"
# a file of someone else's next to ours must survive uninstall
mkdir -p "$d/usr/local/sbin" && echo x > "$d/usr/local/sbin/other"
check "make uninstall (PREFIX /usr/local)" mk uninstall DESTDIR="$d"
same "uninstall leaves others' files alone" "/usr/local/sbin/other" "$(files "$d")"

other=$(scripts/kernels.sh | grep -vxF "$kver" | grep -v rt | head -n1)
if [ -n "$other" ]; then
	d=$tmp/wrong
	expect_rc "a module built for $kver is refused for KVER=$other" 2 \
		"is built for [^ ]+, not KVER=" \
		make -s --no-print-directory install-module DESTDIR="$d" KVER="$other" MODULE_KO="$ko"
	same "and nothing is installed" "" "$(files "$d" 2>/dev/null)"
fi

# make sign: a throwaway key, as a user would make one (memdiag.rst)
openssl req -new -x509 -newkey rsa:2048 -nodes -days 1 -outform DER \
	-subj "/CN=memdiag test signing key $$/" \
	-keyout "$tmp/key.pem" -out "$tmp/cert.der" >/dev/null 2>&1 ||
	not_ok "openssl makes a throwaway key"
cp "$ko" "$tmp/memdiag.ko"
expect_rc "make sign without KEY says how to name it" 2 "make sign KEY=" \
	make -s --no-print-directory sign KVER="$kver" KDIR="/usr/src/linux-headers-$kver" \
	SIGN_MODULE="$tmp/memdiag.ko"
check "make sign KEY CERT" make -s --no-print-directory sign KVER="$kver" \
	KDIR="/usr/src/linux-headers-$kver" SIGN_MODULE="$tmp/memdiag.ko" \
	KEY="$tmp/key.pem" CERT="$tmp/cert.der"
same "modinfo names the throwaway key as the signer" \
	"memdiag test signing key $$" "$(modinfo -F signer "$tmp/memdiag.ko")"
same "with sha256" "sha256" "$(modinfo -F sig_hashalgo "$tmp/memdiag.ko")"

tap_end
