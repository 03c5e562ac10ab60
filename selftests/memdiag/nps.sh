#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nps.sh - info's numa_nodes, the NUMA nodes the kernel puts each socket's
# CPUs in (AMD's NPS setting), in a guest whose one socket is split into
# two nodes (vmtests: -smp 2,sockets=1 and VM_NUMA=2, as NPS2 splits an
# EPYC), checked against sysfs: the nodes of the CPUs of each
# physical_package_id. The module loads on the hardware path (no sim):
# info needs no counter. Prints TAP.
#
# Environment: MEMDIAG_KO.
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

: "${MEMDIAG_KO:?}"

# "PACKAGE NODES" for each package, from sysfs
sysfs_nodes() {
	local c n
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat "$c/online" 2>/dev/null || echo 1)" = 1 ] || continue
		for n in "$c"/node[0-9]*; do
			echo "$(cat "$c/topology/physical_package_id") ${n##*node}"
		done
	done | sort -u | awk '{ n[$1]++ } END { for (p in n) print p, n[p] }' | sort -n
}

if ! insmod "$MEMDIAG_KO"; then
	not_ok "insmod memdiag.ko"
	tap_end
	exit 1
fi
"$ctl" -j info > /tmp/info.json
want=$(sysfs_nodes)
got=$(jq -r '.sockets[] | "\(.package_id) \(.numa_nodes)"' /tmp/info.json)
check "sysfs has one socket in two nodes ($want)" test "$want" = "0 2"
check "info's numa_nodes per package are sysfs's ($got)" test "$got" = "$want"
check "info (text) says numa nodes 2" sh -c \
	"\"$ctl\" info | grep -Eq '^  socket 0  package 0  numa nodes 2  cpus 0-1 \\(2\\)$'"
rmmod memdiag
tap_end
