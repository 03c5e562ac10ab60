#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# signing.sh - second boot of the Debian guest, on the older kernel booted
# with module.sig_enforce=1: the kernel refuses the memdiag.ko DKMS built
# and signed at install (its key, /var/lib/dkms/mok.pub, is not one the
# kernel trusts), with its own message, both at boot (the administrator's
# modules-load.d file) and by hand, and refuses an unsigned memdiag.ko;
# a module of the kernel package, signed at the kernel's build, still
# loads. TAP.
#
# DKMS's module accepted needs its key enrolled as a Machine Owner Key
# and handed over by shim on an EFI boot (MokListRT): this boot starts its
# kernel directly; enroll.sh and secureboot.sh show it under Secure Boot.
set -u
# shellcheck source=selftests/debian/guest/common.sh
. /test/common.sh

# kernel/module/signing.c: "Loading of %s is rejected", for a module with
# no signature and for one whose key is in no trusted keyring
unsigned_msg='Loading of unsigned module is rejected'
nokey_msg='Loading of module with unavailable key is rejected'
count() { dmesg | grep -c "$1"; }

check "booted $kold with module.sig_enforce=1, which the kernel enforces" sh -c \
	"[ '$kver' = '$kold' ] && grep -qw 'module.sig_enforce=1' /proc/cmdline &&
	 grep -qx Y /sys/module/module/parameters/sig_enforce"
check "at boot, systemd-modules-load could not insert DKMS's memdiag: Key was rejected by service" sh -c \
	"journalctl -b -t systemd-modules-load | grep \"Failed to insert module 'memdiag'\" |
	 grep -q 'Key was rejected by service' && [ ! -e /sys/module/memdiag ]"
check "the kernel said why: '$nokey_msg'" sh -c "dmesg | grep -q '$nokey_msg'"
n=$(count "$nokey_msg")
expect_rc "modprobe memdiag: refused, Key was rejected by service" 1 \
	"could not insert 'memdiag': Key was rejected by service" modprobe memdiag
check "one more '$nokey_msg', memdiag not loaded" sh -c \
	"[ \$(dmesg | grep -c '$nokey_msg') = $((n + 1)) ] && [ ! -e /sys/module/memdiag ]"

# memdiag.ko as the host built it, never signed
ko=/test/memdiag-unsigned-$kold.ko
check "the host's memdiag.ko for $kold has no signature" sh -c \
	"modinfo -F vermagic $ko | grep -q '^$kold ' && [ -z \"\$(modinfo -F signer $ko)\" ]"
n=$(count "$unsigned_msg")
expect_rc "insmod of the unsigned memdiag.ko: refused, Key was rejected by service" 1 \
	'Key was rejected by service' insmod "$ko"
check "one more '$unsigned_msg', memdiag not loaded" sh -c \
	"[ \$(dmesg | grep -c '$unsigned_msg') = $((n + 1)) ] && [ ! -e /sys/module/memdiag ]"

# enforcement refuses what it cannot verify, not every module: the kernel
# package's own are signed by a key built into the kernel
dsigner=$(modinfo -k "$kold" -F signer dummy 2>/dev/null)
check "a module of the kernel package loads (dummy, signer '$dsigner')" sh -c \
	"[ -n '$dsigner' ] && modprobe dummy && grep -q '^dummy ' /proc/modules && rmmod dummy"
tap_end
