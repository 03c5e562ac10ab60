#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# discovery-sim.sh - the Sapphire Rapids discovery table is firmware input:
# a table whose stride is too short for its entries must be refused
# without one read outside its mapping (the simulated platform logs every
# such read), and a Skylake-SP UBOX reading all-ones must leave the IMC
# unavailable with the reason, inside a test VM.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO.
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh

ko=${MEMDIAG_KO:?}
simko=${MEMDIAG_SIM_KO:?}

if ! insmod "$simko" uarch=spr; then
	not_ok "insmod memdiag_sim uarch=spr"
	tap_end
	exit 1
fi
q0=$(peek "mmio 0:table 0x0")
# a stride of one qword, where each entry needs three
poke "mmio 0:table 0x0 $(printf '0x%x' $(( (q0 & ~0xff00) | 1 << 8 )))"
dmesg -C
check "a discovery table with an 8-byte stride: memdiag loads" insmod "$ko" platform=sim
check "... and reads nothing outside the table's mapping" sh -c \
	'! dmesg | grep -E "MMIO access of [0-9]+ bytes at offset .* refused"'
"$ctl" -j info > /tmp/info.json 2>&1
check "... and answers get-info, with a reason for whatever it could not use" jqt \
	'[.capabilities[] | select(.available == false) | (.reason | length) > 0] | all' /tmp/info.json
check "rmmod memdiag" rmmod memdiag
check "rmmod memdiag_sim" rmmod memdiag_sim

# Skylake-SP maps buses to sockets through each UBOX's node id: a UBOX
# reading all-ones (gone) has no node id, and must not count as node 7 of
# an all-ones map (every bus on socket 0, the IMC reported available).
if check "insmod memdiag_sim uarch=skx" insmod "$simko" uarch=skx; then
	dbg=/sys/kernel/debug/memdiag_sim
	echo 4294967295 > $dbg/fail_pci_read
	echo 0 > $dbg/fail_pci_read_hit
	check "skx, every PCI config read all-ones: memdiag loads" insmod "$ko" platform=sim
	echo 0 > $dbg/fail_pci_read
	check "... the all-ones reads happened" test "$(cat $dbg/fail_pci_read_hit)" -gt 0
	"$ctl" -j info > /tmp/info.json 2>&1
	check "... imc-bandwidth unavailable: \"UBOX node id unreadable\"" jqt \
		'[.capabilities[] | select(.id == "imc-bandwidth")] | length == 1 and
		 all(.available == false and (.reason | test("^UBOX node id unreadable")))' \
		/tmp/info.json
	check "rmmod memdiag" rmmod memdiag
	check "rmmod memdiag_sim" rmmod memdiag_sim
fi
tap_end
