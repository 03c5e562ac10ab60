#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh [MEMDIAGCTL-ARGS...] - the main job: install what is missing,
# build, load memdiag and run memdiagctl (default: "info"). Natively when
# this host can load modules; otherwise in a QEMU/TCG guest booting the
# newest Debian kernel installed here, with MEMDIAG_CPU (default
# Skylake-Server-v1) and MEMDIAG_SMP (default 4,sockets=2,cores=2).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ $# -gt 0 ] || set -- info

scripts/deps.sh
make -s -C userspace

why=
if grep -qw nomodule /proc/cmdline; then
	why="the kernel was booted with 'nomodule'"
elif [ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" = 1 ]; then
	why="kernel.modules_disabled is 1"
elif [ ! -d "/lib/modules/$(uname -r)/build" ]; then
	why="there are no headers for the running kernel $(uname -r)"
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
echo "run: this host cannot load modules ($why);" \
	"running memdiag in a QEMU/TCG guest with Linux $kver" \
	"and CPU ${MEMDIAG_CPU:-Skylake-Server-v1}" >&2
scripts/build-module.sh "$kver" >&2
exec selftests/vm/run.sh --kernel "$kver" \
	--cpu "${MEMDIAG_CPU:-Skylake-Server-v1}" \
	--smp "${MEMDIAG_SMP:-4,sockets=2,cores=2}" -- \
	sh -c 'insmod "$0" && exec userspace/memdiagctl "$@"' \
	"build/$kver/memdiag.ko" "$@"
