#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# enroll.sh - third boot of the Debian guest: the newer kernel booted as a
# UEFI machine with Secure Boot boots it (the host's OVMF with
# Microsoft's keys, Debian's signed shim and GRUB: selftests/debian/boot.sh).
# The kernel locks itself down and so refuses DKMS's memdiag.ko, whose
# key it does not trust yet, at boot and by hand. Then the administrator
# does what Documentation/fleet.rst says: signs the one module of his own
# (the simulated platform's memdiag_sim.ko) with DKMS's key and asks for
# that key to be enrolled as a Machine Owner Key ("mokutil --import", with
# a password read from the host's share; shim's MokManager asks for it
# at the next boot's console, where the host types it). TAP; exit 2 when
# no key is pending, as then the next boot has nothing to show.
set -u
# shellcheck source=selftests/debian/guest/common.sh
. /test/common.sh

nokey_msg='Loading of module with unavailable key is rejected'
# DKMS's build for the newer kernel (xz-compressed, as 6.12's own modules are)
dkms_ko=$(modinfo -k "$knew" -n memdiag)
sim_ko=/usr/lib/modules/$knew/extra/memdiag_sim.ko

check "booted $knew through shim and GRUB, Secure Boot on" sh -c \
	"[ '$kver' = '$knew' ] && grep -q 'BOOT_IMAGE=/vmlinuz-$knew ' /proc/cmdline &&
	 mokutil --sb-state | grep -qx 'SecureBoot enabled'"
check "the kernel locked itself down (integrity) for Secure Boot" sh -c \
	"grep -q '\[integrity\]' /sys/kernel/security/lockdown &&
	 dmesg | grep -q 'Kernel is locked down from EFI Secure Boot'"
check "DKMS's key ($mok_cert) is not enrolled" sh -c \
	"mokutil --test-key $mok_cert | grep -q 'is not enrolled'"
journalctl -b -t systemd-modules-load | grep -i memdiag | sed 's/^/# /'
check "at boot, systemd-modules-load could not insert memdiag" sh -c \
	"journalctl -b -t systemd-modules-load | grep -q \"Failed to insert module 'memdiag\" &&
	 [ ! -e /sys/module/memdiag ]"
n=$(dmesg | grep -c "$nokey_msg")
expect_rc "insmod of DKMS's memdiag.ko: Key was rejected by service" 1 \
	'Key was rejected by service' insmod "$dkms_ko"
check "the kernel said why: one more '$nokey_msg'" sh -c \
	"[ \$(dmesg | grep -c '$nokey_msg') = $((n + 1)) ] && [ ! -e /sys/module/memdiag ]"

# the administrator's own module, signed with the key DKMS signs with, by
# the kernel's sign-file as the headers bring it
check "memdiag_sim.ko signed with DKMS's key (sign-file of $knew's headers)" sh -c \
	"/usr/src/linux-headers-$knew/scripts/sign-file sha256 /var/lib/dkms/mok.key \
		$mok_cert $sim_ko &&
	 [ \"\$(modinfo -F signer $sim_ko)\" = \"\$(modinfo -F signer $dkms_ko)\" ]"

# mokutil asks for the password twice at a terminal; --hash-file takes
# the same password already hashed
fpr=$(openssl x509 -inform DER -in "$mok_cert" -noout -fingerprint -sha1 |
	sed 's/.*=//' | tr 'A-F' 'a-f')
if mokutil --generate-hash="$(cat /test/mok-password)" > /root/mok.hash &&
   mokutil --import "$mok_cert" --hash-file /root/mok.hash; then
	ok "mokutil --import $mok_cert"
else
	not_ok "mokutil --import $mok_cert"
fi
rm -f /root/mok.hash
if mokutil --list-new | grep -qi "SHA1 Fingerprint: $fpr"; then
	ok "mokutil --list-new: DKMS's key is pending (SHA1 $fpr)"
else
	not_ok "mokutil --list-new: DKMS's key is pending (SHA1 $fpr)" \
		"$(mokutil --list-new 2>&1 | head -n 5)"
	tap_end
	exit 2
fi
tap_end
