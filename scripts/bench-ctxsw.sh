#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench-ctxsw.sh - the cost of the core estimate (DRAM bytes per cgroup)
# at context switches, on the simulated platform in a QEMU/TCG guest of
# each kernel given (default: the newest stock one): medians of the
# trials of selftests/memdiag/ctxsw-cost.sh, the time it adds per switch
# that changes cgroup, and the ratio. A benchmark: under TCG and the
# sim's locked counter, the absolute numbers are not a machine's; the
# ratio bounds what the probe adds there. Part of "make bench".
#
# Usage: scripts/bench-ctxsw.sh [KVER...]   (CTXSW_TRIALS, CTXSW_LOOPS)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ $# -gt 0 ] || set -- "$(scripts/kernels.sh | grep -v -- '-rt-' | sort -V | tail -1)"
make -s -C selftests > /dev/null
for k in "$@"; do
	[ -f "build/$k/memdiag.ko" ] || scripts/build-module.sh "$k" > /dev/null
	out=$(mktemp)
	echo "bench-ctxsw: $k: booting a guest (a few minutes)" >&2
	selftests/vm/run.sh --kernel "$k" --smp 4,sockets=2,cores=2 --timeout 900 \
		--env "MEMDIAG_KO=build/$k/memdiag.ko" \
		--env "MEMDIAG_SIM_KO=build/$k/memdiag_sim.ko" \
		--env "CTXSW_TRIALS=${CTXSW_TRIALS:-5}" \
		--env "CTXSW_LOOPS=${CTXSW_LOOPS:-20000}" \
		-- selftests/memdiag/ctxsw-cost.sh > "$out" || {
		cat "$out" >&2
		echo "bench-ctxsw: $k: the guest failed" >&2
		rm -f "$out"
		exit 1
	}
	awk -v k="$k" '
		function median(a, n,   i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
					t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
				}
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		$1 == "trial" { n++; off[n] = $4; on[n] = $6 }
		$1 == "same-cgroup" { soff = $3; son = $5 }
		END {
			if (!n) { print "bench-ctxsw: " k ": no trial ran"; exit 1 }
			mo = median(off, n); mn = median(on, n)
			printf "%s, sim in a TCG guest, %d trials (medians):\n", k, n
			printf "  round trip between two cgroups: %.0f ns without, %.0f ns with groups (ratio %.3f)\n", mo, mn, mn / mo
			printf "  added per context switch that changes cgroup: %.0f ns\n", (mn - mo) / 2
			printf "  one cgroup (the probe only compares): %.0f ns without, %.0f ns with (ratio %.3f)\n", soff, son, son / soff
		}' "$out"
	rm -f "$out"
done
