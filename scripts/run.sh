#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh [MEMDIAGCTL-ARGS...] - the main job: install what is missing,
# build, load memdiag and run memdiagctl (default: "info"). Natively when
# this host can load modules; otherwise in a QEMU/TCG guest booting the
# newest Debian kernel installed here, with MEMDIAG_CPU (default
# Skylake-Server-v1) and MEMDIAG_SMP (default 4,sockets=2,cores=2).
#
# It says first what it will install, build, load or boot; with
# MEMDIAG_RUN_DRY=1 it says only that, and exits 0. Without
# arguments on a host that cannot load modules, it shows the
# counter-free view instead (scripts/counter-free.sh): idle latency, the
# curve of this machine, probe samples.
#
# With MEMDIAG_SIM=UARCH (a generation memdiag_sim.ko models: a name it
# lacks is refused with the list of them, from the sim's table), memdiag
# runs on the simulated platform instead (always in the guest), with
# socket 0 set to read 10 GB/s, write 4 GB/s and a 200-cycle load
# latency, so that "watch" has something to show on a machine whose
# counters are out of reach. Simulated numbers.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
asked=$#
[ $# -gt 0 ] || set -- info

# what this host can do, and what run says before it does anything
. scripts/run-plan.sh
why=$(run_why)
run_announce "$why" "$asked" "$@" >&2
[ "${MEMDIAG_RUN_DRY:-0}" = 0 ] || exit 0

scripts/deps.sh
make -s -C userspace

if [ -n "${MEMDIAG_SIM:-}" ]; then
	why="MEMDIAG_SIM=$MEMDIAG_SIM asks for the simulated platform"
elif [ -n "$why" ] && [ "$asked" = 0 ]; then
	# nothing asked for: show what memdiag measures here without counters
	exec scripts/counter-free.sh "$why"
fi

if [ -z "$why" ]; then
	make -s module
	if ! grep -q '^memdiag ' /proc/modules; then
		insmod module/memdiag.ko
		echo "run: loaded module/memdiag.ko (unload with: rmmod memdiag)" >&2
	fi
	exec userspace/memdiagctl "$@"
fi

kver=$(scripts/kernels.sh | tail -n1)
[ -n "$kver" ] || { echo "run: no Debian kernel with headers installed" >&2; exit 1; }
echo "run: $why;" \
	"running memdiag in a QEMU/TCG guest with Linux $kver" \
	"and CPU ${MEMDIAG_CPU:-Skylake-Server-v1}" >&2
scripts/build-module.sh "$kver" >&2
vm=(selftests/vm/run.sh --kernel "$kver"
    --cpu "${MEMDIAG_CPU:-Skylake-Server-v1}"
    --smp "${MEMDIAG_SMP:-4,sockets=2,cores=2}" --)
if [ -z "${MEMDIAG_SIM:-}" ]; then
	exec "${vm[@]}" sh -c 'insmod "$0" && exec userspace/memdiagctl "$@"' \
		"build/$kver/memdiag.ko" "$@"
fi
echo "run: simulated platform memdiag_sim uarch=$MEMDIAG_SIM: the numbers are the simulator's, not hardware measurements" >&2
exec "${vm[@]}" sh -c '
	# a name the sim lacks: its refusal lists those it models
	insmod "$0/memdiag_sim.ko" uarch="$1" || { dmesg | tail -n 1 >&2; exit 1; }
	d=/sys/kernel/debug/memdiag_sim/socket0
	echo 10000 > $d/read_bw_mbps; echo 4000 > $d/write_bw_mbps
	echo 200 > $d/load_latency_cycles; echo 1000000 > $d/l1_miss_per_sec
	echo 500000 > $d/lfb_hit_per_sec; echo 3000 > $d/offcore_read_mbps
	insmod "$0/memdiag.ko" platform=sim || exit 1
	shift
	exec userspace/memdiagctl "$@"' "build/$kver" "$MEMDIAG_SIM" "$@"
