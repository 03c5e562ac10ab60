# SPDX-License-Identifier: GPL-2.0
# scale-curve.sh - sourced by scale-check.sh (and its host test): reading
# a point off calibrate's read curve.

# curve_at SHOW_JSON GENERATORS IDLE_NS BANDWIDTH: the latency (ns) that
# calibrate --show -j's socket-0 read curve gives at BANDWIDTH GB/s, on
# its ascending branch: the points of GENERATORS threads from the longest
# delay on while their bandwidth rises, the idle latency at 0 GB/s before
# them (IDLE_NS; empty: none), linearly between the two points around
# BANDWIDTH. Prints nothing beyond the branch's peak, where the curve
# says nothing about that load.
curve_at() {
	jq -r --argjson g "$4" --argjson n "$2" --argjson idle "${3:-null}" '
		.sockets[0].curves | map(select(.read_fraction == 1))[0] |
		[.points[] | select(.threads == $n)] | sort_by(-.delay) |
		reduce .[] as $p ([];
			if length > 0 and .[-1].bandwidth_gbps >= $p.bandwidth_gbps
			then . else . + [$p] end) |
		(if $idle then [{bandwidth_gbps: 0, latency_ns: $idle}]
		 else [] end) + . |
		[range(1; length) as $k | [.[$k - 1], .[$k]] |
		 select(.[0].bandwidth_gbps <= $g and $g <= .[1].bandwidth_gbps)][0] //
		empty |
		.[0].latency_ns + (.[1].latency_ns - .[0].latency_ns) *
		($g - .[0].bandwidth_gbps) / (.[1].bandwidth_gbps - .[0].bandwidth_gbps)
	' "$1" 2>/dev/null
}
