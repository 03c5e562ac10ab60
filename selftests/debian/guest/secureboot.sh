#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# secureboot.sh - fourth boot of the Debian guest, after shim's MokManager
# enrolled DKMS's key (the host answered it at the console, as an
# administrator does), again with Secure Boot on: shim hands the key to
# the kernel (MokListRT), which puts it in its machine keyring and now
# loads DKMS's memdiag.ko and the administrator's memdiag_sim.ko, signed
# with that key, at boot, without the unsigned-module taint; memdiag
# answers memdiagctl. TAP.
set -u
# shellcheck source=selftests/debian/guest/common.sh
. /test/common.sh

cn=$(openssl x509 -inform DER -in "$mok_cert" -noout -subject -nameopt multiline |
	sed -n 's/^ *commonName *= //p')
check "booted $knew through shim and GRUB, Secure Boot on, locked down" sh -c \
	"[ '$kver' = '$knew' ] && mokutil --sb-state | grep -qx 'SecureBoot enabled' &&
	 grep -q '\[integrity\]' /sys/kernel/security/lockdown"
check "mokutil --test-key: DKMS's key is enrolled, nothing pending" sh -c \
	"mokutil --test-key $mok_cert | grep -q 'is already enrolled' &&
	 ! mokutil --list-new 2>/dev/null | grep -q Fingerprint"
dmesg | grep 'MokListRT\|X.509 cert' | sed 's/^/# /'
check "the kernel loaded it from shim's MokListRT: 'Loaded X.509 cert '$cn: ...'" sh -c \
	"dmesg | grep -A1 'Loading X.509 certificate: UEFI:MokListRT' |
	 grep -q \"Loaded X.509 cert '$cn: \""
check "and keeps it in its .machine keyring, which module signatures are checked against" sh -c \
	"keyctl list %:.machine | grep -q \": $cn: \""
journalctl -b -t systemd-modules-load | grep -i memdiag | sed 's/^/# /'
check "systemd-modules-load inserted memdiag at boot, nothing rejected" sh -c \
	"journalctl -b -t systemd-modules-load | grep -q \"Inserted module 'memdiag'\" &&
	 ! journalctl -b -t systemd-modules-load | grep -q 'rejected'"
check "the memdiag loaded is DKMS's build for $knew, memdiag_sim the administrator's" sh -c \
	"[ \"\$(cat /sys/module/memdiag/srcversion)\" = \"\$(modinfo -F srcversion memdiag)\" ] &&
	 modinfo -n memdiag | grep -q '^/lib/modules/$knew/updates/dkms/memdiag.ko' &&
	 [ \"\$(cat /sys/module/memdiag_sim/srcversion)\" = \
	   \"\$(modinfo -F srcversion /usr/lib/modules/$knew/extra/memdiag_sim.ko)\" ]"
# TAINT_UNSIGNED_MODULE, bit 13 ('E'): set when a module whose signature
# could not be checked is loaded; the out-of-tree taint (bit 12) is set
# shellcheck disable=SC2016 # expanded by the sh -c
check "the kernel is not tainted by an unsigned module (taint $(cat /proc/sys/kernel/tainted))" \
	sh -c '[ $(( $(cat /proc/sys/kernel/tainted) & 8192 )) = 0 ]'
check "memdiag answers: memdiagctl snapshot reads socket 0" sh -c \
	"memdiagctl -j snapshot --socket 0 | jq -e '.[0].read_bytes >= 0' >/dev/null"
tap_end
