#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# linux-src.sh - print the directory holding the parts of Debian's
# linux-source-6.12 that memdiag's build and tests read (ynl-gen-c.py,
# the YNL CLI, the kselftest harness, perf's event tables, the uncore
# driver, checkpatch.pl), unpacking them once into a cache directory.
set -eu
tarball=/usr/src/linux-source-6.12.tar.xz
cache=${MEMDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memdiag}
dir=$cache/linux-source-6.12
stamp=$dir/.memdiag-unpacked

if [ ! -f "$stamp" ] || [ "$tarball" -nt "$stamp" ]; then
	if [ ! -f "$tarball" ]; then
		echo "linux-src: $tarball not found: apt-get install linux-source-6.12" >&2
		exit 1
	fi
	mkdir -p "$cache"
	rm -rf "$dir"
	tar -C "$cache" -xJf "$tarball" \
		linux-source-6.12/tools/net/ynl \
		linux-source-6.12/tools/testing/selftests/kselftest.h \
		linux-source-6.12/tools/testing/selftests/kselftest_harness.h \
		linux-source-6.12/Documentation/netlink \
		linux-source-6.12/tools/perf/pmu-events/arch/x86 \
		linux-source-6.12/arch/x86/events/intel \
		linux-source-6.12/arch/x86/include/asm/msr-index.h \
		linux-source-6.12/arch/x86/include/asm/intel-family.h \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch
	: > "$stamp"
fi
echo "$dir"
