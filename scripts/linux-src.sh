#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# linux-src.sh - print the directory holding the parts of Debian's
# linux-source-6.12 that memdiag's build and tests read (ynl-gen-c.py,
# the YNL CLI, the kselftest harness, perf's event tables, the uncore
# driver, checkpatch.pl), unpacking them once into a cache directory.
#
# Several checkouts (worktrees, a background "make check-debug") share the
# cache, and one may list other parts than another. A directory is
# therefore never changed once it is there: its name holds a hash of the
# part list and of the tarball's size and time, so another list or a new
# tarball gets a directory of its own, and it is unpacked aside and
# renamed into place whole. (Unpacking over a shared directory took it
# away for the ~10 s tar needs, under whatever else was building against
# it: "kselftest_harness.h: No such file or directory".)
set -eu
tarball=/usr/src/linux-source-6.12.tar.xz
cache=${MEMDIAG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memdiag}
name=linux-source-6.12

parts="tools/net/ynl tools/testing/selftests/kselftest.h
tools/testing/selftests/kselftest_harness.h Documentation/netlink
tools/perf/pmu-events/arch/x86 arch/x86/events/intel
arch/x86/include/asm/msr-index.h arch/x86/include/asm/intel-family.h
arch/x86/kernel/cpu/resctrl/pseudo_lock.c scripts/checkpatch.pl
scripts/spelling.txt scripts/const_structs.checkpatch"
# --amd: the AMD sources amd_oracle.py reads, in a directory of their own
if [ "${1:-}" = --amd ]; then
	name=linux-source-6.12-amd
	parts="arch/x86/events/amd arch/x86/include/asm/perf_event.h
arch/x86/kernel/cpu/amd.c"
fi

if [ ! -f "$tarball" ]; then
	echo "linux-src: $tarball not found: apt-get install linux-source-6.12" >&2
	exit 1
fi
key=$( (printf '%s\n' "$parts"; stat -c '%s %Y' "$tarball") | sha256sum | cut -c1-12)
dir=$cache/$name-$key
if [ ! -f "$dir/.memdiag-unpacked" ]; then
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/.$name-$key.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
	chmod 755 "$tmp"
	# shellcheck disable=SC2046,SC2086 # one word per part
	tar -C "$tmp" --strip-components=1 -xJf "$tarball" \
		$(printf 'linux-source-6.12/%s ' $parts)
	printf '%s\n' "$parts" > "$tmp/.memdiag-unpacked"
	# rename(2) is atomic; when another run got there first its copy
	# (the same files) stays and this one goes
	mv -T "$tmp" "$dir" 2> /dev/null || [ -f "$dir/.memdiag-unpacked" ]
fi
echo "$dir"
