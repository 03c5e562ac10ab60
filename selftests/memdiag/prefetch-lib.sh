# SPDX-License-Identifier: GPL-2.0
# prefetch-lib.sh - what the prefetcher tests share (sourced after
# selftests/memdiag/lib.sh):
# the guest's layout, the sim's copy of MSR 0x1a4 and its fail_* switches.
#
# The guest has 8 CPUs in 2 sockets of 2 cores of 2 threads: CPUs 0-1,
# 2-3, 4-5, 6-7 share a core. Every core starts from its own non-zero
# original, poked into the sim, so that "restored" cannot be mistaken for
# "zeroed".

ko=${MEMDIAG_KO:?}
simko=${MEMDIAG_SIM_KO:?}
ncpus=$(nproc --all)

# the original values: CPUs of a core share one; each core has its own
orig=(0x8 0x8 0x4 0x4 0x2 0x2 0x1 0x1)

pf_reg() { reg msr "$1" 0x1a4; } # MSR 0x1a4 of CPU $1 as the sim holds it

pf_values() { # MSR 0x1a4 of every CPU, space separated
	local cpu out=
	for cpu in $(seq 0 $((ncpus - 1))); do
		out="$out $(pf_reg "$cpu")"
	done
	echo ${out# }
}

# expect NAME V0 V1 ... V7: MSR 0x1a4 of every CPU, as the sim holds it
expect() {
	local name=$1 cpu bad= want
	shift
	for cpu in $(seq 0 $((ncpus - 1))); do
		want=$(printf '0x%x' "$(($1))")
		shift
		[ "$(pf_reg "$cpu")" = "$want" ] || bad="$bad cpu$cpu=$(pf_reg "$cpu")(want $want)"
	done
	if [ -z "$bad" ]; then ok "$name"; else not_ok "$name" "$bad"; fi
}
originals() { expect "$1" "${orig[@]}"; }

pf_poke_originals() {
	local cpu
	for cpu in 0 2 4 6; do
		poke msr "$cpu" 0x1a4 "${orig[$cpu]}"
	done
}

# fault KIND TIMES [SKIP]: the next TIMES operations of KIND fail after
# SKIP succeed (fail_msr_addr takes one value); resets the hit count
fault() {
	echo "$2" > "$dbg/fail_$1"
	[ $# -lt 3 ] && return
	echo "$3" > "$dbg/fail_$1_skip"
	echo 0 > "$dbg/fail_$1_hit"
}

# hit KIND N: the fault of KIND fired N times since it was set
hit() {
	local got
	got=$(cat "$dbg/fail_$1_hit")
	if [ "$got" = "$2" ]; then
		ok "the injected $1 fault fired $2 time(s)"
	else
		not_ok "the injected $1 fault fired $2 time(s)" "it fired $got times"
	fi
}

pf_guest_check() {
	if [ "$ncpus" != 8 ] || [ "$(cat /sys/devices/system/cpu/cpu1/topology/thread_siblings_list)" != 0-1 ]; then
		not_ok "the guest has 8 CPUs in 2 sockets of 2 cores of 2 threads" \
			"$(grep . /sys/devices/system/cpu/cpu*/topology/thread_siblings_list)"
		return 1
	fi
}
