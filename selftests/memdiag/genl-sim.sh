#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# genl-sim.sh - the netlink family's limits (genl_session), run-time
# error texts (genl_extack) and the acks of batched requests (genl_batch),
# kselftest harness programs, against the simulated platform, inside a
# test VM; first, that the modules' parameters read back what insmod set
# (the default for core=).
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO.
set -u
cd "$(dirname "$0")/../.."
. selftests/memdiag/lib.sh

ko=${MEMDIAG_KO:?}
simko=${MEMDIAG_SIM_KO:?}

# core=perf on the simulated platform, which models no perf events:
# memdiag loads and says why its core counters are unavailable
if insmod "$simko" uarch=skx &&
	check "insmod memdiag platform=sim core=perf" insmod "$ko" platform=sim core=perf; then
	"$ctl" -j info > /tmp/perf.json 2>&1
	check "core=perf on the sim: the core counters are unavailable, the reason says why" \
		jqt '[.capabilities[] | select((.reason // "") | test("core=perf counts through the kernel.s perf events"))] |
			length > 0 and all(.available == false)' /tmp/perf.json
	check "core=perf on the sim: rmmod memdiag" rmmod memdiag
fi
if ! lsmod | grep -q '^memdiag_sim ' || ! insmod "$ko" platform=sim; then
	not_ok "insmod memdiag_sim uarch=skx, memdiag platform=sim"
	tap_end
	exit 1
fi
# param MODULE NAME: the parameter's value as sysfs shows it
param() { cat "/sys/module/$1/parameters/$2" 2>&1; }
check "memdiag's platform parameter reads sim" test "$(param memdiag platform)" = sim
check "memdiag's core parameter reads auto, its default" test "$(param memdiag core)" = auto
check "memdiag_sim's uarch parameter reads skx" test "$(param memdiag_sim uarch)" = skx
# traffic, so that counts move between samples
echo 10000 > $dbg/socket0/read_bw_mbps
echo 4000 > $dbg/socket0/write_bw_mbps

# The kselftest program's TAP, nested as a subtest.
subtest "genl_session (kselftest harness)" selftests/memdiag/genl_session
# Run-time error texts, many clients refused at once.
subtest "genl_extack (kselftest harness)" selftests/memdiag/genl_extack
# Several requests per send: every ack arrives, or ENOBUFS says why not.
subtest "genl_batch (kselftest harness)" selftests/memdiag/genl_batch

check "rmmod memdiag" rmmod memdiag
check "rmmod memdiag_sim" rmmod memdiag_sim
tap_end
