#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# discovery-sim.sh - the Sapphire Rapids discovery table is firmware input:
# a table whose stride is too short for its entries must be refused
# without one read outside its mapping (the simulated platform logs every
# such read), inside a test VM.
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
tap_end
