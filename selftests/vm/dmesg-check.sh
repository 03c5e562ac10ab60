#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dmesg-check.sh - print the lines of a guest's dmesg that show a kernel
# problem; exit 0 when there are none, 1 when there are, 2 on misuse.
#
# usage: dmesg-check.sh DMESG CMDLINE [ALLOW_ERE...]
#   DMESG      the guest's dmesg
#   CMDLINE    the kernel command line the guest was booted with: the kernel
#              echoes it ("Command line: ...") and the random run directory
#              in it may spell a pattern (run.MBUG98 did, CI of 2026-11-24)
#   ALLOW_ERE  lines matching it are exempt (run.sh --allow-dmesg); how many
#              each exempted is said on stderr
set -eu -o pipefail

[ $# -ge 2 ] || { echo "usage: dmesg-check.sh DMESG CMDLINE [ALLOW_ERE...]" >&2; exit 2; }
dmesg=$1 cmdline=$2
shift 2
[ -r "$dmesg" ] || { echo "dmesg-check.sh: cannot read $dmesg" >&2; exit 2; }

bad='WARNING|BUG|Oops|unrecognized MSR|possible circular locking|INFO: |scheduling while atomic|Call Trace'
# arch/x86/kernel/cpu/bugs.c prints "<issue>: WARNING: ..." advisories at
# boot when the (TCG-trimmed) CPU model lacks a mitigation feature, e.g.
# RETBleed on Skylake-Server and SRSO on EPYC; they are not kernel bugs.
vuln='(MDS|TAA|MMIO Stale Data|Register File Data Sampling|SRBDS|GDS|Spectre V[12] |RETBleed|ITS|Transient Scheduler Attacks|Speculative Store Bypass|L1TF|Speculative Return Stack Overflow|VMSCAPE): WARNING: '

# Our own command line is taken out of each line before the match (a fixed
# string, not a pattern: awk's index()), so a problem reported on the same
# line would still be caught.
found=$(awk -v cl="$cmdline" '{
		if (cl != "" && (i = index($0, cl)) > 0)
			$0 = substr($0, 1, i - 1) substr($0, i + length(cl))
		print
	}' "$dmesg" | grep -E "$bad" | grep -vE "(^|\] )$vuln" || true)
# What each rule exempted goes to stderr, so that a passing boot's log
# still shows which rules matched (and a rule that never matches shows).
for a in "$@"; do
	n=$(printf '%s\n' "$found" | grep -cE -- "$a" || true)
	[ "$n" = 0 ] || echo "dmesg-check.sh: $n line(s) allowed by: $a" >&2
	found=$(printf '%s\n' "$found" | grep -vE -- "$a" || true)
done
[ -n "$found" ] || exit 0
printf '%s\n' "$found"
exit 1
