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

# the stamp holds the list of parts, so that adding one unpacks again
parts="tools/net/ynl tools/testing/selftests/kselftest.h
tools/testing/selftests/kselftest_harness.h Documentation/netlink
tools/perf/pmu-events/arch/x86 arch/x86/events/intel
arch/x86/include/asm/msr-index.h arch/x86/include/asm/intel-family.h
arch/x86/kernel/cpu/resctrl/pseudo_lock.c scripts/checkpatch.pl
scripts/spelling.txt scripts/const_structs.checkpatch"
# --amd: the AMD sources amd_oracle.py reads, in a directory of their own
# so that the parts above (and whoever reads them) are left alone
if [ "${1:-}" = --amd ]; then
	dir=$cache/linux-source-6.12-amd
	stamp=$dir/.memdiag-unpacked
	parts="arch/x86/events/amd arch/x86/include/asm/perf_event.h
arch/x86/kernel/cpu/amd.c"
fi

if [ ! -f "$stamp" ] || [ "$tarball" -nt "$stamp" ] ||
   [ "$(cat "$stamp")" != "$parts" ]; then
	if [ ! -f "$tarball" ]; then
		echo "linux-src: $tarball not found: apt-get install linux-source-6.12" >&2
		exit 1
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	# shellcheck disable=SC2086 # one word per part
	tar -C "$dir" --strip-components=1 -xJf "$tarball" \
		$(printf 'linux-source-6.12/%s ' $parts)
	printf '%s\n' "$parts" > "$stamp"
fi
echo "$dir"
