#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh - nlfuzz against memdiag on the simulated platform, inside a test
# VM: first the guided fuzzer's corpus replayed (each message answered as
# recorded), then random messages as root, then as nobody (with a root
# session running, so that the monitor group has something to send), then
# checks that the module still answers, that every register is what the
# sim says it should be (the prefetcher MSRs memdiag reports against the
# sim's own, each original recorded, and after restore and rmmod every
# control register as before the run), and run.sh checks dmesg. Prints TAP.
#
# Environment: MEMDIAG_KO, MEMDIAG_SIM_KO; MEMDIAG_FUZZ_COUNT messages in
# all (default 100000, half as root, half as nobody), MEMDIAG_FUZZ_SEED
# (default random; printed, with the command that repeats the run).
set -u
cd "$(dirname "$0")/../.." || exit 1
. selftests/memdiag/lib.sh

ko=${MEMDIAG_KO:?}
simko=${MEMDIAG_SIM_KO:?}
count=${MEMDIAG_FUZZ_COUNT:-100000}
seed=${MEMDIAG_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
fuzz=selftests/memdiag/nlfuzz
ncpus=$(nproc)
echo "# seed $seed, $count messages (repeat: MEMDIAG_FUZZ_SEED=$seed MEMDIAG_FUZZ_COUNT=$count)"

# a script before this one in the same guest may have died with them loaded
rmmod memdiag 2>/dev/null
rmmod memdiag_sim 2>/dev/null
if ! insmod "$simko" uarch=skx; then
	not_ok "insmod memdiag_sim uarch=skx"
	tap_end
	exit 1
fi
fuzz_preset
# a register never written reads 0, as one written back to 0 does
nonzero_controls() { sim_controls | awk '$4 != "0x0"'; }
nonzero_controls > /tmp/fuzz.before
check "insmod memdiag platform=sim" insmod "$ko" platform=sim

# the guided fuzzer's corpus (make fuzz-guided), recorded from these
# registers on a freshly loaded module: each message answered as then
subtest "nlfuzz replays selftests/memdiag/nlfuzz.corpus, each answer as recorded" \
	"$fuzz" --replay selftests/memdiag/nlfuzz.corpus

subtest "nlfuzz as root, seed $seed" "$fuzz" --seed "$seed" --count $((count / 2))

# a root session feeds the monitor group while nobody fuzzes
"$ctl" watch --interval 200ms > /dev/null 2>&1 &
w=$!
subtest "nlfuzz as nobody, seed $((seed + 1))" \
	"${nobody[@]}" "$fuzz" --seed $((seed + 1)) --count $((count - count / 2))
kill "$w"
wait "$w" 2>/dev/null

check "the module still answers: memdiagctl info" "$ctl" info

# What memdiag says of each prefetcher MSR is what the sim holds, and a
# changed one has its original (the poked value) recorded.
"$ctl" -j prefetch status > /tmp/fuzz-pf.json 2>&1
bad=
for cpu in $(seq 0 $((ncpus - 1))); do
	orig=$(printf '%d' "$(((cpu / 2) % 4 + 1))")
	sim=$(($(reg msr "$cpu" 0x1a4)))
	st=$(jq -c ".cpu_states[] | select(.cpu == $cpu) | [.value, .changed, .original]" /tmp/fuzz-pf.json)
	case "$st" in
	"[$sim,false,null]") [ "$sim" = "$orig" ] || bad="$bad cpu$cpu:unchanged-but-$sim" ;;
	# written and later set back to its original bits: the original
	# stays recorded (a restore is still owed) and nothing is changed
	"[$sim,false,$orig]") [ "$sim" = "$orig" ] || bad="$bad cpu$cpu:back-but-$sim" ;;
	"[$sim,true,$orig]") ;;
	*) bad="$bad cpu$cpu:sim=$sim,memdiag=$st,orig=$orig" ;;
	esac
done
if [ -z "$bad" ]; then
	ok "every prefetcher MSR is what memdiag reports, each change with its original"
else
	not_ok "every prefetcher MSR is what memdiag reports, each change with its original" "$bad" \
		"$(cat /tmp/fuzz-pf.json)"
fi

check "prefetch restore" "$ctl" prefetch restore
nonzero_controls > /tmp/fuzz.after
check "after the fuzz and a restore, every control register is as before" \
	diff /tmp/fuzz.before /tmp/fuzz.after
check "rmmod memdiag" rmmod memdiag
nonzero_controls > /tmp/fuzz.after
check "after rmmod, every control register is as before" \
	diff /tmp/fuzz.before /tmp/fuzz.after
check "rmmod memdiag_sim" rmmod memdiag_sim
tap_end
