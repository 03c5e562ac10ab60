#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# counter-free.sh WHY - what "make run" shows where memdiag's counters are out
# of reach (WHY says why: a VM, no module loading): this machine's idle DRAM
# latency and its counter-free bandwidth-latency curve (calibrated with
# --quick the first time, or when the stored one is another machine's, and
# reused afterwards), a few probe samples, and what the module adds where
# it runs. Everything here is measured on this machine's real memory by
# memdiag's own kernels; nothing is read from a counter.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/userspace/memdiagctl

echo "run: $1: memdiag's counters are out of reach here"
echo "run: counter-free mode: latency from a pointer chase, bandwidth from the traffic kernels' own byte counts"
# a probe without an estimate says why: no curve, or a stale one; a curve
# of an older memdiagctl was never judged, so it is measured again
if "$bin" -j probe --count 1 2> /dev/null |
	jq -e '.estimate_reason == null' > /dev/null &&
	"$bin" -j calibrate --show 2> /dev/null |
	jq -e '.sockets[0].quality != null' > /dev/null; then
	echo "run: the stored curve (remove it or run 'memdiagctl calibrate' to remeasure):"
	"$bin" calibrate --show
else
	echo "run: no curve of this machine yet: 'memdiagctl calibrate --quick' (once; later runs reuse it)"
	"$bin" calibrate --quick
fi
echo
"$bin" probe --count 5
echo "run: the curve's own checks are above ('check:', 'quality:'); a probe label is"
echo "run: \"unknown\" where the curve is unreliable or a sample is too noisy to tell"
# what the module supports and this processor's place in it, from the
# module's own table
. "$top/scripts/run-plan.sh"
echo
run_closing "$("$top/scripts/hw-status.sh")"
