#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mok-guest.sh - /test/boot.sh of make check's Secure Boot step
# (selftests/debian/mok.sh), run by the Debian guest at every boot:
#   1. refused: Secure Boot on and the kernel locked down, the module
#      signed by "make sign" is refused for its key, the unsigned one for
#      having none; then "mokutil --import" of the certificate;
#   2. (shim's MokManager, answered by the host, enrolls it)
#      enrolled: the key is enrolled and in the kernel's machine keyring,
#      the signed module loads without the unsigned-module taint, the
#      unsigned one is still refused.
# Each writes its TAP to /test/out/STEP.tap, its status to STEP.rc and
# the kernel's log and command line, for the host's dmesg check, to
# STEP.dmesg and STEP.cmdline.
set -u
# shellcheck source=selftests/memdiag/lib.sh
. /test/lib.sh
out=/test/out
state=/root/memdiag-mok-step
cert=/test/mok.der
kver=$(uname -r)
step=$(cat "$state" 2>/dev/null || echo refused)
nokey_msg='Loading of module with unavailable key is rejected'
unsigned_msg='Loading of unsigned module is rejected'
cn=$(openssl x509 -inform DER -in "$cert" -noout -subject -nameopt multiline |
	sed -n 's/^ *commonName *= //p')

secure_boot() {
	check "booted $(cat /test/kernel) through shim and GRUB, Secure Boot on, locked down" sh -c \
		"[ '$kver' = '$(cat /test/kernel)' ] && mokutil --sb-state | grep -qx 'SecureBoot enabled' &&
		 grep -q '\[integrity\]' /sys/kernel/security/lockdown"
}

# refused_for WHAT KO MSG: insmod KO fails and the kernel logs MSG once more
refused_for() {
	local n
	n=$(dmesg | grep -c "$3")
	expect_rc "insmod of the $1 memdiag.ko: Key was rejected by service" 1 \
		'Key was rejected by service' insmod "$2"
	check "the kernel said why: one more '$3'" sh -c \
		"[ \$(dmesg | grep -c '$3') = $((n + 1)) ] && [ ! -e /sys/module/memdiag ]"
}

refused() {
	secure_boot
	check "the certificate is not enrolled" sh -c \
		"mokutil --test-key $cert | grep -q 'is not enrolled'"
	check "make sign signed it with that key (signer '$cn')" sh -c \
		"[ \"\$(modinfo -F signer /test/memdiag-signed.ko)\" = '$cn' ]"
	refused_for "signed" /test/memdiag-signed.ko "$nokey_msg"
	refused_for "unsigned" /test/memdiag-unsigned.ko "$unsigned_msg"
	local fpr
	fpr=$(openssl x509 -inform DER -in "$cert" -noout -fingerprint -sha1 |
		sed 's/.*=//' | tr 'A-F' 'a-f')
	# mokutil asks for the password twice at a terminal; --hash-file
	# takes it hashed
	check "mokutil --import of the certificate" sh -c \
		"mokutil --generate-hash=\$(cat /test/mok-password) > /root/mok.hash &&
		 mokutil --import $cert --hash-file /root/mok.hash"
	check "mokutil --list-new: it is pending (SHA1 $fpr)" sh -c \
		"mokutil --list-new | grep -qi 'SHA1 Fingerprint: $fpr'"
	tap_end
}

enrolled() {
	secure_boot
	check "mokutil --test-key: enrolled" sh -c \
		"mokutil --test-key $cert | grep -q 'is already enrolled'"
	check "the kernel loaded it from shim's MokListRT into its .machine keyring" sh -c \
		"dmesg | grep -A1 'Loading X.509 certificate: UEFI:MokListRT' |
		 grep -q \"Loaded X.509 cert '$cn: \" && keyctl list %:.machine | grep -q \": $cn: \""
	check "insmod of the signed memdiag.ko: loaded" sh -c \
		"insmod /test/memdiag-signed.ko && grep -q '^memdiag ' /proc/modules"
	# TAINT_UNSIGNED_MODULE, bit 13 ('E'); out-of-tree (bit 12) is set
	# shellcheck disable=SC2016 # expanded by the sh -c
	check "no unsigned-module taint (taint $(cat /proc/sys/kernel/tainted))" \
		sh -c '[ $(( $(cat /proc/sys/kernel/tainted) & 8192 )) = 0 ]'
	check "rmmod memdiag" rmmod memdiag
	refused_for "unsigned" /test/memdiag-unsigned.ko "$unsigned_msg"
	tap_end
}

# run STEP: the step's function, its TAP, status and the kernel's log
run() {
	"$1" > "$out/$1.tap" 2>&1
	echo $? > "$out/$1.rc"
	dmesg > "$out/$1.dmesg"
	cat /proc/cmdline > "$out/$1.cmdline"
	sync
}

case "$step" in
refused)
	echo enrolled > "$state"
	run refused
	echo "efi $kver" > "$out/reboot"
	sync
	systemctl reboot
	;;
enrolled)
	echo finished > "$state"
	run enrolled
	systemctl poweroff
	;;
*)
	systemctl poweroff
	;;
esac
